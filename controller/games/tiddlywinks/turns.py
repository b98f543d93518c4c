"""Turns: their order, forfeits, free-turn counting, the time limit's rounds
and the end of the game. Every function works on a :class:`Step`."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from controller.games.tiddlywinks import gametime
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    Side,
    playable,
    potted_out,
    tiddlies,
)
from controller.games.tiddlywinks.scoring import (
    as_number,
    pot_out_colour_points,
    pot_out_points,
    side_totals,
    tiddly_points,
)
from controller.games.tiddlywinks.state import Phase, State
from controller.games.tiddlywinks.step import Step
from controller.model import JSON, RulingKind

_MAX_SKIPS = 256  # a guard: each pass of the loop consumes a shot or a turn


def begin_turn(step: Step, colour: Colour, *, nominated: bool = False) -> None:
    """``colour``'s turn starts: one shot (5(c)); a squopping side's turn while
    free turns are in force counts as one of them (11(a))."""
    state = step.state
    free = state.free
    if free is not None and colour.side is free.squopped.other:
        free = dataclasses.replace(free, used=free.used + 1)
        step.notice("11(a)", f"free turn {free.used} of {free.total}: {colour.value} to play")
    step.update(
        turn=colour,
        turn_number=state.turn_number + 1,
        shots_left=1,
        begun=False,
        passed=False,
        nominated=nominated,
        nominate_next=False,
        free=free,
        time=gametime.restart_shot(state.time, step.t_ns),
    )
    if nominated:
        step.notice(
            "11(d)",
            f"{step.player(colour)} ({colour.value}) nominates an unsquopped wink of any "
            "colour and plays it as if it were his own",
        )


def _last_free_turn_failed(step: Step) -> bool:
    """11(a)/(d): the last free turn ended and no freeing shot was played."""
    state = step.state
    free = state.free
    colour = state.turn
    if free is None or colour.side is not free.squopped.other:
        return False
    if free.total == 1 and not state.begun and not state.passed:
        # 11(b): with one free turn it is the first squopping player *able to play*
        step.update(free=dataclasses.replace(free, used=free.used - 1))
        return False
    if free.used < free.total:
        return False
    step.update(free=None)
    step.emit(
        RulingKind.NOMINATED_WINK,
        "11(d)",
        step.player(colour),
        step.player(colour.next),
        f"no freeing shot by the end of the last of {free.total} free turns: "
        f"{colour.next.value} plays a nominated wink",
    )
    return True


def end_turn(step: Step) -> None:
    """The current turn is over: count rounds (9(b)), then the next colour."""
    nominate = _last_free_turn_failed(step) or step.state.nominate_next
    state = step.state
    if state.phase is not Phase.PLAY:
        return
    if state.expired and state.turns_left is not None:
        if state.expiry_turn_open:
            step.update(expiry_turn_open=False)
        else:
            left = state.turns_left - 1
            if left == 0 and nominate:
                left = 1
                step.notice("11(d)", "failure to free on the last turn: one extra turn follows")
            step.update(turns_left=left)
            if left == 0:
                finish_tiddlies(step, "9(b)", "the last of the rounds after time was played")
                return
    begin_turn(step, state.turn.next, nominated=nominate)


def _cannot_play(step: Step, colour: Colour) -> None:
    if colour in potted_out(step.state.mat):
        step.notice("8", f"{colour.value} is potted out: its turn passes")
    else:
        step.notice("6(a)", f"{colour.value} has no unsquopped wink to play: its turn passes")
    step.update(shots_left=0)


def settle(step: Step) -> None:
    """Move on until a shot is awaited or the game is over: forfeited shots
    (7(a)), colours that cannot play, ended turns."""
    for _ in range(_MAX_SKIPS):
        state = step.state
        if state.phase is not Phase.PLAY:
            return
        colour = state.turn
        if state.shots_left <= 0:
            end_turn(step)
        elif state.forfeit_count(colour) > 0:
            index = COLOURS.index(colour)
            forfeits = list(state.forfeits)
            forfeits[index] -= 1
            step.update(forfeits=tuple(forfeits), shots_left=state.shots_left - 1)
            step.notice("7(a)", f"{colour.value}'s shot is forfeited")
        elif not state.nominated and not playable(state.mat, colour):
            _cannot_play(step, colour)
        else:
            _awaiting(step, colour)
            return
    raise AssertionError("turns did not settle")  # pragma: no cover


def _awaiting(step: Step, colour: Colour) -> None:
    """A shot of ``colour`` is due: the squopped side has a playable shot."""
    state = step.state
    if state.keep_free is colour.side:
        step.update(keep_free=None)  # 11(c): the opponents have a turn with a free wink
    if state.expiry_pending and (state.free is None or colour.side is state.free.squopped):
        apply_expiry(step, turn_open=False, deferred=True)


def _expired(state: State, turn_open: bool) -> State:
    """``state`` with the time limit expired (9(b)): the turns left to play,
    up to the squidge-off winner's colour and then five rounds."""
    winner = state.winner or Colour.BLUE
    last = state.turn if turn_open else COLOURS[(COLOURS.index(state.turn) - 1) % 4]
    to_winner = (COLOURS.index(winner) - COLOURS.index(last)) % 4
    return dataclasses.replace(
        state,
        expired=True,
        expiry_pending=False,
        expiry_turn_open=turn_open,
        turns_left=to_winner + 4 * state.settings.rounds_after,
    )


