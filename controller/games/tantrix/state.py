"""A Tantrix game's state: frozen; the clock is the clock engine's own state."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller.clock import ClockState, new_clock
from controller.games.tantrix.settings import MatchSettings
from controller.model import Score


class Phase(Enum):
    """Where the game stands."""

    WAITING = "waiting"  # before the clock is started (1h, 6a)
    PLAYING = "playing"  # the clock has been started
    OVER = "over"  # result entered, default, or ended by the TD


@dataclass(frozen=True, slots=True)
class TimeOutRecord:
    """A time-out (5a): who called it, when it started and ended (ns)."""

    player: str
    t_ns: int
    end_ns: int | None = None


@dataclass(frozen=True, slots=True)
class AdjustmentRecord:
    """A time adjustment noted on the score sheet (5c): ms added to each
    player's time taken, in fixture-list order."""

    t_ns: int
    taken_ms: tuple[int, int]
    reason: str


@dataclass(frozen=True, slots=True)
class Result:
    """How the game ended, in fixture-list order where there are two values."""

    how: str  # "tiles", "adjudicated", "default" or "ended"
    tp10: tuple[int, int]
    tiles: tuple[int, int] | None = None
    base_tp10: tuple[int, int] | None = None
    taken_ms: tuple[int, int] | None = None
    penalties: tuple[int, int] = (0, 0)
    defaulted: str | None = None
    t_ns: int = 0


@dataclass(frozen=True, slots=True)
class State:
    """The whole game. Build the first one with :func:`new_game`."""

    settings: MatchSettings
    clock: ClockState
    phase: Phase = Phase.WAITING
    origin_ns: int | None = None
    """The match's start (``mono_ns``), which the scheduled start counts from."""
    decided: int = 0
    first: str | None = None
    """Who moves first, once the start (or the settings) says (1f, 1h)."""
    started_ns: int | None = None
    absent: str | None = None
    """A player whose clock was started in their absence and who has not
    arrived (6a): defaulted at the default time (6b)."""
    milestones: frozenset[str] = frozenset()
    """Deadlines already ruled on: "clock_start", "default", "limit:<player>",
    "alert:<player>"."""
    time_outs: tuple[TimeOutRecord, ...] = ()
    adjustments: tuple[AdjustmentRecord, ...] = ()
    result: Result | None = None
    suspended: frozenset[str] = frozenset()

    @property
    def score(self) -> Score:
        """TPs in fixture-list order: 0.0 each until the result."""
        tenths = (0, 0) if self.result is None else self.result.tp10
        return tuple(zip(self.settings.players, (t / 10 for t in tenths), strict=True))


def new_game(settings: MatchSettings) -> State:
    """The state before the clock is started."""
    return State(settings=settings, clock=new_clock(settings.control), first=settings.first)
