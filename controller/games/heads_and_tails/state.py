"""Heads & Tails match state: frozen, and derived from the attempts' outcomes.

The score, the number of plays done and whether a let stands in the current
play are never updated by hand: :func:`with_outcomes` folds them from the list
of outcomes, so an overrule that rewrites an old outcome cannot leave them
inconsistent.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum, StrEnum

from controller.games.heads_and_tails.events import Face, Replacement
from controller.model import Score
from controller.timebase import seconds_to_ns

DEFAULT_TOSS_WINDOW_NS = seconds_to_ns(30.0)  # 2.1.2
DEFAULT_VI_GRACE_NS = seconds_to_ns(1.0)  # 4.2.1 "immediately the coin is heard to hit the floor"

ENDS_PLAY = frozenset({Replacement.POINT, Replacement.FAULT})


class Format(StrEnum):
    """The match format: a fixed number of plays (3.1) or one toss (3.2.1)."""

    STANDARD = "standard"
    EDINBURGH = "edinburgh"


class Phase(Enum):
    """Where the current play stands."""

    AWAIT_GO = "await_go"  # between attempts: waiting for the spotter's Go
    WINDOW = "window"  # Go declared, toss not yet made (2.1.2)
    FLIGHT = "flight"  # tossed, not yet past the fault line
    DESCENT = "descent"  # past the fault line, not yet landed
    AWAIT_CALL = "await_call"  # landed; a visually impaired caller may still call (4.2.1)
    OVER = "over"  # the match has a result


IN_ATTEMPT = frozenset({Phase.WINDOW, Phase.FLIGHT, Phase.DESCENT, Phase.AWAIT_CALL})
AFTER_TOSS = frozenset({Phase.FLIGHT, Phase.DESCENT, Phase.AWAIT_CALL})


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """Who plays and how.

    >>> s = MatchSettings(players=("ann", "ben"), plays=2, first_tosser="ann")
    >>> s.tosser(0), s.tosser(1), s.opponent("ann")
    ('ann', 'ben', 'ben')
    """

    players: tuple[str, str]
    first_tosser: str
    format: Format = Format.STANDARD
    plays: int = 2
    visually_impaired: frozenset[str] = frozenset()
    vi_grace_ns: int = DEFAULT_VI_GRACE_NS
    toss_window_ns: int = DEFAULT_TOSS_WINDOW_NS

    def __post_init__(self) -> None:
        if len(set(self.players)) != 2 or self.first_tosser not in self.players:
            raise ValueError("two distinct players, one of them the first tosser")
        if self.plays < 1 or (self.format is Format.EDINBURGH and self.plays != 1):
            raise ValueError("at least one play; an Edinburgh match is exactly one")

    def opponent(self, player: str) -> str:
        """The other player."""
        return self.players[1] if player == self.players[0] else self.players[0]

    def tosser(self, play: int) -> str:
        """Who tosses in play ``play`` (from 0): alternating from the first tosser."""
        return self.first_tosser if play % 2 == 0 else self.opponent(self.first_tosser)


@dataclass(frozen=True, slots=True)
class CallMade:
    """A valid call: the caller's word and when it was made."""

    face: Face
    t_ns: int


@dataclass(frozen=True, slots=True)
class Attempt:
    """What has happened in the current attempt (one Go and what follows)."""

    go_ns: int | None
    toss_ns: int | None = None
    call: CallMade | None = None
    fault_line_ns: int | None = None
    landed_ns: int | None = None
    face: Face | None = None
    in_area: bool | None = None
    touched_table: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one attempt ended, as it stands after any overrules.

    ``ordinals`` are the decision that ruled it followed by every overruled
    decision that replaced it; the last one is the ruling now in force.
    """

    ordinals: tuple[int, ...]
    kind: Replacement
    rule: str
    against: str | None
    to: str | None
    tosser: str
    play: int
    attempt: Attempt | None
    t_ns: int


@dataclass(frozen=True, slots=True)
class State:
    """The whole match. Build the first one with :func:`new_match`."""

    settings: MatchSettings
    phase: Phase = Phase.AWAIT_GO
    attempt: Attempt | None = None
    outcomes: tuple[Outcome, ...] = ()
    decided: int = 0  # decisions made so far: the next decision's ordinal
    plays_done: int = 0
    points: tuple[int, int] = (0, 0)
    let_in_play: bool = False
    suspended: frozenset[str] = frozenset()
    """Sensors reported faulty and not yet recovered (house-style rule 5)."""

    @property
    def tosser(self) -> str:
        """The tosser of the current (or, once over, the last) play."""
        return self.settings.tosser(min(self.plays_done, self.settings.plays - 1))

    @property
    def caller(self) -> str:
        """The caller of the current play."""
        return self.settings.opponent(self.tosser)

    @property
    def score(self) -> Score:
        """The match score in seat order."""
        return tuple(zip(self.settings.players, self.points, strict=True))

    @property
    def decided_all_plays(self) -> bool:
        """True once every play of the match has ended with a point or fault."""
        return self.plays_done >= self.settings.plays


def new_match(settings: MatchSettings) -> State:
    """The state before the first Go."""
    return State(settings=settings)


def with_outcomes(state: State, outcomes: tuple[Outcome, ...]) -> State:
    """``state`` with ``outcomes``, and the score, plays done and let flag
    folded from them."""
    players = state.settings.players
    points = [0, 0]
    plays_done = 0
    let_in_play = False
    for outcome in outcomes:
        if outcome.kind in ENDS_PLAY:
            if outcome.to is not None:
                points[players.index(outcome.to)] += 1
            plays_done += 1
            let_in_play = False
        elif outcome.kind is Replacement.LET:
            let_in_play = True
    return dataclasses.replace(
        state,
        outcomes=outcomes,
        plays_done=plays_done,
        points=(points[0], points[1]),
        let_in_play=let_in_play,
    )
