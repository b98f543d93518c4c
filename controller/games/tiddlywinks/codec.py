"""Tiddlywinks events and settings to and from JSON payloads.

A payload is exactly the scenario ``[[input]]`` table without ``at`` and
``type``, so the journal, commands and scenario files share one validator.

>>> from controller.games.tiddlywinks.events import Sighting, Shot
>>> encode(Shot(t_ns=5, winks=(Sighting("b1", 10.0, -4.5),), wink="b1"))
('shot', {'winks': [{'id': 'b1', 'x': 10.0, 'y': -4.5}], 'wink': 'b1'})
"""

from __future__ import annotations

from controller.gamemodule import encode_common
from controller.games.tiddlywinks.events import (
    Concede,
    Foul,
    Lineup,
    Pass,
    Replace,
    Shot,
    Sighting,
    Squidge,
    TimeIn,
    TimeOut,
    Umpire,
    UmpireAction,
)
from controller.games.tiddlywinks.geometry import MatSpec
from controller.games.tiddlywinks.state import Format, Settings
from controller.model import JSON, Event


def sighting_json(s: Sighting) -> dict[str, JSON]:
    """One wink of an observation as its scenario table."""
    out: dict[str, JSON] = {"id": s.id}
    if s.potted:
        out["potted"] = True
        return out
    if s.x is not None:
        out["x"] = s.x
    if s.y is not None:
        out["y"] = s.y
    if s.off:
        out["off"] = True
    if s.on:
        out["on"] = list(s.on)
    return out


def _winks(winks: tuple[Sighting, ...]) -> list[JSON]:
    return [sighting_json(s) for s in winks]


def _shot(event: Shot) -> dict[str, JSON]:
    out: dict[str, JSON] = {"winks": _winks(event.winks)}
    if event.wink is not None:
        out["wink"] = event.wink
    if event.colour is not None:
        out["colour"] = event.colour.value
    if event.complete:
        out["complete"] = True
    if event.evidence:
        out["evidence"] = event.evidence
    if event.notes:
        out["notes"] = list(event.notes)
    return out


def _foul(event: Foul) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    if event.rule is not None:
        out["rule"] = event.rule.value
    if event.option is not None:
        out["option"] = event.option.value
    if event.colour is not None:
        out["colour"] = event.colour.value
    if event.reason:
        out["reason"] = event.reason
    return out


def _umpire(event: Umpire) -> dict[str, JSON]:
    out: dict[str, JSON] = {"action": event.action.value}
    if event.detail:
        out["detail"] = event.detail
    if event.action is UmpireAction.EXTEND:
        out["minutes"] = event.minutes
    if event.winks:
        out["winks"] = _winks(event.winks)
    return out


def encode(event: Event) -> tuple[str, dict[str, JSON]]:
    """(type, payload) of an event."""
    common = encode_common(event)
    if common is not None:
        return common
    match event:
        case Squidge():
            squidge: dict[str, JSON] = {"winks": _winks(event.winks)}
            if event.pending:
                squidge["pending"] = list(event.pending)
            if event.evidence:
                squidge["evidence"] = event.evidence
            return "squidge", squidge
        case Lineup():
            lineup: dict[str, JSON] = {"winks": _winks(event.winks)}
            return "lineup", {**lineup, "evidence": event.evidence} if event.evidence else lineup
        case Shot():
            return "shot", _shot(event)
        case Pass():
            return "pass", {} if event.colour is None else {"colour": event.colour.value}
        case Replace():
            out: dict[str, JSON] = {"winks": _winks(event.winks)}
            return "place", {**out, "reason": event.reason} if event.reason else out
        case Foul():
            return "foul", _foul(event)
        case Umpire():
            return "umpire", _umpire(event)
        case Concede():
            return "concede", {"order": [c.value for c in event.order]}
        case TimeOut():
            return "pause", {"reason": event.reason} if event.reason else {}
        case TimeIn():
            return "resume", {}
    raise TypeError(f"cannot encode {event!r}")


def _mat_json(spec: MatSpec) -> dict[str, JSON]:
    return {
        "length_mm": spec.length_mm,
        "width_mm": spec.width_mm,
        "baseline_mm": spec.baseline_mm,
        "pot_x_mm": spec.pot_x_mm,
        "pot_y_mm": spec.pot_y_mm,
        "pot_base_mm": spec.pot_base_mm,
        "pot_rim_mm": spec.pot_rim_mm,
    }


def encode_match(settings: Settings) -> dict[str, JSON]:
    """Settings as the ``[match]`` table that :func:`parse_match` reads."""
    players: list[JSON] = list(
        settings.players if settings.format is Format.PAIRS else settings.players[:2]
    )
    out: dict[str, JSON] = {
        "format": settings.format.value,
        "players": players,
        "shot_limit": settings.shot_limit,
        "shot_limit_seconds": settings.shot_limit_ns / 1e9,
        "rounds_after": settings.rounds_after,
        "squidge_tie_mm": settings.squidge_tie_mm,
        "mat": _mat_json(settings.mat),
    }
    if settings.time_limit_ns is not None:
        out["time_limit_minutes"] = settings.time_limit_ns / 60e9
    return out
