"""One step of the Tantrix engine: decisions numbered, and the times it reads.

:class:`Step` collects the decisions of one event; it lives only inside
:meth:`TantrixEngine.step`, so the engine stays pure from outside.
"""

from __future__ import annotations

from controller.clock import Seat, remaining_ms
from controller.games.step import StepBase
from controller.games.tantrix.state import State
from controller.model import Score

NS_PER_MS = 1_000_000


def clock_text(ms: int) -> str:
    """A time as a clock shows it, to the tenth (floored), "-" when negative.

    >>> clock_text(1_260_000), clock_text(1_199_999), clock_text(-61_500)
    ('21:00.0', '19:59.9', '-1:01.5')
    """
    sign, ms = ("-", -ms) if ms < 0 else ("", ms)
    minutes, rest = divmod(ms, 60_000)
    return f"{sign}{minutes}:{rest // 1000:02d}.{rest % 1000 // 100}"


def taken_ms(state: State, player: str, t_ns: int) -> int:
    """The time ``player`` has taken (3a): the limit less what their clock
    shows, so a 5c adjustment counts as the rule says it should."""
    seat = state.settings.clock_seat(player)
    return state.settings.limit_ms - remaining_ms(state.clock, seat, t_ns)


def running_player(state: State) -> str | None:
    """The player whose clock runs now (not paused), if any."""
    clock = state.clock
    if clock.running is None or clock.pause is not None:
        return None
    return state.settings.at_seat(clock.running)


def seat_player(state: State, seat: Seat) -> str:
    """The player at ``seat`` of the clock."""
    return state.settings.at_seat(seat)


class Step(StepBase[State]):
    """The decisions made for one event at time ``t_ns``."""

    def current_score(self) -> Score:
        return self.state.score

    def mark(self, milestone: str) -> None:
        """Remember that a deadline has been ruled on."""
        self.update(milestones=self.state.milestones | {milestone})
