"""The engine's handlers for everything but the shot itself: the squidge-off,
passes, fouls, the umpire, winks placed by hand, time, the end of the game."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from controller.clock import PauseReason
from controller.games.tiddlywinks import gametime
from controller.games.tiddlywinks.events import (
    Concede,
    Foul,
    FoulOption,
    FoulRule,
    Lineup,
    Pass,
    Replace,
    Squidge,
    TimeIn,
    TimeOut,
    Umpire,
    UmpireAction,
)
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    Place,
    Side,
    Wink,
    new_mat,
    pot_distance,
    squidge_key,
    squidge_nearest,
    wink_colour,
)
from controller.games.tiddlywinks.observe import place_winks
from controller.games.tiddlywinks.play import (
    _check_mat,
    free_turn_checks,
    gap_notices,
    resolve_accept,
)
from controller.games.tiddlywinks.state import OpenFoul, Phase, State
from controller.games.tiddlywinks.step import Step
from controller.games.tiddlywinks.turns import (
    begin_turn,
    finish,
    finish_pot_out,
    finish_tiddlies,
    settle,
    undo_foul,
)
from controller.model import JSON, EndMatch, RulingKind


def _squidge_json(state: State, wink: Wink, off: bool) -> JSON:
    band, _ = squidge_key(state.settings.mat, wink, off)
    if band == 0:
        return "potted"
    if band == 2:
        return "off"
    return round(pot_distance(state.settings.mat, wink), 3)


def _evidence(event: Squidge) -> dict[str, JSON]:
    """The camera's still, for the ruling (none for a squidge entered by command)."""
    return {"evidence": event.evidence} if event.evidence else {}


def on_squidge(step: Step, event: Squidge) -> None:
    """5(a): the nearest wink to the pot wins; a tie is resquidged."""
    state = step.state
    if state.phase is not Phase.SQUIDGE_OFF:
        step.notice(None, "squidge-off disregarded: it is over")
        return
    if event.pending:  # the camera: not yet, or the umpire decides; told once per change
        if event.pending != state.squidge_pending:
            step.update(squidge_pending=event.pending)
            step.notice("5(a)", f"squidge-off: {'; '.join(event.pending)}", **_evidence(event))
        return
    colours = [wink_colour(s.id) for s in event.winks]
    if sorted(colours, key=COLOURS.index) != list(state.contenders):
        want = ", ".join(c.value for c in state.contenders)
        step.notice("5(a)", f"the squidge-off needs one wink of each of {want}: disregarded")
        return
    entries = [
        (Wink(s.id, Place.POTTED if s.potted else Place.FIELD, s.x or 0.0, s.y or 0.0), s.off)
        for s in event.winks
    ]
    nearest = squidge_nearest(state.settings.mat, entries, state.settings.squidge_tie_mm)
    distances: dict[str, JSON] = {
        w.colour.value: _squidge_json(state, w, off) for w, off in entries
    }
    if len(nearest) > 1:
        names = ", ".join(c.value for c in nearest)
        step.update(contenders=nearest, squidge_pending=(), squidge_lineup=())
        step.emit(
            RulingKind.SQUIDGE_OFF,
            "5(a)",
            None,
            None,
            f"squidge-off tied between {names}: they resquidge from the baseline",
            (
                ("colour", None),
                ("resquidge", [c.value for c in nearest]),
                ("distances", distances),
                *_evidence(event).items(),
            ),
        )
        return
    winner = nearest[0]
    step.update(
        winner=winner,
        phase=Phase.PLAY,
        mat=new_mat(),
        contenders=(),
        squidge_pending=(),
        squidge_lineup=(),
    )
    step.emit(
        RulingKind.SQUIDGE_OFF,
        "5(a)",
        None,
        step.player(winner),
        f"{winner.value} wins the squidge-off and plays first; play goes clockwise",
        (("colour", winner.value), ("distances", distances), *_evidence(event).items()),
    )
    begin_turn(step, winner)
    settle(step)


