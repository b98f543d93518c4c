"""A second floor camera in the live table and in the harness (issue 6):
calibrated and registered on its own, watched with the first, its landing
fused with the first's, its evidence kept, its faults reported on their own."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

cv2 = pytest.importorskip("cv2")

from controller.camera import CAMERA_SENSOR, SECOND_CAMERA_SENSOR, LiveCamera  # noqa: E402
from controller.cli import main  # noqa: E402
from controller.config import load_config  # noqa: E402
from controller.games.heads_and_tails import HeadsAndTailsEngine  # noqa: E402
from controller.games.heads_and_tails.events import Landed  # noqa: E402
from controller.games.heads_and_tails.state import MatchSettings  # noqa: E402
from controller.model import RulingKind  # noqa: E402
from controller.sensors.health import HealthEvent  # noqa: E402
from tests.helpers import live_toss  # noqa: E402
from vision.analyse import Analyser  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.floor import FloorLayout  # noqa: E402
from vision.link import CameraLink  # noqa: E402
from vision.synth.scene import Landing, render  # noqa: E402
from vision.synth.source import SyntheticSource  # noqa: E402
from vision.watch import CameraWatch, SecondCamera  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "heads-and-tails-two-cameras.toml"
# A small square, so that the coin is big in the preview (the settle detector
# sees a coin land on a full 1.5 m square too: tests/test_vision_settle.py).
LAYOUT = FloorLayout(180.0, 8.0, 30.0)
SEED = 100201  # a tuning seed (rigs >= 100000)
CONFIG = f"""[table]
venue = "v"
id = "t1"
game = "heads-and-tails"
[match]
players = ["ann", "ben"]
plays = 2
[camera]
source = "synthetic"
seed = {SEED}
square_mm = 180.0
line_mm = 8.0
marker_mm = 30.0
[camera.second]
source = "synthetic"
"""


def _one_camera(text: str) -> str:
    """The scenario without its ``[camera.second]`` table (two lines)."""
    lines = text.splitlines(keepends=True)
    at = lines.index("[camera.second]\n")
    assert lines[at + 1].startswith('source = "synthetic"')
    return "".join(lines[:at] + lines[at + 2 :])


def test_the_two_camera_example_runs_and_its_second_camera_catches_the_cleet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example's third landing leans towards the first camera, which
    reads it as tails; with the second camera it is a cleet (2.7.4), and
    the same file without ``[camera.second]`` gets a wrong point (2.3.2)."""
    assert main(["simulate", str(EXAMPLE)]) == 0, capsys.readouterr().err
    out = capsys.readouterr()
    assert '"kind":"invalid","rule":"2.7.4"' in out.out and "all 5 expects met" in out.err
    one = tmp_path / "one-camera.toml"
    one.write_text(_one_camera(EXAMPLE.read_text()))
    assert main(["simulate", str(one)]) == 1
    out = capsys.readouterr()
    assert '"at":23.0,"against":"ann","to":"ben"' in out.out and '"rule":"2.3.2"' in out.out


