"""``[[expect]]`` tables of a scenario file, and checking rulings against them.

Each expect names ruling fields to compare; absent fields are not compared.
TOML has no null, so ``""`` stands for null (``to = ""``). The rulings are
walked in order: a ruling that matches the next pending expect consumes it; a
notice that does not is skipped; any other ruling that does not is a failure,
as is an expect left over at the end. So the expects list every non-notice
ruling in order, and only the notices a test cares about.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.model import JSON, RulingKind
from controller.strict import Table

_STRINGS = ("kind", "rule", "against", "to", "winner", "overrules", "id", "detail", "replaced_with")
_NULLABLE = frozenset({"rule", "against", "to", "winner", "overrules"})
_AT_TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Expect:
    """One ``[[expect]]`` table: the fields a ruling must have."""

    index: int
    want: tuple[tuple[str, JSON], ...]

    def matches(self, ruling: Mapping[str, Any]) -> bool:
        """Whether ``ruling`` (its JSON dict) has every wanted field."""
        for key, value in self.want:
            got = ruling.get(key)
            if key == "at":
                if not isinstance(got, int | float) or not isinstance(value, int | float):
                    return False
                if abs(got - value) > _AT_TOLERANCE:
                    return False
            elif key == "score":
                if not isinstance(got, dict) or not isinstance(value, dict):
                    return False
                if {k: float(v) for k, v in got.items()} != value:
                    return False
            elif got != value:
                return False
        return True

    def describe(self) -> str:
        """The expect as ``key=value`` pairs, for messages."""
        return " ".join(f"{k}={json.dumps(v)}" for k, v in self.want)


def parse_expect(table: Table, index: int) -> Expect:
    """Read one ``[[expect]]`` table strictly."""
    want: list[tuple[str, JSON]] = []
    for key in _STRINGS:
        if table.has(key):
            value: str = table.string(key)
            want.append((key, None if value == "" and key in _NULLABLE else value))
    if table.has("kind"):
        allowed = {k.value for k in RulingKind}
        kind = dict(want)["kind"]
        if kind not in allowed:
            raise table.fail(
                "kind", f"{kind!r} is not a ruling kind ({', '.join(sorted(allowed))})"
            )
    if table.has("seq"):
        want.append(("seq", table.integer("seq", minimum=1)))
    if table.has("at"):
        want.append(("at", table.number("at", minimum=0.0)))
    score = table.table("score", optional=True)
    if score is not None:
        want.append(("score", _score(score)))
    table.finish()
    if not want:
        raise table.fail(None, "an expect must name at least one field")
    return Expect(index=index, want=tuple(want))


def _score(table: Table) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for player in table.names():  # a score table's keys are player ids
        out[player] = table.number(player)
    table.finish()
    return out


def check(expects: Sequence[Expect], rulings: Sequence[Mapping[str, Any]]) -> list[str]:
    """The failures (empty when every expect is met), each one sentence."""
    pending = list(expects)
    for ruling in rulings:
        if pending and pending[0].matches(ruling):
            pending.pop(0)
        elif ruling.get("kind") != RulingKind.NOTICE.value:
            said = _brief(ruling)
            if not pending:
                return [f"unexpected ruling after every expect was met: {said}"]
            want = pending[0]
            return [f"expect {want.index} ({want.describe()}) does not match ruling {said}"]
    return [f"expect {e.index} ({e.describe()}) was never met" for e in pending[:1]]


def _brief(ruling: Mapping[str, Any]) -> str:
    keys = ("seq", "kind", "rule", "against", "to", "score", "at")
    return json.dumps({k: ruling.get(k) for k in keys}, separators=(",", ":"))
