"""A shot and what follows from it: extra shots (5(c)), winks off the field
(7(a)), pot-outs (8), the end by squops (6(b)) and free turns (11)."""

from __future__ import annotations

import dataclasses

from controller.games.tiddlywinks import gametime
from controller.games.tiddlywinks.events import Shot
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    Mat,
    Place,
    Side,
    all_squopped,
    free_winks,
    inconsistencies,
    piles,
    playable,
    potted_out,
    too_close,
    wink_colour,
)
from controller.games.tiddlywinks.observe import Merged, merge
from controller.games.tiddlywinks.state import Free, OpenFoul, Phase, ShotRecord, State
from controller.games.tiddlywinks.step import Step
from controller.games.tiddlywinks.turns import (
    begin_turn,
    finish_pot_out,
    finish_tiddlies,
    settle,
    undo_foul,
)
from controller.model import RulingKind


def seen_foul(state: State, shot: Shot) -> tuple[str, str] | None:
    """(rule, detail) of a foul the observation shows, before it is applied:
    out of turn or the wrong colour (12(b)), a squopped or potted wink
    played first (12(a), contrary to 5(b) and 6(a))."""
    colour = state.turn
    if shot.colour is not None and shot.colour is not colour:
        return "12(b)", f"{shot.colour.value} played when it was {colour.value}'s turn"
    if shot.wink is None:
        return None
    wink = state.mat[[w.id for w in state.mat].index(shot.wink)]
    if not state.nominated and wink.colour is not colour:
        return "12(b)", f"{colour.value} played {wink.id}, a {wink.colour.value} wink"
    if wink.place is Place.POTTED:
        return "12(a)", f"{wink.id} is potted and may not be played (5(c))"
    if wink not in playable(state.mat, wink.colour):
        return "12(a)", f"{wink.id} is squopped and may not be played first (6(a))"
    return None


def _check_mat(step: Step, mat: Mat) -> None:
    for problem in inconsistencies(mat):
        step.notice("14", f"the observation cannot be so: {problem}; the umpire decides")


def on_shot(step: Step, shot: Shot) -> None:
    """A shot has ended: apply it, or hold it while the offended side chooses."""
    state = step.state
    if state.phase is Phase.FOUL and state.foul is not None:
        step.notice("12(c)", "a shot after a foul shot accepts it")
        resolve_accept(step, state.foul, None)
        state = step.state
    if state.phase is not Phase.PLAY:
        step.notice(None, f"shot disregarded: the game is in its {state.phase.value} phase")
        return
    if shot.notes:
        # the camera read the shot but could not decide all of it: the
        # shot stands as seen, and the umpire is told what to look at
        step.notice(
            "14", f"the camera asks the umpire: {'; '.join(shot.notes)}", notes=list(shot.notes)
        )
    foul = seen_foul(state, shot)
    if foul is not None:
        merged = merge(state.settings.mat, state.mat, shot.winks)
        _record(step, shot, merged, counted=True)
        rule, detail = foul
        options = "replay or accept" if rule == "12(a)" else "retract or accept"
        offender = shot.colour or state.turn
        step.emit(
            RulingKind.FOUL,
            rule,
            step.player(offender),
            None,
            f"foul shot: {detail}; the opponents choose: {options}{_evidence(shot)}",
        )
        before = dataclasses.replace(state, before_shot=None)
        step.update(phase=Phase.FOUL, foul=OpenFoul(rule, offender, detail, before, shot))
        return
    play_shot(step, shot, accepted=False)


def _evidence(shot: Shot) -> str:
    return f" (evidence: {shot.evidence})" if shot.evidence else ""


def _record(step: Step, shot: Shot, merged: Merged, *, counted: bool) -> None:
    state = step.state
    record = ShotRecord(
        number=len(state.shots) + 1,
        turn=state.turn_number,
        colour=state.turn,
        wink=shot.wink,
        nominated=state.nominated,
        t_ns=shot.t_ns,
        before=state.mat,
        after=merged.mat,
        potted=merged.potted,
        left_field=merged.left,
        counted=counted,
        evidence=shot.evidence,
    )
    step.update(
        shots=(*state.shots, record),
        mat=merged.mat,
        before_shot=dataclasses.replace(state, before_shot=None),
        last_shot=shot,
    )


