"""``tableref simulate``: output, exit codes, malformed files and the record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "heads-and-tails-standard.toml"

HEADER = """game = "heads-and-tails"
[match]
players = ["ann", "ben"]
plays = 1
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_prints_one_json_ruling_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(EXAMPLE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rulings = [json.loads(line) for line in lines]
    assert [r["seq"] for r in rulings] == list(range(1, len(rulings) + 1))
    required = {"v", "id", "seq", "kind", "rule", "game", "at", "against", "to", "score"}
    assert all(required | {"detail"} <= r.keys() for r in rulings)
    assert rulings[-1]["kind"] == "match_over" and rulings[-1]["winner"] == "ben"


def test_console_script_runs_from_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "simulate", str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["kind"] == "match_over"


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("game = \n", ["case.toml", "not valid TOML"]),
        (HEADER + "colour = 'red'\n", ["case.toml", "'colour'", "unknown key"]),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'jump'\n",
            ["case.toml", "input 1", "'type'", "'jump'"],
        ),
        (
            HEADER + "[[input]]\nat = 0.0\ntype = 'go'\n[[input]]\nat = 1.0\ntype = 'call'\n"
            "player = 'ann'\ncall = 3\n",
            ["case.toml", "input 2 (call)", "'call'", "expected a string"],
        ),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'call'\nplayer = 'cat'\ncall = 'heads'\n",
            ["input 1 (call)", "'player'", "'cat'"],
        ),
        (HEADER + "[[input]]\ntype = 'go'\n", ["input 1 (go)", "'at'", "missing"]),
        (HEADER + "[[input]]\nat = -1.0\ntype = 'go'\n", ["input 1 (go)", "'at'", "at least"]),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'landed'\nface = 'up'\n",
            ["input 1 (landed)", "'face'", "'up'"],
        ),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'toss'\nspin = true\n",
            ["input 1 (toss)", "'spin'", "unknown key"],
        ),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'spotter'\naction = 'fault'\n",
            ["input 1 (spotter)", "'against'", "missing"],
        ),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'spotter'\naction = 'let'\nrule = '9.9.9'\n",
            ["input 1 (spotter)", "'rule'", "not a clause"],
        ),
        (
            HEADER + "[[input]]\nat = 1.0\ntype = 'spotter'\naction = 'overrule'\n"
            "ruling = 'sim:0:77'\nreplace_with = 'invalid'\n",
            ["input 1 (spotter)", "'ruling'", "sim:0:77"],
        ),
        ('game = "chess"\n', ["case.toml", "'game'", "'chess'"]),
        (
            'game = "heads-and-tails"\n[match]\nplayers = ["ann"]\nplays = 1\n',
            ["[match]", "'players'"],
        ),
        (HEADER + "[[expect]]\nkind = 'goal'\n", ["expect 1", "'kind'", "'goal'"]),
    ],
)
def test_malformed_file_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needles: list[str]
) -> None:
    path = _write(tmp_path, text)
    assert main(["simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, f"{needle!r} not in {err!r}"


def test_missing_file_fails_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(tmp_path / "nope.toml")]) == 2
    assert "nope.toml: no such file" in capsys.readouterr().err


def test_unmet_expect_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HEADER + "[[input]]\nat = 0.0\ntype = 'go'\n[[expect]]\nkind = 'fault'\nrule = '2.2.3'\n"
    assert main(["simulate", str(_write(tmp_path, text))]) == 1
    err = capsys.readouterr().err
    assert "expect 1" in err and '"rule":"2.1.2"' in err


def test_extra_non_notice_ruling_fails_the_expects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = HEADER + "[[input]]\nat = 0.0\ntype = 'go'\n[[expect]]\nkind = 'fault'\nrule = '2.1.2'\n"
    assert main(["simulate", str(_write(tmp_path, text))]) == 1
    assert "unexpected ruling" in capsys.readouterr().err  # the match_over was not expected


def test_until_stops_simulated_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "until = 10.0\n" + HEADER + "[[input]]\nat = 0.0\ntype = 'go'\n"
    assert main(["simulate", str(_write(tmp_path, text))]) == 0
    kinds = [json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()]
    assert kinds == ["notice"]  # the 30 s window had not closed by 10 s


def test_record_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text_path, json_path = tmp_path / "rec.txt", tmp_path / "rec.json"
    assert main(["simulate", "-q", str(EXAMPLE), "--record", str(text_path)]) == 0
    assert main(["simulate", "-q", str(EXAMPLE), "--record", str(json_path)]) == 0
    assert capsys.readouterr().out == ""
    record = text_path.read_text(encoding="utf-8")
    assert "Play 4: ben tosses" in record and "Result: ann 1 - 3 ben: ben wins" in record
    assert "[overruled by sim:0:10]" in record
    doc = json.loads(json_path.read_text(encoding="utf-8"))
    assert doc["winner"] == "ben" and doc["score"] == {"ann": 1, "ben": 3}
    assert [a["result"] for a in doc["attempts"]] == [
        "point", "let", "fault", "invalid", "fault", "point",
    ]  # fmt: skip
    assert len(doc["rulings"]) == 15


@pytest.mark.parametrize(
    "command", [["calibrate"], ["coin", "register", "--face", "heads"]], ids=["calibrate", "coin"]
)
def test_floor_camera_tools_refuse_a_tiddlywinks_config(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The mat camera calibrates itself at start-up: run on a tiddlywinks
    config, the floor tools would write a floor calibration nothing reads."""
    pytest.importorskip("cv2")
    config = str(ROOT / "config" / "tiddlywinks-camera.toml")
    assert main([*command, "--config", config]) == 2
    err = capsys.readouterr().err
    assert "[table]: field 'game': floor calibration and coin registration are for" in err
