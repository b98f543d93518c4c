"""The squidge-off (5(a)) from the mat camera: the engine's pending notices,
the line-up read against rendered mats, and the live table end to end.
Rigs 3, 5, 8 and 21 here; the benchmark (bench/squidge.py) uses 30-79."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from controller.games.tiddlywinks.codec import encode
from controller.games.tiddlywinks.engine import TiddlywinksEngine
from controller.games.tiddlywinks.events import Sighting, Squidge
from controller.games.tiddlywinks.geometry import COLOURS, Colour, MatSpec
from controller.games.tiddlywinks.scenario import parse_input
from controller.games.tiddlywinks.state import Format, Phase, Settings
from controller.model import RulingKind
from controller.strict import Table as StrictTable

B, G, R, Y = COLOURS
SINGLES = Settings(Format.SINGLES, ("ann", "ben", "ann", "ben"))
FAR = {"b1": (0.0, 200.0), "g1": (300.0, 0.0), "r1": (0.0, -300.0), "y1": (-300.0, 0.0)}


def _step(state: Any, event: Any) -> tuple[Any, list[Any]]:
    state, out = TiddlywinksEngine().step(state, event)
    return state, list(out)


def test_a_pending_squidge_is_a_notice_once_per_change_then_judged() -> None:
    state = TiddlywinksEngine().start(SINGLES)
    waiting = Squidge(t_ns=1, winks=(Sighting("b1", 50.0, 0.0),), pending=("waiting for green",))
    state, first = _step(state, waiting)
    state, again = _step(state, dataclasses.replace(waiting, t_ns=2))
    other = ("2 green winks came out: one wink of each colour is squidged; the umpire decides",)
    state, changed = _step(state, dataclasses.replace(waiting, t_ns=3, pending=other))
    assert [d.kind for d in first] == [RulingKind.NOTICE]
    assert "waiting for green" in first[0].detail and first[0].rule == "5(a)"
    assert again == []  # the same reasons: not told twice
    assert len(changed) == 1 and "umpire decides" in changed[0].detail
    assert state.phase is Phase.SQUIDGE_OFF
    winks = tuple(Sighting(i, x, y) for i, (x, y) in FAR.items())
    state, judged = _step(state, Squidge(t_ns=4, winks=winks))
    assert [d.kind for d in judged][:1] == [RulingKind.SQUIDGE_OFF]
    assert state.phase is Phase.PLAY and state.squidge_pending == ()


def test_pending_is_carried_by_the_codec_and_the_scenario_reader() -> None:
    event = Squidge(t_ns=0, winks=(Sighting("b3", 10.0, 5.0),), pending=("waiting for green",))
    kind, payload = encode(event)
    assert payload["pending"] == ["waiting for green"]
    again = parse_input(kind, StrictTable(payload, "j", "input"), 0, SINGLES)
    assert again == event
    bare = parse_input(kind, StrictTable({"pending": ["waiting"]}, "j", "input"), 0, SINGLES)
    assert bare == Squidge(t_ns=0, winks=(), pending=("waiting",))


def test_the_line_up_is_kept_by_the_engine_until_the_round_is_judged() -> None:
    """The camera's line-up (a ``lineup`` input): in the state through the
    round, carried by the codec and the scenario reader, gone once judged."""
    from controller.games.tiddlywinks.events import Lineup

    winks = (Sighting("b1", -880.0, 430.0), Sighting("b3", -870.0, 400.0),
             Sighting("b3", -860.0, 410.0), Sighting("g3", 900.0, 700.0, off=True),
             Sighting("r1", potted=True))  # fmt: skip
    lineup = Lineup(t_ns=1, winks=winks, evidence="lineup-1.jpg")
    kind, payload = encode(lineup)
    assert kind == "lineup"
    assert parse_input(kind, StrictTable(payload, "j", "input"), 1, SINGLES) == lineup
    state, out = _step(TiddlywinksEngine().start(SINGLES), lineup)
    assert out == [] and state.squidge_lineup == winks
    tie = {"b1": (0.0, 200.0), "g1": (200.0, 0.0), "r1": (0.0, -300.0), "y1": (-300.0, 0.0)}
    state, _ = _step(state, Squidge(t_ns=2, winks=tuple(Sighting(i, *p) for i, p in tie.items())))
    assert state.contenders == (B, G) and state.squidge_lineup == ()  # a new round
    state, _ = _step(state, dataclasses.replace(lineup, t_ns=3))
    state, _ = _step(state, Squidge(t_ns=4, winks=(Sighting("b1", 0.0, 50.0),
                                                   Sighting("g1", 0.0, 90.0))))  # fmt: skip
    assert state.phase is Phase.PLAY and state.squidge_lineup == ()
    state, late = _step(state, dataclasses.replace(lineup, t_ns=5))
    assert "disregarded" in late[0].detail and state.squidge_lineup == ()


def _seen(colour: Colour, x: float, y: float, i: int, size: int = 16) -> Any:
    from vision.mat.model import SeenWink

    return SeenWink(colour, size, x, y, i)


def test_a_wink_lying_in_front_before_the_squidge_off_that_moves_is_for_the_umpire() -> None:
    from controller.games.tiddlywinks.camera_squidge import SquidgeWatch
    from vision.mat.model import MatObservation, PotView

    pot = PotView(0.0, 0.0, 24.0, dict.fromkeys(COLOURS, 0))
    behind = [_seen(B, -880.0, 430.0, 0), _seen(G, 880.0, 430.0, 1), _seen(R, 880.0, -430.0, 2),
              _seen(Y, -880.0, -430.0, 3)]  # fmt: skip
    stray = _seen(B, -300.0, 100.0, 4)  # a blue wink on the mat before anyone squidged
    watch = SquidgeWatch(MatSpec())
    assert watch.look(MatObservation((*behind, stray), pot), 0, COLOURS) is None
    moved = [_seen(c, x, y, i) for i, (c, x, y) in
             enumerate([(G, 100.0, 50.0), (R, 0.0, -200.0), (Y, -150.0, -60.0)])]  # fmt: skip
    later = MatObservation((behind[0], _seen(B, -250.0, 120.0, 4), *moved), pot)
    squidge = watch.look(later, 1, COLOURS)
    assert squidge is not None
    assert any("was not behind the baseline" in p for p in squidge.pending)
    # blue is otherwise done: nothing of blue's came out from behind its baseline
    assert [s.id[0] for s in squidge.winks] == ["g", "r", "y"]


def test_a_wink_seen_nowhere_says_who_wins_if_it_left_the_mat() -> None:
    from controller.games.tiddlywinks.camera_squidge import SquidgeWatch
    from vision.mat.model import MatObservation, PotView

    behind = [_seen(B, -880.0, 430.0, 0), _seen(G, 880.0, 430.0, 1), _seen(R, 880.0, -430.0, 2),
              _seen(Y, -880.0, -430.0, 3)]  # fmt: skip
    watch = SquidgeWatch(MatSpec())
    empty = PotView(0.0, 0.0, 24.0, dict.fromkeys(COLOURS, 0))
    watch.look(MatObservation(tuple(behind), empty), 0, COLOURS)
    out = [_seen(G, 100.0, 50.0, 1), _seen(R, 0.0, -300.0, 2), _seen(Y, -150.0, -60.0, 3)]
    one_potted = PotView(0.0, 0.0, 24.0, {G: 1})  # not green's: its wink is on the mat... or is it?
    squidge = watch.look(MatObservation(tuple(out), one_potted), 1, COLOURS)
    assert squidge is not None
    assert squidge.pending == (
        "b3 is seen nowhere: if it left the mat, green wins (the umpire decides)",
    )


@pytest.mark.parametrize(("tie_mm", "then"), [(0.0, "green wins"), (15.0, "green and red tie")])
def test_what_follows_a_wink_seen_nowhere_uses_the_matchs_tie(tie_mm: float, then: str) -> None:
    from controller.games.tiddlywinks.camera_squidge import SquidgeWatch
    from vision.mat.model import MatObservation, PotView

    behind = [_seen(B, -880.0, 430.0, 0), _seen(G, 880.0, 430.0, 1), _seen(R, 880.0, -430.0, 2),
              _seen(Y, -880.0, -430.0, 3)]  # fmt: skip
    watch = SquidgeWatch(MatSpec(), tie_mm)
    watch.look(MatObservation(tuple(behind), PotView(0.0, 0.0, 24.0)), 0, COLOURS)
    # green 84.8 mm from the pot, red 98 mm, yellow further; blue's wink gone, a wink potted
    out = [_seen(G, 100.0, 50.0, 1), _seen(R, 0.0, -125.0, 2), _seen(Y, -250.0, -60.0, 3)]
    squidge = watch.look(MatObservation(tuple(out), PotView(0.0, 0.0, 24.0, {G: 1})), 1, COLOURS)
    assert squidge is not None and f"if it left the mat, {then}" in squidge.pending[0]


# --- the line-up against rendered mats ----------------------------------------

cv2 = pytest.importorskip("cv2")

from controller.games.tiddlywinks.camera_squidge import SquidgeWatch  # noqa: E402
from vision.mat.camera import MatView  # noqa: E402
from vision.mat.render import MatRig, render  # noqa: E402
from vision.mat.synth.lineup import squidge_run  # noqa: E402
from vision.mat.synth.scene import MatScene, TrueWink  # noqa: E402


@pytest.fixture(scope="module")
def rig_view() -> tuple[MatRig, MatView]:
    rig = MatRig.make(5)
    return rig, MatView.calibrate(render(rig, MatScene(()), seed=1), hfov_deg=rig.hfov_deg)


def _look(rig_view: tuple[MatRig, MatView], scenes: list[MatScene],
          contenders: tuple[Colour, ...] = COLOURS) -> list[Squidge | None]:  # fmt: skip
    rig, view = rig_view
    watch = SquidgeWatch(MatSpec())
    return [watch.look(view.analyse(render(rig, s, seed=k + 2)), k, contenders)
            for k, s in enumerate(scenes)]  # fmt: skip


def _nearest(squidge: Squidge) -> tuple[Colour, ...]:
    from controller.games.tiddlywinks.geometry import Place, Wink, squidge_nearest

    entries = [(Wink(s.id, Place.POTTED if s.potted else Place.FIELD, s.x or 0.0, s.y or 0.0),
                s.off) for s in squidge.winks]  # fmt: skip
    return squidge_nearest(MatSpec(), entries)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_each_colours_wink_out_of_the_line_up_is_its_squidge(
    rig_view: tuple[MatRig, MatView], seed: int
) -> None:
    run = squidge_run(np.random.default_rng(seed))
    lineup, squidge = _look(rig_view, [run.before, run.after])
    assert lineup is None and squidge is not None
    assert squidge.pending == ()
    assert [s.id[0] for s in squidge.winks] == ["b", "g", "r", "y"]
    assert _nearest(squidge) == run.winners


def test_two_winks_out_of_one_colour_are_for_the_umpire(rig_view: tuple[MatRig, MatView]) -> None:
    run = squidge_run(np.random.default_rng(21), twice=G)
    _, squidge = _look(rig_view, [run.before, run.after])
    assert squidge is not None
    assert any("2 green winks came out" in p for p in squidge.pending)
    assert [s.id[0] for s in squidge.winks] == ["b", "r", "y"]


def _undo(run: Any, *colours: Colour) -> MatScene:
    """The mat after ``run`` with the winks of ``colours`` back in the line-up."""
    ids = {run.played[c] for c in colours}
    before = {w.id: w for w in run.before.winks}
    return MatScene(tuple(before[w.id] if w.id in ids else w for w in run.after.winks))


def _without(scene: MatScene, wid: str, *extra: TrueWink) -> MatScene:
    return MatScene((*(w for w in scene.winks if w.id != wid), *extra), scene.spec)


def test_colours_still_waiting_and_a_wink_seen_nowhere(rig_view: tuple[MatRig, MatView]) -> None:
    run = squidge_run(np.random.default_rng(31))
    played = run.played
    half = _undo(run, R, Y)
    # red's wink gone from the mat (off it), yellow's not yet played
    half_off = _without(half, played[R])
    _, waiting, off = _look(rig_view, [run.before, half, half_off])
    assert waiting is not None and waiting.pending == ("waiting for red, yellow",)
    assert off is not None and off.pending == ("waiting for yellow",)  # pot seen empty: off
    assert [s.off for s in off.winks] == [False, False, True]
    # the same, but a wink in the pot: red's could be in there too
    potted = TrueWink(played[B], 0.0, 0.0, 0, True)
    hidden = _without(half_off, played[B], potted)
    _, unsure = _look(rig_view, [run.before, hidden])
    assert unsure is not None
    assert any(p.startswith(f"{played[R][0]}") and "seen nowhere" in p for p in unsure.pending)


def test_after_a_tie_the_line_up_is_taken_again_for_the_tied_colours(
    rig_view: tuple[MatRig, MatView],
) -> None:
    run = squidge_run(np.random.default_rng(41))
    rig, view = rig_view
    watch = SquidgeWatch(MatSpec())
    watch.look(view.analyse(render(rig, run.before, seed=2)), 0, COLOURS)
    assert watch.look(view.analyse(render(rig, run.after, seed=3)), 1, COLOURS) is not None
    # blue and green tied: their winks still lie out, so no line-up yet
    tied = (B, G)
    assert watch.look(view.analyse(render(rig, run.after, seed=4)), 2, tied) is None
    assert watch.lineup is None
    back = _undo(run, B, G)
    assert watch.look(view.analyse(render(rig, back, seed=5)), 3, tied) is None
    assert watch.lineup is not None  # the tied winks are back behind the baselines
    b_out = TrueWink(run.played[B], 120.0, 40.0)
    g_out = TrueWink(run.played[G], -60.0, 150.0)
    again = MatScene(tuple(
        b_out if w.id == b_out.id else g_out if w.id == g_out.id else w
        for w in back.winks))  # fmt: skip
    squidge = watch.look(view.analyse(render(rig, again, seed=6)), 4, tied)
    assert squidge is not None and squidge.pending == ()
    assert [s.id[0] for s in squidge.winks] == ["b", "g"]
    assert squidge.winks[0].x == pytest.approx(120.0, abs=1.0)


# --- the live table --------------------------------------------------------------

from tests.test_mat_live import Table, _replays  # noqa: E402


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    table = Table(tmp_path, monkeypatch)
    try:
        yield table
    finally:
        table.close()


def test_the_camera_reads_the_squidge_off_and_a_replay_gives_the_same(
    fresh: Table, tmp_path: Path
) -> None:
    run = squidge_run(np.random.default_rng(51))
    fresh.source.show(run.before)
    fresh.at(0.5)  # the line-up
    half = _undo(run, R, Y)
    fresh.source.show(half)
    fresh.at(2.0)  # settled: red and yellow still to play
    fresh.at(3.0)
    notices = [r for r in fresh.rulings() if r["rule"] == "5(a)"]
    fresh.source.show(run.after)
    fresh.at(4.5)
    rulings = fresh.rulings()
    squidges = fresh.inputs("squidge")
    fresh.close()
    assert len(notices) == 1 and "waiting for red, yellow" in notices[0]["detail"]
    off = [r for r in rulings if r["kind"] == "squidge_off"]
    assert len(off) == 1
    winner = run.winners[0].value if len(run.winners) == 1 else None
    assert off[0].get("colour") == winner
    assert len(squidges) == 2 and "pending" in squidges[0] and "pending" not in squidges[1]
    assert _replays(tmp_path) == 2


def test_a_restart_mid_squidge_off_resumes_against_the_journaled_line_up(
    fresh: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blue and green have squidged when the service restarts: the camera
    goes on against the line-up it journaled, not the mat as it lies now."""
    run = squidge_run(np.random.default_rng(53))
    fresh.source.show(run.before)
    fresh.at(0.5)  # the line-up
    half = _undo(run, R, Y)
    fresh.source.show(half)
    fresh.at(2.0)  # settled: red and yellow still to play
    fresh.close()
    again = Table(tmp_path, monkeypatch)  # the service restarts
    try:
        again.source.show(half)
        again.at(1.0)
        again.source.show(run.after)  # red and yellow squidge
        again.at(3.0)
        rulings = again.rulings()
        notices = [r["detail"] for r in rulings if r["rule"] == "5(a)"]
        off = [r for r in rulings if r["kind"] == "squidge_off"]
        lineups = again.inputs("lineup")
    finally:
        again.close()
    assert not any("waiting for blue" in n for n in notices)
    assert len(off) == 1
    winner = run.winners[0].value if len(run.winners) == 1 else None
    assert off[0].get("colour") == winner
    assert len(lineups) == 1 and len(lineups[0]["winks"]) == 24
    assert (tmp_path / lineups[0]["evidence"]).is_file()  # the line-up's still is kept
    assert _replays(tmp_path) == len(rulings)


