"""The match clock: simple (US) delay on a reserve per point of match length.

Built on :mod:`controller.clock`. A game's clock is started by the player with
the lower opening die (5.1) and stopped when the game ends; between games
nothing runs. Flags are ruled in :mod:`controller.games.backgammon.flags`.
"""

from __future__ import annotations

import dataclasses

from controller.clock import (
    ClockState,
    Mode,
    PauseReason,
    Seat,
    Stage,
    TimeControl,
    delay_left_ms,
    flag_deadline,
    format_ms,
    new_clock,
    remaining_ms,
    start,
    stop,
)
from controller.games.backgammon.state import FlagPolicy, MatchSettings, State
from controller.games.backgammon.step import Step
from controller.model import JSON

NS_PER_MS = 1_000_000

PAUSE_RULES = {
    PauseReason.DIE_OFF_TABLE: "5.6",  # the roll is invalid and rerolled
    PauseReason.TD_CALL: "2.2.1",  # the Director is called
    PauseReason.BREAK: "2.2.6",  # an intramatch break, between games
}
"""The clause a pause cites; any other reason cites 5.10 (clock usage)."""


def control(settings: MatchSettings, reserve_ms: int) -> TimeControl:
    """One simple-delay stage with ``reserve_ms``; overtime counts past zero.

    >>> from controller.games.backgammon.state import MatchSettings
    >>> control(MatchSettings(players=("a", "b"), length=7), 840_000).describe()
    '14 min with a 12 s simple delay per move'
    """
    stage = Stage(Mode.SIMPLE_DELAY, reserve_ms, delay_ms=settings.clock.delay_ms)
    return TimeControl((stage,), settings.clock.flag is FlagPolicy.OVERTIME)


def clock_for(settings: MatchSettings, scored: int) -> ClockState:
    """A clock brought in with ``scored`` points already scored (0 at the start)."""
    return new_clock(control(settings, settings.clock.reserve_ms(settings.length, scored)))


def reserves(state: State, t_ns: int) -> tuple[int, int] | None:
    """Both players' remaining reserve (seat order) at ``t_ns``, or None."""
    clock = state.clock
    if clock is None:
        return None
    return (remaining_ms(clock, Seat.LEFT, t_ns), remaining_ms(clock, Seat.RIGHT, t_ns))


def reserves_json(state: State, t_ns: int) -> JSON:
    """The reserves as {player: ms} (null without a clock)."""
    now = reserves(state, t_ns)
    if now is None:
        return None
    return dict(zip(state.settings.players, now, strict=True))


def describe_reserves(state: State, t_ns: int) -> str:
    """ "ann 13 min 48 s, ben 14 min" (empty without a clock)."""
    now = reserves(state, t_ns)
    if now is None:
        return ""
    return ", ".join(
        f"{p} {format_ms(ms)}" for p, ms in zip(state.settings.players, now, strict=True)
    )


def running_player(state: State) -> str | None:
    """Whose clock runs (paused or not), if any."""
    if state.clock is None or state.clock.running is None:
        return None
    return state.settings.player(state.clock.running)


def start_game_clock(step: Step, first: str) -> None:
    """The lower die presses: ``first``'s clock starts (5.1)."""
    clock = step.state.clock
    assert clock is not None
    clock = start(clock, step.state.settings.seat(first), step.t_ns)
    step.update(clock=clock)
    step.update(reserves_at_start=reserves(step.state, step.t_ns))


def stop_clock(step: Step) -> None:
    """The game or the match ended: nothing runs until the next opening roll."""
    clock = step.state.clock
    if clock is not None:
        step.update(clock=stop(clock, step.t_ns))


def periods_started(remaining: int, period_ms: int) -> int:
    """Overtime periods started at ``remaining`` ms (0 while time is left).

    >>> [periods_started(r, 60_000) for r in (1, 0, -59_999, -60_000)]
    [0, 1, 1, 2]
    """
    return 0 if remaining > 0 else 1 + (-remaining) // period_ms


def deadline(state: State) -> int | None:
    """When the running clock next needs a tick: its flag, or (overtime) the
    start of its next overtime period."""
    clock = state.clock
    if clock is None or clock.running is None or clock.pause is not None:
        return None
    if state.settings.clock.flag is FlagPolicy.LOSE_MATCH:
        return flag_deadline(clock)
    seat = clock.running
    charged = state.overtime[0 if seat is Seat.LEFT else 1]
    at_ms = clock.at_ms if clock.at_ms is not None else clock.since_ms
    if at_ms is None:
        return None
    t_ns = at_ms * NS_PER_MS
    left = delay_left_ms(clock, t_ns) + remaining_ms(clock, seat, t_ns)
    # Never in the past: an adjustment may have moved the clock past a boundary.
    due_ms = max(at_ms, at_ms + left + charged * state.settings.clock.overtime_period_ms)
    return due_ms * NS_PER_MS


def pause_rule(reason: PauseReason) -> str:
    """The clause a pause for ``reason`` cites."""
    return PAUSE_RULES.get(reason, "5.10")


def with_clock(state: State, clock: ClockState) -> State:
    """``state`` with its clock replaced."""
    return dataclasses.replace(state, clock=clock)
