"""What happens with time alone: the start and default times of rule 6, the
time limit (3b) and the 25-minute alert (3d).

:func:`due` is the engine's next deadline; :func:`advance` rules on every
deadline reached by ``t_ns``, and runs before any input, so an input never
overtakes a deadline it comes after.
"""

from __future__ import annotations

from controller.clock import flag_deadline, tick
from controller.games.tantrix import ending
from controller.games.tantrix.state import Phase, State
from controller.games.tantrix.step import NS_PER_MS, Step, clock_text, running_player, taken_ms
from controller.model import RulingKind

CLOCK_START = "clock_start"
DEFAULT = "default"


def clock_start_ns(state: State) -> int | None:
    """When a player's clock may be started in their absence (6a)."""
    if state.origin_ns is None:
        return None
    settings = state.settings
    return state.origin_ns + (settings.scheduled_ms + settings.clock_start_ms) * NS_PER_MS


def default_ns(state: State) -> int | None:
    """When a player who has not arrived can be defaulted (6b)."""
    start = clock_start_ns(state)
    return None if start is None else start + state.settings.default_ms * NS_PER_MS


def alert_ns(state: State) -> int | None:
    """When the running player's time taken will exceed the alert time (3d)."""
    player = running_player(state)
    at_ms = state.clock.at_ms
    if player is None or at_ms is None or f"alert:{player}" in state.milestones:
        return None
    over_by = taken_ms(state, player, at_ms * NS_PER_MS) - state.settings.alert_ms
    # "exceeds": the first whole millisecond past the alert time.
    return (at_ms + max(0, 1 - over_by)) * NS_PER_MS


def due(state: State) -> int | None:
    """The engine's next deadline, if any."""
    times: list[int | None] = []
    if state.phase is Phase.WAITING:
        if CLOCK_START not in state.milestones:
            times.append(clock_start_ns(state))
        if DEFAULT not in state.milestones:
            times.append(default_ns(state))
    elif state.phase is Phase.PLAYING:
        times.append(flag_deadline(state.clock))
        times.append(alert_ns(state))
        if state.absent is not None and DEFAULT not in state.milestones:
            times.append(default_ns(state))
    return min((t for t in times if t is not None), default=None)


def _reached(deadline: int | None, t_ns: int) -> bool:
    return deadline is not None and deadline <= t_ns


def _waiting(step: Step, t_ns: int) -> None:
    state = step.state
    if CLOCK_START not in state.milestones and _reached(clock_start_ns(state), t_ns):
        step.mark(CLOCK_START)
        minutes = state.settings.clock_start_ms / 60_000
        step.notice(
            "6a",
            f"{minutes:g} min after the scheduled start and the clock has not been started: "
            "the clock of a player who has not arrived may be started",
        )
    if DEFAULT not in state.milestones and _reached(default_ns(state), t_ns):
        step.mark(DEFAULT)
        step.notice(
            "6b",
            "the clock has still not been started: a player who has not arrived can be "
            "defaulted (the Controller enters 'default')",
        )


def _limits(step: Step, t_ns: int) -> None:
    # The clock's own flag is booked; the time taken decides, so that a 5c
    # adjustment past the limit counts as well.
    clock, _ = tick(step.state.clock, t_ns)
    step.update(clock=clock)
    state = step.state
    for player in state.settings.players:
        taken = taken_ms(state, player, t_ns)
        if taken >= state.settings.limit_ms and f"limit:{player}" not in state.milestones:
            step.mark(f"limit:{player}")
            limit = clock_text(state.settings.limit_ms)
            step.notice("3b", f"{player} has taken {limit}: the game carries on; "
                        "time penalties are applied at the end")  # fmt: skip
    for player in state.settings.players:
        taken = taken_ms(step.state, player, t_ns)
        if taken > state.settings.alert_ms and f"alert:{player}" not in step.state.milestones:
            step.mark(f"alert:{player}")
            other = state.settings.opponent(player)
            step.emit(
                RulingKind.ALERT,
                "3d",
                player,
                None,
                f"{player}'s time exceeds {clock_text(state.settings.alert_ms)}: the Controller "
                f"can stop the game and adjudicate the final tile score, giving {other} the "
                "benefit of any doubt",
                extra=(("time_taken_ms", taken),),
            )


def advance(step: Step, t_ns: int) -> None:
    """Rule on every deadline reached by ``t_ns``."""
    if step.state.phase is Phase.WAITING:
        _waiting(step, t_ns)
    elif step.state.phase is Phase.PLAYING:
        _limits(step, t_ns)
        state = step.state
        if state.absent is not None and _reached(default_ns(state), t_ns):
            step.mark(DEFAULT)
            ending.default(step, state.absent, automatic=True)
