"""Time controls: seats, modes, stages, and the ``[clock]`` TOML table.

A :class:`TimeControl` is one or more :class:`Stage` objects played in order;
a player moves to the next stage after completing the current stage's
``moves`` (as a DGT 3000 does at move 40 of "90 min/40 moves + 30 min").

>>> tc = TimeControl.parse(Table({"mode": "simple_delay", "base_s": 1800, "delay_s": 12},
...                              "t.toml", "[clock]"))
>>> tc.describe()
'30 min with a 12 s simple delay per move'
>>> TimeControl.sudden_death(20 * 60_000, count_past_zero=True).describe()
'20 min sudden death, counting on past zero'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from controller.strict import Table

MS_PER_S = 1000
MAX_MS = 24 * 3600 * MS_PER_S
"""No stage, delay or period is longer than a day: a larger value is a typo."""


class Seat(StrEnum):
    """A physical side of the clock; a match maps its players to seats."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Seat:
        """The opposite seat.

        >>> Seat.LEFT.other
        <Seat.RIGHT: 'right'>
        """
        return Seat.RIGHT if self is Seat.LEFT else Seat.LEFT


class Mode(StrEnum):
    """How a stage treats each move's time (see ``docs/clocks.md``)."""

    SUDDEN_DEATH = "sudden_death"  # the time runs down, nothing is added
    FISCHER = "fischer"  # increment added after each move (FIDE 6.3.2)
    BRONSTEIN = "bronstein"  # after each move, adds back min(delay, time used)
    SIMPLE_DELAY = "simple_delay"  # US delay: the main time waits out the delay first
    HOURGLASS = "hourglass"  # the time one player uses goes to the other
    BYO_YOMI = "byo_yomi"  # main time, then periods: a move within a period resets it


