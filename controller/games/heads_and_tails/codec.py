"""Heads & Tails events to and from JSON payloads.

The payload of an event is exactly its scenario ``[[input]]`` table without
``at`` (and ``type`` given separately), so the journal, MQTT commands and
scenario files share one format and one validator: :func:`parse_input`.

>>> from controller.games.heads_and_tails.events import Call
>>> encode(Call(t_ns=5, player="ben", word="heads"))
('call', {'player': 'ben', 'call': 'heads'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.errors import InputError
from controller.gamemodule import decode_common, encode_common
from controller.games.heads_and_tails.events import (
    Call,
    CoinChange,
    CoinTouched,
    FaultLine,
    Go,
    Landed,
    Overrule,
    SpotterCall,
    Toss,
    Touch,
)
from controller.games.heads_and_tails.scenario import parse_input, parse_match
from controller.games.heads_and_tails.state import MatchSettings
from controller.model import JSON, Event
from controller.strict import Table


def _spotter(event: SpotterCall | Overrule) -> dict[str, JSON]:
    out: dict[str, JSON]
    if isinstance(event, Overrule):
        out = {"action": "overrule", "ruling": event.ref, "replace_with": event.replace_with.value}
        out.update({k: v for k, v in (("to", event.to), ("against", event.against)) if v})
    else:
        out = {"action": event.action.value}
        if event.against is not None:
            out["against"] = event.against
    if event.rule is not None:
        out["rule"] = event.rule
    if event.reason:
        out["reason"] = event.reason
    return out


def encode(event: Event) -> tuple[str, dict[str, JSON]]:
    """(type, payload) of an event."""
    common = encode_common(event)
    if common is not None:
        return common
    match event:
        case Go() | FaultLine():
            return ("go" if isinstance(event, Go) else "fault_line"), {}
        case Toss():
            return "toss", {"upward": event.upward, "below_fault_line": event.below_fault_line}
        case Call():
            return "call", {"player": event.player, "call": event.word}
        case Touch():
            return "touch", {"what": event.what.value}
        case CoinTouched():
            return "coin_touched", {"who": event.who.value}
        case Landed():
            landed: dict[str, JSON] = {"face": event.face.value, "in_area": event.in_area}
            return "landed", landed | ({"evidence": event.evidence} if event.evidence else {})
        case CoinChange():
            return "coin_change", {"player": event.player}
        case SpotterCall() | Overrule():
            return "spotter", _spotter(event)
    raise TypeError(f"cannot encode {event!r}")


def decode(
    kind: str,
    payload: Mapping[str, Any],
    t_ns: int,
    settings: MatchSettings,
    *,
    source: str = "payload",
    where: str = "",
) -> Event:
    """The event of a (type, payload); raises :class:`InputError` naming the field.

    A sensor ``health`` report is journaled like any input, but is no command
    (see :mod:`controller.commands`).
    """
    table = Table(dict(payload), source, where or kind, InputError)
    common = decode_common(kind, table, t_ns)
    if common is not None:
        return common
    return parse_input(kind, table, t_ns, settings)


def encode_match(settings: MatchSettings) -> dict[str, JSON]:
    """A match's settings as the ``[match]`` table that :func:`parse_match` reads."""
    return {
        "players": list(settings.players),
        "format": settings.format.value,
        "plays": settings.plays,
        "first_tosser": settings.first_tosser,
        "visually_impaired": [*sorted(settings.visually_impaired)],
        "vi_grace_seconds": settings.vi_grace_ns / 1e9,
        "toss_window_seconds": settings.toss_window_ns / 1e9,
    }


def decode_match(doc: object, source: str, where: str) -> MatchSettings:
    """Settings from a ``[match]``-shaped object; :class:`InputError` names the field."""
    return parse_match(Table(doc, source, where, InputError))
