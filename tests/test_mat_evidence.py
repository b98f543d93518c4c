"""Evidence stills of the mat camera: each shot's and squidge-off's still
beside the journal, named in the inputs, the record and the rulings; a
replay needs none of them; a still that cannot be written stops nothing."""

from __future__ import annotations

import dataclasses
import logging
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from controller.games.tiddlywinks import camera_evidence  # noqa: E402
from controller.games.tiddlywinks.camera_evidence import (  # noqa: E402
    BACKLOG,
    LONG_SIDE,
    Evidence,
    encode_jpeg,
)
from controller.games.tiddlywinks.engine import TiddlywinksEngine  # noqa: E402
from controller.games.tiddlywinks.events import Shot, Sighting, Squidge  # noqa: E402
from controller.games.tiddlywinks.record import record_json  # noqa: E402
from controller.games.tiddlywinks.state import Format, Settings  # noqa: E402
from controller.model import RulingKind  # noqa: E402
from tests.test_mat_live import Table, _replays  # noqa: E402
from vision.mat.synth.lineup import squidge_run  # noqa: E402
from vision.model import Frame  # noqa: E402


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    table = Table(tmp_path, monkeypatch)
    try:
        table.start_play()
        table.at(3.0)
        yield table
    finally:
        table.close()


def test_a_shots_still_is_kept_beside_the_journal_and_named_everywhere(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[bool] = []
    monkeypatch.setattr(table.source, "close", lambda: closed.append(True))
    stopped = table.slide("b1", (-300.0, 60.0), 3.0)
    table.at(stopped + 1.0)
    (shot,) = table.inputs("shot")
    record: Any = record_json(table.service.runtime.state, [], table.service.runtime.origin_ns)
    table.close()  # the service's shutdown writes what waits and releases the camera
    assert closed == [True]
    path = shot["evidence"]
    assert path.startswith("journal-evidence/shot-") and path.endswith(".jpg")
    image = cv2.imread(str(tmp_path / path))
    assert image is not None and image.shape == (720, 1280, 3)
    assert record["shots"][0]["evidence"] == path
    assert not list((tmp_path / "journal-evidence").glob(".*"))  # no temporary file left
    shutil.move(tmp_path / "journal-evidence", tmp_path / "elsewhere")
    assert _replays(tmp_path) >= 3  # the replay reads no picture


def test_the_button_keeps_its_still_too(table: Table) -> None:
    table.show(b1=(-420.0, 20.0))
    table.press(3.05)
    (shot,) = table.inputs("shot")
    assert shot["evidence"].startswith("journal-evidence/shot-")


def test_a_still_that_cannot_be_written_is_counted_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "journal-evidence").write_text("not a folder")
    table = Table(tmp_path, monkeypatch)
    try:
        table.start_play()
        stopped = table.slide("b1", (-300.0, 60.0), 3.0)
        table.at(stopped + 1.0)
        shots = table.inputs("shot")
        camera: Any = table.service.camera
    finally:
        table.close()
    assert len(shots) == 1 and "evidence" not in shots[0]
    assert camera.evidence.failures == 1
    assert _replays(tmp_path) >= 3


def test_the_squidge_off_keeps_its_still_in_the_ruling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = squidge_run(np.random.default_rng(53))
    table = Table(tmp_path, monkeypatch)
    try:
        table.source.show(run.before)
        table.at(0.5)
        table.source.show(run.after)
        table.at(2.0)
        rulings = table.rulings()
        (squidge,) = table.inputs("squidge")
    finally:
        table.close()
    (off,) = [r for r in rulings if r["kind"] == "squidge_off"]
    assert off["evidence"] == squidge["evidence"]
    assert (tmp_path / squidge["evidence"]).is_file()
    assert squidge["evidence"].startswith("journal-evidence/squidge-")
    shutil.move(tmp_path / "journal-evidence", tmp_path / "elsewhere")
    assert _replays(tmp_path) == 1