def test_a_synthetic_frame_input_is_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = EXAMPLE.read_text()
    for old, new, why in (
        ('face = "tails" }', 'face = "edge" }', "'heads' or 'tails'"),
        ("x_mm = -60.0, ", "", "field 'x_mm': missing"),
        ('face = "tails" }', 'face = "tails", spin = 3 }', "field 'spin': unknown key"),
        ("coin = { x_mm = -60.0", 'path = "a.png"\ncoin = { x_mm = -60.0', "give the coin instead"),
    ):
        path = tmp_path / "bad.toml"
        path.write_text(text.replace(old, new, 1))
        assert main(["simulate", str(path)]) == 2
        err = capsys.readouterr().err
        assert "input 5 (frame)" in err and why in err, err
    path = tmp_path / "file.toml"
    path.write_text(
        _one_camera(text).replace('source = "synthetic"', 'source = "file"\ndevice = "x.png"')
    )
    assert main(["simulate", str(path)]) == 2
    assert "a coin is dropped on a synthetic camera's table only" in capsys.readouterr().err


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-camera synthetic table calibrated and its coin registered with
    each camera from the command line, as on a real table."""
    folder = tmp_path_factory.mktemp("two")
    config = folder / "table.toml"
    config.write_text(CONFIG)
    first = SyntheticSource.from_seed(SEED, LAYOUT)
    views = {"first": first, "second": first.other_view(SEED)}
    for which, source in views.items():
        args = ["calibrate", "--config", str(config), "--camera", which]
        assert main(args) == 0
        for k, face in enumerate(("heads", "tails", "heads", "tails")):
            land = Landing(90.0, 90.0, face, rotation_deg=95.0 * k + 5)
            image = folder / f"{which}-{k}.png"
            cv2.imwrite(
                str(image), render(source.rig, source.design, land, seed=k, still=True).image
            )
            args = ["coin", "register", "--config", str(config), "--camera", which]
            args += ["--face", face, "--image", str(image)] + (["--replace"] if k == 0 else [])
            assert main(args) == 0
    assert (folder / "camera-calibration-second.json").is_file()
    assert len(list((folder / "coin-references-second").glob("*.png"))) == 4
    assert len(list((folder / "coin-references").glob("*.png"))) == 4
    return folder


def test_calibrating_the_second_camera_calibrates_its_own_view(table: Path) -> None:
    one = json.loads((table / "camera-calibration.json").read_text())
    two = json.loads((table / "camera-calibration-second.json").read_text())
    assert one != two  # two cameras, two homographies
    from vision.calibration import Calibration

    for name, source in (("camera-calibration.json", SyntheticSource.from_seed(SEED, LAYOUT)),
                         ("camera-calibration-second.json",
                          SyntheticSource.from_seed(SEED, LAYOUT).other_view(SEED))):  # fmt: skip
        cal = Calibration.load(table / name)
        height = (cal.with_hfov(source.rig.camera.hfov_deg).camera() or (0, 0, 0))[2]
        assert abs(height / source.rig.camera.position[2] - 1) < 0.05, (name, height)


def test_a_landing_seen_by_both_cameras_is_one_landed_input_with_both_evidences(
    table: Path,
) -> None:
    """``tableref run`` with two synthetic cameras: the coin dropped on the
    rendered table is seen by both, judged by each camera's own analyser,
    and journaled once, with the fused evidence naming both cameras'."""
    from controller.service import TableService
    from controller.timebase import SimClock

    config = load_config(table / "table.toml")
    clock = SimClock(start_ns=100 * 10**9, wall_at_start=1_000_000.0)
    service = TableService(config, clock=clock)
    try:
        assert isinstance(service.camera, LiveCamera) and service.camera.watch.second is not None
        floor = service.camera.watch.link.source
        assert isinstance(floor, SyntheticSource)

        live_toss(service, clock, floor, Landing(60, 110, "tails", rotation_deg=140))
        landed = [i for i in service.journal.inputs() if i.kind == "landed"]
        decided = [r for r in service.journal.rulings() if r["kind"] != "notice"]
        health = [i for i in service.journal.inputs() if i.kind == "health"]
    finally:
        service.close()
    assert health == []  # both cameras gave frames throughout
    assert len(landed) == 1
    assert landed[0].payload["face"] == "tails" and landed[0].payload["in_area"] is True
    fused = config.journal.parent / str(landed[0].payload["evidence"])
    doc = json.loads(fused.read_text())
    assert doc["fused"] is True and doc["verdict"] == "tails"
    assert set(doc["cameras"]) == {"first", "second"}
    for name, seen in doc["cameras"].items():
        own = fused.parent / seen["evidence"]
        assert own.name == fused.stem + f"-{name}.json", own
        assert json.loads(own.read_text())["verdict"] == seen["verdict"]
        assert (fused.parent / json.loads(own.read_text())["crop"]).is_file()
    assert "tails" in {seen["verdict"] for seen in doc["cameras"].values()}
    assert (decided[0]["kind"], decided[0]["rule"], decided[0]["to"]) == ("point", "2.3.1", "ben")


def test_a_second_camera_the_journal_holds_faulty_reports_its_recovery(table: Path) -> None:
    config = load_config(table / "table.toml")
    assert config.camera is not None
    camera = LiveCamera(config.camera, table / "j.sqlite", lambda state: False)

    class Held:
        suspended = frozenset({SECOND_CAMERA_SENSOR})

    try:
        events = camera.start(5, Held(), faulty=False)
    finally:
        camera.close()
    assert [(e.sensor, e.ok) for e in events if isinstance(e, HealthEvent)] == [
        (SECOND_CAMERA_SENSOR, True)
    ]


