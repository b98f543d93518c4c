"""Commands on ``cmd/<verb>``: validated, then applied like any other input.

A command payload is a JSON object with a ``cmd_id`` and the fields of the
matching scenario input (``contracts.md`` section 2), for example
``cmd/call {"cmd_id": "c7", "player": "ben", "call": "heads"}``. Each game
names its verbs (:attr:`GameModule.verbs`): Heads & Tails gives the spotter's
decisions verbs of their own (``invalid``, ``let``, ``fault``,
``overrule``). ``new_match`` takes a ``match`` object (a scenario's
``[match]`` table) and ``end_match`` an optional ``reason``.

Every command gets a ``cmd/result``: ``{"cmd_id", "ok", "error"}`` and the ids
of the rulings it produced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from controller.errors import InputError, TablerefError
from controller.gamemodule import GameModule
from controller.model import JSON

MATCH_VERBS = frozenset({"new_match", "end_match"})
MAX_CMD_ID = 128


class CommandError(TablerefError):
    """A command that is refused; nothing was changed."""

    def __init__(self, cmd_id: str | None, reason: str) -> None:
        self.cmd_id = cmd_id
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed command: ``kind`` and ``fields`` are an input's type and payload."""

    verb: str
    cmd_id: str
    kind: str
    fields: dict[str, Any]


def _cmd_id(doc: dict[str, Any]) -> str:
    cmd_id = doc.pop("cmd_id", None)
    if not isinstance(cmd_id, str) or not cmd_id or len(cmd_id) > MAX_CMD_ID:
        raise CommandError(
            None if not isinstance(cmd_id, str) else cmd_id[:MAX_CMD_ID],
            f"'cmd_id' must be a non-empty string of at most {MAX_CMD_ID} characters",
        )
    return cmd_id


def parse_command(verb: str, raw: bytes, max_bytes: int, module: GameModule[Any, Any]) -> Command:
    """Check a command's size, JSON, verb and ``cmd_id``; fields are checked
    later, against the match, by the input decoder.

    >>> from controller.games.registry import module_for
    >>> from controller.model import Game
    >>> hat = module_for(Game.HEADS_AND_TAILS)
    >>> parse_command("call", b'{"cmd_id": "c1", "player": "ben", "call": "heads"}', 4096, hat).kind
    'call'
    """
    if len(raw) > max_bytes:
        raise CommandError(None, f"payload of {len(raw)} bytes is over the {max_bytes}-byte limit")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CommandError(None, f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise CommandError(None, "the payload must be a JSON object")
    cmd_id = _cmd_id(doc)
    verbs = module.verbs | MATCH_VERBS
    if verb not in verbs:
        known = ", ".join(sorted(verbs))
        raise CommandError(cmd_id, f"unknown verb {verb!r} (known: {known})")
    if verb in MATCH_VERBS:
        return Command(verb, cmd_id, verb, doc)
    try:
        kind, fields = module.command(verb, doc)
    except InputError as exc:
        raise CommandError(cmd_id, str(exc)) from None
    return Command(verb, cmd_id, kind, fields)


def result(cmd_id: str | None, error: str | None, rulings: list[str] | None = None) -> str:
    """The ``cmd/result`` payload."""
    doc: dict[str, JSON] = {"cmd_id": cmd_id, "ok": error is None, "error": error}
    doc["rulings"] = list(rulings or [])
    return json.dumps(doc, separators=(",", ":"))
