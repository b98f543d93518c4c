"""The camera in the table: calibrate and register from the command line, a
``frame`` scenario input through the real pipeline, a lost camera suspends."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from controller.cli import main  # noqa: E402
from controller.config import ConfigError, load_config  # noqa: E402
from controller.games.heads_and_tails import HeadsAndTailsEngine  # noqa: E402
from controller.games.heads_and_tails.events import Call, Face, Go, Landed, Toss  # noqa: E402
from controller.games.heads_and_tails.state import MatchSettings, State  # noqa: E402
from controller.model import RulingKind  # noqa: E402
from controller.sensors.health import HealthEvent  # noqa: E402
from tests.helpers import live_toss  # noqa: E402
from vision.analyse import Analyser  # noqa: E402
from vision.calibration import Calibration, calibrate  # noqa: E402
from vision.floor import FloorLayout  # noqa: E402
from vision.synth.art import CoinDesign  # noqa: E402
from vision.synth.scene import Landing, Rig, render  # noqa: E402
from vision.synth.source import SyntheticSource  # noqa: E402
from vision.watch import CAMERA_SENSOR, CameraWatch  # noqa: E402

# A small square so that a whole still is small and the coin big in it:
# the geometry is the same at any scale.
LAYOUT = FloorLayout(180.0, 8.0, 30.0)
CAMERA = """
[camera]
source = "file"
device = "empty.png"
calibration = "cal.json"
references = "coin"
square_mm = 180.0
line_mm = 8.0
marker_mm = 30.0
"""


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A calibrated table with a registered coin, and three landings on file."""
    folder = tmp_path_factory.mktemp("table")
    rig = Rig.make(5, coin_px=80.0, layout=LAYOUT, tilt=40.0)
    design = CoinDesign.make(9)
    shots = {
        "empty": None,
        "heads-0": Landing(90, 90, "heads", rotation_deg=5),
        "heads-1": Landing(90, 90, "heads", rotation_deg=185),
        "tails-0": Landing(90, 90, "tails", rotation_deg=95),
        "tails-1": Landing(90, 90, "tails", rotation_deg=275),
        "play-tails": Landing(60, 110, "tails", rotation_deg=140),
        "play-out": Landing(-30, 90, "heads"),
        "play-cleet": Landing(100, 70, "heads", tilt_deg=75),
    }
    for i, (name, land) in enumerate(shots.items()):
        frame = render(rig, None if land is None else design, land, seed=i, still=True)
        cv2.imwrite(str(folder / f"{name}.png"), frame.image)
    (folder / "table.toml").write_text(
        '[table]\nvenue = "v"\nid = "t1"\ngame = "heads-and-tails"\n'
        '[match]\nplayers = ["ann", "ben"]\nplays = 4\n' + CAMERA
    )
    assert main(["calibrate", "--config", str(folder / "table.toml")]) == 0
    for name in ("heads-0", "heads-1", "tails-0", "tails-1"):
        face = name.split("-")[0]
        args = ["coin", "register", "--config", str(folder / "table.toml"), "--face", face]
        args += ["--image", str(folder / f"{name}.png")]
        assert main(args + (["--replace"] if name == "heads-0" else [])) == 0
    return folder


