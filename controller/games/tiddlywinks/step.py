"""One step of the tiddlywinks engine: how decisions are made and numbered.

:class:`Step` collects the decisions of one event; it lives only inside
:meth:`TiddlywinksEngine.step`, so the engine stays pure from outside.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from controller.games.tiddlywinks.geometry import COLOURS, Colour
from controller.games.tiddlywinks.scoring import as_number
from controller.games.tiddlywinks.state import State
from controller.model import JSON, Decision, RulingKind, Score


def score(state: State) -> Score:
    """Each player's game points: a partnership's points go to each of its
    players (in singles, the one player); zero until the game is over."""
    sides = dict(state.result)
    settings = state.settings
    out: list[tuple[str, int | float]] = []
    for person in settings.people:
        colour = next(c for c in COLOURS if settings.player(c) == person)
        out.append((person, as_number(sides.get(colour.side, Fraction(0)))))
    return tuple(out)


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
    ) -> int:
        """Record a decision with the score as it now stands; returns its ordinal."""
        ordinal = self.state.decided
        self.decisions.append(
            Decision(
                ordinal=ordinal,
                kind=kind,
                rule=rule,
                against=against,
                to=to,
                score=score(self.state),
                detail=detail,
                t_ns=self.t_ns,
                extra=extra,
            )
        )
        self.state = dataclasses.replace(self.state, decided=ordinal + 1)
        return ordinal

    def notice(self, rule: str | None, detail: str, **extra: JSON) -> None:
        """An informational ruling."""
        self.emit(RulingKind.NOTICE, rule, None, None, detail, tuple(extra.items()))

    def update(self, **changes: Any) -> None:
        """Replace fields of the state."""
        self.state = dataclasses.replace(self.state, **changes)

    def player(self, colour: Colour) -> str:
        """Who plays ``colour``."""
        return self.state.settings.player(colour)
