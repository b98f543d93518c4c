"""Handlers of the game's own inputs: the opening roll, the cube, results,
clocks brought in, TD penalties. Each checks that the input makes sense now;
if not, it answers with a notice citing the rule and changes nothing."""

from __future__ import annotations

from controller.games.backgammon import clocking
from controller.games.backgammon.clocking import describe_reserves, running_player
from controller.games.backgammon.events import (
    ClockIn,
    Double,
    Drop,
    GameResult,
    OpeningRoll,
    Penalty,
    ResultType,
    Take,
)
from controller.games.backgammon.play import (
    announce_crawford,
    award_penalty,
    begin_game,
    end_game,
)
from controller.games.backgammon.state import Cube, Phase
from controller.games.backgammon.step import Step
from controller.model import RulingKind


def on_opening_roll(step: Step, event: OpeningRoll) -> None:
    """5.1: the higher die plays first; with a clock, the lower die presses."""
    state = step.state
    if state.phase is not Phase.BEFORE_GAME:
        step.notice("5.1", f"opening roll disregarded: game {state.game} has already begun")
        return
    a, b = state.settings.players
    x, y = event.die(a), event.die(b)
    if x == y:
        step.notice("5.1", f"equal opening dice ({x}-{y}): both players roll again")
        return
    first, lower = (a, b) if x > y else (b, a)
    step.update(opening=(x, y), first=first)
    said = f"opening roll {a} {x}, {b} {y}: {first} plays both dice first"
    if state.clock is None:
        begin_game(step)
        step.notice("5.1", said)
    else:
        step.update(phase=Phase.OPENING)
        announce_crawford(step)
        step.notice("5.1", f"{said}; {lower} presses the clock to start {first}'s clock")


def _ready(step: Step, what: str) -> bool:
    """Whether a cube action or a result can be taken now. Without a clock,
    the first of them begins the game (see :func:`_begin`); with one, the
    opening roll and the lower die's press must come first (5.1)."""
    phase = step.state.phase
    if phase is Phase.PLAYING or (phase is Phase.BEFORE_GAME and step.state.clock is None):
        return True
    why = "the opening roll" if phase is Phase.BEFORE_GAME else "the clock to be started"
    step.notice("5.1", f"{what} disregarded: game {step.state.game} is waiting for {why}")
    return False


def _begin(step: Step) -> None:
    """With no clock and no opening roll entered, the game is under way."""
    if step.state.phase is Phase.BEFORE_GAME:
        begin_game(step)


def _double_refusal(step: Step, player: str) -> str | None:
    """Why ``player`` may not offer the cube now (rule, reason), or None."""
    state = step.state
    cube = state.cube
    if state.crawford_game:
        return "the Crawford game: the cube is out of play (5.11)"
    if cube.offered_by is not None:
        return f"{cube.offered_by}'s offer awaits an answer (5.9)"
    if cube.owner is not None and cube.owner != player:
        return f"only {cube.owner}, who owns the cube, may redouble (5.9)"
    on_turn = running_player(state)
    if on_turn is not None and on_turn != player:
        return f"{on_turn} is on turn: only the player on turn may double, before rolling (5.9)"
    return None


def on_double(step: Step, event: Double) -> None:
    """5.9: a double (centred cube) or a redouble (by its owner); refused in
    the Crawford game (5.11)."""
    if not _ready(step, f"double by {event.player}"):
        return
    refusal = _double_refusal(step, event.player)
    if refusal is not None:
        rule = "5.11" if step.state.crawford_game else "5.9"
        step.notice(rule, f"double by {event.player} refused: {refusal}")
        return
    _begin(step)
    cube = step.state.cube
    to = step.state.settings.opponent(event.player)
    step.update(cube=Cube(cube.value, cube.owner, event.player))
    word = "redoubles" if cube.owner is not None else "doubles"
    detail = f"{event.player} {word}: the cube is offered to {to} at {cube.value * 2}"
    extra = (("action", "double"), ("cube", cube.value * 2), ("owner", cube.owner))
    step.emit(RulingKind.CUBE, "5.9", None, None, detail, extra)