def test_calibrate_reports_the_error_in_mm(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            ["calibrate", "--config", str(table / "table.toml"), "--out", str(table / "again.json")]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "markers 0, 1, 2, 3" in out and "rms" in out and " mm" in out
    assert (table / "again.json").is_file()
    # Where the camera is (the leaning-coin cues need it), and from what.
    up = Rig.make(5, coin_px=80.0, layout=LAYOUT, tilt=40.0).camera.position[2]
    placed = re.search(r"camera: (\d+) mm up over .* from the markers' perspective", out)
    assert placed is not None and abs(int(placed[1]) / up - 1) < 0.05, (out, up)
    again = ["calibrate", "--config", str(table / "table.toml"), "--out", str(table / "fov.json")]
    assert main([*again, "--hfov-deg", "60"]) == 0
    out = capsys.readouterr().out
    assert "focal length from a field of view of 60 deg" in out
    assert Calibration.load(table / "fov.json").hfov_deg == 60.0


def test_register_replaces_the_old_coin(table: Path) -> None:
    assert sorted(p.name for p in (table / "coin").glob("*.png")) == [
        "heads-1.png",
        "heads-2.png",
        "tails-1.png",
        "tails-2.png",
    ]
    log = (table / "coin" / "registered.jsonl").read_text().splitlines()
    assert len(log) == 4 and '"replace": true' in log[0]


SCENARIO = """
game = "heads-and-tails"
[match]
players = ["ann", "ben"]
plays = 3
{camera}
[[input]]
at = 0.0
type = "go"
[[input]]
at = 1.0
type = "toss"
[[input]]
at = 1.1
type = "call"
player = "ben"
call = "tails"
[[input]]
at = 1.5
type = "frame"
path = "play-tails.png"
[[expect]]
kind = "point"
rule = "2.3.1"
to = "ben"
[[input]]
at = 2.0
type = "go"
[[input]]
at = 3.0
type = "toss"
[[input]]
at = 3.1
type = "call"
player = "ann"
call = "heads"
[[input]]
at = 3.5
type = "frame"
path = "play-out.png"
background = "empty.png"
[[expect]]
kind = "let"
rule = "2.1.7"
[[input]]
at = 3.8
type = "go"
[[input]]
at = 4.0
type = "toss"
[[input]]
at = 4.1
type = "call"
player = "ann"
call = "heads"
[[input]]
at = 4.5
type = "frame"
path = "play-cleet.png"
background = "empty.png"
[[expect]]
kind = "invalid"
rule = "2.7.4"
"""


def test_frame_inputs_run_the_pipeline_end_to_end(
    table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = table / "match.toml"
    path.write_text(SCENARIO.format(camera=CAMERA))
    assert main(["simulate", str(path)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert '"rule":"2.3.1"' in out and '"rule":"2.1.7"' in out and '"rule":"2.7.4"' in out


def test_a_frame_without_a_camera_table_is_a_clear_error(
    table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = table / "nocam.toml"
    path.write_text(SCENARIO.format(camera=""))
    assert main(["simulate", str(path)]) == 2
    assert "needs a [camera] table" in capsys.readouterr().err


def test_an_unreadable_frame_names_the_input(
    table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = table / "bad.toml"
    path.write_text(SCENARIO.format(camera=CAMERA).replace("play-tails.png", "nope.png"))
    assert main(["simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "input 4 (frame)" in err and "nope.png" in err


def _engine_state() -> tuple[HeadsAndTailsEngine, State]:
    engine = HeadsAndTailsEngine()
    state = engine.start(MatchSettings(players=("ann", "ben"), first_tosser="ann"))
    for event in (Go(t_ns=0), Toss(t_ns=1), Call(t_ns=2, player="ben", word="heads")):
        state, _ = engine.step(state, event)
    return engine, state


def test_an_unknown_face_asks_the_spotter_and_scores_nothing() -> None:
    engine, state = _engine_state()
    state, decisions = engine.step(state, Landed(t_ns=3, face=Face.UNKNOWN, evidence="x.json"))
    assert [(d.kind, d.rule) for d in decisions] == [(RulingKind.NOTICE, "2.6.1")]
    assert "x.json" in decisions[0].detail
    state, decisions = engine.step(state, Landed(t_ns=4, face=Face.HEADS))
    assert [(d.kind, d.rule, d.to) for d in decisions] == [(RulingKind.POINT, "2.3.1", "ben")]


def test_a_missing_camera_suspends_and_recovers() -> None:
    rig = Rig.make(3, coin_px=80.0, layout=LAYOUT, tilt=40.0)
    source = SyntheticSource(rig, CoinDesign.make(1))
    source.fail = True
    cal = calibrate(render(rig, None, None, seed=1), LAYOUT)
    watch = CameraWatch(lambda: source, Analyser(cal))
    events = watch.start(t_ns=10)
    assert [(type(e), e.sensor, e.ok) for e in events if isinstance(e, HealthEvent)] == [
        (HealthEvent, CAMERA_SENSOR, False)
    ]
    assert watch.poll(t_ns=20) == []  # still failing: reported once
    engine, state = _engine_state()
    state, decisions = engine.step(state, events[0])
    assert [d.kind for d in decisions] == [RulingKind.SUSPENDED]
    source.fail = False
    back = watch.poll(t_ns=30)
    assert [(e.sensor, e.ok) for e in back if isinstance(e, HealthEvent)] == [("camera", True)]


def test_a_settled_coin_becomes_a_landed_input_with_evidence(tmp_path: Path) -> None:
    rig = Rig.make(3, coin_px=80.0, layout=LAYOUT, tilt=40.0)
    source = SyntheticSource(rig, CoinDesign.make(1))
    cal = calibrate(render(rig, None, None, seed=1), LAYOUT)
    watch = CameraWatch(lambda: source, Analyser(cal), tmp_path / "j-evidence", tmp_path)
    watch.start(0)
    watch.empty_floor(1)
    before = [e for t in range(2, 5) for e in watch.poll(t)]
    assert before == []  # nothing moves, nothing lands
    source.drop(Landing(-40.0, 90.0, "heads"))
    landed = [e for t in range(5, 15) for e in watch.poll(t) if isinstance(e, Landed)]
    assert len(landed) == 1
    assert landed[0].in_area is False  # outside the square: a let, whatever the face
    assert landed[0].evidence.startswith("j-evidence/")
    assert (tmp_path / landed[0].evidence).is_file()
    assert list((tmp_path / "j-evidence").glob("*.png"))


def test_camera_config_is_strict(tmp_path: Path) -> None:
    base = '[table]\nvenue = "v"\nid = "t"\ngame = "heads-and-tails"\n[match]\n'
    base += 'players = ["a", "b"]\nplays = 2\n[camera]\n'
    path = tmp_path / "t.toml"
    path.write_text(base + 'source = "v4l2"\ndevice = 0\nconfidence_margin = 0.1\n')
    camera = load_config(path).camera
    assert camera is not None and camera.margin == 0.1 and camera.device == "0"
    for bad, message in (
        ('source = "webcam"', "'webcam' is not one of"),
        ('source = "v4l2"\nresolution = [640]', "expected [width, height]"),
        ('source = "file"', "needs the path of its images"),
        ('source = "v4l2"\nconfidence_margin = 2.0', "at most 1"),
        ('source = "v4l2"\nlens = true', "unknown key"),
    ):
        path.write_text(base + bad + "\n")
        with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
            load_config(path)
    assert np.isfinite(1.0)


def test_the_live_service_watches_the_toss_and_journals_the_landing(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tableref run`` with a ``[camera]``: after Go the empty floor is taken,
    while the toss is in the air the preview is polled, and the settled coin
    is journaled as a ``landed`` input with its evidence beside the journal."""

    from controller.service import TableService
    from controller.timebase import SimClock

    config = load_config(table / "table.toml")
    clock = SimClock(start_ns=100 * 10**9, wall_at_start=1_000_000.0)
    service = TableService(config, clock=clock)
    try:
        from controller.camera import LiveCamera

        assert isinstance(service.camera, LiveCamera)
        # The same rig and coin the fixture calibrated and registered, as a
        # camera whose scene changes when the coin lands.
        source = SyntheticSource(Rig.make(5, coin_px=80.0, layout=LAYOUT, tilt=40.0),
                                 CoinDesign.make(9))  # fmt: skip
        closed: list[bool] = []
        monkeypatch.setattr(source, "close", lambda: closed.append(True))
        live = service.camera.watch
        service.camera.watch = CameraWatch(lambda: source, live.analyser, live._evidence,
                                           live._base)  # fmt: skip

        live_toss(service, clock, source, Landing(60, 110, "tails", rotation_deg=140))
        landed = [i for i in service.journal.inputs() if i.kind == "landed"]
        decided = [r for r in service.journal.rulings() if r["kind"] != "notice"]
    finally:
        service.close()
    assert closed == [True]  # the shutdown released the camera
    assert len(landed) == 1
    assert landed[0].payload["face"] == "tails" and landed[0].payload["in_area"] is True
    evidence = str(landed[0].payload["evidence"])
    assert (config.journal.parent / evidence).is_file()
    assert (decided[0]["kind"], decided[0]["rule"], decided[0]["to"]) == ("point", "2.3.1", "ben")


def test_a_live_camera_without_calibration_stops_the_service_clearly(tmp_path: Path) -> None:
    from controller.errors import TablerefError
    from controller.service import TableService

    (tmp_path / "t.toml").write_text(
        '[table]\nvenue = "v"\nid = "t1"\ngame = "heads-and-tails"\n'
        '[match]\nplayers = ["ann", "ben"]\nplays = 4\n' + CAMERA
    )
    with pytest.raises(
        TablerefError, match=r"t\.toml: \[camera\]: .*cal\.json.*tableref calibrate"
    ):
        TableService(load_config(tmp_path / "t.toml"))
