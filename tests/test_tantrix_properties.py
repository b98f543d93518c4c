"""Tantrix properties: for any sequence of presses, pauses and time-outs, the
players' used time adds up to the elapsed time less pauses; replaying the same
inputs (through the journal's format) gives identical rulings and clocks; and
any result conserves 20.0 TPs within 0.0-20.0 with the penalties of 3b."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.clock import paused_ms, snapshot, used_ms
from controller.clock.control import Seat
from controller.gamemodule import decode, encode
from controller.games.registry import module_for
from controller.games.tantrix.engine import TantrixEngine
from controller.games.tantrix.state import Phase, State
from controller.games.tantrix.step import taken_ms
from controller.games.tantrix.tp import time_penalties
from controller.model import Decision, Event, Game, Tick
from controller.strict import Table

MS = 1_000_000
MODULE = module_for(Game.TANTRIX)
SETTINGS = MODULE.parse_match(Table({"players": ["ann", "ben"]}, "t", "match"))

# (type, payload) inputs as a command or the journal carries them.
INPUT: st.SearchStrategy[tuple[str, dict[str, Any]]] = st.one_of(
    st.builds(lambda s: ("press", {"seat": s}), st.sampled_from(["left", "right"])),
    st.builds(lambda e: ("pause_switch", {"engaged": e}), st.booleans()),
    st.just(("resume", {})),
    st.builds(lambda p: ("time_out", {"player": p}), st.sampled_from(["ann", "ben"])),
    st.builds(
        lambda r: ("pause", {"reason": r}), st.sampled_from(["time_out", "td_call", "other"])
    ),
)
STEPS = st.lists(st.tuples(st.integers(0, 400_000), INPUT), min_size=1, max_size=40)


def _events(steps: list[tuple[int, tuple[str, dict[str, Any]]]]) -> list[Event]:
    events, t_ms = [], 0
    for gap_ms, (kind, payload) in steps:
        t_ms += gap_ms
        # Sub-millisecond offsets: the clock floors every timestamp to the ms.
        t_ns = t_ms * MS + (gap_ms * 7919) % MS
        events.append(decode(MODULE, kind, payload, t_ns, SETTINGS))
    return events


def _play(events: list[Event]) -> tuple[State, list[Decision], list[Any]]:
    engine = TantrixEngine()
    state = engine.at_origin(engine.start(SETTINGS), 0)
    decisions: list[Decision] = []
    clocks: list[Any] = []
    for event in events:
        due = engine.deadline(state)
        while due is not None and due < event.t_ns:  # ticks first, as the runtime does
            state, made = engine.step(state, Tick(t_ns=due))
            decisions += made
            due = engine.deadline(state)
        state, made = engine.step(state, event)
        decisions += made
        clocks.append(snapshot(state.clock, event.t_ns, SETTINGS.by_seat))
        _check_accounting(state, event.t_ns)
    return state, decisions, clocks


def _check_accounting(state: State, t_ns: int) -> None:
    if state.phase is not Phase.PLAYING or state.started_ns is None:
        return
    clock = state.clock
    now = t_ns // MS
    used = used_ms(clock, Seat.LEFT, t_ns) + used_ms(clock, Seat.RIGHT, t_ns)
    assert used + paused_ms(clock, t_ns) == now - state.started_ns // MS


@settings(max_examples=150, deadline=None)
@given(STEPS)
def test_used_time_adds_up_and_replay_is_identical(steps: Any) -> None:
    events = _events(steps)
    state, decisions, clocks = _play(events)
    # Replay through the journal's (type, payload) form gives the same match.
    again = [decode(MODULE, *encode(MODULE, e), e.t_ns, SETTINGS) for e in events]
    assert again == events
    state2, decisions2, clocks2 = _play(again)
    assert (state2, decisions2, clocks2) == (state, decisions, clocks)


@settings(max_examples=150, deadline=None)
@given(
    STEPS,
    st.integers(0, 3_000_000),
    st.tuples(st.integers(0, 60), st.integers(0, 60)),
)
def test_any_result_conserves_20_tps_with_the_penalties_of_3b(
    steps: Any, end_gap_ms: int, tiles: tuple[int, int]
) -> None:
    events = _events(steps)
    state, _, _ = _play(events)
    if state.phase is not Phase.PLAYING:
        return
    end = events[-1].t_ns + end_gap_ms * MS
    payload = {"tiles": {"ann": tiles[0], "ben": tiles[1]}}
    score = decode(MODULE, "score", payload, end, SETTINGS)
    final, decisions, _ = _play([*events, score])
    (over,) = [d for d in decisions if d.kind.value == "game_over"]
    ann, ben = (value for _, value in over.score)
    assert ann + ben == 20.0 and 0.0 <= ann <= 20.0
    if over.rule == "6b":  # a clock started late, and the default time came first
        assert (ann, ben) in ((15.0, 5.0), (5.0, 15.0))
        return
    expected = {p: time_penalties(taken_ms(final, p, end)) for p in ("ann", "ben")}
    assert dict(over.extra)["penalties"] == expected