def _offered_to(step: Step, player: str, verb: str) -> str | None:
    """The doubler, if a cube is offered to ``player``; else a notice."""
    offered_by = step.state.cube.offered_by
    if step.state.phase is not Phase.PLAYING or offered_by is None:
        step.notice("5.9", f"{verb} by {player} disregarded: no cube has been offered")
        return None
    if offered_by == player:
        step.notice("5.9", f"{verb} by {player} disregarded: {player} offered the cube")
        return None
    return offered_by


def on_take(step: Step, event: Take) -> None:
    """5.9: the cube doubles and goes to the taker, who alone may redouble."""
    if _offered_to(step, event.player, "take") is None:
        return
    value = step.state.cube.value * 2
    step.update(cube=Cube(value, event.player, None))
    detail = f"{event.player} takes: the cube is at {value}, owned by {event.player}"
    extra = (("action", "take"), ("cube", value), ("owner", event.player))
    step.emit(RulingKind.CUBE, "5.9", None, None, detail, extra)


def on_drop(step: Step, event: Drop) -> None:
    """5.12: a dropped cube ends the game at the cube's value before the
    double. 5.14: a match may not end on a dropped cube, so a drop that
    would give the doubler the match is refused: the cube must be taken."""
    doubler = _offered_to(step, event.player, "drop")
    if doubler is None:
        return
    state = step.state
    value = state.cube.value
    if state.points_of(doubler) + value >= state.settings.length:
        step.notice(
            "5.14",
            f"drop by {event.player} refused: it would end the match, and a match may not "
            f"end on a dropped cube; {event.player} must take or play on",
        )
        return
    won = f"{value} point{'s' if value != 1 else ''}"
    end_game(
        step, doubler, None, f"{event.player} drops the cube at {value * 2}: {doubler} wins {won}"
    )


def on_game_result(step: Step, event: GameResult) -> None:
    """5.12: the game was won; single, gammon or backgammon times the cube."""
    if not _ready(step, f"result for {event.winner}"):
        return
    cube = step.state.cube
    if cube.offered_by is not None:
        step.notice("5.9", f"result disregarded: {cube.offered_by}'s double awaits take or drop")
        return
    _begin(step)
    points = cube.value * event.result.multiplier
    kind = {ResultType.SINGLE: "a single game", ResultType.GAMMON: "a gammon",
            ResultType.BACKGAMMON: "a backgammon"}[event.result]  # fmt: skip
    won = f"{points} point{'s' if points != 1 else ''}"
    end_game(
        step,
        event.winner,
        event.result,
        f"{event.winner} wins {kind} with the cube at {cube.value}: {won}",
    )


def on_clock_in(step: Step, event: ClockIn) -> None:
    """Clocks brought in mid-match, at the start of a game only: the reserve
    less a deduction per point already scored by either player (5.10)."""
    del event
    state = step.state
    if state.clock is not None:
        step.notice("5.10", "clocks are already in use")
        return
    if state.phase is not Phase.BEFORE_GAME:
        step.notice(
            "5.10",
            f"clocks may only be brought in at the start of a game, not during game {state.game}",
        )
        return
    settings = state.settings
    reserve = settings.clock.reserve_ms(settings.length, state.scored)
    step.update(clock=clocking.clock_for(settings, state.scored), clock_in=(state.game, reserve))
    detail = (
        f"clocks brought in from game {state.game} with {state.scored} points scored: "
        f"{describe_reserves(step.state, step.t_ns)}"
    )
    extra = (("action", "clock_in"), ("reserve_ms", reserve))
    step.emit(RulingKind.CLOCK, "5.10", None, None, detail, extra)


def on_penalty(step: Step, event: Penalty) -> None:
    """A TD's penalty points (late start 2.2.5, late return from a break 2.2.6)."""
    why = f"TD penalty against {event.against}" + (f" ({event.reason})" if event.reason else "")
    award_penalty(step, event.against, event.points, event.rule, why)
