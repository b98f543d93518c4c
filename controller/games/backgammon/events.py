"""The semantic inputs of Backgammon: what the TD, the players or the clock say.

No board vision: game results, cube actions, the opening roll and bringing
clocks in are entered (scenario inputs or ``cmd/<verb>`` commands). Clock
buttons and pauses are the clock's own events (:mod:`controller.clock.events`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.model import Event


class ResultType(StrEnum):
    """How a game was won (multiplied by the cube value)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        """Points per cube value.

        >>> ResultType.GAMMON.multiplier
        2
        """
        return {"single": 1, "gammon": 2, "backgammon": 3}[self.value]


@dataclass(frozen=True, slots=True, kw_only=True)
class OpeningRoll(Event):
    """Each player threw one die (5.1): (player, die) pairs, in seat order."""

    dice: tuple[tuple[str, int], ...]

    def die(self, player: str) -> int:
        """The die ``player`` threw.

        >>> OpeningRoll(t_ns=0, dice=(("ann", 5), ("ben", 2))).die("ben")
        2
        """
        return dict(self.dice)[player]


@dataclass(frozen=True, slots=True, kw_only=True)
class Double(Event):
    """``player`` offers the cube (a double or a redouble, 5.9)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Take(Event):
    """``player`` accepts the cube offered to him (5.9)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Drop(Event):
    """``player`` refuses the cube offered to him: the game ends (5.12)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult(Event):
    """The game was played out (or conceded, 5.12): ``winner`` won ``result``."""

    winner: str
    result: ResultType = ResultType.SINGLE


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockIn(Event):
    """Clocks are brought into the match from now (only at the start of a game)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty(Event):
    """The TD awards ``points`` penalty points against ``against`` (2.2.5, 2.2.6)."""

    against: str
    points: int = 1
    rule: str = "2.2.5"
    reason: str = ""
