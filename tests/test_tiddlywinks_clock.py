"""Tiddlywinks game time on the shared clock engine: the ``clock`` payload
has the shared snapshot's shape, a display's interpolation agrees with the
engine, and pauses, extensions, the 9(c) shot limit and a pot-out show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.clock import interpolate
from controller.games.tiddlywinks.engine import TiddlywinksEngine
from controller.games.tiddlywinks.events import (
    Pass,
    Shot,
    Sighting,
    Squidge,
    TimeIn,
    TimeOut,
    Umpire,
    UmpireAction,
)
from controller.games.tiddlywinks.module import MODULE
from controller.games.tiddlywinks.state import Format, Settings, State
from controller.model import Decision, Event, RulingKind, Tick

S = 1_000_000_000
MS = 1_000_000
SHARED_KEYS = {
    "running", "paused", "remaining_ms", "delay_left_ms", "moves", "periods_left", "period_ms",
    "mode", "stage", "flagged", "gaining", "count_past_zero", "flag_at_ns", "at_ns",
}  # fmt: skip


@dataclass
class Table:
    """A game fed at given times (seconds); deadlines are ticked as a harness would."""

    settings: Settings = field(
        default_factory=lambda: Settings(
            Format.SINGLES, ("ann", "ben", "ann", "ben"), time_limit_ns=60 * S, shot_limit=True
        )
    )
    engine: TiddlywinksEngine = field(default_factory=TiddlywinksEngine)
    decisions: list[Decision] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state: State = self.engine.start(self.settings)

    def at(self, seconds: float, kind: type[Event], **fields: Any) -> None:
        self.at_ns(round(seconds * S), kind, **fields)

    def at_ns(self, t: int, kind: type[Event], **fields: Any) -> None:
        due = self.engine.deadline(self.state)
        while due is not None and due < t:
            self.state, out = self.engine.step(self.state, Tick(t_ns=due))
            self.decisions += out
            due = self.engine.deadline(self.state)
        self.state, out = self.engine.step(self.state, kind(t_ns=t, **fields))
        self.decisions += out

    def clock(self, seconds: float) -> dict[str, Any] | None:
        return MODULE.clock(self.state, round(seconds * S))

    def squidge(self) -> None:  # blue wins
        far = {"g1": (300.0, 0.0), "r1": (0.0, -300.0), "y1": (-300.0, 0.0)}
        winks = (Sighting("b1", 50.0, 0.0), *(Sighting(i, x, y) for i, (x, y) in far.items()))
        self.at(0, Squidge, winks=winks)

    def start(self) -> None:
        self.squidge()
        self.at(10, Shot, wink="b1", winks=(Sighting("b1", 60.0, 0.0),))


def test_no_clock_before_the_first_shot_then_the_shared_shape() -> None:
    table = Table()
    table.squidge()
    assert table.clock(5) is None  # 9(a): game time starts with the first shot
    table.at(10, Shot, wink="b1", winks=(Sighting("b1", 60.0, 0.0),))
    doc = table.clock(25.5)
    assert doc is not None and set(doc) >= SHARED_KEYS
    assert (
        doc["running"] == "game"
        and doc["paused"] is None
        and doc["mode"] == {"game": "sudden_death"}
    )
    assert doc["remaining_ms"] == {"game": 44_500}
    assert doc["flag_at_ns"] == table.engine.deadline(table.state) == 70 * S
    assert doc["shot"] is None  # 9(c) applies only in the rounds after time
    # a display interpolating from the payload agrees with the engine later on
    later = table.clock(40.25)
    assert later is not None
    assert interpolate(doc, 40_250_000_000) == later["remaining_ms"] == {"game": 29_750}


def test_the_umpire_stops_game_time_to_the_millisecond() -> None:
    table = Table()
    table.start()
    table.at(20.0, Umpire, action=UmpireAction.CALL)
    doc = table.clock(50)
    assert doc is not None
    assert (doc["paused"], doc["reason"], doc["flag_at_ns"]) == ("td_call", "umpire", None)
    assert interpolate(doc, 90 * S) == doc["remaining_ms"] == {"game": 50_000}  # nothing moves
    assert table.engine.deadline(table.state) is None
    table.at(80.123, Umpire, action=UmpireAction.DECISION)
    # 60 s of game time from 10 s, and the 60.123 s with the umpire not counted
    assert table.engine.deadline(table.state) == 130_123_000_000
    table.at(90, TimeOut, reason="a wink lost")
    doc = table.clock(95)
    assert doc is not None and (doc["paused"], doc["reason"]) == ("time_out", "a wink lost")
    table.at(100, TimeIn)
    table.at(101, Umpire, action=UmpireAction.EXTEND, minutes=0.5)  # 9(a)
    assert table.engine.deadline(table.state) == 170_123_000_000


def test_the_shot_limit_is_a_clock_of_its_own_after_time() -> None:
    table = Table()
    table.start()  # blue won the squidge-off and played at 10 s: time runs out at 70 s
    for second in (20, 30, 40):
        table.at(second, Pass)  # green, red, yellow
    table.at(50, Pass)  # blue again: after the limit, the rounds start with green
    table.at(75, Umpire, action=UmpireAction.CALL)
    assert any(d.kind is RulingKind.TIME_LIMIT for d in table.decisions)
    doc = table.clock(80)
    assert doc is not None
    assert doc["remaining_ms"] == {"game": -5_000}  # counting on past the limit
    shot = doc["shot"]
    assert shot is not None and set(shot) >= SHARED_KEYS
    # green's 2 minutes run from the expiry at 70 s; 5 s of them used, then the umpire
    assert (shot["paused"], shot["remaining_ms"]) == ("td_call", {"shot": 115_000})
    table.at(100, Umpire, action=UmpireAction.DECISION)
    doc = table.clock(100)
    assert doc is not None and doc["shot"]["flag_at_ns"] == table.engine.deadline(table.state)
    assert table.engine.deadline(table.state) == 215 * S
    table.at(216, Pass)  # the forfeit came first: red passes
    assert [d.rule for d in table.decisions if d.kind is RulingKind.FORFEIT] == ["9(c)"]


def test_a_pot_out_stops_game_time_for_good() -> None:
    table = Table()
    table.start()
    for n, second in zip(range(1, 7), range(11, 17), strict=True):
        table.at(second, Shot, wink=f"b{n}", winks=(Sighting(f"b{n}", potted=True),))
    assert any(d.kind is RulingKind.POT_OUT for d in table.decisions)
    doc = table.clock(30)
    assert doc is not None and doc["running"] is None and doc["remaining_ms"] == {"game": 54_000}
    assert table.engine.deadline(table.state) is None  # 8: rule 9 ceases to apply


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 8 * S), st.integers(0, 9 * S), st.booleans()),
        max_size=6,
    )
)
def test_the_limit_falls_after_exactly_its_game_time(stops: list[tuple[int, int, bool]]) -> None:
    """However game time is stopped (the umpire, pauses; any ns timestamps),
    the limit runs out when 60 s of game time, counted in whole ms as the
    clock engine does, have passed since the first shot (at 10 s)."""
    table = Table()
    table.start()
    t, stopped_ms = 10 * S, 0
    for gap, length, umpire in stops:  # at most 48 s of game time: no expiry
        begin, end = t + gap, t + gap + length
        if umpire:
            table.at_ns(begin, Umpire, action=UmpireAction.CALL)
            table.at_ns(end, Umpire, action=UmpireAction.DECISION)
        else:
            table.at_ns(begin, TimeOut, reason="a wink lost")
            table.at_ns(end, TimeIn)
        stopped_ms += end // MS - begin // MS
        t = end
    assert table.engine.deadline(table.state) == (70_000 + stopped_ms) * MS
