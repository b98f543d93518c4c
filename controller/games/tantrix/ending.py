"""How a game ends: tile scores to TPs with time penalties (4a, 3b, 3c, 3d),
a default (6b, 6c), or the TD ending it (11)."""

from __future__ import annotations

from controller.clock import stop
from controller.games.tantrix.events import TileScore
from controller.games.tantrix.state import Phase, Result
from controller.games.tantrix.step import Step, clock_text, running_player, taken_ms
from controller.games.tantrix.tp import after_penalties, time_penalties, tp
from controller.model import JSON, RulingKind


def _pair(players: tuple[str, str], values: tuple[int, int] | tuple[float, float]) -> JSON:
    return {players[0]: values[0], players[1]: values[1]}


def _tps(players: tuple[str, str], tp10: tuple[int, int]) -> str:
    return f"{players[0]} {tp(tp10[0])} - {tp(tp10[1])} {players[1]}"


def _leader(players: tuple[str, str], values: tuple[int, int]) -> tuple[str | None, str | None]:
    """(ahead, behind) by ``values``; (None, None) when level."""
    if values[0] == values[1]:
        return None, None
    return (players[0], players[1]) if values[0] > values[1] else (players[1], players[0])


def _stop_clock(step: Step) -> None:
    if running_player(step.state) is not None:
        step.notice("4c", "the clock was still running at the score entry: stopped now")
    step.update(clock=stop(step.state.clock, step.t_ns), phase=Phase.OVER)


def _penalty_rulings(step: Step, base: tuple[int, int], result: Result) -> None:
    """One ``penalty`` per player over the limit, each with the score after it."""
    settings = step.state.settings
    players = settings.players
    assert result.taken_ms is not None
    counts = result.penalties
    for i, player in enumerate(players):
        if counts[i] == 0:
            continue
        so_far = (counts[0], counts[1] if i == 1 else 0)
        before = after_penalties(base, (counts[0], 0) if i == 1 else (0, 0), settings.penalty_tp10)
        after = after_penalties(base, so_far, settings.penalty_tp10)
        moved = abs(after[0] - before[0])
        clamped = moved != counts[i] * settings.penalty_tp10
        step.update(result=Result(how=result.how, tp10=after, tiles=result.tiles, t_ns=step.t_ns))
        other = settings.opponent(player)
        limit = "; limited so that TPs stay within 0.0-20.0 (3c)" if clamped else ""
        step.emit(
            RulingKind.PENALTY,
            "3c" if clamped else "3b",
            player,
            other,
            f"{player} took {clock_text(result.taken_ms[i])}: {counts[i]} time "
            f"penalt{'y' if counts[i] == 1 else 'ies'}, {tp(moved)} TP to {other}{limit}: "
            f"{_tps(players, after)}",
            extra=(("penalties", counts[i]), ("time_taken_ms", result.taken_ms[i]),
                   ("tp_moved", tp(moved)), ("clamped", clamped)),
        )  # fmt: skip


def finish(step: Step, event: TileScore) -> None:
    """The tile scores are in: TPs by margin (4a), then time penalties (3b, 3c)."""
    settings = step.state.settings
    players = settings.players
    _stop_clock(step)
    taken = (
        taken_ms(step.state, players[0], step.t_ns),
        taken_ms(step.state, players[1], step.t_ns),
    )
    counts = (
        time_penalties(taken[0], settings.limit_ms),
        time_penalties(taken[1], settings.limit_ms),
    )
    base = settings.tp_table.convert(event.tiles)
    final = after_penalties(base, counts, settings.penalty_tp10)
    how = "adjudicated" if event.adjudicated else "tiles"
    result = Result(how, final, event.tiles, base, taken, counts, t_ns=step.t_ns)
    step.update(result=Result(how=how, tp10=base, tiles=event.tiles, t_ns=step.t_ns))
    _penalty_rulings(step, base, result)
    step.update(result=result)
    ahead, behind = _leader(players, final)
    winner, _ = _leader(players, event.tiles)
    margin = abs(event.tiles[0] - event.tiles[1])
    penalised = f"; after time penalties {_tps(players, final)}" if final != base else ""
    how_text = "adjudicated by the Controller (3d)" if event.adjudicated else "tiles"
    step.emit(
        RulingKind.GAME_OVER,
        "3d" if event.adjudicated else "4a",
        behind,
        ahead,
        f"{how_text} {players[0]} {event.tiles[0]} - {event.tiles[1]} {players[1]}, margin "
        f"{margin}: {_tps(players, base)} TPs{penalised}",
        extra=(
            ("winner", winner),
            ("tiles", _pair(players, event.tiles)),
            ("margin", margin),
            ("tp_by_margin", _pair(players, (tp(base[0]), tp(base[1])))),
            ("penalties", _pair(players, counts)),
            ("time_taken_ms", _pair(players, taken)),
            ("adjudicated", event.adjudicated),
        ),
    )


def default(step: Step, against: str, *, automatic: bool) -> None:
    """``against`` has not arrived and is defaulted (6b), with the default TPs (6c)."""
    settings = step.state.settings
    players = settings.players
    other = settings.opponent(against)
    win, lose = settings.default_tp10
    tp10 = (win, lose) if players[0] == other else (lose, win)
    step.update(clock=stop(step.state.clock, step.t_ns), phase=Phase.OVER, absent=None)
    step.update(result=Result("default", tp10, defaulted=against, t_ns=step.t_ns))
    minutes = (settings.clock_start_ms + settings.default_ms) / 60_000
    who = "" if automatic else " by the Controller"
    step.emit(
        RulingKind.GAME_OVER,
        "6b",
        against,
        other,
        f"{against} has not arrived {minutes:g} min after the scheduled start: defaulted{who}, "
        f"{_tps(players, tp10)} (6c)",
        extra=(("winner", other), ("default", True)),
    )


def end_by_td(step: Step, reason: str) -> None:
    """The TD ends the game with no result entered (11): no TPs from the table."""
    step.update(clock=stop(step.state.clock, step.t_ns), phase=Phase.OVER)
    step.update(result=Result("ended", (0, 0), t_ns=step.t_ns))
    why = f": {reason}" if reason else ""
    step.emit(
        RulingKind.GAME_OVER,
        "11",
        None,
        None,
        f"game ended by the Controller with no result entered{why}",
        extra=(("winner", None),),
    )
