"""The interface every game engine implements.

An engine is pure: ``step(state, event) -> (state, decisions)`` over frozen
dataclasses, with no I/O, no clock, no threads and no logging. Timers are
events too: the runtime asks :meth:`Engine.deadline` when the engine next
needs waking and delivers a :class:`~controller.model.Tick` then.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from controller.model import JSON, Decision, Event, Game

S = TypeVar("S")


class Engine(Protocol[S]):
    """A game's rules as a pure state machine.

    Example, with the Heads & Tails engine::

        engine = HeadsAndTailsEngine()
        state = engine.start(settings)
        state, decisions = engine.step(state, Go(t_ns=0))
        engine.deadline(state)   # 30_000_000_000: the toss window closes
    """

    @property
    def game(self) -> Game:
        """Which game this engine referees."""
        ...

    def step(self, state: S, event: Event) -> tuple[S, tuple[Decision, ...]]:
        """Apply one event; return the new state and what was decided."""
        ...

    def deadline(self, state: S) -> int | None:
        """The ``mono_ns`` time at which the engine wants a Tick, if any."""
        ...

    def is_over(self, state: S) -> bool:
        """True once the match has a result."""
        ...

    def snapshot(self, state: S) -> dict[str, JSON]:
        """The whole current game state as JSON (the retained ``state`` topic)."""
        ...
