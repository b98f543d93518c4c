"""Clock inputs in scenario files, the journal and commands: one format, one validator.

The payload of a clock event is its scenario ``[[input]]`` table without
``at`` and ``type``, so every clocked game parses, journals and decodes them
the same way:

| type | fields | event |
| --- | --- | --- |
| ``press`` | ``seat``: ``"left"`` or ``"right"`` | :class:`ClockPress` |
| ``pause_switch`` | ``engaged``: true or false | :class:`PauseSwitch` |
| ``pause`` | ``reason``: a :class:`PauseReason` value (default ``"other"``) | :class:`ClockPause` |
| ``resume`` | | :class:`ClockResume` |
| ``adjust`` | ``seat``, ``delta_ms`` (integer, signed), ``reason`` | :class:`ClockAdjust` |

>>> event = parse_clock_input("adjust", Table({"seat": "left", "delta_ms": -30000,
...     "reason": "rule 5"}, "t.toml", "input 4 (adjust)"), 7_000_000)
>>> encode_clock(event)
('adjust', {'seat': 'left', 'delta_ms': -30000, 'reason': 'rule 5'})
>>> decode_clock(*encode_clock(event), 7_000_000, "journal", "row 9") == event
True
>>> parse_clock_input("press", Table({"seat": "middle"}, "t.toml", "input 2 (press)"), 0)
Traceback (most recent call last):
...
controller.errors.InputError: t.toml: input 2 (press): field 'seat': 'middle' is not one of ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.clock.control import MAX_MS, Seat
from controller.clock.events import (
    ClockAdjust,
    ClockEvent,
    ClockPause,
    ClockPress,
    ClockResume,
    PauseSwitch,
)
from controller.clock.state import PauseReason
from controller.errors import InputError
from controller.model import JSON, Event
from controller.strict import Table

CLOCK_INPUT_TYPES = ("press", "pause_switch", "pause", "resume", "adjust")
"""The ``type`` of every clock input, in scenario files and the journal."""


def parse_clock_input(kind: str, table: Table, t_ns: int) -> Event:
    """One clock ``[[input]]`` whose ``type`` and ``at`` were read; finishes ``table``."""
    event: ClockEvent
    if kind == "press":
        event = ClockPress(t_ns=t_ns, seat=table.choice("seat", Seat))
    elif kind == "pause_switch":
        event = PauseSwitch(t_ns=t_ns, engaged=table.boolean("engaged"))
    elif kind == "pause":
        reason = table.choice("reason", PauseReason, PauseReason.OTHER.value)
        event = ClockPause(t_ns=t_ns, reason=reason)
    elif kind == "resume":
        event = ClockResume(t_ns=t_ns)
    elif kind == "adjust":
        event = _adjust(table, t_ns)
    else:
        known = ", ".join(CLOCK_INPUT_TYPES)
        raise table.fail("type", f"{kind!r} is not a clock input ({known})")
    table.finish()
    return event


def _adjust(table: Table, t_ns: int) -> ClockAdjust:
    seat: Seat = table.choice("seat", Seat)
    delta: int = table.integer("delta_ms", minimum=-MAX_MS)
    if delta > MAX_MS:
        raise table.fail("delta_ms", f"must be at most {MAX_MS}, got {delta}")
    if delta == 0:
        raise table.fail("delta_ms", "an adjustment of 0 ms changes nothing")
    return ClockAdjust(t_ns=t_ns, seat=seat, delta_ms=delta, reason=table.string("reason", ""))


def encode_clock(event: Event) -> tuple[str, dict[str, JSON]]:
    """(type, payload) of a clock event; :class:`TypeError` for any other event."""
    match event:
        case ClockPress():
            return "press", {"seat": event.seat.value}
        case PauseSwitch():
            return "pause_switch", {"engaged": event.engaged}
        case ClockPause():
            return "pause", {"reason": event.reason.value}
        case ClockResume():
            return "resume", {}
        case ClockAdjust():
            payload: dict[str, JSON] = {"seat": event.seat.value, "delta_ms": event.delta_ms}
            return "adjust", payload | {"reason": event.reason}
    raise TypeError(f"not a clock event: {type(event).__name__}")


def decode_clock(
    kind: str, payload: Mapping[str, Any], t_ns: int, source: str, where: str
) -> Event:
    """A clock event from its (type, payload); :class:`InputError` names the field."""
    return parse_clock_input(kind, Table(dict(payload), source, where, InputError), t_ns)
