"""One step of the Backgammon engine: how decisions are made and numbered.

:class:`Step` collects the decisions of one event; it is created and consumed
inside :meth:`BackgammonEngine.step`, so the engine stays pure from outside.
"""

from __future__ import annotations

from controller.games.backgammon.state import State
from controller.games.step import StepBase
from controller.model import Score


class Step(StepBase[State]):
    """The decisions made for one event at time ``t_ns``."""

    def current_score(self) -> Score:
        return self.state.score
