"""The ``clock`` topic payload, and how a display interpolates it.

One retained message per change (a press, a pause, an adjustment, a flag),
never one per tick: a display keeps the last payload and computes the time
now from it with :func:`interpolate`, which is the reference for display
authors (``docs/clocks.md`` says the same in words).

>>> from controller.clock.control import TimeControl
>>> from controller.clock.engine import new_clock, start
>>> state = start(new_clock(TimeControl.sudden_death(60_000)), Seat.LEFT, 0)
>>> payload = snapshot(state, 1_000_000_000, {Seat.LEFT: "ann", Seat.RIGHT: "ben"})
>>> payload["running"], payload["remaining_ms"]
('ann', {'ann': 59000, 'ben': 60000})
>>> interpolate(payload, 3_500_000_000)
{'ann': 56500, 'ben': 60000}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.clock import engine
from controller.clock.control import Mode, Seat
from controller.clock.state import ClockState
from controller.model import JSON

NS_PER_MS = engine.NS_PER_MS


def snapshot(state: ClockState, t_ns: int, players: Mapping[Seat, str]) -> dict[str, JSON]:
    """The clock at ``t_ns`` as JSON (the service adds ``wall``).

    Keys: ``running`` (player or null), ``paused`` (reason or null),
    ``remaining_ms``, ``moves``, ``periods_left``, ``period_ms``, ``mode``,
    ``stage``, ``flagged`` (player -> bool), ``delay_left_ms`` (the running
    player's), ``gaining`` (hourglass: the player whose time grows, or null),
    ``count_past_zero``, ``flag_at_ns`` (when the running flag falls, or
    null) and ``at_ns`` (``t_ns`` floored to the ms: the time the figures hold at).
    """
    t_ms = engine.now_ms(state, t_ns)
    at_ns = t_ms * NS_PER_MS
    running = state.running
    seats = list(Seat)
    gaining = None
    if running is not None and state.stage(running).mode is Mode.HOURGLASS:
        gaining = players[running.other]

    def per_seat(value: Any) -> dict[str, JSON]:
        return {players[seat]: value(seat) for seat in seats}

    return {
        "running": None if running is None else players[running],
        "paused": None if state.pause is None else state.pause.reason.value,
        "remaining_ms": per_seat(lambda s: engine.remaining_ms(state, s, at_ns)),
        "delay_left_ms": engine.delay_left_ms(state, at_ns),
        "moves": per_seat(lambda s: state.seat(s).moves),
        "periods_left": per_seat(lambda s: engine.periods_left(state, s, at_ns)),
        "period_ms": per_seat(lambda s: state.stage(s).period_ms),
        "mode": per_seat(lambda s: state.stage(s).mode.value),
        "stage": per_seat(lambda s: state.seat(s).stage),
        "flagged": per_seat(lambda s: state.seat(s).flagged),
        "gaining": gaining,
        "count_past_zero": state.control.count_past_zero,
        "flag_at_ns": engine.flag_deadline(state),
        "at_ns": at_ns,
    }


def interpolate(payload: Mapping[str, Any], now_ns: int) -> dict[str, int]:
    """Every player's remaining ms at ``now_ns`` from a ``clock`` payload.

    What a display does between messages: nothing moves while paused or
    stopped; the running player's time falls one ms per ms (in simple delay
    only once ``delay_left_ms`` has run out); in hourglass the other player's
    time rises as much; without ``count_past_zero`` it all stops at the flag.
    """
    out = {player: int(ms) for player, ms in payload["remaining_ms"].items()}
    running = payload["running"]
    if running is None or payload["paused"] is not None:
        return out
    at_ns = int(payload["at_ns"])
    now_ns = max(now_ns, at_ns)
    flag_at = payload["flag_at_ns"]
    if flag_at is not None and not payload["count_past_zero"]:
        now_ns = min(now_ns, int(flag_at))
    elapsed = now_ns // NS_PER_MS - at_ns // NS_PER_MS
    run = elapsed
    if payload["mode"][running] == Mode.SIMPLE_DELAY.value:
        run = max(0, elapsed - int(payload["delay_left_ms"]))
    out[running] -= run
    if payload["gaining"] is not None:
        out[payload["gaining"]] += elapsed
    return out
