"""The one error hierarchy of tableref.

Player mistakes are rulings, never exceptions. These are for input that is
malformed (a config, a scenario file, a command) or a part that failed.
"""

from __future__ import annotations


class TablerefError(Exception):
    """Base of every error tableref raises on purpose."""


class InputError(TablerefError):
    """Malformed input: names where it came from, what is wrong and why.

    >>> str(InputError("match.toml", "input 3 (call)", "call", "expected a string"))
    "match.toml: input 3 (call): field 'call': expected a string"
    """

    def __init__(self, source: str, where: str, field: str | None, reason: str) -> None:
        self.source = source
        self.where = where
        self.field = field
        self.reason = reason
        parts = [source]
        if where:
            parts.append(where)
        if field is not None:
            parts.append(f"field '{field}'")
        parts.append(reason)
        super().__init__(": ".join(parts))


class ScenarioError(InputError):
    """A scenario file that cannot be run as written."""


class RejectedInput(TablerefError):
    """An input that makes no sense in the current state; nothing was changed."""
