"""Handlers of the clock's inputs: button presses, pauses, TD adjustments."""

from __future__ import annotations

from controller.clock import (
    ClockAdjust,
    ClockPress,
    PauseReason,
    PressOutcome,
    adjust,
    format_ms,
    pause,
    press,
    resume,
)
from controller.games.backgammon.clocking import (
    describe_reserves,
    pause_rule,
    reserves,
    reserves_json,
    start_game_clock,
)
from controller.games.backgammon.play import announce_crawford
from controller.games.backgammon.state import PauseRecord, Phase, open_pause
from controller.games.backgammon.step import Step
from controller.model import JSON, RulingKind

_IGNORED = {
    PressOutcome.NOT_RUNNING: "{player}'s clock is not running",
    PressOutcome.PAUSED: "the clock is paused",
    PressOutcome.STOPPED: "no clock is running",
}


def on_press(step: Step, event: ClockPress) -> None:
    """A clock button. At the opening, the lower die's press starts the
    higher die's clock (5.1); in play, a press ends the presser's turn (5.3)."""
    state = step.state
    player = state.settings.player(event.seat)
    if state.clock is None:
        step.notice("5.10", f"press by {player} ignored: no clock in use")
        return
    pending = open_pause(state)
    if pending is not None:
        step.notice("5.10", f"press by {player} ignored: the match is paused ({pending.reason})")
        return
    if state.phase is Phase.BEFORE_GAME:
        step.notice("5.1", f"press by {player} ignored: no opening roll yet for game {state.game}")
        return
    if state.phase is Phase.OPENING:
        _opening_press(step, player)
        return
    clock, outcome = press(state.clock, event.seat, event.t_ns)
    step.update(clock=clock)
    if outcome is not PressOutcome.SWITCHED:
        why = _IGNORED[outcome].format(player=player)
        step.notice("5.10", f"press by {player} ignored: {why}")


def _opening_press(step: Step, player: str) -> None:
    first = step.state.first
    assert first is not None
    if player == first:
        lower = step.state.settings.opponent(first)
        step.notice(
            "5.1", f"press by {player} ignored: {lower}, with the lower die, starts the clock"
        )
        return
    start_game_clock(step, first)
    step.update(phase=Phase.PLAYING)
    announce_crawford(step)
    step.notice("5.1", f"{player} presses: {first}'s clock runs for the opening move")


def on_pause(step: Step, reason: PauseReason) -> None:
    """Pause the match (a die off the table, a TD call, a break between games,
    the pause switch); the reserves are put on the record (2.2.6)."""
    state = step.state
    if state.clock is None:
        step.notice("5.10", f"pause ({reason}) disregarded: no clock in use")
        return
    pending = open_pause(state)
    if pending is not None:
        step.notice(
            pause_rule(reason), f"pause ({reason}) disregarded: already paused ({pending.reason})"
        )
        return
    if reason is PauseReason.BREAK and state.phase is not Phase.BEFORE_GAME:
        step.notice(
            "2.2.6", f"break refused: breaks must be between games (game {state.game} is on)"
        )
        return
    record = PauseRecord(reason.value, state.game, step.t_ns, reserves(state, step.t_ns))
    step.update(clock=pause(state.clock, reason, step.t_ns), pauses=(*state.pauses, record))
    detail = f"clock paused ({reason}); remaining {describe_reserves(step.state, step.t_ns)}"
    step.emit(
        RulingKind.CLOCK, pause_rule(reason), None, None, detail, _extra("pause", reason, step)
    )


def on_resume(step: Step, switch: bool) -> None:
    """End the pause: the same clock runs on, its delay where it was."""
    state = step.state
    pending = open_pause(state)
    if state.clock is None or pending is None:
        step.notice("5.10", "resume disregarded: the match is not paused")
        return
    reason = PauseReason(pending.reason)
    if switch and reason is not PauseReason.SWITCH:
        step.notice(
            pause_rule(reason), f"pause switch released: the {reason} pause goes on until resumed"
        )
        return
    closed = PauseRecord(
        pending.reason, pending.game, pending.start_ns, pending.reserves_ms, step.t_ns
    )
    step.update(clock=resume(state.clock, step.t_ns), pauses=(*state.pauses[:-1], closed))
    lasted = (step.t_ns - pending.start_ns) // 1_000_000
    detail = f"clock resumed after {format_ms(lasted)} ({reason})"
    step.emit(
        RulingKind.CLOCK, pause_rule(reason), None, None, detail, _extra("resume", reason, step)
    )
    limit = state.settings.clock.break_limit_ms
    if reason is PauseReason.BREAK and lasted > limit:
        step.notice(
            "2.2.6", f"the break lasted {format_ms(lasted)}, over the {format_ms(limit)} allowed"
        )


def on_adjust(step: Step, event: ClockAdjust) -> None:
    """A TD's correction of a player's reserve (2.1.1); it is on the record."""
    state = step.state
    player = state.settings.player(event.seat)
    if state.clock is None:
        step.notice("5.10", f"adjustment of {player}'s clock disregarded: no clock in use")
        return
    step.update(clock=adjust(state.clock, event.seat, event.delta_ms, step.t_ns))
    why = f" ({event.reason})" if event.reason else ""
    detail = (
        f"TD adjusts {player}'s clock by {format_ms(event.delta_ms)}{why}; "
        f"remaining {describe_reserves(step.state, step.t_ns)}"
    )
    extra = (*_extra("adjust", None, step), ("delta_ms", event.delta_ms))
    step.emit(RulingKind.CLOCK, "2.1.1", None, None, detail, extra)


def _extra(action: str, reason: PauseReason | None, step: Step) -> tuple[tuple[str, JSON], ...]:
    return (
        ("action", action),
        ("reason", None if reason is None else reason.value),
        ("remaining_ms", reserves_json(step.state, step.t_ns)),
    )
