"""One step of the Backgammon engine: how decisions are made and numbered.

:class:`Step` collects the decisions of one event; it is created and consumed
inside :meth:`BackgammonEngine.step`, so the engine stays pure from outside.
"""

from __future__ import annotations

import dataclasses

from controller.games.backgammon.state import State
from controller.model import JSON, Decision, RulingKind


class Step:
    """The decisions made for one event at time ``t_ns``."""

    def __init__(self, state: State, t_ns: int) -> None:
        self.state = state
        self.t_ns = t_ns
        self.decisions: list[Decision] = []

    def emit(
        self,
        kind: RulingKind,
        rule: str | None,
        against: str | None,
        to: str | None,
        detail: str,
        extra: tuple[tuple[str, JSON], ...] = (),
    ) -> None:
        """Record a decision with the score as it now stands."""
        ordinal = self.state.decided
        self.decisions.append(
            Decision(
                ordinal=ordinal,
                kind=kind,
                rule=rule,
                against=against,
                to=to,
                score=self.state.score,
                detail=detail,
                t_ns=self.t_ns,
                extra=extra,
            )
        )
        self.state = dataclasses.replace(self.state, decided=ordinal + 1)

    def notice(self, rule: str | None, detail: str) -> None:
        """An informational ruling: changes nothing."""
        self.emit(RulingKind.NOTICE, rule, None, None, detail)

    def update(self, **changes: object) -> None:
        """Replace fields of the state."""
        self.state = dataclasses.replace(self.state, **changes)  # type: ignore[arg-type]
