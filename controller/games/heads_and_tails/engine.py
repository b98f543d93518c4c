"""The Heads & Tails rules engine: pure ``step(state, event)``.

Each handler reads one input against the phase of the current attempt and
decides through :class:`~controller.games.heads_and_tails.step.Step`, which
numbers the decisions and keeps the score derived from the outcomes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from controller.games.heads_and_tails import spotter
from controller.games.heads_and_tails.events import (
    Call,
    CoinChange,
    CoinTouched,
    Face,
    FaultLine,
    Go,
    Landed,
    Overrule,
    Replacement,
    SpotterCall,
    Toss,
    Touch,
    Toucher,
)
from controller.games.heads_and_tails.state import (
    AFTER_TOSS,
    Attempt,
    CallMade,
    MatchSettings,
    Phase,
    State,
    new_match,
)
from controller.games.heads_and_tails.step import Step
from controller.games.step import rule_health
from controller.model import JSON, Decision, EndMatch, Event, Game, Resumed, RulingKind, Tick
from controller.sensors.health import HealthEvent
from controller.timebase import ns_to_seconds

CALLS = {"heads": Face.HEADS, "tails": Face.TAILS}


def _attempt(step: Step) -> Attempt:
    attempt = step.state.attempt
    if attempt is None:  # every phase that reaches here has one
        raise AssertionError(f"no attempt in phase {step.state.phase}")
    return attempt


def on_go(step: Step, event: Go) -> None:
    """2.1.1/2.1.2: Go opens a toss window."""
    state = step.state
    if state.phase is not Phase.AWAIT_GO:
        step.notice(None, "Go disregarded: an attempt is already in progress")
        return
    step.set_attempt(Phase.WINDOW, Attempt(go_ns=event.t_ns))
    window = ns_to_seconds(state.settings.toss_window_ns)
    step.notice(
        "2.1.2", f"Ready - Go: {state.tosser} to toss within {window:g} s, {state.caller} calls"
    )


def on_toss(step: Step, event: Toss) -> None:
    """The coin leaves the hand: a let if below the fault line or not upward."""
    phase = step.state.phase
    if phase is not Phase.WINDOW:
        step.notice(
            "2.1.1" if phase is Phase.AWAIT_GO else None,
            "toss disregarded: no Go declared"
            if phase is Phase.AWAIT_GO
            else "toss signal disregarded: the coin is already in play",
        )
        return
    attempt = dataclasses.replace(_attempt(step), toss_ns=event.t_ns)
    step.set_attempt(Phase.FLIGHT, attempt)
    if event.below_fault_line:
        step.let("2.1.4", "the toss was made below the fault line")
    elif not event.upward:
        step.let("2.1.5", "the coin failed to move upwards")


def on_call(step: Step, event: Call) -> None:
    """2.2: only the caller's first heads or tails, between toss and fault line."""
    state = step.state
    face = CALLS.get(event.word.strip().lower())
    if event.player != state.caller:
        step.notice(None, f"call by {event.player} disregarded: {state.caller} is the caller")
    elif face is None:
        step.notice("2.2.1", f"{event.word!r} is not a call: only heads or tails")
    elif state.phase not in AFTER_TOSS:
        step.notice("2.2.2", f"call by {event.player} before the toss disregarded")
    elif (made := _attempt(step).call) is not None:
        step.notice("2.2.4", f"a call may not be revoked: {made.face.value} stands")
    elif state.phase is Phase.FLIGHT or state.caller in state.settings.visually_impaired:
        attempt = dataclasses.replace(_attempt(step), call=CallMade(face, event.t_ns))
        step.set_attempt(state.phase, attempt)
        if state.phase is Phase.AWAIT_CALL:
            _score(step)
    else:  # DESCENT without a call cannot be reached: the fault came at the line
        step.notice("2.2.3", "call too late: the coin has passed the fault line")


def _past_fault_line(step: Step, t_ns: int) -> bool:
    """The coin passes the fault line at ``t_ns``: a fault if the caller has
    not called by then (2.2.3), unless visually impaired (4.2.1). Returns
    True when the attempt goes on."""
    state = step.state
    made = _attempt(step).call
    if state.caller not in state.settings.visually_impaired and (made is None or made.t_ns >= t_ns):
        late = "" if made is None else " (the call came as it passed)"
        step.fault("2.2.3", state.caller, f"no call before the coin passed the fault line{late}")
        return False
    step.set_attempt(Phase.DESCENT, dataclasses.replace(_attempt(step), fault_line_ns=t_ns))
    return True


def on_fault_line(step: Step, event: FaultLine) -> None:
    """The coin passed below the fault line."""
    if step.state.phase is Phase.FLIGHT:
        _past_fault_line(step, event.t_ns)
    else:
        step.notice(None, "fault line signal disregarded: no coin in flight above it")


