"""Backgammon property tests (hypothesis): for any sequence of presses,
pauses, cube actions and results, the players' used time adds up to the
time the clock was on less pauses, replay gives identical rulings and clocks,
and the score is the sum of what the rulings awarded."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import event as event_
from hypothesis import strategies as st

from controller.clock import Seat, paused_ms, used_ms
from controller.games.backgammon.engine import BackgammonEngine
from controller.games.backgammon.module import MODULE
from controller.games.backgammon.state import State
from controller.harness import simulate
from controller.model import Event, RulingKind, Tick
from controller.scenario import ORIGIN_NS, parse_scenario
from controller.strict import Table
from controller.timebase import seconds_to_ns

PLAYERS = st.sampled_from(["ann", "ben"])
SEATS = st.sampled_from(["left", "right"])
DIE = st.integers(min_value=1, max_value=6)

INPUTS: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.builds(lambda s: {"type": "press", "seat": s}, SEATS),
    st.builds(lambda s: {"type": "press", "seat": s}, SEATS),
    st.builds(lambda a, b: {"type": "opening_roll", "dice": {"ann": a, "ben": b}}, DIE, DIE),
    st.builds(
        lambda r: {"type": "pause", "reason": r},
        st.sampled_from(["die_off_table", "td_call", "break", "time_out"]),
    ),
    st.just({"type": "resume"}),
    st.builds(lambda e: {"type": "pause_switch", "engaged": e}, st.booleans()),
    st.builds(lambda p: {"type": "double", "player": p}, PLAYERS),
    st.builds(lambda p: {"type": "take", "player": p}, PLAYERS),
    st.builds(lambda p: {"type": "drop", "player": p}, PLAYERS),
    st.builds(
        lambda p, r: {"type": "game_result", "winner": p, "result": r},
        PLAYERS,
        st.sampled_from(["single", "gammon", "backgammon"]),
    ),
    st.builds(
        lambda s, d: {"type": "adjust", "seat": s, "delta_ms": d},
        SEATS,
        st.integers(-60_000, 60_000).filter(bool),
    ),
    st.builds(lambda p: {"type": "penalty", "against": p}, PLAYERS),
)


def _opening(a: int, b: int) -> list[dict[str, Any]]:
    lower = "left" if a < b else "right"
    return [
        {"type": "opening_roll", "dice": {"ann": a, "ben": b}},
        {"type": "press", "seat": lower},
    ]


OPENINGS = st.builds(_opening, DIE, DIE).filter(
    lambda o: o[0]["dice"]["ann"] != o[0]["dice"]["ben"]
)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    length = draw(st.integers(min_value=1, max_value=5))
    flag = draw(st.sampled_from(["lose_match", "overtime"]))
    delay = draw(st.sampled_from([0, 5, 12]))
    steps = draw(st.lists(st.tuples(st.floats(0, 40), INPUTS | OPENINGS), max_size=40))
    t, inputs = 0.0, []
    for gap, item in [(0.0, draw(OPENINGS)), *steps]:
        t = round(t + gap, 3)
        # An opening is the roll and, a moment later, the lower die's press.
        for offset, entry in enumerate(item if isinstance(item, list) else [item]):
            inputs.append({"at": round(t + offset * 0.5, 3), **entry})
        t = inputs[-1]["at"]
    clock = {"flag": flag, "delay_s": delay, "reserve_per_point_s": 30, "overtime_period_s": 20}
    match = {"players": ["ann", "ben"], "length": length, "clock": clock}
    return {"game": "backgammon", "match": match, "input": inputs}


def _events(doc: dict[str, Any]) -> tuple[Any, list[Event]]:
    scenario = parse_scenario(doc, "prop.toml")
    return scenario.settings, [i.event for i in scenario.inputs]


def _on(state: State) -> bool:
    return state.clock is not None and state.clock.running is not None


def _total(state: State, t_ns: int) -> int:
    clock = state.clock
    assert clock is not None
    return (
        used_ms(clock, Seat.LEFT, t_ns) + used_ms(clock, Seat.RIGHT, t_ns) + paused_ms(clock, t_ns)
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_used_time_adds_up_to_time_on_less_pauses(doc: dict[str, Any]) -> None:
    settings_, events = _events(doc)
    engine = BackgammonEngine()
    state = engine.start(settings_)
    on_ms = 0  # time a game's clock was started and not yet stopped
    pending = list(events)
    last_ms = ORIGIN_NS // 1_000_000
    while True:
        due = engine.deadline(state)
        if pending and (due is None or pending[0].t_ns <= due):
            event = pending.pop(0)
        elif due is not None:
            event = Tick(t_ns=due)
        else:
            break
        now_ms = event.t_ns // 1_000_000
        if _on(state):
            on_ms += now_ms - last_ms
        last_ms = now_ms
        state, _ = engine.step(state, event)
    assert state.clock is not None
    end = last_ms * 1_000_000
    total = _total(state, end)
    assert total == on_ms
    event_(f"clock on: {on_ms > 0}")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_replay_gives_identical_rulings_and_clocks(doc: dict[str, Any]) -> None:
    first = simulate(parse_scenario(doc, "prop.toml"))
    second = simulate(parse_scenario(doc, "prop.toml"))
    assert [r.to_json() for r in first.rulings] == [r.to_json() for r in second.rulings]
    at = ORIGIN_NS + seconds_to_ns(2000)
    assert MODULE.clock(first.state, at) == MODULE.clock(second.state, at)
    assert first.state == second.state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_score_is_what_the_rulings_awarded(doc: dict[str, Any]) -> None:
    rulings: list[dict[str, Any]] = [
        r.to_json_dict() for r in simulate(parse_scenario(doc, "prop.toml")).rulings
    ]
    length = doc["match"]["length"]
    score = {"ann": 0, "ben": 0}
    over = False
    for index, ruling in enumerate(rulings):
        if ruling["kind"] in ("game_over", "penalty") and max(score.values()) >= length:
            raise AssertionError(f"points after the match reached its length: {ruling}")
        assert not over or ruling["kind"] == "notice", "nothing is ruled after the match"
        if ruling["kind"] == "game_over":
            score[ruling["to"]] += ruling["points"]
            assert ruling["points"] % ruling["cube"] == 0
        elif ruling["kind"] == "penalty":
            score[ruling["to"]] += ruling["points"]
        if ruling["kind"] in ("game_over", "penalty") and max(score.values()) >= length:
            assert rulings[index + 1]["kind"] == "match_over", "5.14: the match ends at once"
        elif ruling["kind"] == "match_over":
            over = True
            reached = max(score.values()) >= length
            assert reached == (ruling["rule"] == "5.14")
        if ruling["kind"] != "notice":
            assert ruling["rule"] is not None
        assert ruling["score"] == score
        if ruling["kind"] not in ("game_over", "penalty", "match_over"):
            assert over or max(score.values()) < length, "5.14: the match ends at once"
        if ruling["kind"] == "cube" and ruling["action"] == "double":
            assert max(score.values()) < length


def test_the_settings_round_trip() -> None:
    settings_, _ = _events(
        {"game": "backgammon", "match": {"players": ["a", "b"], "length": 3}, "input": []}
    )
    assert MODULE.parse_match(Table(MODULE.encode_match(settings_), "t", "m")) == settings_
    assert RulingKind.GAME_OVER.value == "game_over"
