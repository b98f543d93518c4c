"""A still's crops read in worker processes (vision.mat.pool): the same
observations as read in the frame's own process, a worker's death costs no
frame, and the mat camera's ``crop_workers`` key."""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cv2")

from controller.config import ConfigError, describe, load_config
from controller.games.tiddlywinks.camera import MatCamera
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import calibrate_mat
from vision.mat.closer import Still
from vision.mat.model import MatObservation
from vision.mat.pool import CropPool, default_workers
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import MatScene, TrueWink, random_scene
from vision.mat.winks import Found, Picture, find_winks
from vision.model import Frame
from vision.settings import CameraSettings, SourceKind

EXAMPLE = Path(__file__).resolve().parent.parent / "config" / "tiddlywinks-camera.toml"

PILES = MatScene((
    TrueWink("b1", 100.0, 50.0), TrueWink("r3", 108.0, 58.0, level=1),
    TrueWink("g1", -300.0, 0.0), TrueWink("y3", -292.0, 8.0, level=1),
    TrueWink("r1", 400.0, -150.0), TrueWink("b3", 392.0, -142.0, level=1),
    TrueWink("y1", 422.5, -150.0),
    TrueWink("g2", -100.0, 250.0), TrueWink("b2", -90.0, 262.0, level=1),
    TrueWink("y4", -82.0, 252.0, level=2),
))  # fmt: skip
"""Four piles (two of two, one of two touching a third, one of three): four
crops in the first round, of one to three fits."""


def _frame(seed: int, scene: MatScene) -> tuple[MatAnalyser, Frame, Still]:
    rig = MatRig.make(seed=seed)
    frame = render(rig, scene, seed=seed)

    def still(box: tuple[int, int, int, int]) -> Frame:
        return render(rig.still(box), scene, seed=seed + 100_000)

    return MatAnalyser(calibrate_mat(frame)), frame, still


def _both(seed: int, scene: MatScene, pool: CropPool) -> tuple[MatObservation, MatObservation]:
    """The frame analysed with its crops read here, then in ``pool``."""
    analyser, frame, still = _frame(seed, scene)
    serial = analyser.analyse(frame, still)
    analyser.pool = pool
    return serial, analyser.analyse(frame, still)


@pytest.fixture(scope="module")
def pool() -> Iterator[CropPool]:
    with CropPool(2) as p:
        p.start()
        yield p


def test_pooled_reads_equal_serial_ones_field_for_field(pool: CropPool) -> None:
    # the same piles under three rigs, and two of the benchmark's tuning frames
    # with piles, the crops handed to two workers
    cases = [(5, PILES), (11, PILES), (23, PILES)]
    cases += [(s, random_scene(np.random.default_rng(s))) for s in (40005, 40012)]
    before = pool.handed
    for seed, scene in cases:
        serial, pooled = _both(seed, scene, pool)
        assert len(serial.winks) >= 4
        assert any(w.on for w in serial.winks)  # squops read: the crops were looked at
        assert pooled == serial, seed
    assert pool.handed > before  # workers read some of them
    assert pool.failures == 0


def test_one_crop_is_read_here_without_the_pool(pool: CropPool) -> None:
    one = MatScene((TrueWink("b1", 100.0, 50.0), TrueWink("r3", 108.0, 58.0, level=1)))
    before = pool.handed
    serial, pooled = _both(5, one, pool)
    assert pooled == serial and [w for w in pooled.winks if w.on]
    assert pool.handed == before


def test_a_dead_worker_costs_no_frame(caplog: pytest.LogCaptureFixture) -> None:
    """Workers killed (the OOM killer, say): the frame's crops are read in
    its own process, the same observation, a warning in the log; the next
    frame has a new pool."""
    analyser, frame, still = _frame(5, PILES)
    serial = analyser.analyse(frame, still)
    others = set(multiprocessing.active_children())
    with CropPool(2) as pool:
        pool.start()
        workers = [p for p in multiprocessing.active_children() if p not in others]
        assert len(workers) == 2
        _kill(set(workers))
        analyser.pool = pool
        with caplog.at_level(logging.WARNING, logger="vision.mat.pool"):
            assert analyser.analyse(frame, still) == serial
        assert pool.failures == 1 and "mat crop pool broke" in caplog.text
        handed = pool.handed
        assert analyser.analyse(frame, still) == serial
        assert pool.handed > handed and pool.failures == 1


def _kill(workers: set[multiprocessing.process.BaseProcess]) -> None:
    """SIGKILL each worker and wait for it. Once one dies the executor ends
    the others itself, so one may be gone before it is reached."""
    for p in workers:
        assert p.pid is not None
        with contextlib.suppress(ProcessLookupError):
            os.kill(p.pid, signal.SIGKILL)
        p.join(5)
        assert not p.is_alive()


def test_the_pot_view_is_read_by_a_worker_the_same_field_for_field(pool: CropPool) -> None:
    # tuning frames with potted winks (5 and 2 in the pot), and a pile of two
    # beside the pot's winks: one crop, read here, so only the view is handed
    one = MatScene((TrueWink("b1", 100.0, 50.0), TrueWink("r3", 108.0, 58.0, level=1),
                    TrueWink("g1", 0.0, 0.0, potted=True),
                    TrueWink("y3", 4.0, 3.0, level=1, potted=True)))  # fmt: skip
    cases = [(s, random_scene(np.random.default_rng(s))) for s in (40005, 40012)] + [(5, one)]
    for seed, scene in cases:
        jobs, handed = pool.jobs, pool.handed
        serial, pooled = _both(seed, scene, pool)
        assert serial.pot is not None and sum(serial.pot.potted.values()) >= 1, seed
        assert serial.pot.areas and any(serial.pot.areas.values())
        assert pooled.pot == serial.pot and pooled == serial, seed
        assert pool.jobs == jobs + 1  # the view, read by a worker
    assert pool.handed == handed and pool.failures == 0  # the last frame's one crop: read here