def on_landed(step: Step, event: Landed) -> None:
    """The coin came to rest: let, invalid, point, or wait for a VI call."""
    phase = step.state.phase
    if phase not in (Phase.FLIGHT, Phase.DESCENT):
        step.notice(None, "landing disregarded: no coin in flight")
        return
    # A coin on the floor passed the fault line, seen by the gate or not.
    if phase is Phase.FLIGHT and not _past_fault_line(step, event.t_ns):
        return
    if event.in_area and event.face is Face.UNKNOWN:
        # Never a guessed point: the spotter enters the landing (2.6.1); the
        # coin is still "in flight" for the engine until then.
        seen = f" (evidence: {event.evidence})" if event.evidence else ""
        step.notice("2.6.1", f"the camera cannot tell the landing{seen}: spotter, enter it")
        return
    attempt = dataclasses.replace(
        _attempt(step), landed_ns=event.t_ns, face=event.face, in_area=event.in_area
    )
    step.set_attempt(Phase.DESCENT, attempt)
    if not event.in_area:
        step.let("2.1.7", "the coin landed outside the designated area")
    elif event.face is Face.EDGE:
        step.end_attempt(Replacement.INVALID, "2.7.4", None, None, "indeterminate landing (cleet)")
    elif event.face is Face.BROKEN:
        step.end_attempt(Replacement.INVALID, "2.7.4", None, None, "coin broke (skraggaleon)")
    elif attempt.call is not None:
        _score(step)
    else:
        step.set_attempt(Phase.AWAIT_CALL, attempt)
    if event.face is Face.BROKEN:  # after the ruling on the attempt, whatever it was
        step.notice("1.3.3", "the coin broke: it must be replaced before the next toss")


def _score(step: Step) -> None:
    """2.3.1/2.3.2: the call against the landed face."""
    state = step.state
    attempt = _attempt(step)
    if attempt.call is None or attempt.face is None:
        raise AssertionError("scoring needs a call and a face")
    tosser, caller = state.tosser, state.caller
    said, face = attempt.call.face.value, attempt.face.value
    table = " after touching the table (2.1.10)" if attempt.touched_table else ""
    detail = f"{caller} called {said}, the coin landed {face}{table}"
    if attempt.call.face is attempt.face:
        step.end_attempt(Replacement.POINT, "2.3.1", tosser, caller, f"{detail}: point to {caller}")
    else:
        step.end_attempt(Replacement.POINT, "2.3.2", caller, tosser, f"{detail}: point to {tosser}")


def on_touch(step: Step, event: Touch) -> None:
    """2.1.6: the tosser touched a line, the table or the coin after the toss."""
    phase = step.state.phase
    what = event.what.value.replace("_", " ")
    if phase in AFTER_TOSS:
        step.let("2.1.6", f"the tosser touched the {what} after the toss")
    elif phase is Phase.WINDOW:
        step.notice("2.1.6", f"the tosser touched the {what} before the toss: not a let")
    else:
        step.notice(None, "touch disregarded: no toss in progress")


def on_coin_touched(step: Step, event: CoinTouched) -> None:
    """2.1.10 (the table: still valid) and 2.1.11 (a person: invalid)."""
    if step.state.phase not in (Phase.FLIGHT, Phase.DESCENT):
        step.notice(None, "coin contact disregarded: no coin in flight")
    elif event.who is Toucher.TABLE:
        attempt = dataclasses.replace(_attempt(step), touched_table=True)
        step.set_attempt(step.state.phase, attempt)
        step.notice("2.1.10", "the coin touched the table: valid if it lands in the area")
    else:
        detail = f"the coin touched the {event.who.value}: remade without penalty"
        step.end_attempt(Replacement.INVALID, "2.1.11", None, None, detail)


def on_tick(step: Step, event: Tick) -> None:
    """Deadlines: the toss window (2.1.2) and a VI caller's grace (4.2.1)."""
    state = step.state
    due = HeadsAndTailsEngine.due(state)
    if due is None or event.t_ns < due:
        return
    if state.phase is Phase.WINDOW:
        window = ns_to_seconds(state.settings.toss_window_ns)
        step.fault("2.1.2", state.tosser, f"no toss within {window:g} s of Go")
    else:
        step.fault("4.2.1", state.caller, "no call by the time the coin was heard to land")


def on_coin_change(step: Step, event: CoinChange) -> None:
    """1.3.4: a coin change may be requested at the half-way point."""
    state = step.state
    half_way = state.plays_done * 2 == state.settings.plays
    if state.phase is Phase.AWAIT_GO and half_way:
        step.notice("1.3.4", f"{event.player} asks for a new coin at half way: accepted")
    else:
        step.notice("1.3.4", f"{event.player}'s coin change declined: only at half way")


