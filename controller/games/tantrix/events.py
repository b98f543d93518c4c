"""Tantrix inputs besides the clock's own (``controller.clock.events``)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.model import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class TileScore(Event):
    """The tile scores from the score sheet at the end (4a), in fixture-list
    order; ``adjudicated`` when the Controller stopped the game and
    adjudicated them (3d)."""

    tiles: tuple[int, int]
    players: tuple[str, str]
    adjudicated: bool = False

    @property
    def by_player(self) -> dict[str, int]:
        """The tile scores keyed by player, as the input gives them."""
        return dict(zip(self.players, self.tiles, strict=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeOut(Event):
    """``player`` says "time-out" and pauses the clock (5a)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeAdjustment(Event):
    """Rule 5c: ``against`` was in the wrong after a restarted clock: ``ms`` is
    added to their time taken and taken off the opponent's (30 s unless the
    Controller rules another amount)."""

    against: str
    ms: int = 30_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Arrived(Event):
    """A player whose clock was started in their absence has arrived (6a)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DefaultCall(Event):
    """The Controller defaults ``against``, who has not arrived (6b)."""

    against: str
