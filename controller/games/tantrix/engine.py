"""The Tantrix engine (2009 table tournament rules): pure ``step(state, event)``.

Every input first lets time reach it (:func:`timers.advance`: the time limit,
the alert, the start and default times), then acts.
"""

from __future__ import annotations

import dataclasses

from controller.clock import CLOCK_EVENTS, ClockPress, snapshot
from controller.clock.events import ClockEvent
from controller.games.step import rule_health
from controller.games.tantrix import ending, play, timers
from controller.games.tantrix.events import Arrived, DefaultCall, TileScore, TimeAdjustment, TimeOut
from controller.games.tantrix.settings import MatchSettings
from controller.games.tantrix.state import Phase, State, new_game
from controller.games.tantrix.step import Step, clock_text, running_player, taken_ms
from controller.games.tantrix.tp import time_penalties
from controller.model import JSON, Decision, EndMatch, Event, Game, Resumed, RulingKind, Tick
from controller.sensors.health import HealthEvent

GAME_INPUTS = (TileScore, TimeOut, TimeAdjustment, Arrived, DefaultCall)


def _on_clock(step: Step, event: ClockEvent) -> None:
    if step.state.phase is Phase.PLAYING:
        play.on_clock(step, event)
    elif isinstance(event, ClockPress):
        play.on_start(step, event)
    else:
        step.notice("1h", "the clock has not been started: the player not moving first starts it")


def _on_score(step: Step, event: TileScore) -> None:
    if step.state.phase is Phase.WAITING:
        step.notice("4a", "no game has been started: no result to enter")
    elif event.adjudicated and not any(m.startswith("alert:") for m in step.state.milestones):
        step.notice("3d", "adjudication is for a game in which a player has taken over 25 min")
    else:
        ending.finish(step, event)


def _on_default(step: Step, event: DefaultCall) -> None:
    state = step.state
    due = timers.default_ns(state)
    if due is None or step.t_ns < due:
        step.notice("6b", "a default is possible only 10 min after the clock may be started")
    elif state.phase is Phase.PLAYING and state.absent != event.against:
        step.notice("6b", f"{event.against} has arrived and is playing: no default")
    else:
        ending.default(step, event.against, automatic=False)


def _on_game_input(step: Step, event: Event) -> None:
    if step.state.phase is not Phase.PLAYING and not isinstance(event, TileScore | DefaultCall):
        step.notice(None, "the clock has not been started: input disregarded")
    elif isinstance(event, TileScore):
        _on_score(step, event)
    elif isinstance(event, DefaultCall):
        _on_default(step, event)
    elif isinstance(event, TimeOut):
        play.on_time_out(step, event)
    elif isinstance(event, TimeAdjustment):
        play.on_time_adjustment(step, event)
    elif isinstance(event, Arrived):
        play.on_arrived(step, event)


def _on_resumed(step: Step, event: Resumed) -> None:
    """The service was down: the time went unseen by the clock."""
    down = event.down_ns / 1e9
    player = running_player(step.state)
    lost = (
        f"; {player}'s clock was running and did not count that time: the Controller may adjust it"
        if player is not None
        else ""
    )
    step.notice(None, f"service restarted after {down:.1f} s down{lost}")


def _on_health(step: Step, event: HealthEvent) -> None:
    """A faulty sensor (a clock button) is a visible ``suspended`` ruling."""
    rule_health(step, event, "clock presses from it need checking: the Controller decides")


def _dispatch(step: Step, event: Event) -> None:
    if isinstance(event, CLOCK_EVENTS):
        _on_clock(step, event)
    elif isinstance(event, GAME_INPUTS):
        _on_game_input(step, event)
    elif isinstance(event, Resumed):
        _on_resumed(step, event)
    elif isinstance(event, EndMatch):
        ending.end_by_td(step, event.reason)
    elif not isinstance(event, Tick):
        raise TypeError(f"not a Tantrix input: {event!r}")


class TantrixEngine:
    """Tantrix: the clock and the Tournament Points of one table game.

    >>> from controller.clock import Seat
    >>> engine = TantrixEngine()
    >>> state = engine.at_origin(engine.start(MatchSettings(("ann", "ben"), ("ann", "ben"))), 0)
    >>> state, decisions = engine.step(state, ClockPress(t_ns=0, seat=Seat.RIGHT))
    >>> decisions[0].detail
    "ben starts ann's clock: ann moves first"
    >>> engine.deadline(state) // 10**9   # ann's 20 minutes run out
    1200
    """

    @property
    def game(self) -> Game:
        return Game.TANTRIX

    def start(self, settings: MatchSettings) -> State:
        """A new game, before the clock is started."""
        return new_game(settings)

    def at_origin(self, state: State, origin_ns: int) -> State:
        """The match starts at ``origin_ns``: the scheduled start counts from it."""
        return dataclasses.replace(state, origin_ns=origin_ns)

    def step(self, state: State, event: Event) -> tuple[State, tuple[Decision, ...]]:
        step = Step(state, event.t_ns)
        if isinstance(event, HealthEvent):  # reported whatever the phase
            _on_health(step, event)
        elif state.phase is Phase.OVER and not isinstance(event, Tick | Resumed):
            step.notice(None, "the game is over: input disregarded")
        else:
            timers.advance(step, event.t_ns)
            if step.state.phase is not Phase.OVER or isinstance(event, Resumed):
                _dispatch(step, event)
                # An adjustment can take a player past the limit or the alert now.
                timers.advance(step, event.t_ns)
            elif not isinstance(event, Tick):
                step.notice(None, "the game is over: input disregarded")
        return step.state, tuple(step.decisions)

    def refusal(self, state: State, event: Event) -> str | None:
        """Why a command would change nothing now, or None if it would."""
        after, decisions = self.step(state, event)
        if any(d.kind is not RulingKind.NOTICE for d in decisions):
            return None
        # The clock books the time of every event it sees; that alone is no change.
        clock = dataclasses.replace(after.clock, at_ms=state.clock.at_ms)
        if dataclasses.replace(after, decided=state.decided, clock=clock) != state:
            return None
        return "; ".join(d.detail for d in decisions) or "it changes nothing now"

    def deadline(self, state: State) -> int | None:
        return timers.due(state)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def snapshot(self, state: State) -> dict[str, JSON]:
        settings = state.settings
        t_ns = (state.clock.at_ms or 0) * 1_000_000
        taken = {p: taken_ms(state, p, t_ns) for p in settings.players}
        result = state.result
        return {
            "game": Game.TANTRIX.value,
            "players": list(settings.players),
            "clock_left": settings.seats[0],
            "first": state.first,
            "phase": state.phase.value,
            "score": dict(state.score),
            "time_taken": {p: clock_text(ms) for p, ms in taken.items()},
            "penalties_so_far": {
                p: time_penalties(ms, settings.limit_ms) for p, ms in taken.items()
            },
            "absent": state.absent,
            "time_outs": len(state.time_outs),
            "result": None if result is None else result.how,
            "over": state.phase is Phase.OVER,
            "suspended": [*sorted(state.suspended)],
            "clock": snapshot(state.clock, t_ns, settings.by_seat),
        }