def play_shot(step: Step, shot: Shot, *, accepted: bool) -> None:
    """Apply a shot that stands; ``accepted`` (a foul accepted, 12(a)(ii),
    12(b)(ii)) ends the turn whatever was potted."""
    state = step.state
    merged = merge(state.settings.mat, state.mat, shot.winks)
    if shot.wink is not None and shot.wink in merged.behind:
        _record(step, shot, merged, counted=False)
        step.notice(
            "5(a)",
            f"{shot.wink} did not go completely over the baseline: the shot does not count; "
            "it is replaced behind the baseline and played again",
        )
        return
    _record(step, shot, merged, counted=True)
    _check_mat(step, merged.mat)
    if merged.repotted:
        step.notice("5(c)", f"potted {', '.join(merged.repotted)} go back into the pot")
    if not state.time.started:
        step.notice("9(a)", "the first shot after the squidge-off: game time starts")
    step.update(time=gametime.start(state.time, shot.t_ns), begun=True)
    correct = _correct_colour(state, shot)
    _shots_and_forfeits(step, merged, correct, accepted)
    if not _after_shot(step, state.mat, correct):
        return
    step.update(time=gametime.restart_shot(step.state.time, step.t_ns))
    settle(step)


def _correct_colour(state: State, shot: Shot) -> Colour:
    """The colour this shot counts for: the nominated wink's (11(d)) or the turn's."""
    if state.nominated and shot.wink is not None:
        return wink_colour(shot.wink)
    return state.turn


def _shots_and_forfeits(step: Step, merged: Merged, correct: Colour, accepted: bool) -> None:
    """5(c): one more shot per wink of the correct colour potted; 7(a): a wink
    of it leaving the field forfeits that colour's next shot."""
    state = step.state
    own = state.turn
    potted = [w for w in merged.potted if wink_colour(w) is correct]
    left = state.shots_left - 1 + (0 if accepted else len(potted))
    if accepted:
        left = 0
    elif potted:
        step.notice(
            "5(c)", f"{', '.join(potted)} potted: {len(potted)} more shot(s) for {own.value}"
        )
    step.update(shots_left=left, nominated=False)
    if merged.left:
        step.notice(
            "7(a)",
            f"{', '.join(merged.left)} left the field of play: replace 22 mm from the boundary",
        )
    if any(wink_colour(w) is correct for w in merged.left):
        forfeits = list(step.state.forfeits)
        forfeits[COLOURS.index(own)] += 1
        step.update(forfeits=tuple(forfeits))
        step.emit(
            RulingKind.FORFEIT,
            "7(a)",
            step.player(own),
            None,
            f"a {correct.value} wink left the field: {own.value}'s next shot is forfeited",
        )


def _after_shot(step: Step, before: Mat, correct: Colour) -> bool:
    """Pot-outs, the end by squops and free turns; False once the game is over."""
    if not pot_outs(step):
        return False
    mat = step.state.mat
    if not step.state.out_order and all_squopped(mat, COLOURS):
        finish_tiddlies(step, "6(b)", "every unpotted wink is squopped")
        return False
    free_turn_checks(step, before, nominated_colour=correct)
    return True


def pot_outs(step: Step) -> bool:
    """8: colours potted out by this shot; False once the game is over (10(a))."""
    state = step.state
    new = tuple(c for c in COLOURS if c in potted_out(state.mat) and c not in state.potted_out)
    if not new:
        return True
    first = not state.out_order
    place = len(state.potted_out) + 1
    step.update(out_order=(*state.out_order, new), free=None, keep_free=None)
    for colour in new:
        shared = f", shared by {len(new)} colours" if len(new) > 1 else ""
        step.emit(
            RulingKind.POT_OUT,
            "8",
            None,
            step.player(colour),
            f"{colour.value} is potted out, place {place}{shared}",
            (("colour", colour.value), ("place", place)),
        )
    if first:
        stacks = "; ".join("+".join(p) for p in piles(state.mat)) or "none"
        step.update(
            time=gametime.stop(step.state.time, step.t_ns),
            expired=False,
            turns_left=None,
            expiry_pending=False,
            expiry_turn_open=False,
        )
        step.notice(
            "8",
            f"desquop every pile without changing any wink's distance from the pot "
            f"(piles: {stacks}); the time limit (9) no longer applies",
        )
    if len(step.state.potted_out) >= 3:
        finish_pot_out(step, "three colours potted out")
        return False
    return True


