"""The game's time limit (9): one running time that stops while the umpire
decides (14), winks are lost or replaced (9(a), 12(e)) or a player is away.

A thin layer over the clock so that the engine asks only these questions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameTimer:
    """Game time: started at the first shot after the squidge-off (9(a)).

    >>> t = start(GameTimer(limit_ns=100), 10)
    >>> t = resume(pause(t, "umpire", 50), 70)
    >>> elapsed(t, 90), expiry(t)
    (60, 130)
    """

    limit_ns: int
    started_ns: int | None = None
    paused_since: int | None = None
    reason: str | None = None
    paused_ns: int = 0
    stopped_ns: int | None = None


def start(timer: GameTimer, t_ns: int) -> GameTimer:
    """Start game time at ``t_ns`` (no-op once started)."""
    if timer.started_ns is not None:
        return timer
    return dataclasses.replace(timer, started_ns=t_ns)


def pause(timer: GameTimer, reason: str, t_ns: int) -> GameTimer:
    """Stop counting game time (no-op when already paused)."""
    if timer.paused_since is not None:
        return timer
    return dataclasses.replace(timer, paused_since=t_ns, reason=reason)


def resume(timer: GameTimer, t_ns: int) -> GameTimer:
    """Count game time again (no-op when not paused)."""
    if timer.paused_since is None:
        return timer
    gap = t_ns - timer.paused_since
    return dataclasses.replace(
        timer, paused_since=None, reason=None, paused_ns=timer.paused_ns + gap
    )


def stop(timer: GameTimer, t_ns: int) -> GameTimer:
    """The time limit no longer applies (a pot-out, 8; the game is over)."""
    return dataclasses.replace(timer, stopped_ns=t_ns)


def extend(timer: GameTimer, ns: int) -> GameTimer:
    """Lengthen the limit (9(a): time deliberately wasted)."""
    return dataclasses.replace(timer, limit_ns=timer.limit_ns + ns)


def elapsed(timer: GameTimer, t_ns: int) -> int:
    """Game time counted by ``t_ns``."""
    if timer.started_ns is None:
        return 0
    end = t_ns if timer.stopped_ns is None else min(t_ns, timer.stopped_ns)
    if timer.paused_since is not None:
        end = min(end, timer.paused_since)
    return max(0, end - timer.started_ns - timer.paused_ns)


def at_elapsed(timer: GameTimer, game_ns: int) -> int | None:
    """The ``mono_ns`` at which game time reaches ``game_ns``, if it is running."""
    if timer.started_ns is None or timer.paused_since is not None or timer.stopped_ns is not None:
        return None
    return timer.started_ns + timer.paused_ns + game_ns


def expiry(timer: GameTimer) -> int | None:
    """When the time limit runs out, if game time is running."""
    return at_elapsed(timer, timer.limit_ns)


def paused(timer: GameTimer) -> str | None:
    """Why game time is stopped, or None."""
    return timer.reason
