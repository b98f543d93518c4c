"""Strict, typed reading of TOML tables: every error names file, place and key.

Used for scenario files and configs alike. Unknown keys are errors (the house
style, after Klipper): a typo in a config must not be silently ignored.

>>> t = Table({"plays": 2, "x": 1}, "m.toml", "[match]")
>>> t.integer("plays", minimum=1)
2
>>> t.finish()
Traceback (most recent call last):
...
controller.errors.InputError: m.toml: [match]: field 'x': unknown key (known: plays)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from controller.errors import InputError

E = TypeVar("E", bound=Enum)
_MISSING: Any = object()

_TYPE_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}


def load_toml(path: Path, error: type[InputError] = InputError) -> dict[str, Any]:
    """Parse a TOML file; a missing file or bad syntax is an ``error``."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise error(str(path), "", None, "no such file") from None
    except IsADirectoryError:
        raise error(str(path), "", None, "is a directory, not a file") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(str(path), "", None, f"not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise error(str(path), "", None, f"not UTF-8 text: {exc}") from None


def _type_name(value: object) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


class Table:
    """One TOML table read strictly: take keys with typed getters, then
    :meth:`finish` to reject the keys nobody asked for."""

    def __init__(
        self,
        data: object,
        source: str,
        where: str,
        error: type[InputError] = InputError,
    ) -> None:
        self.source = source
        self.where = where
        self._error = error
        if not isinstance(data, dict):
            raise error(source, where, None, f"expected a table, got {_type_name(data)}")
        self._data: dict[str, Any] = data
        self._used: set[str] = set()

    def fail(self, key: str | None, reason: str) -> InputError:
        """An error about ``key`` of this table (raise it)."""
        return self._error(self.source, self.where, key, reason)

    def names(self) -> list[str]:
        """Every key the table sets (for tables keyed by data, like a score)."""
        return list(self._data)

    def has(self, key: str) -> bool:
        """Whether the table sets ``key``."""
        return key in self._data

    def _get(self, key: str, default: Any, kinds: tuple[type, ...]) -> Any:
        self._used.add(key)
        if key not in self._data:
            if default is _MISSING:
                raise self.fail(key, "missing")
            return default
        value = self._data[key]
        # bool is an int in Python; TOML keeps them apart, and so do we.
        if isinstance(value, bool) and bool not in kinds:
            value_ok = False
        else:
            value_ok = isinstance(value, kinds)
        if not value_ok:
            want = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise self.fail(key, f"expected {want}, got {_type_name(value)} {value!r}")
        return value

    def string(self, key: str, default: Any = _MISSING) -> Any:
        """A string (``default`` when absent; missing is an error without one)."""
        return self._get(key, default, (str,))

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        """A boolean."""
        return self._get(key, default, (bool,))

    def integer(self, key: str, default: Any = _MISSING, *, minimum: int | None = None) -> Any:
        """An integer, at least ``minimum``."""
        value = self._get(key, default, (int,))
        if value is not None and minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum}, got {value}")
        return value

    def number(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
    ) -> Any:
        """An integer or float, within [minimum, maximum]."""
        value = self._get(key, default, (int, float))
        if value is None:
            return None
        if value != value or value in (float("inf"), float("-inf")):
            raise self.fail(key, f"must be a finite number, got {value}")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum:g}, got {value:g}")
        if maximum is not None and value > maximum:
            raise self.fail(key, f"must be at most {maximum:g}, got {value:g}")
        return float(value)

    def choice(self, key: str, enum: type[E], default: Any = _MISSING) -> Any:
        """One of an enum's values, given as its string."""
        value = self.string(key, default)
        if value is None or isinstance(value, enum):
            return value
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in enum)
            raise self.fail(key, f"{value!r} is not one of {allowed}") from None

    def strings(self, key: str, default: Any = _MISSING) -> Any:
        """A list of strings."""
        value = self._get(key, default, (list,))
        for item in value or ():
            if not isinstance(item, str):
                raise self.fail(key, f"expected a list of strings, found {item!r}")
        return value

    def table(self, key: str, *, optional: bool = False) -> Table | None:
        """A sub-table, read strictly in its turn."""
        self._used.add(key)
        if key not in self._data:
            if optional:
                return None
            raise self.fail(key, "missing")
        return Table(self._data[key], self.source, f"[{key}]", self._error)

    def tables(self, key: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
        """An array of tables (``[[key]]``), with their 1-based index."""
        value = self._get(key, [], (list,))
        for index, item in enumerate(value, start=1):
            if not isinstance(item, dict):
                raise self.fail(key, f"entry {index} is {_type_name(item)}, not a table")
            yield index, item

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """A value of any type, unchecked."""
        self._used.add(key)
        if key not in self._data and default is _MISSING:
            raise self.fail(key, "missing")
        return self._data.get(key, default)

    def finish(self) -> None:
        """Reject every key no getter asked for."""
        unknown = sorted(set(self._data) - self._used)
        if unknown:
            known = ", ".join(sorted(self._used)) or "none"
            raise self.fail(unknown[0], f"unknown key (known: {known})")