def test_a_second_camera_without_its_calibration_stops_the_service_clearly(table: Path) -> None:
    from controller.errors import TablerefError
    from controller.service import TableService

    (table / "elsewhere").mkdir(exist_ok=True)
    path = table / "elsewhere" / "t.toml"
    first = (
        '[camera]\ncalibration = "../camera-calibration.json"\nreferences = "../coin-references"\n'
    )
    path.write_text(CONFIG.replace("[camera]\n", first))
    with pytest.raises(
        TablerefError, match=r"t\.toml: \[camera\.second\]: .*calibrate --camera second"
    ):
        TableService(load_config(path))


def _pair() -> tuple[SyntheticSource, SyntheticSource, CameraWatch]:
    first = SyntheticSource.from_seed(SEED, LAYOUT)
    second = first.other_view(SEED)
    one = Analyser(calibrate(render(first.rig, None, None, seed=1), LAYOUT))
    two = Analyser(calibrate(render(second.rig, None, None, seed=1), LAYOUT))
    link = CameraLink(lambda: second, sensor=SECOND_CAMERA_SENSOR)
    return first, second, CameraWatch(lambda: first, one, second=SecondCamera(link, two))


def test_a_missing_second_camera_suspends_and_recovers_on_its_own(tmp_path: Path) -> None:
    first, second, watch = _pair()
    second.fail = True
    events = watch.start(t_ns=10)
    assert [(e.sensor, e.ok, e.detail) for e in events if isinstance(e, HealthEvent)] == [
        (SECOND_CAMERA_SENSOR, False, "camera.second: synthetic camera: unplugged")
    ]
    engine = HeadsAndTailsEngine()
    state = engine.start(MatchSettings(players=("ann", "ben"), first_tosser="ann"))
    state, rulings = engine.step(state, events[0])
    assert [r.kind for r in rulings] == [RulingKind.SUSPENDED]
    assert "camera.second" in rulings[0].detail
    # The first camera failing and coming back does not end the second's fault.
    first.fail = True
    down = watch.poll(t_ns=20)
    first.fail = False
    up = watch.poll(t_ns=30)
    for event in down + up:
        state, rulings = engine.step(state, event)
    seen = [(e.sensor, e.ok) for e in down + up if isinstance(e, HealthEvent)]
    assert seen == [(CAMERA_SENSOR, False), (CAMERA_SENSOR, True)] and len(down + up) == 2
    assert state.suspended == frozenset({SECOND_CAMERA_SENSOR})
    assert "still suspended for camera.second" in rulings[-1].detail
    # A landing meanwhile is the first camera's alone, and says the second gave nothing.
    watch._evidence, watch._base = tmp_path / "ev", tmp_path
    landed = watch.judge(first.preview(), first.still(), 40, None)
    doc = json.loads((tmp_path / landed.evidence).read_text())
    assert doc["cameras"]["second"] == {"evidence": None, "verdict": None, "why": "no frames"}
    assert watch.seen[1] == ("second", None)
    second.fail = False
    back = watch.poll(t_ns=50)  # the first camera's preview; the second is asked at the next still
    back += watch.empty_floor(t_ns=60)
    assert [(e.sensor, e.ok) for e in back if isinstance(e, HealthEvent)] == [
        (SECOND_CAMERA_SENSOR, True)
    ]
    state, rulings = engine.step(state, back[-1])
    assert state.suspended == frozenset() and "recovered" in rulings[-1].detail


def test_for_two_cameras_the_watch_waits_on_the_first_and_fuses_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vision import fuse
    from vision import watch as watching

    places: list[object] = []

    def spy(views: list[object], *, cameras: object = None) -> object:
        places.append(cameras)
        return fuse.fuse(views, cameras=cameras)  # type: ignore[arg-type]

    monkeypatch.setattr(watching, "fuse", spy)
    first, second, watch = _pair()
    assert watch.second is not None
    threads: dict[str, str] = {}
    for name, analyser in (("first", watch.analyser), ("second", watch.second.analyser)):
        judge = analyser.analyse

        def spied(*args: Any, name: str = name, judge: Any = judge) -> Any:
            threads[name] = threading.current_thread().name
            return judge(*args)

        monkeypatch.setattr(analyser, "analyse", spied)
    watch.start(0)
    watch.empty_floor(1)
    assert [e for t in range(2, 5) for e in watch.poll(t)] == []
    first.drop(Landing(100.0, 70.0, "heads", tilt_deg=75))  # on both cameras' floor
    assert second.landing is first.landing
    landed = [e for t in range(5, 15) for e in watch.poll(t) if isinstance(e, Landed)]
    assert len(landed) == 1 and landed[0].face.value == "edge"
    assert [name for name, _ in watch.seen] == ["first", "second"]
    assert all(obs is not None and obs.found for _, obs in watch.seen)
    assert "first: " in landed[0].evidence and "second: " in landed[0].evidence
    # Fused knowing where each camera is (the geometry's test, vision.tilt),
    # as bench.vision --cameras 2 measures the rule.
    expected = [watch.analyser.calibration.camera(), watch.second.analyser.calibration.camera()]
    assert places == [expected] and None not in expected
    # The second camera's still is judged beside the first's, on its own thread.
    assert threads["first"] == threading.current_thread().name
    assert threads["second"].startswith("second-camera")
    watch.close()


