"""Backgammon events and settings to and from JSON payloads.

The payload of an event is its scenario ``[[input]]`` table without ``at``
(the type given separately), read back by :func:`scenario.parse_input`.

>>> from controller.games.backgammon.events import Double
>>> encode(Double(t_ns=5, player="ann"))
('double', {'player': 'ann'})
"""

from __future__ import annotations

from controller.clock import CLOCK_EVENTS
from controller.clock.scenario import encode_clock
from controller.gamemodule import encode_common
from controller.games.backgammon.events import (
    ClockIn,
    Double,
    Drop,
    GameResult,
    OpeningRoll,
    Penalty,
    Take,
)
from controller.games.backgammon.state import MatchSettings
from controller.model import JSON, Event


def encode(event: Event) -> tuple[str, dict[str, JSON]]:
    """(type, payload) of an event."""
    common = encode_common(event)
    if common is not None:
        return common
    if isinstance(event, CLOCK_EVENTS):
        return encode_clock(event)
    match event:
        case OpeningRoll():
            return "opening_roll", {"dice": dict(event.dice)}
        case Double() | Take() | Drop():
            kind = {Double: "double", Take: "take", Drop: "drop"}[type(event)]
            return kind, {"player": event.player}
        case GameResult():
            return "game_result", {"winner": event.winner, "result": event.result.value}
        case ClockIn():
            return "clock_in", {}
        case Penalty():
            payload: dict[str, JSON] = {
                "against": event.against,
                "points": event.points,
                "rule": event.rule,
            }
            return "penalty", payload | ({"reason": event.reason} if event.reason else {})
    raise TypeError(f"cannot encode {event!r}")


def encode_match(settings: MatchSettings) -> dict[str, JSON]:
    """Settings as the ``[match]`` table that :func:`scenario.parse_match` reads."""
    clock = settings.clock
    return {
        "players": list(settings.players),
        "length": settings.length,
        "crawford": settings.crawford,
        "clock": {
            "from_start": clock.from_start,
            "reserve_per_point_s": clock.reserve_per_point_ms / 1000,
            "delay_s": clock.delay_ms / 1000,
            "deduction_per_point_s": clock.deduction_per_point_ms / 1000,
            "flag": clock.flag.value,
            "overtime_period_s": clock.overtime_period_ms / 1000,
            "overtime_penalty": clock.overtime_penalty,
            "break_limit_s": clock.break_limit_ms / 1000,
        },
    }
