"""The clock's state: frozen, integer milliseconds, and nothing derived from "now".

Time on a clock is never stored as a running total that a timer decrements:
it is the time at the start of the turn (``SeatClock.main_ms``) and the
instant the turn started (``ClockState.since_ms``), so the current time is a
formula of the next event's timestamp and cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from controller.clock.control import Mode, Seat, Stage, TimeControl


class PauseReason(StrEnum):
    """Why the clock is paused (journaled and shown on the ``clock`` topic)."""

    TIME_OUT = "time_out"  # a player's time-out (Tantrix 5)
    TD_CALL = "td_call"  # a player called the TD / arbiter
    DIE_OFF_TABLE = "die_off_table"  # backgammon: a die left the board
    BREAK = "break"  # a scheduled break
    SWITCH = "switch"  # the physical pause switch
    OTHER = "other"


class PressOutcome(StrEnum):
    """What a press of a clock button did."""

    SWITCHED = "switched"  # the pressing seat's turn ended, the other clock runs
    NOT_RUNNING = "not_running"  # the pressing seat's clock was not running: ignored
    PAUSED = "paused"  # the clock is paused: ignored
    STOPPED = "stopped"  # the clock is stopped or not started: ignored


@dataclass(frozen=True, slots=True)
class Pause:
    """A pause in progress: why, and since when (ms)."""

    reason: PauseReason
    since_ms: int


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One side of the clock.

    ``main_ms`` is the time on this clock at the start of the current turn
    (or now, when it is not running); in byo-yomi it is the main time only,
    the periods are ``periods_left`` of the stage's ``period_ms``. It may be
    negative (counting on past zero). ``used_ms`` is how long this clock has
    run, up to the last checkpoint; ``adjusted_ms`` sums the TD's corrections.
    ``flag_ms`` is when its flag fell (None: not fallen).
    """

    main_ms: int
    periods_left: int = 0
    moves: int = 0
    stage: int = 0
    stage_moves: int = 0
    used_ms: int = 0
    adjusted_ms: int = 0
    flag_ms: int | None = None

    @property
    def flagged(self) -> bool:
        """Whether this seat's flag has fallen."""
        return self.flag_ms is not None


@dataclass(frozen=True, slots=True)
class ClockState:
    """The whole clock.

    ``running`` is the seat whose turn it is (None before the start and when
    stopped); it stays set during a pause. ``since_ms`` is when its clock last
    started running (None while paused or stopped); ``turn_used_ms`` is the
    time it had used in this turn before that (the delay's bookkeeping).
    ``at_ms`` is the latest time applied: an earlier timestamp is taken as
    this one, so time on the clock never runs backwards.
    """

    control: TimeControl
    left: SeatClock
    right: SeatClock
    running: Seat | None = None
    since_ms: int | None = None
    turn_used_ms: int = 0
    pause: Pause | None = None
    paused_total_ms: int = 0
    at_ms: int | None = None

    def seat(self, seat: Seat) -> SeatClock:
        """The clock of ``seat``."""
        return self.left if seat is Seat.LEFT else self.right

    def with_seat(self, seat: Seat, clock: SeatClock) -> ClockState:
        """A copy with ``seat``'s clock replaced."""
        if seat is Seat.LEFT:
            return replace(self, left=clock)
        return replace(self, right=clock)

    def stage(self, seat: Seat) -> Stage:
        """The stage ``seat`` is playing."""
        return self.control.stages[self.seat(seat).stage]

    @property
    def paused(self) -> bool:
        """Whether a pause is in progress."""
        return self.pause is not None


def entering(clock: SeatClock, stage: Stage, index: int) -> SeatClock:
    """``clock`` entering ``stage`` (number ``index``): its base time is added."""
    periods = stage.periods if stage.mode is Mode.BYO_YOMI else 0
    return replace(
        clock,
        main_ms=clock.main_ms + stage.base_ms,
        periods_left=periods,
        stage=index,
        stage_moves=0,
    )