def turn_open_at_expiry(state: State) -> bool:
    """9(b): a turn begins with its first shot, a foul shot awaiting the
    offended side's choice included (unless it was played out of turn)."""
    foul = state.foul
    by_due = state.phase is Phase.FOUL and foul is not None and foul.colour is state.turn
    return state.begun or by_due


def undo_foul(current: State, before: State, shooter: Colour) -> State:
    """``before`` again, a foul shot by ``shooter`` undone (12): decisions,
    game time, health and the log go on. A time limit that expired after
    ``before`` stays expired, its turns counted from ``before``'s turn (which
    the foul shot had begun, if ``shooter`` was due): it is not announced
    twice, and the foul shot's turn is not counted twice."""
    state = dataclasses.replace(
        before,
        decided=current.decided,
        time=current.time,
        suspended=current.suspended,
        log=current.log,
        phase=Phase.PLAY,
        foul=None,
    )
    if before.expired or not current.expired:
        return state
    if current.expiry_pending:  # 11(e): it still waits for the squopped side
        return dataclasses.replace(state, expired=True, expiry_pending=True)
    return _expired(state, before.begun or shooter is before.turn)


def apply_expiry(step: Step, *, turn_open: bool, deferred: bool = False) -> None:
    """9(b): play on up to the squidge-off winner's colour, then five rounds."""
    state = _expired(step.state, turn_open)
    winner = state.winner or Colour.BLUE
    rounds = state.settings.rounds_after
    turns = state.turns_left
    # 9(c): a shot already awaited gets its 2 minutes from the expiry
    step.state = dataclasses.replace(state, time=gametime.restart_shot(state.time, step.t_ns))
    when = "before this turn" if not turn_open else "during this turn, at its end"
    rule = "11(e)" if deferred else "9(b)"
    step.emit(
        RulingKind.TIME_LIMIT,
        rule,
        None,
        None,
        f"time limit expired {when}: play continues up to {winner.value}, then {rounds} "
        f"more rounds ({turns} turns)",
        (("turns_left", turns),),
    )


def _winner_fields(step: Step, sides: dict[Side, Fraction]) -> tuple[str | None, str | None]:
    a, b = sides[Side.BLUE_RED], sides[Side.GREEN_YELLOW]
    if a == b:
        return None, None
    win = Side.BLUE_RED if a > b else Side.GREEN_YELLOW
    settings = step.state.settings
    return "+".join(settings.side_players(win)), "+".join(settings.side_players(win.other))


def finish(
    step: Step, rule: str, detail: str, sides: dict[Side, Fraction], extra: dict[str, JSON]
) -> None:
    """The game is over with these partnership points."""
    step.update(
        phase=Phase.OVER,
        result=tuple(sides.items()),
        time=gametime.stop(step.state.time, step.t_ns),
        foul=None,
    )
    winner, loser = _winner_fields(step, sides)
    points = ", ".join(f"{s.value} {as_number(p)}" for s, p in sides.items())
    verb = "win" if winner is not None and "+" in winner else "wins"
    result = "a tie" if winner is None else f"{winner} {verb}"
    winners: list[JSON] = [] if winner is None else list(winner.split("+"))
    step.emit(
        RulingKind.MATCH_OVER,
        rule,
        loser,
        winner,
        f"game over: {detail}; {points}: {result}",
        (("winner", winner), ("winners", winners), *extra.items()),
    )


def finish_tiddlies(step: Step, why_rule: str, why: str) -> None:
    """10(b): the score by tiddlies (the game ended by 6(b) or 9(b))."""
    counts = tiddlies(step.state.mat)
    colour_points = tiddly_points(counts)
    step.notice(why_rule, f"the game ends: {why}")
    shown = ", ".join(f"{c.value} {n}" for c, n in counts.items())
    finish(
        step,
        "10(b)",
        f"tiddlies {shown}",
        side_totals(colour_points),
        {
            "tiddlies": {c.value: n for c, n in counts.items()},
            "colour_points": {c.value: as_number(p) for c, p in colour_points.items()},
        },
    )


def finish_pot_out(step: Step, detail: str) -> None:
    """10(a): the score by pot-out order; colours not potted out share what is left."""
    order = step.state.out_order
    colour_points = pot_out_colour_points(order)
    finish(
        step,
        "10(a)",
        detail,
        pot_out_points(order),
        {
            "pot_out_order": [[c.value for c in group] for group in order],
            "colour_points": {c.value: as_number(p) for c, p in colour_points.items()},
        },
    )
