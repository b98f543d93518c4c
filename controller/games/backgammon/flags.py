"""Flag falls and overtime (the clock rules attached to 5.10).

Every input and every tick first runs :func:`check_flags`, so a flag is ruled
at its own time whatever comes after it. By default a flag loses the match;
with the overtime policy the clock counts on past zero and each overtime
period started (at 0, then every ``overtime_period`` more) gives the opponent
``overtime_penalty`` points.
"""

from __future__ import annotations

from controller.clock import Seat, remaining_ms, tick
from controller.games.backgammon.clocking import periods_started, reserves_json
from controller.games.backgammon.play import award_penalty, finish_match
from controller.games.backgammon.state import FlagPolicy, Phase
from controller.games.backgammon.step import Step
from controller.model import JSON, RulingKind


def check_flags(step: Step) -> bool:
    """Rule any flag fall (and overtime period) up to now; True if the match ended."""
    clock = step.state.clock
    if clock is None:
        return False
    clock, seat = tick(clock, step.t_ns)
    step.update(clock=clock)
    if seat is not None:
        _flag(step, seat)
        if step.state.settings.clock.flag is FlagPolicy.LOSE_MATCH:
            return True
    if step.state.settings.clock.flag is FlagPolicy.OVERTIME and clock.running is not None:
        return _overtime(step, clock.running)
    return False


def _flag(step: Step, seat: Seat) -> None:
    """A flag fell (clock rules of 5.10): the match is lost, or overtime begins."""
    settings = step.state.settings
    player = settings.player(seat)
    other = settings.opponent(player)
    clock = step.state.clock
    assert clock is not None
    flag_ms = clock.seat(seat).flag_ms
    extra: tuple[tuple[str, JSON], ...] = (("remaining_ms", reserves_json(step.state, step.t_ns)),)
    if settings.clock.flag is FlagPolicy.LOSE_MATCH:
        detail = f"{player}'s flag fell: {player} loses the match on time"
        step.emit(RulingKind.FLAG, "5.10", player, other, detail, (*extra, ("flag_ms", flag_ms)))
        finish_match(step, other, "5.10", f"{other} wins on time")
    else:
        detail = f"{player}'s reserve ran out: overtime, the clock counts on past zero"
        step.emit(RulingKind.FLAG, "5.10", player, None, detail, (*extra, ("flag_ms", flag_ms)))


def _overtime(step: Step, seat: Seat) -> bool:
    """Charge every overtime period started by now (one penalty each); True
    if the penalty points ended the match."""
    state = step.state
    assert state.clock is not None
    settings = state.settings.clock
    index = 0 if seat is Seat.LEFT else 1
    started = periods_started(
        remaining_ms(state.clock, seat, step.t_ns), settings.overtime_period_ms
    )
    player = state.settings.player(seat)
    while step.state.overtime[index] < started and step.state.phase is not Phase.OVER:
        charged = list(step.state.overtime)
        charged[index] += 1
        step.update(overtime=(charged[0], charged[1]))
        detail = f"{player} started overtime period {charged[index]}"
        award_penalty(step, player, settings.overtime_penalty, "5.10", detail)
    return step.state.phase is Phase.OVER