def on_lineup(step: Step, event: Lineup) -> None:
    """5(a): the camera's line-up for the round under way, kept until the
    round is judged (a restarted camera reads the squidges against it)."""
    if step.state.phase is not Phase.SQUIDGE_OFF:
        step.notice(None, "line-up disregarded: the squidge-off is over")
        return
    step.update(squidge_lineup=event.winks)


def on_pass(step: Step, event: Pass) -> None:
    """5(d): the player due to play passes; the opponents are told."""
    state = step.state
    if state.phase is not Phase.PLAY:
        step.notice(None, "pass disregarded: no shot is due")
        return
    if event.colour is not None and event.colour is not state.turn:
        step.notice(None, f"pass disregarded: it is {state.turn.value}'s turn")
        return
    step.update(shots_left=0, passed=True)
    step.notice("5(d)", f"{step.player(state.turn)} passes with {state.turn.value}")
    settle(step)


def _restore(step: Step, before: State, shooter: Colour) -> None:
    """Winks and turn back as they were before the foul shot; time, the
    record (the shot marked not counted) and decisions go on."""
    current = step.state
    shots = current.shots
    if shots:
        shots = (*shots[:-1], dataclasses.replace(shots[-1], counted=False))
    undone = undo_foul(current, before, shooter)
    step.state = dataclasses.replace(undone, shots=shots, before_shot=None)


def _disrupt(step: Step, event: Foul) -> None:
    """12(d): deliberate disruption ends the game, seven points to the opponents."""
    if event.colour is None:
        step.notice("12(d)", "12(d) needs the offending colour: disregarded")
        return
    side = event.colour.side
    step.emit(
        RulingKind.FOUL,
        "12(d)",
        step.player(event.colour),
        None,
        f"{event.colour.value} deliberately disrupted the game{_why(event)}",
    )
    sides = {side: Fraction(0), side.other: Fraction(7)}
    finish(step, "12(d)", "deliberate disruption", sides, {})


def _why(event: Foul) -> str:
    return f" ({event.reason})" if event.reason else ""


def on_foul(step: Step, event: Foul) -> None:
    """12: the offended side's choice on a foul shot, seen or declared."""
    state = step.state
    if event.rule is FoulRule.DISRUPT:
        if state.phase in (Phase.PLAY, Phase.FOUL):
            _disrupt(step, event)
        else:
            step.notice(None, "foul disregarded: the game is not in play")
        return
    foul = state.foul
    if foul is None:
        foul = _declared(step, event)
        if foul is None:
            return
    option = event.option
    wanted = ("12(a)", FoulOption.REPLAY) if foul.rule == "12(a)" else ("12(b)", FoulOption.RETRACT)
    if option is None or option not in (FoulOption.ACCEPT, wanted[1]):
        step.notice(foul.rule, f"{foul.rule} needs option accept or {wanted[1].value}")
        return
    offender = step.player(foul.colour)
    if option is FoulOption.ACCEPT:
        step.emit(
            RulingKind.FOUL,
            f"{foul.rule}(ii)",
            offender,
            None,
            f"foul shot accepted: it stands and the turn ends{_why(event)}",
        )
        resolve_accept(step, foul, event.colour if foul.rule == "12(b)" else None)
        return
    what = (
        "winks replaced, a further shot in the same turn"
        if foul.rule == "12(a)"
        else ("the shot is retracted")
    )
    step.emit(RulingKind.FOUL, f"{foul.rule}(i)", offender, None, f"foul shot: {what}{_why(event)}")
    _restore(step, foul.before, foul.colour)
    settle(step)


def _declared(step: Step, event: Foul) -> OpenFoul | None:
    """A foul declared by the players or umpire on the last shot (the camera
    cannot see a squidger held too high, 5(b))."""
    state = step.state
    before, shot = state.before_shot, state.last_shot
    if state.phase is not Phase.PLAY or before is None or shot is None or event.rule is None:
        step.notice(
            event.rule.value if event.rule else None, "foul disregarded: no shot to apply it to"
        )
        return None
    return OpenFoul(event.rule.value, before.turn, event.reason, before, shot)


