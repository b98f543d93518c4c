"""The runtime loop: one owner of all state, fed by one source of events.

The same loop runs a live table (events from a queue, the real clock) and the
headless harness (events from a scenario, simulated time): the source decides
how waiting works, the loop decides nothing but the order of events and ticks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Generic, Protocol, TypeVar

from controller.engine import Engine
from controller.errors import RejectedInput
from controller.model import LAST, Decision, Event, Ruling, RulingTarget, Tick
from controller.timebase import ns_to_seconds

S = TypeVar("S")

RulingSink = Callable[[Ruling], None]
EventSink = Callable[[Event], None]


class Wait(Enum):
    """Why :meth:`EventSource.wait` returned without an event."""

    DEADLINE = "deadline"
    END = "end"


class EventSource(Protocol):
    """Where the runtime's events come from."""

    def wait(self, deadline_ns: int | None) -> Event | Wait:
        """The next event, or ``Wait.DEADLINE`` once ``deadline_ns`` is reached
        with no event before it, or ``Wait.END`` when no event will come and
        there is no deadline to wait for. A simulated source advances its
        clock here; a live one blocks."""
        ...


def at_origin(engine: Engine[S], state: S, origin_ns: int) -> S:
    """``state`` told when its match starts, for an engine whose rules count
    from it (a Tantrix scheduled start) and so has an ``at_origin(state,
    origin_ns)`` method; other engines' states are returned as they are."""
    hook: Callable[[S, int], S] | None = getattr(engine, "at_origin", None)
    return state if hook is None else hook(state, origin_ns)


class Runtime(Generic[S]):
    """Drives one engine: stamps its decisions into rulings and hands them on.

    ``origin_ns`` is the ``mono_ns`` time of the start of the match; a
    ruling's ``at`` is measured from it. Ids are ``"<table>:<boot>:<seq>"``.
    """

    def __init__(
        self,
        engine: Engine[S],
        state: S,
        *,
        table: str,
        boot: int,
        origin_ns: int,
        next_seq: int = 1,
        ruling_sinks: Sequence[RulingSink] = (),
        event_sinks: Sequence[EventSink] = (),
    ) -> None:
        self.engine = engine
        self.state = at_origin(engine, state, origin_ns)
        self.table = table
        self.boot = boot
        self.origin_ns = origin_ns
        self.next_seq = next_seq
        self.ruling_sinks = list(ruling_sinks)
        self._event_sinks = list(event_sinks)
        self._ids: list[str] = []  # ordinal -> ruling id, this match
        self._ordinals: dict[str, int] = {}
        self._seqs: dict[int, int] = {}

    def deadline(self) -> int | None:
        """When the engine next wants a Tick (``mono_ns``), if ever."""
        return self.engine.deadline(self.state)

    def resolve(self, ref: str | int) -> int:
        """The ordinal of the ruling a user refers to by id or seq number.

        Raises :class:`RejectedInput` when there is no such ruling.
        """
        found = self._seqs.get(ref) if isinstance(ref, int) else self._ordinals.get(ref)
        if found is None:
            raise RejectedInput(f"no ruling {ref!r} in this match")
        return found

    def prepare(self, event: Event) -> Event:
        """``event`` with any reference to a ruling resolved; raises
        :class:`RejectedInput` (and changes nothing) for an unknown one."""
        if isinstance(event, RulingTarget) and event.ordinal is None and event.ref != LAST:
            return dataclasses.replace(event, ordinal=self.resolve(event.ref))
        return event

    def new_match(self, state: S, origin_ns: int, engine: Engine[S] | None = None) -> None:
        """Start another match on this table: seq numbers go on, ids of the
        old match can no longer be referred to. ``engine`` replaces the
        engine when the new match is of another game."""
        if engine is not None:
            self.engine = engine
        self.state = at_origin(self.engine, state, origin_ns)
        self.origin_ns = origin_ns
        self._ids.clear()
        self._ordinals.clear()
        self._seqs.clear()

    def feed(self, event: Event) -> list[Ruling]:
        """Apply one event; returns the rulings it produced (already sunk)."""
        event = self.prepare(event)
        for event_sink in self._event_sinks:
            event_sink(event)
        self.state, decisions = self.engine.step(self.state, event)
        rulings = [self._stamp(d) for d in decisions]
        for ruling in rulings:
            for sink in self.ruling_sinks:
                sink(ruling)
        return rulings

    def run(self, source: EventSource, until_ns: int | None = None) -> None:
        """Feed events and ticks until the source ends or ``until_ns`` passes.

        An input at exactly a deadline is delivered before the Tick, so a toss
        made at 30.000 s is still within a 30 s window.
        """
        while True:
            due = self.deadline()
            limit = due if until_ns is None else until_ns if due is None else min(due, until_ns)
            got = source.wait(limit)
            if got is Wait.END:
                return
            if got is Wait.DEADLINE:
                if due is None or (until_ns is not None and due > until_ns):
                    return
                self.feed(Tick(t_ns=due))
                continue
            self.feed(got)

    def _stamp(self, decision: Decision) -> Ruling:
        if decision.ordinal != len(self._ids):
            raise AssertionError(
                f"engine numbered a decision {decision.ordinal}, expected {len(self._ids)}"
            )
        seq = self.next_seq
        self.next_seq += 1
        rid = f"{self.table}:{self.boot}:{seq}"
        self._ids.append(rid)
        self._ordinals[rid] = decision.ordinal
        self._seqs[seq] = decision.ordinal
        overrules = None if decision.overrules is None else self._ids[decision.overrules]
        return Ruling(
            id=rid,
            seq=seq,
            kind=decision.kind,
            rule=decision.rule,
            game=self.engine.game,
            at=ns_to_seconds(decision.t_ns - self.origin_ns),
            against=decision.against,
            to=decision.to,
            score=decision.score,
            detail=decision.detail,
            overrules=overrules,
            extra=decision.extra,
        )
