"""The clock during the game: the start (1h, 6a), presses (2h), pauses and
time-outs (2m, 5a, 5b), and time adjustments (5c)."""

from __future__ import annotations

import dataclasses

from controller.clock import (
    ClockAdjust,
    ClockPause,
    ClockPress,
    ClockResume,
    PauseReason,
    PauseSwitch,
    PressOutcome,
    adjust,
    apply_event,
    pause,
    start,
)
from controller.clock.events import ClockEvent
from controller.games.tantrix import timers
from controller.games.tantrix.events import Arrived, TimeAdjustment, TimeOut
from controller.games.tantrix.state import AdjustmentRecord, Phase, TimeOutRecord
from controller.games.tantrix.step import Step, seat_player
from controller.model import RulingKind


def _absence_start(step: Step) -> bool:
    """Whether the clock is being started at or after the 6a time."""
    due = timers.clock_start_ns(step.state)
    return due is not None and step.t_ns >= due


def on_start(step: Step, event: ClockPress) -> None:
    """1h: the player not moving first starts the game by starting the
    opponent's clock; 6a: after the start time, a player present may start
    the clock of one who has not arrived."""
    presser = seat_player(step.state, event.seat)
    mover = step.state.settings.opponent(presser)
    late = _absence_start(step)
    if step.state.first == presser and not late:
        step.notice(
            "1h",
            f"{mover}, who does not move first, starts the game by starting {presser}'s clock: "
            f"press by {presser} ignored",
        )
        return
    clock = start(step.state.clock, event.seat.other, step.t_ns)
    step.update(clock=clock, phase=Phase.PLAYING, started_ns=step.t_ns, first=mover)
    if late:
        step.update(absent=mover)
        step.notice(
            "6a",
            f"{presser} starts {mover}'s clock after the 6a time: unless {mover} arrives (a "
            f"press, or 'arrived'), {mover} is defaulted at the default time (6b)",
        )
        default_due = timers.default_ns(step.state)
        if default_due is not None and step.t_ns >= default_due:
            # Started after the default time: no automatic default at the very
            # instant the clock starts; the Controller decides.
            step.mark(timers.DEFAULT)
            step.notice("6b", f"the default time has passed: the Controller may default {mover}")
    else:
        step.notice("1h", f"{presser} starts {mover}'s clock: {mover} moves first")


def _on_press(step: Step, event: ClockPress, outcome: PressOutcome | None) -> None:
    presser = seat_player(step.state, event.seat)
    if outcome is PressOutcome.SWITCHED:
        if step.state.absent == presser:
            step.update(absent=None)
            step.notice("6a", f"{presser} has arrived and moved: no default")
    elif outcome is PressOutcome.NOT_RUNNING:
        step.notice("2h", f"press by {presser} ignored: {presser}'s clock is not running")
    elif outcome is PressOutcome.PAUSED:
        step.notice(None, f"press by {presser} ignored: the clock is paused")


def _close_time_out(step: Step) -> None:
    outs = step.state.time_outs
    if outs and outs[-1].end_ns is None:
        closed = dataclasses.replace(outs[-1], end_ns=step.t_ns)
        step.update(time_outs=(*outs[:-1], closed))


def _on_pause_change(step: Step, event: ClockEvent, changed: bool) -> None:
    paused = step.state.clock.pause
    if not changed:
        if isinstance(event, PauseSwitch | ClockResume) and paused is not None:
            step.notice(None, f"the clock stays paused ({paused.reason.value}): resume by command")
        else:
            step.notice(None, "the clock is already " + ("paused" if paused else "running"))
    elif paused is not None:
        step.notice(None, f"clock paused ({paused.reason.value})")
    else:
        _close_time_out(step)
        step.notice("5b", "clock restarted (un-paused)")


def _on_adjust(step: Step, event: ClockAdjust) -> None:
    player = seat_player(step.state, event.seat)
    _record(step, {player: -event.delta_ms}, event.reason)
    sign = "+" if event.delta_ms > 0 else "-"
    why = f": {event.reason}" if event.reason else ""
    step.emit(
        RulingKind.CLOCK,
        "5c",
        player if event.delta_ms < 0 else None,
        None,
        f"Controller's adjustment: {player}'s clock {sign}{abs(event.delta_ms) / 1000:g} s{why}",
        extra=(("delta_ms", event.delta_ms), ("player", player)),
    )


def _record(step: Step, taken: dict[str, int], reason: str) -> None:
    players = step.state.settings.players
    record = AdjustmentRecord(
        step.t_ns, (taken.get(players[0], 0), taken.get(players[1], 0)), reason
    )
    step.update(adjustments=(*step.state.adjustments, record))


def on_clock(step: Step, event: ClockEvent) -> None:
    """A clock input once the game has started."""
    clock, result = apply_event(step.state.clock, event)
    step.update(clock=clock)
    if isinstance(event, ClockPress):
        _on_press(step, event, result.press)
    elif isinstance(event, ClockAdjust):
        _on_adjust(step, event)
    elif isinstance(event, PauseSwitch | ClockPause | ClockResume):
        _on_pause_change(step, event, result.changed)


def on_time_out(step: Step, event: TimeOut) -> None:
    """5a: a player says "time-out" and pauses the clock."""
    already = step.state.clock.pause is not None
    clock = pause(step.state.clock, PauseReason.TIME_OUT, step.t_ns)
    step.update(clock=clock)
    _close_time_out(step)
    step.update(time_outs=(*step.state.time_outs, TimeOutRecord(event.player, step.t_ns)))
    paused = "the clock was already paused" if already else "clock paused"
    step.notice("5a", f"time-out called by {event.player}: {paused}")


def on_time_adjustment(step: Step, event: TimeAdjustment) -> None:
    """5c: the player in the wrong gets the time added to their time taken,
    and it is taken off the opponent's."""
    settings = step.state.settings
    other = settings.opponent(event.against)
    clock = adjust(step.state.clock, settings.clock_seat(event.against), -event.ms, step.t_ns)
    clock = adjust(clock, settings.clock_seat(other), event.ms, step.t_ns)
    step.update(clock=clock)
    _record(step, {event.against: event.ms, other: -event.ms}, "rule 5c")
    seconds = f"{event.ms / 1000:g} s"
    step.emit(
        RulingKind.CLOCK,
        "5c",
        event.against,
        other,
        f"{event.against} was in the wrong: {seconds} added to {event.against}'s time taken "
        f"and taken off {other}'s",
        extra=(("adjustment_ms", event.ms),),
    )


def on_arrived(step: Step, event: Arrived) -> None:
    """6a: the absent player has arrived: no default."""
    if step.state.absent == event.player:
        step.update(absent=None)
        step.notice("6a", f"{event.player} has arrived: no default")
    else:
        step.notice(None, f"{event.player} was not waited for: nothing to do")
