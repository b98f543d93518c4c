"""The clock's pure functions: each takes a state and an event time, returns a new state.

Timestamps are ``mono_ns`` and are floored to whole milliseconds on entry;
everything after is integer ms, so the two players' used time and the pauses
add up exactly to the elapsed time. A game calls :func:`tick` with the time
of every event before anything else, so a flag at or before that time is
seen (and reported) first; the mutators also settle a due flag themselves,
so the state is right even when a caller forgets.

>>> tc = TimeControl.sudden_death(60_000)
>>> s = start(new_clock(tc), Seat.LEFT, 0)
>>> s, outcome = press(s, Seat.LEFT, 10_000_000_000)      # left moves after 10 s
>>> outcome, remaining_ms(s, Seat.LEFT, 10_000_000_000)
(<PressOutcome.SWITCHED: 'switched'>, 50000)
>>> flag_deadline(s)                                       # right's 60 s run out at 70 s
70000000000
>>> tick(s, 70_000_000_000)[1]
<Seat.RIGHT: 'right'>
"""

from __future__ import annotations

from dataclasses import replace

from controller.clock import modes
from controller.clock.control import Mode, Seat, TimeControl
from controller.clock.state import (
    ClockState,
    Pause,
    PauseReason,
    PressOutcome,
    SeatClock,
    entering,
)

NS_PER_MS = 1_000_000


def new_clock(control: TimeControl) -> ClockState:
    """Both seats at the first stage's time; nothing running."""
    first = control.stages[0]
    clock = entering(SeatClock(main_ms=0), first, 0)
    return ClockState(control=control, left=clock, right=clock)


def now_ms(state: ClockState, t_ns: int) -> int:
    """``t_ns`` in ms, never before the latest time already applied."""
    t_ms = t_ns // NS_PER_MS
    return t_ms if state.at_ms is None else max(t_ms, state.at_ms)


def _turn_used(state: ClockState, t_ms: int) -> int:
    if state.since_ms is None:
        return state.turn_used_ms
    return state.turn_used_ms + t_ms - state.since_ms


def _deadline_ms(state: ClockState) -> int | None:
    seat = state.running
    if seat is None or state.since_ms is None or state.seat(seat).flagged:
        return None
    clock = state.seat(seat)
    limit = modes.flag_used(state.stage(seat), clock.main_ms, clock.periods_left)
    return state.since_ms + max(0, limit - state.turn_used_ms)


def _effective(state: ClockState, t_ms: int) -> int:
    """``t_ms``, or the flag's time if the clock stops there and it is earlier."""
    due = _deadline_ms(state)
    if due is None or state.control.count_past_zero:
        return t_ms
    return min(t_ms, due)


def _checkpoint(state: ClockState, t_ms: int) -> ClockState:
    """Book the running clock's time up to ``t_ms`` and restart its stretch there."""
    seat, since = state.running, state.since_ms
    state = replace(state, at_ms=t_ms)
    if seat is None or since is None:
        return state
    clock = state.seat(seat)
    state = state.with_seat(seat, replace(clock, used_ms=clock.used_ms + t_ms - since))
    return replace(state, since_ms=t_ms, turn_used_ms=state.turn_used_ms + t_ms - since)


def _halt(state: ClockState, t_ms: int) -> ClockState:
    """Stop the clock at ``t_ms`` mid-turn: time is kept, nothing is added."""
    state = _checkpoint(state, t_ms)
    seat = state.running
    if seat is None:
        return state
    if state.pause is not None:
        state = replace(state, paused_total_ms=state.paused_total_ms + t_ms - state.pause.since_ms)
    clock, used = state.seat(seat), state.turn_used_ms
    main, periods = modes.held(state.stage(seat), clock.main_ms, clock.periods_left, used)
    state = state.with_seat(seat, replace(clock, main_ms=main, periods_left=periods))
    state = _hourglass_gain(state, seat, used)
    return replace(state, running=None, since_ms=None, turn_used_ms=0, pause=None)


def _hourglass_gain(state: ClockState, seat: Seat, used: int) -> ClockState:
    if state.stage(seat).mode is not Mode.HOURGLASS:
        return state
    other = state.seat(seat.other)
    return state.with_seat(seat.other, replace(other, main_ms=other.main_ms + used))


def tick(state: ClockState, t_ns: int) -> tuple[ClockState, Seat | None]:
    """Let time reach ``t_ns``: the seat whose flag fell by then, if any (once per seat).

    Without ``count_past_zero`` the clock stops at the instant of the flag,
    with that seat at 0; with it, the clock runs on into negative time.
    """
    t_ms = now_ms(state, t_ns)
    due = _deadline_ms(state)
    seat = state.running
    if due is None or seat is None or due > t_ms:
        return replace(state, at_ms=t_ms), None
    state = state.with_seat(seat, replace(state.seat(seat), flag_ms=due))
    if not state.control.count_past_zero:
        state = _halt(state, due)
    return replace(state, at_ms=t_ms), seat


def _settle(state: ClockState, t_ns: int) -> tuple[ClockState, int]:
    state, _ = tick(state, t_ns)
    assert state.at_ms is not None
    return state, state.at_ms


def start(state: ClockState, seat: Seat, t_ns: int) -> ClockState:
    """Start ``seat``'s clock (a turn begins). Ignored if a clock already runs."""
    state, t_ms = _settle(state, t_ns)
    if state.running is not None:
        return state
    return replace(state, running=seat, since_ms=t_ms, turn_used_ms=0)


