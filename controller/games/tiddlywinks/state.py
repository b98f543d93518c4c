"""Tiddlywinks game state: frozen, one value per moment of the game."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from controller.games.tiddlywinks.events import Shot, Sighting
from controller.games.tiddlywinks.gametime import GameTime, new_time
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    Mat,
    MatSpec,
    Side,
    new_mat,
)
from controller.model import Event
from controller.timebase import seconds_to_ns

SINGLES_LIMIT_NS = seconds_to_ns(20 * 60)  # 9(a)
PAIRS_LIMIT_NS = seconds_to_ns(25 * 60)  # 9(a)
SHOT_LIMIT_NS = seconds_to_ns(120)  # 9(c)
ROUNDS_AFTER = 5  # 9(b)
REGULATION = MatSpec()
NEW_MAT = new_mat()
NO_TIME = new_time(1, 1)


class Format(StrEnum):
    """Pairs (one colour each) or singles (both partnership colours each), 1(b)."""

    PAIRS = "pairs"
    SINGLES = "singles"


@dataclass(frozen=True, slots=True)
class Settings:
    """Who plays which colour, and the game's options.

    ``players`` is indexed like :data:`COLOURS` (blue, green, red, yellow);
    in singles the same player holds blue and red, another green and yellow.

    >>> s = Settings(Format.SINGLES, ("ann", "ben", "ann", "ben"))
    >>> s.player(Colour.RED), s.people, s.limit_ns // 60_000_000_000
    ('ann', ('ann', 'ben'), 20)
    """

    format: Format
    players: tuple[str, str, str, str]
    time_limit_ns: int | None = None
    shot_limit: bool = False
    shot_limit_ns: int = SHOT_LIMIT_NS
    rounds_after: int = ROUNDS_AFTER
    squidge_tie_mm: float = 0.0
    mat: MatSpec = REGULATION

    def __post_init__(self) -> None:
        blue, green, red, yellow = self.players
        if self.format is Format.SINGLES:
            if blue != red or green != yellow or blue == green:
                raise ValueError("singles: one player holds blue and red, another green and yellow")
        elif len(set(self.players)) != 4:
            raise ValueError("pairs: four different players")

    @property
    def limit_ns(self) -> int:
        """The time limit (9(a)): as set, else 20 minutes singles, 25 pairs."""
        if self.time_limit_ns is not None:
            return self.time_limit_ns
        return SINGLES_LIMIT_NS if self.format is Format.SINGLES else PAIRS_LIMIT_NS

    def player(self, colour: Colour) -> str:
        """Who plays ``colour``."""
        return self.players[COLOURS.index(colour)]

    @property
    def people(self) -> tuple[str, ...]:
        """Each player once, in colour order."""
        return tuple(dict.fromkeys(self.players))

    def side_players(self, side: Side) -> tuple[str, ...]:
        """The players of a partnership."""
        return tuple(dict.fromkeys(self.player(c) for c in side.colours))


class Phase(StrEnum):
    """Where the game stands."""

    SQUIDGE_OFF = "squidge_off"
    PLAY = "play"
    FOUL = "foul"  # a foul seen: the offended side chooses (12)
    OVER = "over"


@dataclass(frozen=True, slots=True)
class ShotRecord:
    """One shot as the game record keeps it (positions before and after)."""

    number: int
    turn: int
    colour: Colour
    wink: str | None
    nominated: bool
    t_ns: int
    before: Mat
    after: Mat
    potted: tuple[str, ...]
    left_field: tuple[str, ...]
    counted: bool = True
    evidence: str = ""
    """The still of the settled mat, relative to the journal (the camera's)."""


@dataclass(frozen=True, slots=True)
class Free:
    """Free turns in force (11(a)): ``squopped`` has every unpotted wink
    squopped; the other side has ``total`` turns, ``used`` of them begun."""

    squopped: Side
    total: int
    used: int = 0


@dataclass(frozen=True, slots=True)
class OpenFoul:
    """A foul the engine saw, awaiting the offended side's choice (12)."""

    rule: str
    colour: Colour
    detail: str
    before: State
    shot: Shot


@dataclass(frozen=True, slots=True)
class State:
    """The whole game. Build the first one with :func:`new_game`."""

    settings: Settings
    phase: Phase = Phase.SQUIDGE_OFF
    contenders: tuple[Colour, ...] = COLOURS
    squidge_pending: tuple[str, ...] = ()
    """Why the camera's squidge-off could not be judged, as last told (5(a))."""
    squidge_lineup: tuple[Sighting, ...] = ()
    """The camera's line-up of the round under way (:class:`.events.Lineup`)."""
    winner: Colour | None = None
    mat: Mat = NEW_MAT
    turn: Colour = Colour.BLUE
    turn_number: int = 0
    shots_left: int = 0
    begun: bool = False  # a shot of this turn has been played (9(b))
    passed: bool = False  # the player passed this turn (5(d))
    nominated: bool = False  # this turn starts with a nominated wink (11(d))
    nominate_next: bool = False  # the next turn starts with one (11(d))
    forfeits: tuple[int, int, int, int] = (0, 0, 0, 0)
    free: Free | None = None
    keep_free: Side | None = None
    time: GameTime = NO_TIME
    expired: bool = False
    expiry_pending: bool = False
    expiry_turn_open: bool = False
    turns_left: int | None = None
    out_order: tuple[tuple[Colour, ...], ...] = ()
    shots: tuple[ShotRecord, ...] = ()
    before_shot: State | None = None
    """The state just before the last shot, for a foul declared on it (12)."""
    last_shot: Shot | None = None
    foul: OpenFoul | None = None
    result: tuple[tuple[Side, Fraction], ...] = ()
    """The partnerships' game points once the game is over (10)."""
    log: tuple[Event, ...] = ()
    """Every input but ticks, in order: the game record replays from it."""
    decided: int = 0
    suspended: frozenset[str] = frozenset()

    def forfeit_count(self, colour: Colour) -> int:
        """Shots of ``colour`` still to be forfeited (7(a))."""
        return self.forfeits[COLOURS.index(colour)]

    @property
    def potted_out(self) -> tuple[Colour, ...]:
        """The colours potted out so far, in order (8)."""
        return tuple(c for group in self.out_order for c in group)


def new_game(settings: Settings) -> State:
    """The state before the squidge-off."""
    ms = 1_000_000
    return State(
        settings=settings, time=new_time(settings.limit_ns // ms, settings.shot_limit_ns // ms)
    )
