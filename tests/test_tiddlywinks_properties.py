"""Properties of the tiddlywinks engine over random games and random mats."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.tiddlywinks import geometry as g
from controller.games.tiddlywinks.engine import TiddlywinksEngine
from controller.games.tiddlywinks.events import Pass, Shot, Sighting, Squidge, TimeIn, TimeOut
from controller.games.tiddlywinks.module import MODULE
from controller.games.tiddlywinks.scoring import place_points, pot_out_points, tiddly_points
from controller.games.tiddlywinks.state import Format, Phase, Settings, State
from controller.harness import simulate
from controller.model import Decision, EndMatch, Event, RulingKind, Tick
from controller.scenario import ORIGIN_NS, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = Settings(Format.SINGLES, ("ann", "ben", "ann", "ben"), time_limit_ns=60 * 10**9)

# An action is interpreted against the state it meets, so every game is legal-ish:
# (kind, choice of wink, x, y, what happens to it)
actions = st.lists(
    st.tuples(
        st.sampled_from(["shot", "shot", "shot", "pass", "pause", "resume", "wait"]),
        st.integers(min_value=0, max_value=23),
        st.floats(min_value=-850.0, max_value=850.0),
        st.floats(min_value=-400.0, max_value=400.0),
        st.sampled_from(["rest", "rest", "pot", "off", "squop"]),
    ),
    max_size=40,
)


def _shot(state: State, choice: int, x: float, y: float, what: str) -> Shot | None:
    mine = g.playable(state.mat, state.turn)
    if not mine:
        return None
    wink = mine[choice % len(mine)]
    if what == "pot":
        return Shot(t_ns=0, wink=wink.id, winks=(Sighting(wink.id, potted=True),))
    if what == "off":
        return Shot(t_ns=0, wink=wink.id, winks=(Sighting(wink.id, x, 500.0),))
    others = [w for w in g.in_play(state.mat) if w.id != wink.id]
    if what == "squop" and others:
        target = others[choice % len(others)]
        seen = Sighting(wink.id, target.x + 5.0, target.y, on=(target.id,))
        return Shot(t_ns=0, wink=wink.id, winks=(seen,))
    return Shot(t_ns=0, wink=wink.id, winks=(Sighting(wink.id, x, y),))


Step = tuple[str, int, float, float, str]


def play(steps: list[Step]) -> tuple[State, list[Decision], list[Event]]:
    """Run a random game; returns the final state, decisions and the inputs."""
    engine = TiddlywinksEngine()
    state = engine.start(SETTINGS)
    decisions: list[Decision] = []
    inputs: list[Event] = []
    t = ORIGIN_NS
    first = (Sighting("b1", 50.0, 0.0), Sighting("g1", 0.0, 300.0))
    rest = (Sighting("r1", 300.0, 0.0), Sighting("y1", 0.0, -300.0))
    squidge = Squidge(t_ns=t, winks=(*first, *rest))
    todo: list[Event] = [squidge]
    for kind, choice, x, y, what in steps:
        t += 7 * 10**9
        event: Event | None = None
        if kind == "shot":
            event = _shot(state, choice, x, y, what)
        elif kind == "pass":
            event = Pass(t_ns=0)
        elif kind == "pause":
            event = TimeOut(t_ns=0, reason="wink lost")
        elif kind == "resume":
            event = TimeIn(t_ns=0)
        todo.append(event if event is not None else Pass(t_ns=0))
        for pending in todo:
            due = engine.deadline(state)
            while due is not None and due <= t:  # the ticks a runtime would deliver
                state, out = engine.step(state, Tick(t_ns=due))
                decisions += out
                due = engine.deadline(state)
            stamped = type(pending)(**{**_fields(pending), "t_ns": t})
            inputs.append(stamped)
            state, out = engine.step(state, stamped)
            decisions += out
        todo = []
    end = EndMatch(t_ns=t + 1, reason="property")
    inputs.append(end)
    state, out = engine.step(state, end)
    return state, decisions + list(out), inputs


def _fields(event: Event) -> dict[str, Any]:
    return {name: getattr(event, name) for name in event.__dataclass_fields__}


@settings(max_examples=40, deadline=None)
@given(actions)
def test_replaying_the_same_inputs_gives_the_same_rulings(steps: Any) -> None:
    state, decisions, inputs = play(steps)
    engine = TiddlywinksEngine()
    again = engine.start(SETTINGS)
    replayed: list[Decision] = []
    for event in inputs:
        due = engine.deadline(again)
        while due is not None and due <= event.t_ns:
            again, out = engine.step(again, Tick(t_ns=due))
            replayed += out
            due = engine.deadline(again)
        again, out = engine.step(again, event)
        replayed += out
    assert replayed == decisions
    assert again == state


@settings(max_examples=40, deadline=None)
@given(actions)
def test_every_game_shares_out_seven_points(steps: Any) -> None:
    state, decisions, _ = play(steps)
    assert state.phase is Phase.OVER
    assert sum(p for _, p in state.result) == 7
    over = [d for d in decisions if d.kind is RulingKind.MATCH_OVER]
    assert len(over) == 1
    tally: Any = dict(over[0].extra).get("tiddlies")
    if tally is not None:  # ended on tiddlies: 3 a potted wink, 1 an unsquopped wink in play
        under = g.squopped_ids(state.mat)
        for colour in g.COLOURS:
            mine = [w for w in state.mat if w.colour is colour]
            potted = sum(w.place is g.Place.POTTED for w in mine)
            free = sum(w.place is g.Place.FIELD and w.id not in under for w in mine)
            assert tally[colour.value] == 3 * potted + free


@given(st.dictionaries(st.sampled_from(g.COLOURS), st.integers(0, 40), min_size=4, max_size=4))
def test_tiddly_points_are_seven_ordered_and_shared(tally: dict[g.Colour, int]) -> None:
    points = tiddly_points(tally)
    assert sum(points.values()) == 7
    for a in g.COLOURS:
        for b in g.COLOURS:
            if tally[a] > tally[b]:
                assert points[a] > points[b]
            if tally[a] == tally[b]:
                assert points[a] == points[b]


orders = st.permutations(g.COLOURS).flatmap(
    lambda perm: st.lists(st.integers(1, 4), min_size=1, max_size=4).map(
        lambda cuts: _groups(list(perm), cuts)
    )
)


def _groups(perm: list[g.Colour], cuts: list[int]) -> list[tuple[g.Colour, ...]]:
    out: list[tuple[g.Colour, ...]] = []
    while perm:
        size = cuts[len(out) % len(cuts)]
        out.append(tuple(perm[:size]))
        perm = perm[size:]
    return out


@given(orders)
def test_pot_out_points_are_seven_with_the_point_transferred(order: Any) -> None:
    sides = pot_out_points(order)
    assert sum(sides.values()) == 7
    plain = place_points(order)
    before = {s: sum((plain[c] for c in s.colours), Fraction(0)) for s in g.Side}
    a, b = before[g.Side.BLUE_RED], before[g.Side.GREEN_YELLOW]
    if a != b:
        win = g.Side.BLUE_RED if a > b else g.Side.GREEN_YELLOW
        assert sides[win] == before[win] + 1


def test_the_record_of_every_scenario_replays_to_the_same_rulings() -> None:
    for path in sorted((ROOT / "tests" / "scenarios").glob("tiddlywinks-*.toml")):
        result = simulate(load_scenario(path))
        doc = MODULE.record_json(result.state, result.rulings, ORIGIN_NS)
        scenario: Any = doc["scenario"]
        until = load_scenario(path).until_s
        if until is not None:
            scenario = {**scenario, "until": until}
        again = simulate(parse_scenario(scenario, f"record of {path.name}"))
        assert [r.to_json_dict() for r in again.rulings] == [
            r.to_json_dict() for r in result.rulings
        ], path.name
