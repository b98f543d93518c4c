"""The match record (1.2.4 conditions of play, 5.13 score keeping, 2.2.6
remaining times at a break): every game with its cube, result and the
reserves on the clocks, every pause, every ruling."""

from __future__ import annotations

from collections.abc import Sequence

from controller.clock import format_ms
from controller.games.backgammon.state import GameRecord, PauseRecord, Phase, State
from controller.model import JSON, Ruling
from controller.timebase import ns_to_seconds


def _at(t_ns: int | None, origin_ns: int) -> float | None:
    return None if t_ns is None else ns_to_seconds(t_ns - origin_ns)


def _per_player(state: State, values: tuple[int, int] | None) -> JSON:
    if values is None:
        return None
    return dict(zip(state.settings.players, values, strict=True))


def _game_json(state: State, game: GameRecord, origin_ns: int) -> dict[str, JSON]:
    return {
        "game": game.number,
        "first": game.first,
        "crawford": game.crawford,
        "winner": game.winner,
        "result": "dropped" if game.result is None else game.result.value,
        "cube": game.cube,
        "cube_owner": game.cube_owner,
        "points": game.points,
        "score_after": _per_player(state, game.score_after),
        "ended_at": _at(game.ended_ns, origin_ns),
        "reserves_start_ms": _per_player(state, game.reserves_start_ms),
        "reserves_end_ms": _per_player(state, game.reserves_end_ms),
    }


def _pause_json(state: State, pause: PauseRecord, origin_ns: int) -> dict[str, JSON]:
    return {
        "reason": pause.reason,
        "game": pause.game,
        "from": _at(pause.start_ns, origin_ns),
        "to": _at(pause.end_ns, origin_ns),
        "reserves_ms": _per_player(state, pause.reserves_ms),
    }


def record_json(state: State, rulings: Sequence[Ruling], origin_ns: int) -> dict[str, JSON]:
    """The record as one JSON document."""
    settings = state.settings
    clock_in: JSON = None
    if state.clock_in is not None:
        clock_in = {"game": state.clock_in[0], "reserve_ms": state.clock_in[1]}
    return {
        "game": "backgammon",
        "players": list(settings.players),
        "length": settings.length,
        "crawford_rule": settings.crawford,
        "clock": {
            "delay_ms": settings.clock.delay_ms,
            "reserve_per_point_ms": settings.clock.reserve_per_point_ms,
            "flag": settings.clock.flag.value,
            "brought_in": clock_in,
        },
        "games": [_game_json(state, g, origin_ns) for g in state.games],
        "pauses": [_pause_json(state, p, origin_ns) for p in state.pauses],
        "overtime_periods": _per_player(state, state.overtime),
        "rulings": [r.to_json_dict() for r in rulings],
        "score": dict(state.score),
        "finished": state.phase is Phase.OVER,
        "winner": state.winner,
    }


def _reserves(state: State, values: tuple[int, int] | None) -> str:
    if values is None:
        return ""
    a, b = state.settings.players
    return f"; clocks {a} {format_ms(values[0])}, {b} {format_ms(values[1])}"


def _game_line(state: State, game: GameRecord) -> str:
    how = "cube dropped" if game.result is None else game.result.value
    crawford = " (Crawford)" if game.crawford else ""
    a, b = game.score_after
    first = f"{game.first} first; " if game.first else ""
    return (
        f"  Game {game.number}{crawford}: {first}{game.winner} wins, {how}, cube {game.cube}: "
        f"{game.points} pt -> {a}-{b}{_reserves(state, game.reserves_end_ms)}"
    )


def record_text(state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
    """The record as plain text for printing."""
    settings = state.settings
    a, b = settings.players
    lines = [
        "Backgammon match record",
        f"Players: {a} (left) v {b} (right); match to {settings.length} points",
        "",
    ]
    lines += [_game_line(state, g) for g in state.games]
    for pause in state.pauses:
        until = "open" if pause.end_ns is None else f"{_at(pause.end_ns, origin_ns)} s"
        lines.append(
            f"  Pause ({pause.reason}) in game {pause.game}: {_at(pause.start_ns, origin_ns)} s"
            f" to {until}{_reserves(state, pause.reserves_ms)}"
        )
    lines += ["", "Rulings:"]
    lines += [f"  {r.id:>12}  {r.at:9.3f} s  {r.kind.value:<10} {r.rule or '-':<6} {r.detail}"
              for r in rulings]  # fmt: skip
    score = f"{a} {state.points[0]} - {state.points[1]} {b}"
    if state.phase is not Phase.OVER:
        result = f"not finished ({score})"
    else:
        result = f"{score}: {state.winner or 'no winner'}" + (" wins" if state.winner else "")
    lines += ["", f"Result: {result}", ""]
    return "\n".join(lines)