def press(state: ClockState, seat: Seat, t_ns: int) -> tuple[ClockState, PressOutcome]:
    """``seat`` presses its button: if its clock runs, its move is complete.

    The move's increment, delay credit or byo-yomi reset is applied, a stage
    completed by this move adds the next stage's time, and the other clock
    starts at ``t_ns``.
    """
    state, t_ms = _settle(state, t_ns)
    if state.running is None:
        return state, PressOutcome.STOPPED
    if state.pause is not None:
        return state, PressOutcome.PAUSED
    if state.running is not seat:
        return state, PressOutcome.NOT_RUNNING
    state = _checkpoint(state, t_ms)
    clock, used, stage = state.seat(seat), state.turn_used_ms, state.stage(seat)
    main, periods = modes.end_move(stage, clock.main_ms, clock.periods_left, used)
    clock = replace(
        clock,
        main_ms=main,
        periods_left=periods,
        moves=clock.moves + 1,
        stage_moves=clock.stage_moves + 1,
    )
    if stage.moves is not None and clock.stage_moves >= stage.moves:
        index = clock.stage + 1
        clock = entering(clock, state.control.stages[index], index)
    state = _hourglass_gain(state.with_seat(seat, clock), seat, used)
    return replace(state, running=seat.other, since_ms=t_ms, turn_used_ms=0), PressOutcome.SWITCHED


def pause(state: ClockState, reason: PauseReason, t_ns: int) -> ClockState:
    """Pause the running clock. Ignored when nothing runs or already paused."""
    state, t_ms = _settle(state, t_ns)
    if state.running is None or state.pause is not None:
        return state
    state = _checkpoint(state, t_ms)
    return replace(state, since_ms=None, pause=Pause(reason, t_ms))


def resume(state: ClockState, t_ns: int) -> ClockState:
    """End the pause: the same clock runs on, its delay where it was. Ignored if not paused."""
    state, t_ms = _settle(state, t_ns)
    if state.pause is None:
        return state
    paused = state.paused_total_ms + t_ms - state.pause.since_ms
    return replace(state, pause=None, paused_total_ms=paused, since_ms=t_ms)


def stop(state: ClockState, t_ns: int) -> ClockState:
    """Stop the clock (game over): the running turn's time is booked, nothing added."""
    state, t_ms = _settle(state, t_ns)
    return _halt(state, t_ms)


def adjust(state: ClockState, seat: Seat, delta_ms: int, t_ns: int) -> ClockState:
    """A TD's correction of ``seat``'s time by ``delta_ms`` (may be negative).

    It does not count as time used. A fallen flag is lifted when the
    correction leaves time on the clock, so a later fall is reported again.
    """
    state, t_ms = _settle(state, t_ns)
    state = _checkpoint(state, t_ms)
    clock = state.seat(seat)
    clock = replace(
        clock, main_ms=clock.main_ms + delta_ms, adjusted_ms=clock.adjusted_ms + delta_ms
    )
    state = state.with_seat(seat, clock)
    if clock.flagged and remaining_ms(state, seat, t_ns) > 0:
        state = state.with_seat(seat, replace(clock, flag_ms=None))
    return state


def set_remaining(state: ClockState, seat: Seat, ms: int, t_ns: int) -> ClockState:
    """Set ``seat``'s remaining time to ``ms`` now (an :func:`adjust` by the difference)."""
    state, _ = _settle(state, t_ns)
    return adjust(state, seat, ms - remaining_ms(state, seat, t_ns), t_ns)


def remaining_ms(state: ClockState, seat: Seat, t_ns: int) -> int:
    """``seat``'s time left at ``t_ns`` (negative past zero; byo-yomi periods included)."""
    t_ms = _effective(state, now_ms(state, t_ns))
    clock = state.seat(seat)
    stage = state.stage(seat)
    running = state.running
    if running is seat:
        return modes.remaining(stage, clock.main_ms, clock.periods_left, _turn_used(state, t_ms))
    static = modes.remaining(stage, clock.main_ms, clock.periods_left, 0)
    if running is not None and state.stage(running).mode is Mode.HOURGLASS:
        return static + _turn_used(state, t_ms)
    return static


def used_ms(state: ClockState, seat: Seat, t_ns: int) -> int:
    """How long ``seat``'s clock has run, pauses excluded (adjustments do not count)."""
    clock = state.seat(seat)
    if state.running is not seat or state.since_ms is None:
        return clock.used_ms
    return clock.used_ms + _effective(state, now_ms(state, t_ns)) - state.since_ms


def paused_ms(state: ClockState, t_ns: int) -> int:
    """Total time spent paused, including a pause in progress."""
    if state.pause is None:
        return state.paused_total_ms
    return state.paused_total_ms + now_ms(state, t_ns) - state.pause.since_ms


def delay_left_ms(state: ClockState, t_ns: int) -> int:
    """The running seat's delay still to run in this turn (0 outside delay modes)."""
    if state.running is None:
        return 0
    used = _turn_used(state, _effective(state, now_ms(state, t_ns)))
    return modes.delay_left(state.stage(state.running), used)


def periods_left(state: ClockState, seat: Seat, t_ns: int) -> int:
    """``seat``'s byo-yomi periods not yet used up, counting the one in progress."""
    clock = state.seat(seat)
    used = 0
    if state.running is seat:
        used = _turn_used(state, _effective(state, now_ms(state, t_ns)))
    return modes.periods_now(state.stage(seat), clock.main_ms, clock.periods_left, used)


def flag_deadline(state: ClockState) -> int | None:
    """The ``mono_ns`` at which the running seat's flag falls (delay and periods
    included); None when nothing runs, it is paused, or that flag already fell."""
    due = _deadline_ms(state)
    return None if due is None else due * NS_PER_MS
