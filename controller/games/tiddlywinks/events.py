"""The inputs of a tiddlywinks game, at the observation level.

A camera over the mat (or a person with a ruler) reports where the winks are;
the shot button or a settled mat ends a shot. The umpire and the players enter
what no camera sees: fouls, umpire decisions, concessions, time stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.games.tiddlywinks.geometry import Colour
from controller.model import Event


@dataclass(frozen=True, slots=True)
class Sighting:
    """One wink as an observation reports it.

    ``x``/``y`` are mm in the mat frame (:mod:`.geometry`), absent only for a
    potted wink; ``off`` says the wink left the field of play in this shot
    (7(a)), which the engine also infers from a position beyond a boundary;
    ``on`` lists the winks this one lies on (it squops them).
    """

    id: str
    x: float | None = None
    y: float | None = None
    potted: bool = False
    off: bool = False
    on: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Squidge(Event):
    """The squidge-off (5(a)): where each colour's wink came to rest.

    ``pending`` (the camera's, :mod:`.camera_squidge`) says why the
    squidge-off cannot be judged yet: colours still waiting, or what the
    umpire must decide; ``winks`` then lists the colours already done.
    """

    winks: tuple[Sighting, ...]
    pending: tuple[str, ...] = ()
    evidence: str = ""
    """The still it was read from (:mod:`.camera_evidence`), relative to the journal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Lineup(Event):
    """The camera's line-up for the squidge-off round under way (5(a)): every
    wink as it lay before anyone squidged, which the camera reads each
    squidge against (:mod:`.camera_squidge`). Journaled so that a restarted
    service resumes the round with the same line-up; the engine keeps it
    until the round is judged (a tie, a winner).

    ``winks`` are squidge-off ids (``b1`` a 22 mm wink, ``b3`` a 16 mm one:
    an id may repeat); a potted one is a wink of its colour seen in the pot,
    ``off`` one seen beyond the mat's edge.
    """

    winks: tuple[Sighting, ...]
    evidence: str = ""
    """The still it was taken from (:mod:`.camera_evidence`), relative to the journal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Shot(Event):
    """A shot has ended (shot button or settled mat): the winks after it.

    ``winks`` lists the winks that moved (or, with ``complete``, every wink);
    ``wink`` is the wink squidged first, when known; ``colour`` the colour
    the player meant to play, when known (an out-of-turn shot, 12(b));
    ``evidence`` the camera's still of the settled mat (:mod:`.camera_evidence`);
    ``notes`` what the camera could not decide about the shot and leaves to
    the umpire (winks it could not name, the pot's count in question), given
    as a 14 notice.
    """

    winks: tuple[Sighting, ...]
    wink: str | None = None
    colour: Colour | None = None
    complete: bool = False
    evidence: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(Event):
    """The player due to play passes (5(d)); ``colour`` checks whose turn it is."""

    colour: Colour | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Replace(Event):
    """Winks moved without a shot: restored after a disturbance (5(b)),
    replaced on the field (7(a)), separated after a pot-out (8)."""

    winks: tuple[Sighting, ...]
    reason: str = ""


class FoulRule(StrEnum):
    """Which foul (12)."""

    SHOT = "12(a)"  # a shot contrary to 5(b)
    WRONG = "12(b)"  # wrong colour, or out of turn
    DISRUPT = "12(d)"  # deliberate disruption: the game is over


class FoulOption(StrEnum):
    """The offended side's choice (12(a), 12(b))."""

    REPLAY = "replay"  # 12(a)(i): winks replaced, a further shot in the same turn
    ACCEPT = "accept"  # 12(a)(ii), 12(b)(ii): the shot stands, the turn ends
    RETRACT = "retract"  # 12(b)(i): the shot(s) taken back


@dataclass(frozen=True, slots=True, kw_only=True)
class Foul(Event):
    """A foul declared, or the offended side's choice on one the engine saw.

    ``rule`` may be omitted when the engine has a foul open; ``colour`` is
    the offending colour for 12(d), or for 12(b)(ii) the offended side's
    colour chosen to play next.
    """

    rule: FoulRule | None = None
    option: FoulOption | None = None
    colour: Colour | None = None
    reason: str = ""


class UmpireAction(StrEnum):
    """What the umpire does (14, 9(a))."""

    CALL = "call"  # the umpire is called: game time stops
    DECISION = "decision"  # the umpire decides (final), game time runs again
    EXTEND = "extend"  # time deliberately wasted: the limit is extended (9(a))


@dataclass(frozen=True, slots=True, kw_only=True)
class Umpire(Event):
    """An umpire's involvement; a decision may correct the mat (``winks``)."""

    action: UmpireAction
    detail: str = ""
    winks: tuple[Sighting, ...] = ()
    minutes: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Concede(Event):
    """After a pot-out the players agree the places of the colours not yet
    potted out, best first (10(a)); the game ends."""

    order: tuple[Colour, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeOut(Event):
    """Game time stops (9(a): a wink lost, a player called away, the 30 s
    rule; 12(e): winks replaced after a foul)."""

    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeIn(Event):
    """Game time runs again."""
