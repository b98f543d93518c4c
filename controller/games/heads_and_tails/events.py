"""The semantic inputs of Heads & Tails (``contracts.md`` section 2).

Sensors, the call pad, the camera and the spotter all end up as these; the
engine cannot tell a light gate from a scenario file.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.model import Event, RulingTarget


class Face(StrEnum):
    """How the coin came to rest."""

    HEADS = "heads"
    TAILS = "tails"
    EDGE = "edge"  # indeterminate landing, a "cleet" (2.7.4)
    BROKEN = "broken"  # the coin broke on impact, a "skraggaleon" (2.7.4)
    UNKNOWN = "unknown"  # the camera could not tell: the spotter enters the landing (2.6.1)


class TouchWhat(StrEnum):
    """What the tosser touched after the toss (2.1.6)."""

    START_LINE = "start_line"
    FAULT_LINE = "fault_line"
    TABLE = "table"
    COIN = "coin"


class Toucher(StrEnum):
    """Who or what the coin touched in flight (2.1.10, 2.1.11)."""

    REFEREE = "referee"
    OPPONENT = "opponent"
    SPECTATOR = "spectator"
    TABLE = "table"


class SpotterAction(StrEnum):
    """A spotter's decision (2.6, 2.7)."""

    INVALID = "invalid"
    LET = "let"
    FAULT = "fault"
    OVERRULE = "overrule"


class Replacement(StrEnum):
    """What an overruled ruling becomes."""

    POINT = "point"
    FAULT = "fault"
    LET = "let"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True, kw_only=True)
class Go(Event):
    """The spotter declares "Ready - Go" (2.1.1); opens the toss window."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Toss(Event):
    """The coin leaves the tosser's hand."""

    upward: bool = True
    below_fault_line: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(Event):
    """A player says something; only "heads" and "tails" are calls (2.2.1)."""

    player: str
    word: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FaultLine(Event):
    """The coin passed below the fault line."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Touch(Event):
    """The tosser touched a line, the table or the coin after the toss."""

    what: TouchWhat


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinTouched(Event):
    """The coin touched someone or something in flight."""

    who: Toucher


@dataclass(frozen=True, slots=True, kw_only=True)
class Landed(Event):
    """The coin came to rest.

    ``evidence`` names what the camera kept of it (a file beside the
    journal, or the image a scenario ran through the pipeline).
    """

    face: Face
    in_area: bool = True
    evidence: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinChange(Event):
    """A player asks to change the coin (1.3.4)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotterCall(Event):
    """The spotter declares the attempt invalid, a let, or a fault.

    ``against`` is needed for a fault only; a let always goes against the
    tosser. ``rule`` of None means the engine's default for the action.
    """

    action: SpotterAction
    rule: str | None = None
    against: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Overrule(RulingTarget):
    """The spotter replaces an earlier ruling with another (2.6.1)."""

    replace_with: Replacement
    to: str | None = None
    against: str | None = None
    rule: str | None = None
    reason: str = ""
