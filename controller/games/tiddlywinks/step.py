"""One step of the tiddlywinks engine: how decisions are made and numbered.

:class:`Step` collects the decisions of one event; it lives only inside
:meth:`TiddlywinksEngine.step`, so the engine stays pure from outside.
"""

from __future__ import annotations

from fractions import Fraction

from controller.games.step import StepBase
from controller.games.tiddlywinks.geometry import COLOURS, Colour
from controller.games.tiddlywinks.scoring import as_number
from controller.games.tiddlywinks.state import State
from controller.model import Score


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


class Step(StepBase[State]):
    """The decisions made for one event at time ``t_ns``."""

    def current_score(self) -> Score:
        return score(self.state)

    def player(self, colour: Colour) -> str:
        """Who plays ``colour``."""
        return self.state.settings.player(colour)
