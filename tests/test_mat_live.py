"""The mat camera in the live service (``tableref run`` on a tiddlywinks
table), on a SimClock: rendered mats stand in for the camera and a fake edge
source for the shot button's line; everything else (the pipeline, the
service loop, the settle detector, the mat analysis, the engine, the journal)
is the live code."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cv2")

from controller.config import ConfigError, load_config
from controller.games.tiddlywinks import camera as mat_camera
from controller.games.tiddlywinks.record import record_json
from controller.journal import open_readonly
from controller.replay import compare, rebuild
from controller.sensors.fake import FakeEdgeSource
from controller.service import TableService
from controller.timebase import SimClock
from vision.mat.layout import MatLayout
from vision.mat.source import MatSource
from vision.mat.synth.scene import MatScene, TrueWink
from vision.settings import CameraSettings

S = 1_000_000_000
START = 40 * S
CONFIG = """
[table]
venue = "hall"
id = "t7"
game = "tiddlywinks"
journal = "journal.sqlite"

[match]
format = "singles"
players = ["ann", "ben"]

[hardware]
backend = "gpio"

[sensors]
pin_factory = "mock"

[[sensors.line]]
role = "shot"
pin = 5

[camera]
source = "synthetic"
seed = 21
resolution = [1280, 720]
preview = [640, 360]
"""
SQUIDGE = [{"id": "b1", "x": 100.0, "y": 0.0}, {"id": "g1", "x": 0.0, "y": 300.0},
           {"id": "r1", "x": -300.0, "y": 0.0}, {"id": "y1", "x": 0.0, "y": -300.0}]  # fmt: skip
SET_UP = {"b1": (-500.0, 100.0), "g1": (250.0, -120.0), "r4": (-80.0, 200.0)}


class Table:
    """A tiddlywinks service with a rendered mat for a camera, driven by hand."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch, config: str = CONFIG):
        (folder / "table.toml").write_text(config, encoding="utf-8")
        self.config = load_config(folder / "table.toml")
        self.source = MatSource.from_seed(21, MatLayout(), (640, 360))
        self.places = dict(SET_UP)

        def open_source(settings: CameraSettings, spec: Any = None) -> MatSource:
            return self.source

        monkeypatch.setattr(mat_camera, "open_mat_source", open_source)
        self.clock = SimClock(start_ns=START, wall_at_start=1_000_000.0)
        self.edges = FakeEdgeSource.for_lines(self.config.sensors.lines)
        self.service = TableService(self.config, clock=self.clock, edge_source=self.edges)
        self._open = True

    def close(self) -> None:
        if self._open:
            self._open = False
            self.service.close()

    def at(self, t: float) -> None:
        """Run the loop to match time ``t``, waking at every deadline (10 Hz polls)."""
        target = START + round(t * S)
        while (wake := self.service.next_wake()) is not None and wake <= target:
            self.clock.advance_to(max(wake, self.clock.mono_ns()))
            self.service.step_once(0)
        self.clock.advance_to(target)
        self.service.step_once(0)

    def cmd(self, verb: str, **fields: Any) -> None:
        self.service.submit_command(verb, json.dumps({"cmd_id": verb, **fields}).encode())
        self.service.step_once(0)
        self.service.step_once(0)

    def show(self, **moved: tuple[float, float]) -> None:
        """The winks lie here now (the camera sees it from its next frame)."""
        self.places.update(moved)
        self.source.show(MatScene(tuple(TrueWink(w, x, y) for w, (x, y) in self.places.items())))

    def slide(self, wink: str, end: tuple[float, float], t: float, steps: int = 3) -> float:
        """``wink`` slides to ``end``, a step per preview frame from ``t``."""
        x0, y0 = self.places[wink]
        for k in range(1, steps + 1):
            f = k / steps
            self.at(t + 0.1 * (k - 1))
            self.show(**{wink: (x0 + f * (end[0] - x0), y0 + f * (end[1] - y0))})
        return t + 0.1 * steps

    def press(self, t: float) -> None:
        """The shot button (to ground: low while pressed), held 0.1 s."""
        self.at(t)
        self.edges.push("shot", False, START + round(t * S))
        self.service.step_once(0)
        self.at(t + 0.1)
        self.edges.push("shot", True, START + round((t + 0.1) * S))
        self.service.step_once(0)

    def start_play(self) -> None:
        """The squidge-off (blue wins), then the set-up placed by hand."""
        self.cmd("squidge", winks=SQUIDGE)
        self.at(1.0)
        self.show()
        winks = [{"id": w, "x": x, "y": y} for w, (x, y) in SET_UP.items()]
        self.cmd("place", winks=winks, reason="set up")

    def inputs(self, kind: str) -> list[dict[str, Any]]:
        return [i.payload for i in self.service.journal.inputs() if i.kind == kind]

    def rulings(self) -> list[dict[str, Any]]:
        return list(self.service.journal.rulings())


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    """A table in play: the squidge-off done, the set-up placed by hand."""
    table = Table(tmp_path, monkeypatch)
    try:
        table.start_play()
        table.at(3.0)
        yield table
    finally:
        table.close()