def on_resumed(step: Step, event: Resumed) -> None:
    """The service was down: the gap is recorded for the TD, the match goes on
    with the time it had (the toss window keeps its remaining seconds)."""
    state = step.state
    left = ""
    due = HeadsAndTailsEngine.due(state)
    if due is not None:
        left = f"; {ns_to_seconds(due - event.t_ns):.1f} s of the pending deadline remain"
    step.notice(None, f"service restarted after {ns_to_seconds(event.down_ns):.1f} s down{left}")


def on_end_match(step: Step, event: EndMatch) -> None:
    """The TD ends the match early: the result as the score stands (2.3.4, 2.3.5)."""
    del event  # the reason is in the journal with the input
    step.set_attempt(Phase.AWAIT_GO, None)
    step.finish()


def on_health(step: Step, event: HealthEvent) -> None:
    """House-style rule 5: a faulty sensor is a visible ``suspended`` ruling.

    The state remembers which sensors are out. Nothing else changes: inputs
    are still ruled as they arrive, because the engine cannot tell which of
    them the fault spoiled; while suspended, the spotter decides (and
    overrules what the sensors got wrong). The recovery is a notice.
    """
    rule_health(step, event, "automated rulings suspended: the spotter decides")


_Handler = Callable[[Step, Any], None]
_HANDLERS: dict[type[Event], _Handler] = {
    Go: on_go,
    Toss: on_toss,
    Call: on_call,
    FaultLine: on_fault_line,
    Landed: on_landed,
    Touch: on_touch,
    CoinTouched: on_coin_touched,
    CoinChange: on_coin_change,
    SpotterCall: spotter.on_spotter,
    Overrule: spotter.on_overrule,
    Tick: on_tick,
    Resumed: on_resumed,
    EndMatch: on_end_match,
    HealthEvent: on_health,
}


class HeadsAndTailsEngine:
    """Heads & Tails: Articles 2 and 4, standard (3.1) and Edinburgh (3.2) matches.

    >>> from controller.games.heads_and_tails.state import MatchSettings
    >>> engine = HeadsAndTailsEngine()
    >>> state = engine.start(MatchSettings(players=("ann", "ben"), first_tosser="ann"))
    >>> state, decisions = engine.step(state, Go(t_ns=0))
    >>> engine.deadline(state)
    30000000000
    """

    @property
    def game(self) -> Game:
        return Game.HEADS_AND_TAILS

    def start(self, settings: MatchSettings) -> State:
        """A new match, waiting for the first Go."""
        return new_match(settings)

    def step(self, state: State, event: Event) -> tuple[State, tuple[Decision, ...]]:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise TypeError(f"not a Heads & Tails input: {event!r}")
        step = Step(state, event.t_ns)
        # A sensor fault is reported even after the match: the table is still watched.
        allowed_when_over = Overrule | Tick | Resumed | HealthEvent
        if state.phase is Phase.OVER and not isinstance(event, allowed_when_over):
            step.notice(None, "the match is over: input disregarded")
        else:
            handler(step, event)
        return step.state, tuple(step.decisions)

    def refusal(self, state: State, event: Event) -> str | None:
        """Why a command would change nothing now, or None if it would.

        Legality apart from applying: the engine is pure, so a trial step
        answers without side effects. A coin-change request is always heard.
        """
        if isinstance(event, CoinChange):
            return None
        after, decisions = self.step(state, event)
        if any(d.kind is not RulingKind.NOTICE for d in decisions):
            return None
        if dataclasses.replace(after, decided=state.decided) != state:
            return None
        return "; ".join(d.detail for d in decisions) or "it changes nothing now"

    @staticmethod
    def due(state: State) -> int | None:
        """The pending deadline: toss window or a VI caller's grace."""
        attempt = state.attempt
        if state.phase is Phase.WINDOW and attempt is not None and attempt.go_ns is not None:
            return attempt.go_ns + state.settings.toss_window_ns
        if (
            state.phase is Phase.AWAIT_CALL
            and attempt is not None
            and attempt.landed_ns is not None
        ):
            return attempt.landed_ns + state.settings.vi_grace_ns
        return None

    def deadline(self, state: State) -> int | None:
        return self.due(state)

    @staticmethod
    def toss_in_flight(state: State) -> bool:
        """From the toss to the ruling on it: the sensor health monitor lets
        beams stay broken meanwhile (a hand over a line, a coin on the floor)."""
        return state.phase in AFTER_TOSS

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def snapshot(self, state: State) -> dict[str, JSON]:
        settings = state.settings
        return {
            "game": Game.HEADS_AND_TAILS.value,
            "players": list(settings.players),
            "format": settings.format.value,
            "plays": settings.plays,
            "plays_done": state.plays_done,
            "score": dict(state.score),
            "phase": state.phase.value,
            "tosser": state.tosser,
            "caller": state.caller,
            "let_in_play": state.let_in_play,
            "over": state.phase is Phase.OVER,
            "suspended": [*sorted(state.suspended)],
        }