def gap_notices(step: Step) -> None:
    """8: after a pot-out, winks on or within 2 mm of each other are separated."""
    close = too_close(step.state.mat)
    if step.state.out_order and close:
        pairs = ", ".join(f"{a}/{b}" for a, b in close)
        step.notice("8", f"winks on or within 2 mm of each other: separate {pairs} to a 2 mm gap")


def _free_colours(mat: Mat, side: Side) -> list[Colour]:
    return [
        c
        for c in side.colours
        if any(w.place is Place.FIELD for w in playable(mat, c))
        or any(w.place is Place.BASELINE for w in playable(mat, c))
    ]


def _kept_free(before: Mat, after: Mat, side: Side, turn: Colour) -> bool:
    """11(c): a wink of the squopped side left free, of the colour free before
    unless the other colour plays first; of the first to play if both were."""
    was = _free_colours(before, side)
    now = _free_colours(after, side)
    if not was:
        return True
    order = [COLOURS[(COLOURS.index(turn) + k) % 4] for k in range(1, 5)]
    first = min(was, key=order.index)
    return any(order.index(c) <= order.index(first) for c in now)


def free_turn_checks(step: Step, before: Mat, *, nominated_colour: Colour) -> None:
    """11: freeing shots, the duty to keep a wink free, free turns invoked."""
    del nominated_colour  # the nominated wink's colour does not change the duty
    state = step.state
    shooter = state.turn.side
    mat = state.mat
    gap_notices(step)
    if state.free is not None and shooter is state.free.squopped.other:
        squopped = state.free.squopped
        if _free_colours(mat, squopped):
            step.notice("11(b)", "a freeing shot: free turns cease")
            step.update(free=None, keep_free=squopped)
    elif state.keep_free is shooter.other and not _kept_free(
        before, mat, shooter.other, state.turn
    ):
        step.update(keep_free=None, shots_left=0, nominate_next=True)
        step.emit(
            RulingKind.NOMINATED_WINK,
            "11(d)",
            step.player(state.turn),
            step.player(state.turn.next),
            f"no {shooter.other.value} wink left free as 11(c) requires: the turn ends and "
            f"{state.turn.next.value} plays a nominated wink",
        )
    invoke_free_turns(step)


def invoke_free_turns(step: Step) -> None:
    """11(a): a partnership with every unpotted wink squopped gives the other
    side one more free turn than there are free winks on the field."""
    state = step.state
    if state.free is not None or state.phase is not Phase.PLAY or state.out_order:
        return
    for side in Side:
        if state.keep_free is side or state.nominate_next:
            continue
        if all_squopped(state.mat, side.colours):
            total = 1 + len(free_winks(state.mat))
            step.update(free=Free(squopped=side, total=total), keep_free=None)
            players = "+".join(state.settings.side_players(side.other))
            step.emit(
                RulingKind.FREE_TURNS,
                "11(a)",
                None,
                players,
                f"every unpotted {side.value} wink is squopped: {side.other.value} has "
                f"{total} free turn(s)",
                (("free_turns", total), ("squopped", side.value)),
            )
            return


def resolve_accept(step: Step, foul: OpenFoul, colour: Colour | None) -> None:
    """12(a)(ii), 12(b)(ii): the foul shot stands, the turn ends; after a
    wrong-colour or out-of-turn shot play goes on with the offended side's
    chosen colour."""
    current = step.state
    undone = undo_foul(current, foul.before, foul.colour)
    step.state = dataclasses.replace(undone, shots=current.shots[:-1])
    play_shot(step, dataclasses.replace(foul.shot, colour=None, wink=None), accepted=True)
    if colour is not None and step.state.phase is Phase.PLAY:
        _continue_with(step, colour)


def _continue_with(step: Step, colour: Colour) -> None:
    if step.state.turn is not colour:
        step.notice("12(b)", f"play continues with {colour.value}, the offended side's choice")
        begin_turn(step, colour)
        settle(step)