def _winks(payload: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {w["id"]: (w["x"], w["y"]) for w in payload["winks"] if "x" in w}


def _replays(folder: Path) -> int:
    """``tableref replay``: the journal's inputs give the journal's rulings;
    how many there are."""
    reader = open_readonly(folder / "journal.sqlite")
    try:
        replayed: list[Any] = []
        assert rebuild(list(reader.inputs()), "t7", "j", sinks=[replayed.append]) is not None
        compare(replayed, reader.rulings(), "j")  # raises on any difference
        assert len(replayed) == len(reader.rulings())
        return len(replayed)
    finally:
        reader.close()


def test_a_shot_ends_when_the_mat_settles_and_is_recorded_before_and_after(
    table: Table, tmp_path: Path
) -> None:
    assert table.inputs("shot") == []  # the winks placed by hand moved on camera: no shot
    stopped = table.slide("b1", (-300.0, 60.0), 3.0)
    table.at(stopped + 1.0)
    shots = table.inputs("shot")
    record: Any = record_json(table.service.runtime.state, [], table.service.runtime.origin_ns)
    table.close()
    assert len(shots) == 1
    seen = _winks(shots[0])
    assert seen["b1"] == pytest.approx((-300.0, 60.0), abs=1.0)
    assert seen["g1"] == pytest.approx(SET_UP["g1"], abs=1.0)
    (shot,) = record["shots"]
    before = {w["id"]: (w["x"], w["y"]) for w in shot["before"]}
    after = {w["id"]: (w["x"], w["y"]) for w in shot["after"]}
    assert before["b1"] == SET_UP["b1"] and after["b1"] == pytest.approx((-300, 60), abs=1.0)
    assert shot["colour"] == "blue"
    # the shot ended 4 frames (400 ms) after the last move, in match time
    assert shot["at"] == pytest.approx(stopped - 0.1 + 0.4, abs=0.11)
    assert _replays(tmp_path) >= 3


def test_the_shot_button_ends_a_shot_at_once(table: Table, tmp_path: Path) -> None:
    table.show(b1=(-420.0, 20.0))  # blue's shot: the wink lands at once
    table.press(3.05)
    pressed = table.inputs("shot")
    table.at(5.0)  # the camera saw the motion settle too: no second shot
    after = table.inputs("shot")
    turn = table.service.engine.snapshot(table.service.runtime.state)["turn"]
    table.close()
    assert len(pressed) == 1 and len(after) == 1
    assert _winks(pressed[0])["b1"] == pytest.approx((-420.0, 20.0), abs=1.0)
    assert turn == "green"
    assert _replays(tmp_path) >= 3


def test_a_camera_failing_mid_game_suspends_and_recovers(table: Table, tmp_path: Path) -> None:
    table.source.fail = True
    table.at(3.5)
    lost = [r for r in table.rulings() if r["kind"] == "suspended"]
    # shots still come by command while the camera is away
    table.cmd("shot", winks=[{"id": "b1", "x": -450.0, "y": 90.0}])
    table.show(b1=(-450.0, 90.0))
    table.at(5.0)
    table.source.fail = False
    table.at(5.5)
    health = [i for i in table.inputs("health") if i["sensor"] == "camera"]
    table.slide("g1", (200.0, -60.0), 6.0)
    table.at(8.0)
    shots = table.inputs("shot")
    table.close()
    assert len(lost) == 1
    assert "camera" in lost[0]["detail"] and "unplugged" in lost[0]["detail"]
    assert [h["ok"] for h in health] == [False, True]
    assert len(shots) == 2 and _winks(shots[1])["g1"] == pytest.approx((200.0, -60.0), abs=1.0)
    assert _replays(tmp_path) >= 3


def test_a_camera_missing_at_start_up_is_a_health_fault_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = MatSource.__init__

    def unplugged(self: MatSource, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.fail = True

    monkeypatch.setattr(MatSource, "__init__", unplugged)
    table = Table(tmp_path, monkeypatch)
    try:
        suspended = [r for r in table.rulings() if r["kind"] == "suspended"]
        table.start_play()
        table.press(2.0)  # no still to take: no shot, no crash
        shots = table.inputs("shot")
    finally:
        table.close()
    assert len(suspended) == 1 and "camera" in suspended[0]["detail"]
    assert shots == []


def test_a_shot_line_needs_a_camera(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(CONFIG[: CONFIG.index("[camera]")], encoding="utf-8")
    with pytest.raises(ConfigError, match=r"'shot' line needs a \[camera\]"):
        load_config(path)
    path.write_text(CONFIG + "coin_diameter_mm = 24.0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"coin_diameter_mm.*heads-and-tails"):
        load_config(path)


def test_a_restart_with_the_camera_back_reports_its_recovery(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.source.fail = True
    table.at(3.5)
    table.close()
    again = Table(tmp_path, monkeypatch)  # the service restarts; the camera works again
    try:
        health = [(i["sensor"], i["ok"]) for i in again.inputs("health")]
        suspended = again.service.engine.snapshot(again.service.runtime.state)["suspended"]
    finally:
        again.close()
    assert health == [("camera", False), ("camera", True)]
    assert suspended == []
    assert _replays(tmp_path) >= 3


def test_the_synthetic_source_is_a_rendered_mat_the_service_calibrates(tmp_path: Path) -> None:
    """``source = "synthetic"`` as configured (no test double): an empty
    rendered mat whose markers calibrate the camera at start-up."""
    (tmp_path / "table.toml").write_text(CONFIG.replace('backend = "gpio"', 'backend = "sim"'))
    service = TableService(load_config(tmp_path / "table.toml"), clock=SimClock(start_ns=START))
    try:
        camera = service.camera
        rulings = list(service.journal.rulings())
    finally:
        service.close()
    assert isinstance(camera, mat_camera.MatCamera) and camera.view is not None
    assert camera.view.calibration.rms_mm < 1.0
    assert rulings == []


def test_a_knocked_camera_is_recalibrated_from_the_shots_still(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera aimed 8 mm off (knocked) between shots: read with the old
    calibration the wink would be several mm out; the still's markers
    recalibrate the mat first, and the next shots are read right too."""
    import dataclasses

    caplog.set_level(logging.WARNING, logger="controller.games.tiddlywinks.camera")
    rig = table.source.rig
    aim = (rig.camera.target[0] + 8.0, rig.camera.target[1])
    table.source.rig = dataclasses.replace(rig, camera=dataclasses.replace(rig.camera, target=aim))
    table.source.show(table.source.scene)  # the same mat, seen from the new aim
    table.source._cache = None
    stopped = table.slide("b1", (-300.0, 60.0), 3.0)
    table.at(stopped + 1.0)
    stopped = table.slide("g1", (200.0, -100.0), stopped + 1.0)
    table.at(stopped + 1.0)
    shots = table.inputs("shot")
    table.close()
    assert len(shots) == 2
    assert _winks(shots[0])["b1"] == pytest.approx((-300.0, 60.0), abs=1.0)
    assert _winks(shots[0])["g1"] == pytest.approx(SET_UP["g1"], abs=1.0)
    assert _winks(shots[1])["g1"] == pytest.approx((200.0, -100.0), abs=1.0)
    moved = [r.getMessage() for r in caplog.records if "recalibrated" in r.getMessage()]
    assert len(moved) == 1  # once: the second shot's still agrees with the new calibration


@pytest.mark.parametrize("seed", [3001, 3004, 3007])
def test_moved_tells_a_knocked_camera_from_the_calibrations_own_error(seed: int) -> None:
    import dataclasses

    from vision.mat.camera import MatView
    from vision.mat.render import MatRig, render

    rig = MatRig.make(seed=seed)
    view = MatView.calibrate(render(rig, MatScene(()), seed=1), hfov_deg=rig.hfov_deg)
    assert view.moved(render(rig, MatScene(()), seed=2)) is None  # new noise, same camera
    cam = rig.camera
    knocked = dataclasses.replace(cam, target=(cam.target[0], cam.target[1] + 3.0))
    shift = view.moved(render(dataclasses.replace(rig, camera=knocked), MatScene(()), seed=3))
    assert shift is not None and 3.0 < shift < 6.0