def test_a_tie_of_all_four_keeps_the_line_up_through_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All four tie (``squidge_tie_mm``), so the colours in contention do not
    change and the camera keeps its line-up: journaled again, so that a
    restart before the resquidge does not take the tied winks lying out in
    front as the line-up."""
    from tests.test_mat_live import CONFIG

    config = CONFIG.replace(
        'players = ["ann", "ben"]', 'players = ["ann", "ben"]\nsquidge_tie_mm = 20.0'
    )
    run = squidge_run(np.random.default_rng(54))
    out = {B: (0.0, 150.0), G: (150.0, 0.0), R: (0.0, -150.0), Y: (-150.0, 0.0)}
    again_out = {B: (0.0, 60.0), G: (250.0, 0.0), R: (0.0, -300.0), Y: (-350.0, 0.0)}

    def squidged(to: dict[Colour, tuple[float, float]]) -> MatScene:
        moved = {run.played[c]: xy for c, xy in to.items()}
        return MatScene(tuple(TrueWink(w.id, *moved[w.id]) if w.id in moved else w
                              for w in run.before.winks))  # fmt: skip

    table = Table(tmp_path, monkeypatch, config)
    try:
        table.source.show(run.before)
        table.at(0.5)  # the line-up
        table.source.show(squidged(out))
        table.at(2.0)  # all four 139 mm or so from the pot: a tie, all resquidge
        tie = [r for r in table.rulings() if r["kind"] == "squidge_off"]
        table.at(2.5)
    finally:
        table.close()
    assert len(tie) == 1 and tie[0].get("colour") is None
    again = Table(tmp_path, monkeypatch, config)  # the service restarts, the winks still out
    try:
        again.source.show(squidged(out))
        again.at(0.5)
        again.source.show(run.before)  # picked up, put back where they were
        again.at(2.0)
        again.source.show(squidged(again_out))
        again.at(4.0)
        rulings = again.rulings()
    finally:
        again.close()
    notices = [r["detail"] for r in rulings if r["rule"] == "5(a)" and r["kind"] == "notice"]
    assert not any("not behind the baseline" in n for n in notices), notices
    off = [r for r in rulings if r["kind"] == "squidge_off"]
    assert [r.get("colour") for r in off] == [None, "blue"]
    assert _replays(tmp_path) == len(rulings)


def test_the_shot_button_reads_the_squidge_off_at_once(fresh: Table, tmp_path: Path) -> None:
    run = squidge_run(np.random.default_rng(52))
    fresh.source.show(run.before)
    fresh.at(0.5)
    fresh.source.show(run.after)
    fresh.press(0.55)  # no time to settle: the button reads it now
    off = [r for r in fresh.rulings() if r["kind"] == "squidge_off"]
    fresh.close()
    assert len(off) == 1
    assert _replays(tmp_path) == 1