FRAMES = """game = "heads-and-tails"
[match]
players = ["ann", "ben"]
plays = 1
[camera]
source = "file"
device = "first-0.png"
square_mm = 180.0
line_mm = 8.0
marker_mm = 30.0
[camera.second]
source = "file"
device = "second-0.png"
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
{frame}
[[expect]]
kind = "point"
rule = "2.3.1"
to = "ben"
[[expect]]
kind = "match_over"
winner = "ben"
"""


def test_a_frame_input_with_two_cameras_gives_one_still_each(
    table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``frames = [first, second]``: each camera's still through its own
    calibration and references, fused into the one ``landed`` input."""
    first = SyntheticSource.from_seed(SEED, LAYOUT)
    land = Landing(60, 110, "tails", rotation_deg=140)
    for name, source in (("first", first), ("second", first.other_view(SEED))):
        for what, coin in (("play", land), ("empty", None)):
            shot = render(source.rig, source.design if coin else None, coin, seed=9, still=True)
            cv2.imwrite(str(table / f"{what}-{name}.png"), shot.image)
    path = table / "frames.toml"
    both = 'frames = ["play-first.png", "play-second.png"]'
    path.write_text(FRAMES.format(frame=both))
    assert main(["simulate", str(path)]) == 0, capsys.readouterr().err
    assert '"rule":"2.3.1"' in capsys.readouterr().out
    from controller.scenario import load_scenario

    landed = [i.event for i in load_scenario(path).inputs if isinstance(i.event, Landed)]
    assert len(landed) == 1 and landed[0].face.value == "tails"
    assert landed[0].evidence.startswith("play-first.png, play-second.png: first: tails")
    assert "second: tails" in landed[0].evidence
    for frame, why in (
        ('path = "play-first.png"', "give frames = [first, second]"),
        ('frames = ["play-first.png"]', "one image per camera, [first, second]: got 1"),
        (both + '\nbackgrounds = ["empty-first.png"]', "got 1"),
        ('frames = ["play-first.png", "nope.png"]', "the second camera's: "),
    ):
        path.write_text(FRAMES.format(frame=frame))
        assert main(["simulate", str(path)]) == 2
        err = capsys.readouterr().err
        assert "input 4 (frame)" in err and why in err, err
    path.write_text(
        FRAMES.format(frame=both + '\nbackgrounds = ["empty-first.png", "empty-second.png"]')
    )
    assert main(["simulate", str(path)]) == 0, capsys.readouterr().err
    one = FRAMES.split("[camera.second]")[0] + "[[input]]" + FRAMES.split("[[input]]", 1)[1]
    path.write_text(one.format(frame=both))
    assert main(["simulate", str(path)]) == 2
    assert "one camera takes path" in capsys.readouterr().err


class _Unplugged:
    """A camera that gives no frames."""

    def preview(self) -> object:
        from vision.model import CameraError

        raise CameraError("unplugged")

    still = preview

    def close(self) -> None:
        pass


def test_a_second_camera_unplugged_at_start_up_stays_suspended(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from controller.sensors.fake import FakeEdgeSource
    from controller.service import TableService
    from controller.timebase import SimClock
    from vision import sources

    folder = table / "restart"
    folder.mkdir()
    text = CONFIG.replace("[camera]\n", '[camera]\ncalibration = "../camera-calibration.json"\n'
                          'references = "../coin-references"\n')  # fmt: skip
    text = text.replace('[camera.second]\nsource = "synthetic"\n', '[camera.second]\nsource = '
                        '"synthetic"\ncalibration = "../camera-calibration-second.json"\n'
                        'references = "../coin-references-second"\n')  # fmt: skip
    text += '[hardware]\nbackend = "gpio"\n[sensors]\npin_factory = "mock"\n'
    for role, pin in (("start_a", 23), ("start_b", 24), ("fault_a", 17), ("fault_b", 27)):
        text += f'[[sensors.line]]\nrole = "{role}"\npin = {pin}\nactive = "low"\n'
    (folder / "t.toml").write_text(text)
    config = load_config(folder / "t.toml")
    real = sources.openers
    monkeypatch.setattr(sources, "openers", lambda s: (real(s)[0], _Unplugged))

    def health() -> list[tuple[str, bool]]:
        clock = SimClock(start_ns=100 * 10**9, wall_at_start=1_000_000.0)
        lines = FakeEdgeSource.for_lines(config.sensors.lines)
        service = TableService(config, clock=clock, edge_source=lines)
        try:
            return [(str(i.payload["sensor"]), bool(i.payload["ok"]))
                    for i in service.journal.inputs() if i.kind == "health"]  # fmt: skip
        finally:
            service.close()

    assert health() == [(SECOND_CAMERA_SENSOR, False)]  # not "recovered" by the lines
    assert health() == [(SECOND_CAMERA_SENSOR, False)]  # a restart: still out, nothing new


def _health(events: list[Any]) -> list[tuple[str, bool]]:
    return [(e.sensor, e.ok) for e in events if isinstance(e, HealthEvent)]


def _poll(watch: CameraWatch, times: range) -> tuple[list[Landed], list[Any]]:
    """Poll the watch at each time: the landings it gives, and every event.
    (:func:`_pair`'s cameras have no coin references: the coins below lean,
    a cleet told by its outline alone.)"""
    events = [e for t in times for e in watch.poll(t)]
    return [e for e in events if isinstance(e, Landed)], events


def test_with_the_first_camera_unplugged_before_go_the_second_judges_the_landing(
    table: Path,
) -> None:
    """``tableref run``, the first camera gone before Go (no empty floor of
    its own): the second camera's preview is watched for the coin to settle,
    its still alone is the ``landed`` input the engine rules, and the
    evidence says the first gave no frames. The first camera's fault stays
    a ``suspended`` ruling; once it is back, the next landing is both
    cameras' again."""
    from controller.service import TableService
    from controller.timebase import SimClock

    path = table / "fallback.toml"  # a journal of its own: a new match
    path.write_text(CONFIG.replace("[match]", 'journal = "fallback.sqlite"\n[match]'))
    config = load_config(path)
    clock = SimClock(start_ns=100 * 10**9, wall_at_start=1_000_000.0)
    service = TableService(config, clock=clock)
    try:
        assert isinstance(service.camera, LiveCamera)
        floor = service.camera.watch.link.source
        assert isinstance(floor, SyntheticSource)
        floor.fail = True
        live_toss(service, clock, floor, Landing(60, 110, "tails", rotation_deg=140))
        landed = [i for i in service.journal.inputs() if i.kind == "landed"]
        decided = [r for r in service.journal.rulings() if r["kind"] != "notice"]
        floor.fail = False
        floor.drop(None)  # the coin picked up before the next Go
        live_toss(service, clock, floor, Landing(110, 70, "heads", rotation_deg=20))
        again = [i for i in service.journal.inputs() if i.kind == "landed"][len(landed) :]
        health = [(i.payload["sensor"], i.payload["ok"])
                  for i in service.journal.inputs() if i.kind == "health"]  # fmt: skip
    finally:
        service.close()
    assert len(landed) == 1
    assert landed[0].payload["face"] == "tails" and landed[0].payload["in_area"] is True
    doc = json.loads((config.journal.parent / str(landed[0].payload["evidence"])).read_text())
    assert doc["fused"] is True and doc["verdict"] == "tails"
    assert doc["cameras"]["first"] == {"evidence": None, "verdict": None, "why": "no frames"}
    assert doc["cameras"]["second"]["verdict"] == "tails"
    assert [(r["kind"], r["rule"], r["to"]) for r in decided] == [
        ("suspended", None, None),
        ("point", "2.3.1", "ben"),
    ], decided
    assert CAMERA_SENSOR in str(decided[0]["detail"])
    # Back: its recovery (at the next Go) and a landing both cameras judged.
    assert health == [(CAMERA_SENSOR, False), (CAMERA_SENSOR, True)]
    assert len(again) == 1
    doc = json.loads((config.journal.parent / str(again[0].payload["evidence"])).read_text())
    assert {seen["verdict"] for seen in doc["cameras"].values()} == {"heads"}, doc


def test_the_first_camera_failing_mid_flight_hands_the_watch_to_the_second(
    tmp_path: Path,
) -> None:
    """The empty floor taken by both, then the first camera unplugged while
    the coin is in the air: the second's own settle detector (told its own
    empty floor) says when it is at rest, and its still is the landing."""
    first, _second, watch = _pair()
    watch._evidence, watch._base = tmp_path / "ev", tmp_path
    assert _health(watch.start(0) + watch.empty_floor(1)) == []
    assert _poll(watch, range(2, 5)) == ([], [])
    first.fail = True
    assert _poll(watch, range(5, 8))[0] == []  # nothing has landed: nothing settles
    first.drop(Landing(100.0, 70.0, "heads", tilt_deg=75))  # leaning: a cleet
    landed, events = _poll(watch, range(8, 20))
    assert _health(events) == []  # the first's fault was said once, at t=5
    assert len(landed) == 1 and landed[0].face.value == "edge"
    assert watch.seen[0] == ("first", None)
    assert watch.seen[1][0] == "second" and watch.seen[1][1] is not None
    doc = json.loads((tmp_path / landed[0].evidence).read_text())
    assert doc["cameras"]["first"] == {"evidence": None, "verdict": None, "why": "no frames"}
    assert doc["cameras"]["second"]["verdict"] == "edge"
    assert (tmp_path / "ev" / f"{Path(landed[0].evidence).stem}-second.png").is_file()
    assert not list((tmp_path / "ev").glob("*-first.*"))
    # The harness's synthetic frame input too: the second's stills alone.
    looked = [e for e in watch.look(30) if isinstance(e, Landed)]
    assert len(looked) == 1 and watch.seen[0] == ("first", None)
    watch.close()


def test_the_first_camera_back_mid_flight_takes_the_watch_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Out for a few frames and back before the coin lands: the first
    camera's preview is watched again (the second is asked for one preview,
    with its still), its fault and recovery reported as before, and the
    landing is both cameras'."""
    first, second, watch = _pair()
    watch.start(0)
    watch.empty_floor(1)
    asked: list[int] = []
    preview = second.preview

    def counted() -> Any:
        asked.append(1)
        return preview()

    monkeypatch.setattr(second, "preview", counted)
    first.fail = True
    down = _poll(watch, range(2, 5))[1]
    assert len(asked) == 3  # the second watched while the first is out
    first.fail = False
    first.drop(Landing(100.0, 70.0, "tails", tilt_deg=75))
    landed, up = _poll(watch, range(5, 20))
    assert _health(down + up) == [(CAMERA_SENSOR, False), (CAMERA_SENSOR, True)]
    assert len(landed) == 1 and landed[0].face.value == "edge"
    assert len(asked) == 3 + 1  # then only at the still
    assert all(obs is not None and obs.found for _, obs in watch.seen)
    watch.close()


