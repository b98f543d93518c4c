"""One step of the Heads & Tails engine: how decisions are made and numbered.

:class:`Step` collects the decisions of one event. It is created and consumed
inside :meth:`HeadsAndTailsEngine.step`, so the engine stays pure from outside.
"""

from __future__ import annotations

import dataclasses

from controller.games.heads_and_tails.events import Replacement
from controller.games.heads_and_tails.state import (
    ENDS_PLAY,
    Attempt,
    Format,
    Outcome,
    Phase,
    State,
    with_outcomes,
)
from controller.games.step import StepBase
from controller.model import RulingKind, Score

_KIND = {
    Replacement.POINT: RulingKind.POINT,
    Replacement.FAULT: RulingKind.FAULT,
    Replacement.LET: RulingKind.LET,
    Replacement.INVALID: RulingKind.INVALID,
}


class Step(StepBase[State]):
    """The decisions made for one event at time ``t_ns``."""

    def current_score(self) -> Score:
        return self.state.score

    def set_attempt(self, phase: Phase, attempt: Attempt | None) -> None:
        """Move the current attempt on."""
        self.state = dataclasses.replace(self.state, phase=phase, attempt=attempt)

    def end_attempt(
        self, kind: Replacement, rule: str, against: str | None, to: str | None, detail: str
    ) -> None:
        """Rule the current attempt; a point or fault also ends the play."""
        state = self.state
        outcome = Outcome(
            ordinals=(state.decided,),
            kind=kind,
            rule=rule,
            against=against,
            to=to,
            tosser=state.tosser,
            play=state.plays_done,
            attempt=state.attempt,
            t_ns=self.t_ns,
        )
        self.state = with_outcomes(state, (*state.outcomes, outcome))
        self.emit(_KIND[kind], rule, against, to, detail)
        self.set_attempt(Phase.AWAIT_GO, None)
        if kind in ENDS_PLAY and self.state.decided_all_plays:
            self.finish()

    def let(self, rule: str, detail: str) -> None:
        """A let against the tosser, or a fault if the play already had one (2.1.8)."""
        tosser = self.state.tosser
        if self.state.let_in_play:
            caller = self.state.caller
            self.end_attempt(
                Replacement.FAULT,
                "2.1.8",
                tosser,
                caller,
                f"a second let in the play is a fault against {tosser} ({detail}, {rule})",
            )
        else:
            self.end_attempt(Replacement.LET, rule, tosser, None, f"let: {detail}")

    def fault(self, rule: str, against: str, detail: str) -> None:
        """A fault against ``against``: the opponent scores (2.3.3) and the play ends."""
        to = self.state.settings.opponent(against)
        self.end_attempt(Replacement.FAULT, rule, against, to, f"fault against {against}: {detail}")

    def finish(self) -> None:
        """Every play is done: the match result (2.3.4, 2.3.5, 3.2.1)."""
        settings = self.state.settings
        (first, a), (second, b) = self.state.score
        winner = None if a == b else first if a > b else second
        loser = None if winner is None else settings.opponent(winner)
        if settings.format is Format.EDINBURGH:
            rule = "3.2.1"
        else:
            rule = "2.3.5" if winner is None else "2.3.4"
        result = "a tie" if winner is None else f"{winner} wins"
        self.emit(
            RulingKind.MATCH_OVER,
            rule,
            loser,
            winner,
            f"match over, {first} {a} - {b} {second}: {result}",
            extra=(("winner", winner),),
        )
        self.set_attempt(Phase.OVER, None)
