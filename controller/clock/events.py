"""The clock's inputs, and :func:`apply_event`: one call for a game to apply any of them.

A game engine keeps a :class:`~controller.clock.state.ClockState` in its own
state and hands it each clock event with :func:`apply_event`, which ticks
first (a flag at or before the event is reported before the event acts),
then applies the event. The game turns the :class:`ClockStep` into rulings:
a flag into its flag policy, a press by the wrong seat into a notice.

>>> from controller.clock.control import TimeControl
>>> from controller.clock.engine import new_clock, start
>>> state = start(new_clock(TimeControl.sudden_death(60_000)), Seat.LEFT, 0)
>>> state, step = apply_event(state, ClockPress(seat=Seat.RIGHT, t_ns=5_000_000_000))
>>> step.press, step.changed
(<PressOutcome.NOT_RUNNING: 'not_running'>, False)
>>> state, step = apply_event(state, PauseSwitch(engaged=True, t_ns=6_000_000_000))
>>> state.pause.reason, step.changed
(<PauseReason.SWITCH: 'switch'>, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.clock.control import Seat
from controller.clock.engine import adjust, pause, press, resume, tick
from controller.clock.state import ClockState, PauseReason, PressOutcome
from controller.model import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockPress(Event):
    """A player's clock button, timed at its first edge."""

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class PauseSwitch(Event):
    """The physical pause switch: engaged (pause) or released (resume)."""

    engaged: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockPause(Event):
    """A pause by command (the TD, a time-out)."""

    reason: PauseReason


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockResume(Event):
    """The end of a pause by command."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockAdjust(Event):
    """A TD's correction of one seat's time (``delta_ms`` may be negative)."""

    seat: Seat
    delta_ms: int
    reason: str = ""


ClockEvent = ClockPress | PauseSwitch | ClockPause | ClockResume | ClockAdjust
CLOCK_EVENTS = (ClockPress, PauseSwitch, ClockPause, ClockResume, ClockAdjust)
"""The clock event classes, for ``isinstance`` in a game's ``step``."""


@dataclass(frozen=True, slots=True)
class ClockStep:
    """What :func:`apply_event` did.

    ``flag``: the seat whose flag fell at or before the event (its time is
    ``state.seat(flag).flag_ms``); ``press``: a press's outcome (None for
    other events); ``changed``: whether the event itself changed the clock
    (False for an ignored press, a resume with no pause, ...).
    """

    flag: Seat | None
    press: PressOutcome | None
    changed: bool


def apply_event(state: ClockState, event: Event) -> tuple[ClockState, ClockStep]:
    """Tick to the event's time, then apply it if it is a clock event.

    The pause switch resumes only a pause it made: a TD's pause is not lifted
    by someone flipping the switch off.
    """
    state, flag = tick(state, event.t_ns)
    before = state
    outcome: PressOutcome | None = None
    match event:
        case ClockPress():
            state, outcome = press(state, event.seat, event.t_ns)
        case PauseSwitch(engaged=True) | ClockPause():
            reason = event.reason if isinstance(event, ClockPause) else PauseReason.SWITCH
            state = pause(state, reason, event.t_ns)
        case PauseSwitch(engaged=False):
            if state.pause is not None and state.pause.reason is PauseReason.SWITCH:
                state = resume(state, event.t_ns)
        case ClockResume():
            state = resume(state, event.t_ns)
        case ClockAdjust():
            state = adjust(state, event.seat, event.delta_ms, event.t_ns)
    changed = replace(state, at_ms=before.at_ms) != before
    return state, ClockStep(flag, outcome, changed)
