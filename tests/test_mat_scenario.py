"""Frame-level tiddlywinks scenarios end to end through ``tableref simulate``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.errors import ScenarioError
from controller.games.tiddlywinks.events import Sighting, Squidge
from controller.games.tiddlywinks.module import MODULE
from controller.harness import simulate
from controller.scenario import load_scenario
from controller.strict import Table
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import MatScene, TrueWink

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """game = "tiddlywinks"
until = 60

[match]
format = "singles"
players = ["ann", "ben"]

[[input]]
at = 0
type = "squidge"
winks = [{{ id = "b1", x = 100.0, y = 0.0 }}, {{ id = "g1", x = 0.0, y = 300.0 }},
         {{ id = "r1", x = -300.0, y = 0.0 }}, {{ id = "y1", x = 0.0, y = -260.0 }}]

[[input]]
at = 5
type = "shot"
wink = "b1"
frame = "{frame}"

[[expect]]
kind = "squidge_off"
to = "ann"

[[expect]]
kind = "notice"
rule = "5(c)"
detail = "{detail}"
"""


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    cli = [sys.executable, "-m", "controller.cli", "simulate", str(path)]
    return subprocess.run(cli, capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_a_photo_of_the_mat_drives_the_engine(tmp_path: Path) -> None:
    # blue's b1 potted, seen through the opening; b2 on the mat, unplayed
    scene = MatScene((TrueWink("b1", 3.0, -2.0, 0, True), TrueWink("b2", -700.0, 250.0)))
    frame = render(MatRig.make(seed=5, hfov=(66.0, 66.0)), scene, seed=8)
    cv2.imwrite(str(tmp_path / "shot.png"), frame.image)
    path = tmp_path / "frame.toml"
    path.write_text(SCENARIO.format(frame="shot.png", detail="b1 potted: 1 more shot(s) for blue"))
    done = _run(path)
    assert done.returncode == 0, done.stderr
    assert "all 2 expects met" in done.stderr


def test_the_analysis_result_not_the_file_decides(tmp_path: Path) -> None:
    # the same file, but the frame shows b1 on the mat: no extra shot
    scene = MatScene((TrueWink("b1", 200.0, -100.0),))
    frame = render(MatRig.make(seed=5, hfov=(66.0, 66.0)), scene, seed=8)
    cv2.imwrite(str(tmp_path / "shot.png"), frame.image)
    path = tmp_path / "frame.toml"
    path.write_text(SCENARIO.format(frame="shot.png", detail="b1 potted: 1 more shot(s) for blue"))
    done = _run(path)
    assert done.returncode != 0
    assert "5(c)" in done.stderr


def test_an_unreadable_frame_names_the_file_and_key(tmp_path: Path) -> None:
    (tmp_path / "blank.png").write_bytes(
        cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    )
    path = tmp_path / "frame.toml"
    path.write_text(SCENARIO.format(frame="blank.png", detail="x"))
    done = _run(path)
    assert done.returncode != 0
    assert "frame.toml" in done.stderr and "frame" in done.stderr and "markers" in done.stderr
    assert "Traceback" not in done.stderr


def _frame_shot(parse: Any) -> tuple[str, ...]:
    # a blue 16 mm wink near (100, 0): which of b3..b6 it is depends on the mat before
    frame = {"rig": 3, "seed": 4, "winks": [{"id": "b5", "x": 102.0, "y": 1.0}]}
    event = parse("shot", Table({"frame": frame}, str(ROOT / "f.toml"), "input 2"), 9)
    return tuple(s.id for s in event.winks)


def test_each_parse_carries_its_own_mat() -> None:
    settings = MODULE.parse_match(Table({"format": "singles", "players": ["ann", "ben"]}, "f", "m"))
    first = MODULE.input_parser(settings)
    placed = {"winks": [{"id": "b4", "x": 100.0, "y": 0.0}]}
    first("place", Table(placed, "f.toml", "input 1"), 0)
    assert _frame_shot(first) == ("b4",)  # named from the mat the place left
    # a new parse with the same settings starts from a new mat: nothing carried over
    assert _frame_shot(MODULE.input_parser(settings)) == ("b3",)
    assert first.mat != MODULE.input_parser(settings).mat


def _squidge(frame: dict[str, Any], **more: Any) -> tuple[Sighting, ...]:
    settings = MODULE.parse_match(Table({"format": "singles", "players": ["ann", "ben"]}, "f", "m"))
    table = Table({"frame": frame, **more}, str(ROOT / "f.toml"), "input 1", ScenarioError)
    event = MODULE.input_parser(settings)("squidge", table, 0)
    assert isinstance(event, Squidge)
    return event.winks


def test_the_squidge_off_is_measured_from_the_frame() -> None:
    scenario = load_scenario(
        ROOT / "tests" / "scenarios" / "tiddlywinks-frame-5a-squidge-off-nearest-edge.toml"
    )
    squidge = scenario.inputs[0].event
    assert isinstance(squidge, Squidge)
    # one wink of each colour; ids by size; the unplayed winks behind the baselines ignored
    assert [(s.id, s.potted, s.off) for s in squidge.winks] == [
        ("b1", False, False), ("g3", False, False), ("r1", False, True), ("y1", False, False),
    ]  # fmt: skip
    ruling: dict[str, Any] = simulate(scenario).rulings[0].to_json_dict()
    distances = ruling["distances"]
    assert distances["blue"] == pytest.approx(70.0, abs=0.5)  # 100 - 11 - 19: by its edge
    assert distances["green"] == pytest.approx(71.5, abs=0.5)  # 98.5 - 8 - 19
    assert (distances["red"], ruling["colour"]) == ("off", "blue")


def test_a_resquidge_frame_reads_only_the_colours_in_contention() -> None:
    frame = {"rig": 3, "seed": 22, "winks": [
        {"id": "b3", "x": 40.0, "y": 45.0}, {"id": "g1", "x": 0.0, "y": 200.0},
        {"id": "y1", "potted": True, "x": 2.0, "y": -3.0}]}  # fmt: skip
    winks = _squidge(frame, colours=["yellow", "blue"])
    assert [(s.id, s.potted, s.off) for s in winks] == [("b3", False, False), ("y1", True, False)]


def test_two_squidge_winks_of_one_colour_are_for_the_umpire() -> None:
    frame = {"rig": 3, "seed": 2, "winks": [
        {"id": "b1", "x": 100.0, "y": 0.0}, {"id": "b3", "x": -100.0, "y": 50.0},
        {"id": "g1", "x": 0.0, "y": 200.0}, {"id": "r1", "x": -250.0, "y": -100.0},
        {"id": "y1", "x": 0.0, "y": -150.0}]}  # fmt: skip
    with pytest.raises(ScenarioError, match=r"f\.toml.*frame.*blue.*umpire"):
        _squidge(frame)
    with pytest.raises(ScenarioError, match="colours"):
        _squidge(frame, colours=["blue", "blue"])