def test_a_worker_killed_while_it_holds_the_pot_view_costs_no_frame(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker dies after the view is handed to it, while the frame's
    process reads the video: the view (and the crops) read here, the same
    observation, one failure logged once; the next frame has a new pool."""
    analyser, frame, still = _frame(5, PILES)
    serial = analyser.analyse(frame, still)
    others = set(multiprocessing.active_children())

    def killing(picture: Picture) -> Found:
        _kill(set(multiprocessing.active_children()) - others)
        return find_winks(picture)

    with CropPool(1) as pool:
        pool.start()
        analyser.pool = pool
        monkeypatch.setattr("vision.mat.analyse.find_winks", killing)
        with caplog.at_level(logging.WARNING, logger="vision.mat.pool"):
            assert analyser.analyse(frame, still) == serial
        assert pool.failures == 1 and caplog.text.count("mat crop pool broke") == 1
        monkeypatch.undo()
        assert analyser.analyse(frame, still) == serial
        assert pool.jobs == 1 and pool.handed > 0 and pool.failures == 1


def test_work_whose_worker_dies_is_done_here(caplog: pytest.LogCaptureFixture) -> None:
    others = set(multiprocessing.active_children())
    with CropPool(1) as pool:
        pool.start()
        handed = pool.hand(functools.partial(time.sleep, 0.5))  # the worker busy with it
        time.sleep(0.1)
        _kill(set(multiprocessing.active_children()) - others)
        with caplog.at_level(logging.WARNING, logger="vision.mat.pool"):
            t0 = time.perf_counter()
            assert pool.collect(handed) is None
            assert time.perf_counter() - t0 >= 0.5  # done here
        assert pool.failures == 1 and "mat crop pool broke" in caplog.text and pool.jobs == 0
        assert pool.collect(pool.hand(functools.partial(divmod, 7, 2))) == (3, 1)
        assert pool.jobs == 1 and pool.failures == 1  # a new pool took it


def test_no_workers_reads_every_crop_here() -> None:
    with CropPool(0) as pool:
        serial, pooled = _both(11, PILES, pool)
        assert pooled == serial and pool.handed == 0 and pool.serial
    assert default_workers(2) == 1 and default_workers(1) == 0 and default_workers(8) == 3
    with pytest.raises(ValueError, match="workers must be 0 to 16"):
        CropPool(17)


def _config(tmp_path: Path, line: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace("settle_ms = 400", f"settle_ms = 400\n{line}")
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("value", "want"), [("0", 0), ("2", 2), ("16", 16)])
def test_crop_workers_is_read_from_the_mat_camera(tmp_path: Path, value: str, want: int) -> None:
    camera = load_config(_config(tmp_path, f"crop_workers = {value}")).camera
    assert camera is not None and camera.crop_workers == want
    assert load_config(EXAMPLE).camera.crop_workers is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("value", "says"),
    [("-1", "at least 0"), ("17", "at most 16"), ('"two"', "integer"), ("true", "integer"),
     ("2.0", "integer")],
)  # fmt: skip
def test_a_bad_crop_workers_is_refused_naming_key_and_file(
    tmp_path: Path, value: str, says: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(_config(tmp_path, f"crop_workers = {value}"))
    text = str(info.value)
    assert "table.toml" in text and "crop_workers" in text and says in text


def test_crop_workers_is_the_mat_cameras_only(tmp_path: Path) -> None:
    path = tmp_path / "coin.toml"
    path.write_text(
        '[table]\nvenue = "a"\nid = "t1"\ngame = "heads-and-tails"\n'
        '[match]\nplayers = ["ann", "ben"]\nplays = 2\n'
        '[camera]\nsource = "v4l2"\ncrop_workers = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"crop_workers.*only for a tiddlywinks table"):
        load_config(path)


def test_the_mat_camera_makes_its_pool_from_the_key(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, "crop_workers = 0"))
    assert "read by the service alone" in describe(config)
    for workers, want in ((0, 0), (2, 2), (None, default_workers())):
        settings = CameraSettings(SourceKind.SYNTHETIC, "", crop_workers=workers)
        camera = MatCamera(settings)
        assert camera.pool.workers == want
        camera.close()


def test_after_three_broken_pools_every_crop_is_read_here(caplog: pytest.LogCaptureFixture) -> None:
    analyser, frame, still = _frame(11, PILES)
    serial = analyser.analyse(frame, still)
    with CropPool(1) as pool:
        analyser.pool = pool
        for n in range(1, 4):
            others = set(multiprocessing.active_children())
            pool.start()
            _kill(set(multiprocessing.active_children()) - others)
            with caplog.at_level(logging.WARNING, logger="vision.mat.pool"):
                assert analyser.analyse(frame, still) == serial
            assert pool.failures == n
        assert pool.serial and "from now on" in caplog.text
        handed = pool.handed
        assert analyser.analyse(frame, still) == serial and pool.handed == handed
