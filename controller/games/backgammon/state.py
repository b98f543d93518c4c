"""Backgammon match state: settings, the cube, the games played, the clock.

Everything is frozen; the engine builds a new state for every input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum

from controller.clock import ClockState, Seat
from controller.games.backgammon.events import ResultType
from controller.model import Score

MS_PER_MIN = 60_000


class FlagPolicy(StrEnum):
    """What a flag fall does (clock rules attached to 5.10)."""

    LOSE_MATCH = "lose_match"  # the flagged player loses the match (the default)
    OVERTIME = "overtime"  # the clock counts on past zero; a penalty per started period


class Phase(Enum):
    """Where the match stands."""

    BEFORE_GAME = "before_game"  # between games: waiting for the opening roll
    OPENING = "opening"  # opening roll made, clock in use: the lower die presses (5.1)
    PLAYING = "playing"  # a game is in progress
    OVER = "over"  # the match has a result


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """The clock of a match (common US simple-delay rules), all times in ms.

    >>> ClockSettings().reserve_ms(length=7, scored=0)
    840000
    >>> ClockSettings().reserve_ms(length=7, scored=5)  # brought in at 3-2
    540000
    """

    from_start: bool = True
    reserve_per_point_ms: int = 2 * MS_PER_MIN
    delay_ms: int = 12_000
    deduction_per_point_ms: int = MS_PER_MIN
    flag: FlagPolicy = FlagPolicy.LOSE_MATCH
    overtime_period_ms: int = MS_PER_MIN
    overtime_penalty: int = 1
    break_limit_ms: int = 10 * MS_PER_MIN

    def reserve_ms(self, length: int, scored: int) -> int:
        """Each player's reserve when clocks come in with ``scored`` points
        already scored by the two players together (0 at the start)."""
        return max(0, length * self.reserve_per_point_ms - scored * self.deduction_per_point_ms)


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """Who plays and how. ``players`` are in seat order: left clock button first.

    >>> s = MatchSettings(players=("ann", "ben"), length=7)
    >>> s.opponent("ann"), s.index("ben")
    ('ben', 1)
    """

    players: tuple[str, str]
    length: int
    crawford: bool = True
    clock: ClockSettings = field(default_factory=ClockSettings)

    def __post_init__(self) -> None:
        if len(set(self.players)) != 2:
            raise ValueError("two distinct players")
        if self.length < 1:
            raise ValueError("a match is to at least 1 point")

    def opponent(self, player: str) -> str:
        """The other player."""
        return self.players[1] if player == self.players[0] else self.players[0]

    def index(self, player: str) -> int:
        """0 for the left seat's player, 1 for the right's."""
        return self.players.index(player)

    def seat(self, player: str) -> Seat:
        """The clock button ``player`` presses: players[0] is on the left."""
        return Seat.LEFT if self.index(player) == 0 else Seat.RIGHT

    def player(self, seat: Seat) -> str:
        """The player at ``seat``."""
        return self.players[0 if seat is Seat.LEFT else 1]


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube (5.9): its value, who owns it (None: centred), and
    who has offered it and awaits an answer."""

    value: int = 1
    owner: str | None = None
    offered_by: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, as the score sheet keeps it (1.2.4, 5.13)."""

    number: int
    winner: str
    result: ResultType | None  # None: a dropped cube
    cube: int
    cube_owner: str | None
    points: int
    crawford: bool
    score_after: tuple[int, int]
    first: str | None  # who played the opening roll
    ended_ns: int
    reserves_start_ms: tuple[int, int] | None = None
    reserves_end_ms: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class PauseRecord:
    """A pause of the match (a die off the table, a TD call, a break, ...)
    with the reserves on the clocks when it began (2.2.6)."""

    reason: str
    game: int
    start_ns: int
    reserves_ms: tuple[int, int] | None
    end_ns: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """The whole match. Build the first one with :func:`new_match`."""

    settings: MatchSettings
    phase: Phase = Phase.BEFORE_GAME
    points: tuple[int, int] = (0, 0)
    game: int = 1  # the current game (or, once over, the last one), from 1
    crawford_game: bool = False  # the current game is the Crawford game (5.11)
    crawford_done: bool = False  # a Crawford game has been played: post-Crawford
    crawford_announced: bool = False
    cube: Cube = field(default_factory=Cube)
    opening: tuple[int, int] | None = None  # the current game's opening dice
    first: str | None = None  # who moves first in the current game
    games: tuple[GameRecord, ...] = ()
    pauses: tuple[PauseRecord, ...] = ()
    winner: str | None = None
    clock: ClockState | None = None  # None: no clock in use (yet)
    clock_in: tuple[int, int] | None = None  # (game, reserve ms) when clocks came in
    overtime: tuple[int, int] = (0, 0)  # overtime periods charged, per seat
    reserves_at_start: tuple[int, int] | None = None  # the current game's, for the record
    decided: int = 0  # decisions made so far: the next decision's ordinal
    suspended: frozenset[str] = frozenset()

    @property
    def score(self) -> Score:
        """The match score in seat order."""
        return tuple(zip(self.settings.players, self.points, strict=True))

    def points_of(self, player: str) -> int:
        """``player``'s match score."""
        return self.points[self.settings.index(player)]

    @property
    def scored(self) -> int:
        """Points scored by either player so far."""
        return self.points[0] + self.points[1]


def is_crawford_score(settings: MatchSettings, points: tuple[int, int]) -> bool:
    """Whether a game started at ``points`` would be the Crawford game, if no
    Crawford game has been played yet (5.11: a player one point from victory).

    >>> s = MatchSettings(players=("ann", "ben"), length=5)
    >>> is_crawford_score(s, (4, 2)), is_crawford_score(s, (3, 3))
    (True, False)
    """
    return settings.crawford and max(points) == settings.length - 1


def new_match(settings: MatchSettings, clock: ClockState | None = None) -> State:
    """The state before the first game. In a 1-point match the first game is
    already played one point from victory, so it is the Crawford game."""
    crawford = is_crawford_score(settings, (0, 0))
    clock_in = None if clock is None else (1, settings.clock.reserve_ms(settings.length, 0))
    return State(settings=settings, crawford_game=crawford, clock=clock, clock_in=clock_in)


def open_pause(state: State) -> PauseRecord | None:
    """The pause in progress, if any."""
    if state.pauses and state.pauses[-1].end_ns is None:
        return state.pauses[-1]
    return None
