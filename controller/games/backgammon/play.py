"""Match play: games won, the score, the Crawford game and the end of the match.

These functions act on a :class:`Step`; the engine's handlers call them once
an input has been found to make sense.
"""

from __future__ import annotations

import dataclasses

from controller.games.backgammon.clocking import (
    describe_reserves,
    reserves,
    reserves_json,
    stop_clock,
)
from controller.games.backgammon.events import ResultType
from controller.games.backgammon.state import (
    Cube,
    GameRecord,
    Phase,
    State,
    is_crawford_score,
    open_pause,
)
from controller.games.backgammon.step import Step
from controller.model import RulingKind


def _add(state: State, player: str, points: int) -> tuple[int, int]:
    scores = list(state.points)
    scores[state.settings.index(player)] += points
    return scores[0], scores[1]


def _score_text(state: State) -> str:
    (a, x), (b, y) = state.score
    return f"{a} {x} - {y} {b} in a {state.settings.length}-point match"


def close_pause(step: Step) -> None:
    """End a pause in progress on the record (the match or game ended)."""
    pause = open_pause(step.state)
    if pause is not None:
        closed = dataclasses.replace(pause, end_ns=step.t_ns)
        step.update(pauses=(*step.state.pauses[:-1], closed))


def finish_match(step: Step, winner: str | None, rule: str, why: str) -> None:
    """The match is over: ``winner`` (None: no winner) and why."""
    stop_clock(step)
    close_pause(step)
    loser = None if winner is None else step.state.settings.opponent(winner)
    step.update(phase=Phase.OVER, winner=winner)
    detail = f"match over, {_score_text(step.state)}: {why}"
    step.emit(RulingKind.MATCH_OVER, rule, loser, winner, detail, (("winner", winner),))


def check_match_end(step: Step) -> bool:
    """5.14: the match ends as soon as a score meets or exceeds the match length."""
    state = step.state
    length = state.settings.length
    leader = max(state.settings.players, key=state.points_of)
    if state.points_of(leader) < length:
        return False
    finish_match(step, leader, "5.14", f"{leader} has reached {length}")
    return True


def announce_crawford(step: Step) -> None:
    """5.11: say once that the game about to be played is the Crawford game."""
    state = step.state
    if not state.crawford_game or state.crawford_announced:
        return
    leader = max(state.settings.players, key=state.points_of)
    detail = (
        f"game {state.game} is the Crawford game: {leader} is one point from victory "
        f"({_score_text(state)}); the cube is out of play for this game"
    )
    step.update(crawford_announced=True)
    step.emit(RulingKind.CRAWFORD, "5.11", None, None, detail, (("game_number", state.game),))


def _schedule_crawford(step: Step) -> None:
    """Before a game begins: is it the Crawford game? (5.11)"""
    state = step.state
    crawford = not state.crawford_done and is_crawford_score(state.settings, state.points)
    step.update(crawford_game=crawford)
    announce_crawford(step)


def award_penalty(step: Step, against: str, points: int, rule: str, why: str) -> None:
    """Penalty points to ``against``'s opponent; the match may end (5.14)."""
    to = step.state.settings.opponent(against)
    step.update(points=_add(step.state, to, points))
    detail = f"{why}: {points} penalty point{'s' if points != 1 else ''} to {to}"
    step.emit(RulingKind.PENALTY, rule, against, to, detail, (("points", points),))
    if not check_match_end(step) and step.state.phase is Phase.BEFORE_GAME:
        _schedule_crawford(step)


def begin_game(step: Step) -> None:
    """The current game is under way (from its opening roll, or, with no
    clock and no opening roll entered, its first cube action or result)."""
    step.update(phase=Phase.PLAYING)
    announce_crawford(step)


def end_game(step: Step, winner: str, result: ResultType | None, detail: str) -> None:
    """The current game is won (5.12): points, the record, then the match end
    (5.14) or the next game."""
    state = step.state
    cube = state.cube.value
    points = cube * (1 if result is None else result.multiplier)
    now = reserves(state, step.t_ns)
    stop_clock(step)
    state = step.state
    scores = _add(state, winner, points)
    record = GameRecord(
        number=state.game,
        winner=winner,
        result=result,
        cube=cube,
        cube_owner=state.cube.owner,
        points=points,
        crawford=state.crawford_game,
        score_after=scores,
        first=state.first,
        ended_ns=step.t_ns,
        reserves_start_ms=state.reserves_at_start,
        reserves_end_ms=now,
    )
    step.update(points=scores, games=(*state.games, record))
    on_clock = describe_reserves(step.state, step.t_ns)
    extra = (
        ("game_number", record.number),
        ("result", "dropped" if result is None else result.value),
        ("cube", cube),
        ("points", points),
        ("remaining_ms", reserves_json(step.state, step.t_ns)),
    )
    loser = state.settings.opponent(winner)
    text = f"game {record.number}: {detail}" + (f"; clocks {on_clock}" if on_clock else "")
    step.emit(RulingKind.GAME_OVER, "5.12", loser, winner, text, extra)
    if not check_match_end(step):
        _next_game(step)


def _next_game(step: Step) -> None:
    """Centre the cube and wait for the next opening roll (5.9, 5.11)."""
    state = step.state
    was_crawford = state.crawford_game
    step.update(
        phase=Phase.BEFORE_GAME,
        game=state.game + 1,
        cube=Cube(),
        opening=None,
        first=None,
        reserves_at_start=None,
        crawford_done=state.crawford_done or was_crawford,
        crawford_announced=False,
    )
    _schedule_crawford(step)
    if was_crawford:
        step.notice("5.11", f"game {step.state.game} is post-Crawford: the cube is back in play")
