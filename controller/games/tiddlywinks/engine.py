"""The tiddlywinks rules engine (ETwA rules, 2001): pure ``step(state, event)``.

Handlers live in :mod:`.play` (the shot) and :mod:`.handlers` (the rest);
:mod:`.turns` keeps the order of play, and this module the time: the limit
(9(a), 9(b)) and the optional shot limit (9(c)).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from controller.games.step import rule_health
from controller.games.tiddlywinks import gametime, handlers
from controller.games.tiddlywinks.events import (
    Concede,
    Foul,
    Lineup,
    Pass,
    Replace,
    Shot,
    Squidge,
    TimeIn,
    TimeOut,
    Umpire,
)
from controller.games.tiddlywinks.geometry import COLOURS, tiddlies
from controller.games.tiddlywinks.play import on_shot
from controller.games.tiddlywinks.state import Phase, Settings, State, new_game
from controller.games.tiddlywinks.step import Step, score
from controller.games.tiddlywinks.turns import apply_expiry, settle, turn_open_at_expiry
from controller.model import JSON, Decision, EndMatch, Event, Game, Resumed, RulingKind, Tick
from controller.sensors.health import HealthEvent
from controller.timebase import ns_to_seconds


def expiry_due(state: State) -> int | None:
    """When the time limit runs out, if it still can (9(a), 8)."""
    if state.phase not in (Phase.PLAY, Phase.FOUL) or state.expired or state.out_order:
        return None
    return gametime.expiry(state.time)


def in_last_rounds(state: State) -> bool:
    """True in the five rounds after time (where 9(c) may apply)."""
    rounds = state.settings.rounds_after * 4
    return (
        state.expired
        and state.turns_left is not None
        and not state.expiry_turn_open
        and state.turns_left <= rounds
    )


def shot_limit_applies(state: State) -> bool:
    """True when the optional 9(c) is set and a shot is awaited in the five rounds."""
    return state.settings.shot_limit and state.phase is Phase.PLAY and in_last_rounds(state)


def shot_due(state: State) -> int | None:
    """When the awaited shot is forfeited under the optional 9(c), if it applies."""
    return gametime.shot_expiry(state.time) if shot_limit_applies(state) else None


def on_tick(step: Step, event: Tick) -> None:
    """The time limit expires (9(b), 11(e)) or a shot took too long (9(c))."""
    state = step.state
    due = expiry_due(state)
    if due is not None and event.t_ns >= due:
        if state.free is not None:
            step.update(expired=True, expiry_pending=True)
            step.notice(
                "11(e)",
                "time limit reached during free turns: it is deemed to expire before the "
                "squopped side's first playable shot",
            )
        else:
            apply_expiry(step, turn_open=turn_open_at_expiry(state))
            if step.state.turns_left == 0:
                settle(step)
        return
    due = shot_due(state)
    if due is not None and event.t_ns >= due:
        colour = state.turn
        limit = ns_to_seconds(state.settings.shot_limit_ns)
        step.update(
            shots_left=state.shots_left - 1,
            time=gametime.restart_shot(state.time, event.t_ns),
        )
        step.emit(
            RulingKind.FORFEIT,
            "9(c)",
            step.player(colour),
            None,
            f"{colour.value} did not play within {limit:g} s: the shot is forfeited",
        )
        settle(step)


def on_resumed(step: Step, event: Resumed) -> None:
    """The service was down: recorded for the TD; game time comes back as it was."""
    left = ""
    due = expiry_due(step.state)
    if due is not None:
        left = f"; {ns_to_seconds(max(0, due - event.t_ns)):.1f} s of the time limit remain"
    step.notice(None, f"service restarted after {ns_to_seconds(event.down_ns):.1f} s down{left}")


def on_health(step: Step, event: HealthEvent) -> None:
    """A faulty sensor (the camera, the shot button) is a ``suspended`` ruling."""
    rule_health(step, event, "automated rulings suspended: the umpire decides")


_Handler = Callable[[Step, Any], None]
_HANDLERS: dict[type[Event], _Handler] = {
    Squidge: handlers.on_squidge,
    Lineup: handlers.on_lineup,
    Shot: on_shot,
    Pass: handlers.on_pass,
    Replace: handlers.on_replace,
    Foul: handlers.on_foul,
    Umpire: handlers.on_umpire,
    Concede: handlers.on_concede,
    TimeOut: handlers.on_time_out,
    TimeIn: handlers.on_time_in,
    Tick: on_tick,
    Resumed: on_resumed,
    EndMatch: handlers.on_end_match,
    HealthEvent: on_health,
}
_WHEN_OVER = (Tick, Resumed, HealthEvent)


class TiddlywinksEngine:
    """Tiddlywinks, pairs and singles, from the squidge-off to the score.

    >>> from controller.games.tiddlywinks.state import Format
    >>> engine = TiddlywinksEngine()
    >>> state = engine.start(Settings(Format.SINGLES, ("ann", "ben", "ann", "ben")))
    >>> state.phase.value, engine.deadline(state)
    ('squidge_off', None)
    """

    @property
    def game(self) -> Game:
        return Game.TIDDLYWINKS

    def start(self, settings: Settings) -> State:
        """A new game, waiting for the squidge-off."""
        return new_game(settings)

    def step(self, state: State, event: Event) -> tuple[State, tuple[Decision, ...]]:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise TypeError(f"not a tiddlywinks input: {event!r}")
        if not isinstance(event, Tick):
            state = dataclasses.replace(state, log=(*state.log, event))
        step = Step(state, event.t_ns)
        if state.phase is Phase.OVER and not isinstance(event, _WHEN_OVER):
            step.notice(None, "the game is over: input disregarded")
        else:
            handler(step, event)
        return step.state, tuple(step.decisions)

    def refusal(self, state: State, event: Event) -> str | None:
        """Why a command would change nothing now, or None if it would."""
        after, decisions = self.step(state, event)
        if any(d.kind is not RulingKind.NOTICE for d in decisions):
            return None
        if dataclasses.replace(after, decided=state.decided, log=state.log) != state:
            return None
        return "; ".join(d.detail for d in decisions) or "it changes nothing now"

    def deadline(self, state: State) -> int | None:
        due = [d for d in (expiry_due(state), shot_due(state)) if d is not None]
        return min(due, default=None)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def snapshot(self, state: State) -> dict[str, JSON]:
        return snapshot(state)


def snapshot(state: State) -> dict[str, JSON]:
    """The retained ``state`` topic: who plays, the mat, the time."""
    settings = state.settings
    free: JSON = None
    if state.free is not None:
        free = {
            "squopped": state.free.squopped.value,
            "total": state.free.total,
            "used": state.free.used,
        }
    return {
        "game": Game.TIDDLYWINKS.value,
        "format": settings.format.value,
        "players": {c.value: settings.player(c) for c in COLOURS},
        "phase": state.phase.value,
        "squidge_off_winner": None if state.winner is None else state.winner.value,
        "turn": state.turn.value if state.phase is Phase.PLAY else None,
        "shots_left": state.shots_left,
        "nominated": state.nominated,
        "forfeits": {c.value: state.forfeit_count(c) for c in COLOURS},
        "free_turns": free,
        "keep_free": None if state.keep_free is None else state.keep_free.value,
        "expired": state.expired,
        "turns_left": state.turns_left,
        "time_stopped": gametime.paused(state.time),
        "potted_out": [[c.value for c in g] for g in state.out_order],
        "tiddlies": {c.value: n for c, n in tiddlies(state.mat).items()},
        "shots": len(state.shots),
        "score": dict(score(state)),
        "over": state.phase is Phase.OVER,
        "suspended": [*sorted(state.suspended)],
    }