def test_the_first_camera_losing_its_still_leaves_the_landing_to_the_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its preview settled, then no still: the second's still is the landing."""
    from vision.model import CameraError

    first, _second, watch = _pair()
    watch.start(0)
    watch.empty_floor(1)

    def unplugged() -> Any:
        raise CameraError("unplugged")

    monkeypatch.setattr(first, "still", unplugged)
    first.drop(Landing(80.0, 100.0, "heads", tilt_deg=75))
    landed, events = _poll(watch, range(2, 14))
    assert _health(events)[:1] == [(CAMERA_SENSOR, False)]
    assert len(landed) == 1 and landed[0].face.value == "edge"
    assert watch.seen[0] == ("first", None)
    watch.close()


def test_both_cameras_out_judge_nothing_until_one_is_back() -> None:
    """Both out: nothing judged, each camera's fault said once (the second's
    as soon as it is watched, the first being out); the second back, the
    first still out: the second judges alone."""
    first, second, watch = _pair()
    watch.start(0)
    watch.empty_floor(1)
    first.fail = second.fail = True
    first.drop(Landing(100.0, 70.0, "heads", tilt_deg=75))
    none, out = _poll(watch, range(2, 14))
    second.fail = False
    landed, back = _poll(watch, range(14, 26))
    assert none == [] and len(landed) == 1 and landed[0].face.value == "edge"
    assert watch.seen[0] == ("first", None)
    assert _health(out) == [(CAMERA_SENSOR, False), (SECOND_CAMERA_SENSOR, False)]
    assert _health(back) == [(SECOND_CAMERA_SENSOR, True)]
    watch.close()
