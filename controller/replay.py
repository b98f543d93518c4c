"""Rebuilding a table from its journal: the same engine, the same inputs,
the same rulings. Used on restart and by ``tableref replay``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from controller.errors import TablerefError
from controller.gamemodule import GameModule, decode, decode_match
from controller.games.registry import module_for
from controller.model import Game, Ruling
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


def new_match_payload(module: GameModule[Any, Any], settings: Any) -> dict[str, Any]:
    """The journaled payload of a new match: its game and its ``[match]`` table."""
    return {"game": module.game.value, "match": module.encode_match(settings)}


def _game(row: JournaledInput, source: str, where: str) -> GameModule[Any, Any]:
    """The game of a new-match row; journals from before there were several
    games have no ``game`` field and are Heads & Tails."""
    name = row.payload.get("game", Game.HEADS_AND_TAILS.value)
    try:
        return module_for(Game(name))
    except (ValueError, KeyError):
        raise ReplayError(f"{source}: {where}: game {name!r} cannot be replayed here") from None


def rebuild(
    inputs: Iterable[JournaledInput],
    table: str,
    source: str,
    sinks: Sequence[RulingSink] = (),
) -> Runtime[Any] | None:
    """Feed journaled inputs through a fresh engine; None for an empty journal.

    Each new match names its game, so the engine is chosen from the journal.
    """
    runtime: Runtime[Any] | None = None
    module: GameModule[Any, Any] | None = None
    for row in inputs:
        where = f"journal input {row.id} ({row.kind})"
        if row.kind == NEW_MATCH:
            module = _game(row, source, where)
            engine = module.engine()
            settings = decode_match(module, row.payload.get("match"), source, where)
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
                runtime.new_match(engine.start(settings), row.t_ns, engine)
            continue
        if runtime is None or module is None:
            raise ReplayError(f"{source}: {where}: comes before any {NEW_MATCH}")
        runtime.boot = row.boot
        settings = module.settings(runtime.state)
        event = decode(
            module, row.kind, row.payload, row.t_ns, settings, source=source, where=where
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
