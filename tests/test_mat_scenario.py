"""Frame-level tiddlywinks scenarios end to end through ``tableref simulate``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.games.tiddlywinks.module import MODULE
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
