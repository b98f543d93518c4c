"""bench.vision_time's clocks: the CPU clock leaves out time spent waiting
(for a CPU, on a loaded machine; here, asleep), the wall clock counts it.
Its ``rimflat`` scene reaches the rim band's silhouette."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench import vision_time
from bench.vision_time import CLOCKS, RIM_SCENE, SCENES, _samples, rig_scene, whole
from vision.model import Frame, Posture
from vision.silhouette import Segmented, segment_outlines


def test_the_cpu_clock_leaves_out_waiting_and_the_wall_clock_counts_it() -> None:
    def work_then_wait() -> None:
        end = time.process_time() + 0.02
        while time.process_time() < end:  # 20 ms of work
            pass
        time.sleep(0.05)  # 50 ms of waiting

    wall = _samples(work_then_wait, 3, CLOCKS["wall"])
    cpu = _samples(work_then_wait, 3, CLOCKS["cpu"])
    assert len(wall) == len(cpu) == 3
    assert min(wall) >= 0.07
    assert all(0.02 <= t < 0.045 for t in cpu)


def test_the_rim_scene_is_a_flat_coin_whose_classify_takes_the_silhouette(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (A clean flat coin takes no silhouette for its posture; this one takes
    # it for the rim band only, which is the time the scene is there to show.)
    taken = []

    def counted(*args: Any, **kwargs: Any) -> Segmented | None:
        taken.append(1)
        return segment_outlines(*args, **kwargs)

    monkeypatch.setattr("vision.halves.segment_outlines", counted)
    _, rig_seed, landing = RIM_SCENE
    analyser, empty, preview, still, empty_still = rig_scene(rig_seed, landing)
    cands = analyser.candidates(preview, empty)
    on_sensor = [[cands[0].x + preview.origin[0], cands[0].y + preview.origin[1]]]

    x, y = analyser.calibration.to_floor(np.array(on_sensor), preview.full_size)[0]
    seen = analyser._judge(still, float(x), float(y), [], empty, empty_still)
    assert seen is not None and seen.posture is Posture.FLAT
    assert taken == [1]
    # --full-frame: the same still as the whole sensor frame reads the same.
    whole_still = whole(still)  # (~400 MB: made once)
    assert whole_still.size == still.full_size
    big = analyser._judge(whole_still, float(x), float(y), [], empty, whole(empty_still))
    assert big is not None
    assert (big.face, big.posture) == (seen.face, seen.posture)
    # (Not bit-equal: OpenCV's warp rounds its sample positions in fixed point
    # counted from the image's corner, which the window's origin moves.)
    assert big.coin_px == pytest.approx(seen.coin_px, abs=0.05), (big.coin_px, seen.coin_px)


def test_whole_puts_the_window_at_its_place_on_the_sensor() -> None:
    window = np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3)
    frame = whole(Frame(window, t_ns=7, origin=(3, 2), sensor=(10, 8)))
    assert frame.size == (10, 8) and frame.origin == (0, 0) and frame.sensor is None
    assert (frame.image[2:6, 3:8] == window).all()
    assert (frame.image[0, 0] == window[0, 0]).all()  # the edge repeated
    assert (frame.image[7, 9] == window[3, 4]).all()
    assert frame.t_ns == 7
    assert whole(frame) is frame  # already whole


def test_against_writes_nothing_into_the_other_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bench once copied itself into the tree it was compared against,
    # overwriting that tree's own bench/vision_time.py (a helper's run
    # against /work/main reverted the lead's uncommitted change to it).
    other = tmp_path / "other"
    (other / "vision").mkdir(parents=True)
    (other / "vision" / "__init__.py").write_text("")
    before = sorted(p.relative_to(other) for p in other.rglob("*"))
    runs = []

    def fake_worker(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        runs.append((Path(cmd[1]), Path(kw["env"]["PYTHONPATH"]), Path(cmd[1]).is_file()))
        steps = {"locate": [0.001], "classify": [0.002], "whole": [0.003]}
        out = json.dumps(dict.fromkeys([*SCENES, RIM_SCENE[0]], steps))
        return subprocess.CompletedProcess(cmd, 0, stdout=out + "\n", stderr="")

    monkeypatch.setattr("bench.vision_time.subprocess.run", fake_worker)
    monkeypatch.setattr(sys, "argv", ["vision_time", "--against", str(other), "--rounds", "1"])
    vision_time.main()
    assert sorted(p.relative_to(other) for p in other.rglob("*")) == before
    here = Path(vision_time.__file__).resolve().parent.parent
    assert {path for _, path, _ in runs} == {other.resolve(), here}
    for script, tree, existed in runs:
        assert existed and not script.is_relative_to(tree)  # a copy beside no vision/
    assert "| flat | classify | 2.00 / 2.00 | 2.00 / 2.00 |" in capsys.readouterr().out


def test_against_a_folder_without_vision_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["vision_time", "--against", str(tmp_path)])
    with pytest.raises(SystemExit):
        vision_time.main()
    assert "no vision/ package there" in capsys.readouterr().err
