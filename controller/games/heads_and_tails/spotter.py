"""The spotter's decisions (2.6, 2.7): invalid, let, fault, and overrule.

An overrule replaces an earlier ruling and keeps it in the record: the
outcome it ruled is rewritten and the score re-derived from all outcomes.
Changing whether a ruling ended its play (a point into a let, say) is allowed
only while no later play has ended, because later plays' tossers follow from
how many plays came before.
"""

from __future__ import annotations

import dataclasses

from controller.games.heads_and_tails.events import (
    Overrule,
    Replacement,
    SpotterAction,
    SpotterCall,
)
from controller.games.heads_and_tails.state import (
    ENDS_PLAY,
    IN_ATTEMPT,
    MatchSettings,
    Outcome,
    Phase,
    with_outcomes,
)
from controller.games.heads_and_tails.step import Step
from controller.model import RulingKind

DEFAULT_RULE = {
    SpotterAction.INVALID: "2.6.1",
    SpotterAction.LET: "2.7.2",
    SpotterAction.FAULT: "2.6.1",
    SpotterAction.OVERRULE: "2.6.1",
}


def on_spotter(step: Step, event: SpotterCall) -> None:
    """Invalid and let apply to the attempt in progress; a fault to the play."""
    rule = event.rule or DEFAULT_RULE[event.action]
    why = f" ({event.reason})" if event.reason else ""
    in_attempt = step.state.phase in IN_ATTEMPT
    if event.action is SpotterAction.FAULT and event.against is not None:
        step.fault(rule, event.against, f"declared by the spotter{why}")
    elif event.action is SpotterAction.FAULT:
        step.notice(None, "spotter's fault disregarded: it must say against whom")
    elif not in_attempt:
        step.notice(None, f"spotter's {event.action.value} disregarded: no attempt in progress")
    elif event.action is SpotterAction.LET:
        step.let(rule, f"declared by the spotter{why}")
    else:
        detail = f"declared invalid by the spotter{why}: remade without penalty"
        step.end_attempt(Replacement.INVALID, rule, None, None, detail)


def _target(step: Step, event: Overrule) -> tuple[int, int] | None:
    """(index of the outcome, ordinal of the ruling replaced), or None."""
    outcomes = step.state.outcomes
    if not outcomes:
        return None
    if event.ordinal is None:  # "last": the ruling now in force that came last
        index = max(range(len(outcomes)), key=lambda i: outcomes[i].ordinals[-1])
        return index, outcomes[index].ordinals[-1]
    for index, outcome in enumerate(outcomes):
        if event.ordinal in outcome.ordinals:
            return index, event.ordinal
    return None


def _parties(
    settings: MatchSettings, old: Outcome, event: Overrule
) -> tuple[str | None, str | None] | None:
    """(against, to) of the replacement, or None when it does not say."""
    kind = event.replace_with
    if kind is Replacement.LET:
        return old.tosser, None
    if kind is Replacement.INVALID:
        return None, None
    named = event.to if kind is Replacement.POINT else event.against
    other = event.against if kind is Replacement.POINT else event.to
    if named is None and other is None:
        return None
    if named is None and other is not None:
        named = settings.opponent(other)
    if named is None or (other is not None and other == named):
        return None
    winner = named if kind is Replacement.POINT else settings.opponent(named)
    return settings.opponent(winner), winner


def on_overrule(step: Step, event: Overrule) -> None:
    """Replace an earlier ruling, correct the score, re-open or end the play."""
    state = step.state
    found = _target(step, event)
    if found is None:
        step.notice(None, "overrule disregarded: no point, fault, let or invalid to replace")
        return
    index, replaced = found
    old = state.outcomes[index]
    parties = _parties(state.settings, old, event)
    if parties is None:
        step.notice(None, f"overrule disregarded: {event.replace_with.value} needs to or against")
        return
    reshapes = (old.kind in ENDS_PLAY) != (event.replace_with in ENDS_PLAY)
    if reshapes and any(o.kind in ENDS_PLAY for o in state.outcomes[index + 1 :]):
        step.notice(None, "overrule disregarded: a later play has ended since that ruling")
        return
    _apply(step, event, index, replaced, parties, reshapes)


def _apply(
    step: Step,
    event: Overrule,
    index: int,
    replaced: int,
    parties: tuple[str | None, str | None],
    reshapes: bool,
) -> None:
    state = step.state
    was_over = state.phase is Phase.OVER
    old = state.outcomes[index]
    rule = event.rule or DEFAULT_RULE[SpotterAction.OVERRULE]
    against, to = parties
    new = dataclasses.replace(
        old,
        ordinals=(*old.ordinals, state.decided),
        kind=event.replace_with,
        rule=rule,
        against=against,
        to=to,
    )
    outcomes = (*state.outcomes[:index], new, *state.outcomes[index + 1 :])
    step.state = with_outcomes(state, outcomes)
    why = f" ({event.reason})" if event.reason else ""
    article = "an" if new.kind is Replacement.INVALID else "a"
    detail = (
        f"spotter replaced the {old.kind.value} ({old.rule}) with {article} {new.kind.value}{why}"
    )
    extra = (("replaced_with", new.kind.value),)
    step.emit(RulingKind.OVERRULED, rule, against, to, detail, overrules=replaced, extra=extra)
    if reshapes:  # the play's shape changed: any attempt in progress is void
        step.set_attempt(Phase.AWAIT_GO, None)
    if step.state.decided_all_plays and (reshapes or was_over):
        step.finish()
    elif was_over:
        step.set_attempt(Phase.AWAIT_GO, None)
