"""Game clocks: a pure clock engine shared by every clocked game (Tantrix, backgammon).

The agreed API (``briefs/clock-api.md``) is exported here, names unchanged:
:class:`Seat`, :class:`Mode`, :class:`Stage`, :class:`TimeControl`,
:class:`PauseReason`, :class:`PressOutcome`, :class:`ClockState`; the pure
functions :func:`new_clock`, :func:`start`, :func:`press`, :func:`pause`,
:func:`resume`, :func:`stop`, :func:`adjust`, :func:`set_remaining`,
:func:`remaining_ms`, :func:`used_ms`, :func:`paused_ms`,
:func:`delay_left_ms`, :func:`flag_deadline`, :func:`tick`,
:func:`snapshot`; the events :class:`ClockPress`, :class:`PauseSwitch`,
:class:`ClockPause`, :class:`ClockResume`, :class:`ClockAdjust`
(``controller.clock.events``); scenario/journal helpers in
``controller.clock.scenario``.

Additions to the agreed API:

- :func:`apply_event` and :class:`ClockStep` (``events``): tick, then apply any
  clock event, in one call; the pause switch resumes only its own pause.
- :func:`periods_left` (byo-yomi periods left, counting the one in progress),
  :func:`now_ms` (a timestamp as the clock takes it), :func:`interpolate`
  (what a display computes from a ``clock`` payload; the reference for
  ``docs/clocks.md``), :func:`format_ms`, ``TimeControl.sudden_death``,
  ``TimeControl.to_json``, ``Stage.describe``, ``Seat.other``,
  ``ClockState.seat(seat)`` and ``ClockState.stage(seat)``.
- ``ClockState`` holds per seat a :class:`SeatClock` (``left``/``right``):
  ``main_ms`` (time at the start of the turn; byo-yomi: main time only),
  ``periods_left``, ``moves``, ``stage``, ``used_ms``, ``adjusted_ms`` and
  ``flag_ms`` (when its flag fell; ``flagged`` is ``flag_ms is not None``).
- The snapshot carries more than the brief's keys: ``period_ms``, ``mode``,
  ``stage``, ``flagged``, ``gaining`` (hourglass), ``count_past_zero`` and
  ``flag_at_ns``, which a display needs to interpolate exactly.
- Rules of use: the mutators ignore what a real clock ignores (``start``
  while running, ``pause`` when stopped or paused, ``resume`` when not
  paused) and return the state unchanged but for ``at_ms``; a timestamp
  earlier than one already applied is taken as that one.

Semantics of every mode, with the real clocks and rules they follow, are in
``docs/clocks.md``.

>>> tc = TimeControl((Stage(Mode.SIMPLE_DELAY, 120_000, delay_ms=12_000),))
>>> s = start(new_clock(tc), Seat.LEFT, 0)
>>> s, _ = press(s, Seat.LEFT, 5_000_000_000)   # a fast move: no time used
>>> remaining_ms(s, Seat.LEFT, 5_000_000_000)
120000
"""

from controller.clock.control import Mode, Seat, Stage, TimeControl, format_ms
from controller.clock.engine import (
    adjust,
    delay_left_ms,
    flag_deadline,
    new_clock,
    now_ms,
    pause,
    paused_ms,
    periods_left,
    press,
    remaining_ms,
    resume,
    set_remaining,
    start,
    stop,
    tick,
    used_ms,
)
from controller.clock.events import (
    CLOCK_EVENTS,
    ClockAdjust,
    ClockEvent,
    ClockPause,
    ClockPress,
    ClockResume,
    ClockStep,
    PauseSwitch,
    apply_event,
)
from controller.clock.snapshot import interpolate, snapshot
from controller.clock.state import ClockState, Pause, PauseReason, PressOutcome, SeatClock

__all__ = [
    "CLOCK_EVENTS",
    "ClockAdjust",
    "ClockEvent",
    "ClockPause",
    "ClockPress",
    "ClockResume",
    "ClockState",
    "ClockStep",
    "Mode",
    "Pause",
    "PauseReason",
    "PauseSwitch",
    "PressOutcome",
    "Seat",
    "SeatClock",
    "Stage",
    "TimeControl",
    "adjust",
    "apply_event",
    "delay_left_ms",
    "flag_deadline",
    "format_ms",
    "interpolate",
    "new_clock",
    "now_ms",
    "pause",
    "paused_ms",
    "periods_left",
    "press",
    "remaining_ms",
    "resume",
    "set_remaining",
    "snapshot",
    "start",
    "stop",
    "tick",
    "used_ms",
]
