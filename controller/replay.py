"""Rebuilding a table from its journal: the same engine, the same inputs,
the same rulings. Used on restart and by ``tableref replay``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from controller.errors import TablerefError
from controller.games.heads_and_tails import HeadsAndTailsEngine, State
from controller.games.heads_and_tails.codec import decode, decode_match
from controller.model import Ruling
from controller.runtime import RulingSink, Runtime

NEW_MATCH = "new_match"


class ReplayError(TablerefError):
    """The journal cannot be replayed, or replaying it gave other rulings."""


class JournaledInput(Protocol):
    """What replay needs of a journal row."""

    @property
    def id(self) -> int: ...
    @property
    def boot(self) -> int: ...
    @property
    def t_ns(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any]: ...


def rebuild(
    inputs: Iterable[JournaledInput],
    table: str,
    source: str,
    sinks: Sequence[RulingSink] = (),
) -> Runtime[State] | None:
    """Feed journaled inputs through a fresh engine; None for an empty journal."""
    engine = HeadsAndTailsEngine()
    runtime: Runtime[State] | None = None
    for row in inputs:
        where = f"journal input {row.id} ({row.kind})"
        if row.kind == NEW_MATCH:
            settings = decode_match(row.payload.get("match"), source, where)
            if runtime is None:
                runtime = Runtime(
                    engine,
                    engine.start(settings),
                    table=table,
                    boot=row.boot,
                    origin_ns=row.t_ns,
                    ruling_sinks=sinks,
                )
            else:
                runtime.new_match(engine.start(settings), row.t_ns)
            continue
        if runtime is None:
            raise ReplayError(f"{source}: {where}: comes before any {NEW_MATCH}")
        runtime.boot = row.boot
        event = decode(
            row.kind, row.payload, row.t_ns, runtime.state.settings, source=source, where=where
        )
        runtime.feed(event)
    return runtime


def compare(replayed: Sequence[Ruling], journaled: Sequence[dict[str, Any]], source: str) -> None:
    """Raise :class:`ReplayError` unless replay gave the journaled rulings."""
    for got, want in zip(replayed, journaled, strict=False):
        if got.to_json_dict() != want:
            raise ReplayError(
                f"{source}: replay diverged at ruling {want.get('id')}: "
                f"journaled {want}, replayed {got.to_json_dict()}"
            )
    if len(replayed) != len(journaled):
        raise ReplayError(
            f"{source}: replay gave {len(replayed)} rulings, the journal holds {len(journaled)}"
        )