def test_a_large_still_is_shrunk_to_the_long_side_and_written_atomically(tmp_path: Path) -> None:
    big = np.zeros((1458, 2592, 3), np.uint8)
    decoded = cv2.imdecode(np.frombuffer(encode_jpeg(big), np.uint8), cv2.IMREAD_COLOR)
    assert max(decoded.shape[:2]) == LONG_SIDE and decoded.shape[:2] == (1080, 1920)
    ev = Evidence(tmp_path / "j.sqlite")
    assert ev.save("shot", 7, Frame(big)) == "j-evidence/shot-7.jpg"
    ev.close()
    assert sorted(p.name for p in (tmp_path / "j-evidence").iterdir()) == ["shot-7.jpg"]
    assert (ev.saved, ev.failures) == (1, 0)


class _Held:
    """``encode_jpeg`` held on the writer thread until :meth:`release`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> None:
        self.go = threading.Event()
        self.entered = threading.Event()
        self.fail = fail
        monkeypatch.setattr(camera_evidence, "encode_jpeg", self._encode)

    def _encode(self, image: np.ndarray) -> bytes:
        self.entered.set()
        assert self.go.wait(10), "never released"
        if self.fail:
            raise OSError("No space left on device")
        return encode_jpeg(image)

    def release(self) -> None:
        self.go.set()


def test_save_names_the_still_at_once_and_writes_it_off_the_service_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = _Held(monkeypatch)
    ev = Evidence(tmp_path / "j.sqlite")
    try:
        path = ev.save("shot", 7, Frame(np.zeros((72, 128, 3), np.uint8)))
        assert path == "j-evidence/shot-7.jpg"
        assert held.entered.wait(10)  # the writer has it, and the caller has its path already
        assert not (tmp_path / "j-evidence" / "shot-7.jpg").exists()
    finally:
        held.release()
        ev.close()  # the service's shutdown: waits for the still
    assert [p.name for p in (tmp_path / "j-evidence").iterdir()] == ["shot-7.jpg"]
    assert (ev.saved, ev.failures) == (1, 0)


def test_a_writer_that_falls_behind_keeps_a_bounded_backlog_and_counts_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = _Held(monkeypatch)
    ev = Evidence(tmp_path / "j.sqlite")
    still = Frame(np.zeros((72, 128, 3), np.uint8))
    try:
        paths = [ev.save("shot", n, still) for n in range(BACKLOG + 2)]
    finally:
        held.release()
        ev.close()
    assert all(paths[:BACKLOG]) and paths[BACKLOG:] == ["", ""]
    assert (ev.saved, ev.failures) == (BACKLOG, 2)
    assert len(list((tmp_path / "j-evidence").glob("shot-*.jpg"))) == BACKLOG


def test_a_failed_write_on_the_writer_thread_is_logged_by_name_and_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    held = _Held(monkeypatch, fail=True)
    ev = Evidence(tmp_path / "j.sqlite")
    with caplog.at_level(logging.WARNING):
        path = ev.save("squidge", 9, Frame(np.zeros((72, 128, 3), np.uint8)))
        held.release()
        ev.flush(10)
        ev.close()
    assert path == "j-evidence/squidge-9.jpg"  # named before the write failed
    assert (ev.saved, ev.failures) == (0, 1)
    assert list((tmp_path / "j-evidence").iterdir()) == []
    assert any("squidge-9.jpg" in r.getMessage() and "No space" in r.getMessage()
               for r in caplog.records)  # fmt: skip


def test_the_engine_names_the_still_in_rulings_and_the_record() -> None:
    engine = TiddlywinksEngine()
    state = engine.start(Settings(Format.SINGLES, ("ann", "ben", "ann", "ben")))
    far = {"b1": (0.0, 100.0), "g1": (300.0, 0.0), "r1": (0.0, -300.0), "y1": (-300.0, 0.0)}
    winks = tuple(Sighting(i, x, y) for i, (x, y) in far.items())
    state, out = engine.step(state, Squidge(t_ns=1, winks=winks, evidence="e/squidge-1.jpg"))
    assert dict(out[0].extra)["evidence"] == "e/squidge-1.jpg"
    wrong = Shot(t_ns=2, winks=(Sighting("g1", 200.0, 0.0),), wink="g1", evidence="e/shot-2.jpg")
    state, out = engine.step(state, wrong)  # blue's turn: green played, 12(b)
    (foul,) = [d for d in out if d.kind is RulingKind.FOUL]
    assert "e/shot-2.jpg" in foul.detail
    assert state.shots[-1].evidence == "e/shot-2.jpg"
    assert dataclasses.replace(wrong, evidence="") != wrong