_MODE_FIELDS: dict[Mode, frozenset[str]] = {
    Mode.SUDDEN_DEATH: frozenset(),
    Mode.FISCHER: frozenset({"increment_ms"}),
    Mode.BRONSTEIN: frozenset({"delay_ms"}),
    Mode.SIMPLE_DELAY: frozenset({"delay_ms"}),
    Mode.HOURGLASS: frozenset(),
    Mode.BYO_YOMI: frozenset({"periods", "period_ms"}),
}


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a time control.

    ``base_ms`` is added to a player's time when the player enters the stage
    (the first stage: at the start). ``moves`` is how many moves complete the
    stage (None: the rest of the game). Fields a mode does not use must be 0.

    >>> Stage(Mode.FISCHER, 90 * 60_000, moves=40, increment_ms=30_000).moves
    40
    >>> Stage(Mode.SUDDEN_DEATH, 60_000, delay_ms=5)
    Traceback (most recent call last):
    ...
    ValueError: delay_ms is not used by sudden_death: it must be 0, got 5
    """

    mode: Mode
    base_ms: int
    moves: int | None = None
    increment_ms: int = 0
    delay_ms: int = 0
    periods: int = 0
    period_ms: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.base_ms <= MAX_MS:
            raise ValueError(f"base time must be 0 to {MAX_MS} ms, got {self.base_ms}")
        if self.moves is not None and self.moves < 1:
            raise ValueError(f"moves must be at least 1, got {self.moves}")
        used = _MODE_FIELDS[self.mode]
        for name in ("increment_ms", "delay_ms", "periods", "period_ms"):
            value = getattr(self, name)
            if name not in used and value != 0:
                raise ValueError(f"{name} is not used by {self.mode}: it must be 0, got {value}")
            if not 0 <= value <= MAX_MS:
                raise ValueError(f"{name} must be 0 to {MAX_MS}, got {value}")
        if self.mode is Mode.BYO_YOMI and (self.periods < 1 or self.period_ms < 1):
            raise ValueError("byo-yomi needs at least 1 period of at least 1 ms")

    def describe(self) -> str:
        """This stage in words.

        >>> Stage(Mode.BYO_YOMI, 3_600_000, periods=5, period_ms=30_000).describe()
        '60 min then 5 x 30 s byo-yomi'
        """
        base = format_ms(self.base_ms)
        if self.moves is not None:
            base += f" for {self.moves} moves"
        match self.mode:
            case Mode.SUDDEN_DEATH:
                return f"{base} sudden death"
            case Mode.FISCHER:
                return f"{base} + {format_ms(self.increment_ms)} Fischer increment per move"
            case Mode.BRONSTEIN:
                return f"{base} with a {format_ms(self.delay_ms)} Bronstein delay per move"
            case Mode.SIMPLE_DELAY:
                return f"{base} with a {format_ms(self.delay_ms)} simple delay per move"
            case Mode.HOURGLASS:
                return f"{base} hourglass"
            case Mode.BYO_YOMI:
                return f"{base} then {self.periods} x {format_ms(self.period_ms)} byo-yomi"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """The stages in order, and whether time counts on past zero.

    ``count_past_zero``: when a flag falls the running clock keeps going into
    negative time (Tantrix, an overtime policy); otherwise it stops at 0, as
    a DGT 3000 does in its FIDE modes.
    """

    stages: tuple[Stage, ...]
    count_past_zero: bool = False

    def __post_init__(self) -> None:
        if not self.stages:
            raise ValueError("a time control needs at least one stage")
        if self.stages[-1].moves is not None:
            raise ValueError("the last stage must last the rest of the game (no moves)")
        if any(stage.moves is None for stage in self.stages[:-1]):
            raise ValueError("every stage but the last needs a number of moves")
        if any(stage.mode is Mode.BYO_YOMI for stage in self.stages[:-1]):
            raise ValueError("byo-yomi can only be the last stage")

    @classmethod
    def sudden_death(cls, base_ms: int, *, count_past_zero: bool = False) -> TimeControl:
        """One sudden-death stage (Tantrix: 20 minutes, counting on past zero)."""
        return cls((Stage(Mode.SUDDEN_DEATH, base_ms),), count_past_zero)

    @classmethod
    def parse(cls, table: Table) -> TimeControl:
        """A ``[clock]`` table: one stage inline, or ``[[clock.stage]]`` tables.

        Times are in seconds (``base_s``, ``increment_s``, ``delay_s``,
        ``period_s``), kept to the millisecond. ``table.finish()`` is called.
        """
        past_zero = table.boolean("count_past_zero", False)
        if table.has("stage"):
            stray = [k for k in table.names() if k not in ("stage", "count_past_zero")]
            if stray:
                raise table.fail(stray[0], "give stages as [[clock.stage]] tables, or none")
            entries = list(table.tables("stage"))
            if not entries:
                raise table.fail("stage", "needs at least one stage")
            stages = tuple(_stage_of(table, index, item) for index, item in entries)
        else:
            stages = (_stage(table),)
        table.finish()
        try:
            return cls(stages, past_zero)
        except ValueError as exc:
            raise table.fail("stage" if table.has("stage") else None, str(exc)) from None

    def describe(self) -> str:
        """The whole control in words (for logs, ``check-config`` and rulings)."""
        text = ", then ".join(stage.describe() for stage in self.stages)
        return text + (", counting on past zero" if self.count_past_zero else "")

    def to_json(self) -> dict[str, Any]:
        """The control as the ``[clock]`` table that parses back to it.

        >>> tc = TimeControl((Stage(Mode.FISCHER, 5_400_000, 40, increment_ms=30_000),
        ...                   Stage(Mode.FISCHER, 1_800_000, increment_ms=30_000)))
        >>> TimeControl.parse(Table(tc.to_json(), "x", "[clock]")) == tc
        True
        """
        stages = [_stage_json(stage) for stage in self.stages]
        out: dict[str, Any] = {"count_past_zero": self.count_past_zero}
        if len(stages) == 1:
            return out | stages[0]
        return out | {"stage": stages}


def _stage_json(stage: Stage) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": stage.mode.value, "base_s": stage.base_ms / MS_PER_S}
    if stage.moves is not None:
        out["moves"] = stage.moves
    for name in sorted(_MODE_FIELDS[stage.mode]):
        value = getattr(stage, name)
        out[name.replace("_ms", "_s")] = value / MS_PER_S if name.endswith("_ms") else value
    return out


def _ms(table: Table, key: str) -> int:
    """A required duration in seconds, as whole ms."""
    seconds: float = table.number(key, minimum=0.0, maximum=MAX_MS / MS_PER_S)
    return round(seconds * MS_PER_S)


def _stage_of(parent: Table, index: int, item: Mapping[str, Any]) -> Stage:
    # The parent's error class (a ConfigError, a ScenarioError) for the stage too.
    error = type(parent.fail(None, ""))
    where = f"{parent.where} stage {index}"
    return _stage(Table(dict(item), parent.source, where, error), finish=True)


def _stage(table: Table, *, finish: bool = False) -> Stage:
    """One stage's keys (shared by the inline form and ``[[clock.stage]]``)."""
    mode: Mode = table.choice("mode", Mode)
    used = _MODE_FIELDS[mode]
    values: dict[str, int] = {}
    for name in ("increment_ms", "delay_ms", "period_ms"):
        key = name.replace("_ms", "_s")
        if name in used:
            values[name] = _ms(table, key)
        elif table.has(key):
            raise table.fail(key, f"not used by mode {mode.value!r}")
    if "periods" in used:
        values["periods"] = table.integer("periods", minimum=1)
    elif table.has("periods"):
        raise table.fail("periods", f"not used by mode {mode.value!r}")
    moves = table.integer("moves", None, minimum=1)
    base = _ms(table, "base_s")
    if finish:
        table.finish()
    try:
        return Stage(mode, base, moves, **values)
    except ValueError as exc:
        raise table.fail(None, str(exc)) from None


def format_ms(ms: int) -> str:
    """A duration for people: whole minutes as minutes, else seconds.

    >>> format_ms(1_200_000), format_ms(90_000), format_ms(12_000), format_ms(1_500)
    ('20 min', '1 min 30 s', '12 s', '1.5 s')
    >>> format_ms(-61_000)
    '-1 min 1 s'
    """
    if ms < 0:
        return "-" + format_ms(-ms)
    minutes, rest = divmod(ms, 60_000)
    seconds = f"{rest / MS_PER_S:g} s"
    if not minutes:
        return seconds
    return f"{minutes} min" + (f" {seconds}" if rest else "")
