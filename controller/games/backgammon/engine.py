"""The Backgammon match engine: pure ``step(state, event)``.

Match play to N points (5.9 cube, 5.11 Crawford, 5.12 game completion, 5.14
match completion) on a simple-delay clock (5.10). Every input first lets the
clock catch up to its time (:func:`~controller.games.backgammon.flags.check_flags`),
so a flag is ruled at the moment it fell.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from controller.clock import (
    ClockAdjust,
    ClockPause,
    ClockPress,
    ClockResume,
    PauseReason,
    PauseSwitch,
    Seat,
    snapshot,
)
from controller.games.backgammon import clocking, clockinputs, gameinputs
from controller.games.backgammon.clocking import describe_reserves, running_player
from controller.games.backgammon.events import (
    ClockIn,
    Double,
    Drop,
    GameResult,
    OpeningRoll,
    Penalty,
    Take,
)
from controller.games.backgammon.flags import check_flags
from controller.games.backgammon.play import finish_match
from controller.games.backgammon.state import MatchSettings, Phase, State, new_match
from controller.games.backgammon.step import Step
from controller.games.step import rule_health
from controller.model import JSON, Decision, EndMatch, Event, Game, Resumed, RulingKind, Tick
from controller.sensors.health import HealthEvent
from controller.timebase import ns_to_seconds


def on_tick(step: Step, event: Tick) -> None:
    """A deadline: the flags were already checked."""
    del step, event


def on_resumed(step: Step, event: Resumed) -> None:
    """The service was down: the gap is recorded for the TD. The match time
    does not include it, so the running clock lost nothing while down."""
    clocks = describe_reserves(step.state, step.t_ns)
    running = running_player(step.state)
    held = f"; clocks {clocks}" + (f", {running}'s running" if running else "") if clocks else ""
    step.notice(
        None,
        f"service restarted after {ns_to_seconds(event.down_ns):.1f} s down{held}; "
        "the TD may adjust the clocks",
    )


def on_end_match(step: Step, event: EndMatch) -> None:
    """The TD ends the match as it stands (2.1.1): the leader wins, or no one."""
    a, b = step.state.points
    players = step.state.settings.players
    winner = None if a == b else players[0] if a > b else players[1]
    why = "ended by the TD" + (f" ({event.reason})" if event.reason else "")
    finish_match(step, winner, "2.1.1", why)


def on_health(step: Step, event: HealthEvent) -> None:
    """House-style rule 5: a faulty sensor (a clock button) is a visible
    ``suspended`` ruling; the TD enters what it would have (commands) and may
    pause or adjust the clock. The recovery is a notice."""
    rule_health(
        step, event, "automated clock input suspended: the TD decides", "automated input resumes"
    )


_Handler = Callable[[Step, Any], None]
_HANDLERS: dict[type[Event], _Handler] = {
    OpeningRoll: gameinputs.on_opening_roll,
    Double: gameinputs.on_double,
    Take: gameinputs.on_take,
    Drop: gameinputs.on_drop,
    GameResult: gameinputs.on_game_result,
    ClockIn: gameinputs.on_clock_in,
    Penalty: gameinputs.on_penalty,
    ClockPress: clockinputs.on_press,
    ClockPause: lambda step, e: clockinputs.on_pause(step, e.reason),
    ClockResume: lambda step, e: clockinputs.on_resume(step, switch=False),
    PauseSwitch: lambda step, e: (
        clockinputs.on_pause(step, PauseReason.SWITCH)
        if e.engaged
        else clockinputs.on_resume(step, switch=True)
    ),
    ClockAdjust: clockinputs.on_adjust,
    Tick: on_tick,
    Resumed: on_resumed,
    EndMatch: on_end_match,
    HealthEvent: on_health,
}
_WHEN_OVER = (Tick, Resumed, HealthEvent)


def _comparable(state: State) -> State:
    """``state`` without what every input changes (the decision count, the
    clock's last-seen time): what is left changes only if the input did."""
    clock = state.clock
    if clock is not None:
        clock = dataclasses.replace(clock, at_ms=None)
    return dataclasses.replace(state, decided=0, clock=clock)


class BackgammonEngine:
    """Backgammon match play with a simple-delay clock.

    >>> engine = BackgammonEngine()
    >>> state = engine.start(MatchSettings(players=("ann", "ben"), length=3))
    >>> state, _ = engine.step(state, OpeningRoll(t_ns=0, dice=(("ann", 5), ("ben", 2))))
    >>> state, _ = engine.step(state, ClockPress(t_ns=1_000_000_000, seat=clocking.Seat.RIGHT))
    >>> engine.deadline(state)  # ann's 6 min reserve after a 12 s delay
    373000000000
    """

    @property
    def game(self) -> Game:
        return Game.BACKGAMMON

    def start(self, settings: MatchSettings) -> State:
        """A new match, before the first opening roll."""
        clock = clocking.clock_for(settings, 0) if settings.clock.from_start else None
        return new_match(settings, clock)

    def step(self, state: State, event: Event) -> tuple[State, tuple[Decision, ...]]:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise TypeError(f"not a Backgammon input: {event!r}")
        step = Step(state, event.t_ns)
        if state.phase is Phase.OVER:
            if isinstance(event, _WHEN_OVER):
                handler(step, event)
            else:
                step.notice(None, "the match is over: input disregarded")
        elif check_flags(step) and not isinstance(event, _WHEN_OVER):
            step.notice(None, "the match ended on time: input disregarded")
        else:
            handler(step, event)
            if step.state.phase is not Phase.OVER:
                check_flags(step)  # an adjustment may have taken time off
        return step.state, tuple(step.decisions)

    def refusal(self, state: State, event: Event) -> str | None:
        """Why a command would change nothing now, or None if it would.

        A trial step answers: the engine is pure."""
        after, decisions = self.step(state, event)
        if any(d.kind is not RulingKind.NOTICE for d in decisions):
            return None
        if _comparable(after) != _comparable(state):
            return None
        return "; ".join(d.detail for d in decisions) or "it changes nothing now"

    def deadline(self, state: State) -> int | None:
        if state.phase is Phase.OVER:
            return None
        return clocking.deadline(state)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def snapshot(self, state: State) -> dict[str, JSON]:
        settings = state.settings
        cube = state.cube
        clock = state.clock
        at_ns = None if clock is None or clock.at_ms is None else clock.at_ms * 1_000_000
        return {
            "game": Game.BACKGAMMON.value,
            "players": list(settings.players),
            "length": settings.length,
            "score": dict(state.score),
            "phase": state.phase.value,
            "game_number": state.game,
            "crawford": state.crawford_game,
            "post_crawford": state.crawford_done,
            "cube": {"value": cube.value, "owner": cube.owner, "offered_by": cube.offered_by},
            "first": state.first,
            "clock": None if clock is None or at_ns is None else clock_snapshot(state, at_ns),
            "over": state.phase is Phase.OVER,
            "winner": state.winner,
            "suspended": [*sorted(state.suspended)],
        }


def clock_snapshot(state: State, t_ns: int) -> dict[str, JSON] | None:
    """The ``clock`` topic payload (without ``wall``), or None with no clock."""
    if state.clock is None:
        return None
    players = {seat: state.settings.player(seat) for seat in Seat}
    return snapshot(state.clock, t_ns, players)