def on_umpire(step: Step, event: Umpire) -> None:
    """14: time stops while the umpire is called and decides; the decision is
    final and may correct the mat. 9(a): the limit may be extended."""
    state = step.state
    if event.action is UmpireAction.CALL:
        step.update(time=gametime.pause(state.time, PauseReason.TD_CALL, "umpire", step.t_ns))
        step.notice("14", f"umpire called{_detail(event)}: game time stopped")
    elif event.action is UmpireAction.EXTEND:
        minutes = event.minutes
        step.update(time=gametime.extend(state.time, round(minutes * 60_000), step.t_ns))
        step.emit(
            RulingKind.UMPIRE,
            "9(a)",
            None,
            None,
            f"time limit extended by {minutes:g} min{_detail(event)}",
        )
    else:
        if event.winks:
            step.update(mat=place_winks(state.settings.mat, state.mat, event.winks))
            _check_mat(step, step.state.mat)
        step.update(time=gametime.resume(step.state.time, step.t_ns))
        step.emit(RulingKind.UMPIRE, "14", None, None, f"umpire's decision{_detail(event)}")
        if event.winks and step.state.phase is Phase.PLAY:
            free_turn_checks(step, state.mat, nominated_colour=step.state.turn)
            settle(step)


def _detail(event: Umpire) -> str:
    return f": {event.detail}" if event.detail else ""


def on_replace(step: Step, event: Replace) -> None:
    """Winks put back by hand: not a shot (5(b), 5(c), 7(a), 7(b), 8)."""
    state = step.state
    if state.phase not in (Phase.PLAY, Phase.FOUL):
        step.notice(None, "winks placed: disregarded outside play")
        return
    step.update(mat=place_winks(state.settings.mat, state.mat, event.winks))
    _check_mat(step, step.state.mat)
    moved = ", ".join(s.id for s in event.winks)
    step.notice(None, f"winks placed by hand (not a shot): {moved}{_reason(event.reason)}")
    gap_notices(step)


def _reason(reason: str) -> str:
    return f" ({reason})" if reason else ""


def on_time_out(step: Step, event: TimeOut) -> None:
    """9(a), 12(e): time that is not counted as part of the game."""
    note = event.reason or "time out"
    step.update(time=gametime.pause(step.state.time, PauseReason.TIME_OUT, note, step.t_ns))
    step.notice("9(a)", f"game time stopped{_reason(event.reason)}")


def on_time_in(step: Step, event: TimeIn) -> None:
    """Game time runs again."""
    del event
    if gametime.paused(step.state.time) is None:
        step.notice(None, "game time was not stopped")
        return
    step.update(time=gametime.resume(step.state.time, step.t_ns))
    step.notice("9(a)", "game time runs again")


def on_concede(step: Step, event: Concede) -> None:
    """10(a): after a pot-out, the players agree the remaining places."""
    state = step.state
    rest = [c for c in COLOURS if c not in state.potted_out]
    if state.phase is not Phase.PLAY or not state.out_order:
        step.notice("10(a)", "places can be conceded only after a pot-out: disregarded")
        return
    if sorted(event.order, key=COLOURS.index) != rest:
        names = ", ".join(c.value for c in rest)
        step.notice("10(a)", f"the order must name each of {names} once: disregarded")
        return
    step.update(out_order=(*state.out_order, *((c,) for c in event.order)))
    finish_pot_out(step, "the remaining places conceded")


def on_end_match(step: Step, event: EndMatch) -> None:
    """The TD ends the game as it stands: by tiddlies (10(b)), or after a
    pot-out with the colours not potted out sharing the places left (10(a))."""
    why = f"ended by the TD{_reason(event.reason)}"
    if step.state.phase is Phase.SQUIDGE_OFF:
        finish(step, "10(b)", f"{why} before play began", dict.fromkeys(Side, Fraction(7, 2)), {})
    elif step.state.out_order:
        finish_pot_out(step, why)
    else:
        finish_tiddlies(step, "10(b)", why)
