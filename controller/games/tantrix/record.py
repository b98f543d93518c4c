"""The score sheet (1e, 4b): left and right as on the fixture list, with what
the tiebreaks of rule 7 need: TPs, wins (a draw counts half), the actual
margin, and the tiles each player scored."""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.tantrix.state import Phase, State
from controller.games.tantrix.step import clock_text, taken_ms
from controller.games.tantrix.tp import time_penalties, tp
from controller.model import JSON, Ruling
from controller.timebase import ns_to_seconds


def _at(t_ns: int | None, origin_ns: int) -> float | None:
    return None if t_ns is None else ns_to_seconds(t_ns - origin_ns)


def _taken(state: State) -> tuple[int, int]:
    result = state.result
    if result is not None and result.taken_ms is not None:
        return result.taken_ms
    t_ns = (state.clock.at_ms or 0) * 1_000_000
    left, right = (taken_ms(state, p, t_ns) for p in state.settings.players)
    return left, right


def _wins(state: State, i: int) -> float | None:
    """Rule 7's wins: 1 for a win, 0.5 for a draw, by tiles (or by default)."""
    result = state.result
    if result is None or result.how == "ended":
        return None
    if result.how == "default":
        return 0.0 if result.defaulted == state.settings.players[i] else 1.0
    assert result.tiles is not None
    mine, theirs = result.tiles[i], result.tiles[1 - i]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _side(state: State, i: int) -> dict[str, JSON]:
    settings = state.settings
    player = settings.players[i]
    result = state.result
    taken = _taken(state)[i]
    tiles = None if result is None or result.tiles is None else result.tiles
    base = None if result is None or result.base_tp10 is None else tp(result.base_tp10[i])
    return {
        "player": player,
        "clock_side": settings.clock_seat(player).value,
        "moves_first": None if state.first is None else state.first == player,
        "tiles": None if tiles is None else tiles[i],
        "margin": None if tiles is None else tiles[i] - tiles[1 - i],
        "tp_by_margin": base,
        "time_taken_ms": taken,
        "time_taken": clock_text(taken),
        "penalties": time_penalties(taken, settings.limit_ms),
        "tp": None if result is None else tp(result.tp10[i]),
        "wins": _wins(state, i),
        "time_outs": sum(1 for t in state.time_outs if t.player == player),
    }


def record_json(state: State, rulings: Sequence[Ruling], origin_ns: int) -> dict[str, JSON]:
    """The score sheet as one JSON document."""
    settings = state.settings
    result = state.result
    time_outs: list[JSON] = [
        {"player": t.player, "at": _at(t.t_ns, origin_ns), "until": _at(t.end_ns, origin_ns)}
        for t in state.time_outs
    ]
    adjustments: list[JSON] = [
        {
            "at": _at(a.t_ns, origin_ns),
            "time_taken_ms": dict(zip(settings.players, a.taken_ms, strict=True)),
            "reason": a.reason,
        }
        for a in state.adjustments
    ]
    return {
        "game": "tantrix",
        "left": _side(state, 0),
        "right": _side(state, 1),
        "finished": state.phase is Phase.OVER,
        "result": None if result is None else result.how,
        "defaulted": None if result is None else result.defaulted,
        "scheduled_start": settings.scheduled_ms / 1000,
        "clock_started_at": _at(state.started_ns, origin_ns),
        "time_limit": clock_text(settings.limit_ms),
        "tp_table": {"source": settings.tp_table.source, "rows": settings.tp_table.to_toml()},
        "time_outs": time_outs,
        "adjustments": adjustments,
        "rulings": [r.to_json_dict() for r in rulings],
    }


def _line(side: dict[str, JSON]) -> str:
    def show(key: str) -> str:
        value = side[key]
        return "-" if value is None else str(value)

    return (
        f"  {show('player'):<12} tiles {show('tiles'):>4}  margin {show('margin'):>4}  "
        f"time {show('time_taken'):>8}  penalties {show('penalties')}  "
        f"TPs {show('tp_by_margin')} -> {show('tp')}  wins {show('wins')}"
    )


def record_text(state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
    """The score sheet as plain text for printing."""
    doc = record_json(state, rulings, origin_ns)
    left, right = doc["left"], doc["right"]
    assert isinstance(left, dict) and isinstance(right, dict)
    lines = [
        "Tantrix score sheet (2009 table tournament rules)",
        f"Left: {left['player']}   Right: {right['player']}   "
        f"(time limit {doc['time_limit']} each; TP table: {state.settings.tp_table.source})",
        "",
        _line(left),
        _line(right),
        "",
        f"Result: {doc['result'] or 'not finished'}"
        + (f" (defaulted: {doc['defaulted']})" if doc["defaulted"] else ""),
        "",
        "Rulings:",
    ]
    lines += [f"  {r.id:>12}  {r.at:9.3f} s  {r.kind.value:<10} {r.rule or '-':<4} {r.detail}"
              for r in rulings]  # fmt: skip
    lines.append("")
    return "\n".join(lines)
