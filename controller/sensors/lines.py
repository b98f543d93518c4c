"""The sensor lines of a table as the config names them: role, pin, kind, polarity.

A line is known everywhere by its *role* (``"fault_a"``, ``"call_heads"``),
never by its pin: only the GPIO backend ever sees a pin number. The ``[sensors]``
table of the config is read here, strictly, with the same :class:`~controller.strict.Table`
as the rest of the config, so every error names the file, the table and the key.

>>> from controller.strict import Table
>>> settings = parse_sensors(Table({"line": [
...     {"role": "fault_a", "pin": 17, "kind": "beam", "active": "high"},
...     {"role": "call_heads", "pin": 5},
... ]}, "t.toml", "[sensors]"))
>>> [(line.role.value, line.pin, line.kind.value) for line in settings.lines]
[('fault_a', 17, 'beam'), ('call_heads', 5, 'button')]
>>> settings.line("call_heads").is_active(False)  # buttons default to active low
True

The game clock's lines are ``clock_left`` and ``clock_right`` (the players'
buttons) and ``clock_pause`` (a latching switch: the clock is paused while it
is on, so a switch left on for a long break is not a stuck button). A
tiddlywinks table's ``shot`` button tells its mat camera that a shot has ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from controller.errors import InputError
from controller.strict import Table
from controller.timebase import seconds_to_ns

BCM_PINS = range(28)
"""The GPIO pins on the 40-pin header, in BCM numbering."""

FIXED_PULL_UP_PINS = frozenset({2, 3})
"""I2C pins with 1.8 kOhm pull-ups soldered on the board: no other pull is possible."""

DEFAULT_LOCKOUT_MS = 15
DEFAULT_CLOCK_REORDER_MS = 5
CLOCK_REORDER_RANGE_MS = (0, 50)
"""A clock table holds each press this long so that an edge of the other
button delivered a little late still goes first when it came first."""
LOCKOUT_RANGE_MS = (1, 200)
DEFAULT_BEAM_BLOCKED_S = 2.0
BEAM_BLOCKED_RANGE_S = (0.1, 60.0)
DEFAULT_BUTTON_STUCK_S = 10.0
BUTTON_STUCK_RANGE_S = (1.0, 3600.0)


class PinFactory(StrEnum):
    """The gpiozero pin factories tableref drives; values are gpiozero's names."""

    LGPIO = "lgpio"  # kernel edge timestamps (CLOCK_MONOTONIC); the Pi 5 path
    RPIGPIO = "rpigpio"  # Pi 4 and older only; timestamps are callback time
    NATIVE = "native"  # gpiozero's pure-Python fallback; timestamps are poll time
    MOCK = "mock"  # no hardware: wiring tests and demos on any machine


class LineKind(StrEnum):
    """What is on the line: decides debouncing and health thresholds."""

    BEAM = "beam"  # a light gate: never debounced, a 0.3 ms break is a coin
    BUTTON = "button"  # a push button: first edge is the press, then a lockout
    SWITCH = "switch"  # a latching switch: debounced like a button, may stay on for hours


class Active(StrEnum):
    """The electrical level meaning "beam broken" or "button pressed"."""

    LOW = "low"
    HIGH = "high"


class Pull(StrEnum):
    """The Pi's internal bias resistor on the line."""

    UP = "up"
    DOWN = "down"
    NONE = "none"  # an external resistor or a driven output (a receiver module)


class Role(StrEnum):
    """What a line is for; the ``line`` of every :class:`EdgeEvent` it produces."""

    START_A = "start_a"  # start-line gate (first beam)
    START_B = "start_b"  # start-line gate, second beam of a pair (direction, speed)
    FAULT_A = "fault_a"  # fault-line gate (first beam)
    FAULT_B = "fault_b"  # fault-line gate, second beam of a pair
    CALL_HEADS = "call_heads"  # call pad: the caller presses "heads"
    CALL_TAILS = "call_tails"  # call pad: the caller presses "tails"
    CLOCK_LEFT = "clock_left"  # game clock, left player's button
    CLOCK_RIGHT = "clock_right"  # game clock, right player's button
    CLOCK_PAUSE = "clock_pause"  # game clock pause switch: the clock is paused while it is on
    SHOT = "shot"  # tiddlywinks: the player's shot button, "the shot has ended" (needs a camera)

    @property
    def kind(self) -> LineKind:
        """The kind of line this role needs."""
        if self in _SWITCH_ROLES:
            return LineKind.SWITCH
        return LineKind.BEAM if self in _BEAM_ROLES else LineKind.BUTTON

    @property
    def partner(self) -> Role | None:
        """The first beam a second beam pairs with (``start_b`` -> ``start_a``)."""
        return _SECOND_BEAMS.get(self)


_BEAM_ROLES = frozenset({Role.START_A, Role.START_B, Role.FAULT_A, Role.FAULT_B})
_SECOND_BEAMS = {Role.START_B: Role.START_A, Role.FAULT_B: Role.FAULT_A}
_SWITCH_ROLES = frozenset({Role.CLOCK_PAUSE})
CONTACT_KINDS = frozenset({LineKind.BUTTON, LineKind.SWITCH})
"""Lines with a mechanical contact: debounced by first edge and lockout."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LineConfig:
    """One configured input line.

    >>> line = LineConfig(role=Role.FAULT_A, pin=17, kind=LineKind.BEAM,
    ...                   active=Active.HIGH, pull=Pull.UP)
    >>> line.is_active(True), line.idle_level
    (True, False)
    """

    role: Role
    pin: int
    kind: LineKind
    active: Active
    pull: Pull

    @property
    def active_level(self) -> bool:
        """The electrical level (True = high) of a broken beam or pressed button."""
        return self.active is Active.HIGH

    @property
    def idle_level(self) -> bool:
        """The level of a clear beam or a released button."""
        return not self.active_level

    def is_active(self, level: bool) -> bool:
        """Whether ``level`` means broken (beam) or pressed (button)."""
        return level == self.active_level


@dataclass(frozen=True, slots=True, kw_only=True)
class SensorSettings:
    """The ``[sensors]`` table: the pin factory, timings and the lines.

    ``pin_factory`` is None when the config leaves it out: the GPIO backend then
    takes ``$GPIOZERO_PIN_FACTORY``, else lgpio.

    >>> SensorSettings().lockout_ns, SensorSettings().beam_blocked_ns
    (15000000, 2000000000)
    """

    pin_factory: PinFactory | None = None
    button_lockout_ms: int = DEFAULT_LOCKOUT_MS
    button_stuck_s: float = DEFAULT_BUTTON_STUCK_S
    beam_blocked_s: float = DEFAULT_BEAM_BLOCKED_S
    clock_reorder_ms: int = DEFAULT_CLOCK_REORDER_MS
    lines: tuple[LineConfig, ...] = ()

    @property
    def lockout_ns(self) -> int:
        """The button lockout in ``mono_ns``."""
        return self.button_lockout_ms * 1_000_000

    @property
    def clock_reorder_ns(self) -> int:
        """How long a clock table holds a press for an earlier edge to arrive."""
        return self.clock_reorder_ms * 1_000_000

    @property
    def button_stuck_ns(self) -> int:
        """How long a button may be held before it counts as stuck."""
        return seconds_to_ns(self.button_stuck_s)

    @property
    def beam_blocked_ns(self) -> int:
        """How long a beam may stay broken outside a toss."""
        return seconds_to_ns(self.beam_blocked_s)

    def line(self, role: str) -> LineConfig | None:
        """The line with this role, or None when it is not wired."""
        return next((line for line in self.lines if line.role == role), None)

    def by_role(self) -> Mapping[str, LineConfig]:
        """Every line keyed by its role's string."""
        return {line.role.value: line for line in self.lines}


def parse_sensors(table: Table | None, error: type[InputError] = InputError) -> SensorSettings:
    """Read the ``[sensors]`` table (None when the config has none).

    ``error`` is the error class the config raises (its :class:`ConfigError`).
    """
    if table is None:
        return SensorSettings()
    factory: PinFactory | None = table.choice("pin_factory", PinFactory, None)
    lockout: int = table.integer("button_lockout_ms", DEFAULT_LOCKOUT_MS, minimum=1)
    _at_most(table, "button_lockout_ms", lockout, LOCKOUT_RANGE_MS[1])
    stuck: float = table.number("button_stuck_s", DEFAULT_BUTTON_STUCK_S, minimum=1.0)
    _at_most(table, "button_stuck_s", stuck, BUTTON_STUCK_RANGE_S[1])
    low, high = BEAM_BLOCKED_RANGE_S
    blocked: float = table.number("beam_blocked_s", DEFAULT_BEAM_BLOCKED_S, minimum=low)
    _at_most(table, "beam_blocked_s", blocked, high)
    reorder: int = table.integer("clock_reorder_ms", DEFAULT_CLOCK_REORDER_MS, minimum=0)
    _at_most(table, "clock_reorder_ms", reorder, CLOCK_REORDER_RANGE_MS[1])
    lines: list[LineConfig] = []
    for index, item in table.tables("line"):
        line_table = Table(dict(item), table.source, f"[[sensors.line]] {index}", error)
        lines.append(_line(line_table, lines))
    _check_pairs(table, lines)
    table.finish()
    return SensorSettings(
        pin_factory=factory,
        button_lockout_ms=lockout,
        button_stuck_s=stuck,
        beam_blocked_s=blocked,
        clock_reorder_ms=reorder,
        lines=tuple(lines),
    )


def _at_most(table: Table, key: str, value: float, maximum: float) -> None:
    if value > maximum:
        raise table.fail(key, f"must be at most {maximum:g}, got {value:g}")


def _line(table: Table, earlier: list[LineConfig]) -> LineConfig:
    """One ``[[sensors.line]]`` entry, checked against the entries before it."""
    role: Role = table.choice("role", Role)
    if any(line.role is role for line in earlier):
        raise table.fail("role", f"{role.value!r} is wired twice: roles must be unique")
    pin: int = table.integer("pin", minimum=BCM_PINS.start)
    if pin not in BCM_PINS:
        raise table.fail("pin", f"BCM pin {pin} is not on the header (0 to {BCM_PINS[-1]})")
    user = next((line for line in earlier if line.pin == pin), None)
    if user is not None:
        raise table.fail("pin", f"pin {pin} is already used by {user.role.value!r}")
    kind: LineKind = table.choice("kind", LineKind, role.kind.value)
    if kind is not role.kind:
        raise table.fail("kind", f"role {role.value!r} is a {role.kind.value} line, not {kind}")
    # Beam receivers differ (some pull low when they see the light, some high):
    # a guess would read every idle beam as broken, so beam lines must say.
    if kind in CONTACT_KINDS:
        active: Active = table.choice("active", Active, Active.LOW.value)
    else:
        active = table.choice("active", Active)
    pull: Pull = table.choice("pull", Pull, Pull.UP.value)
    table.finish()
    line = LineConfig(role=role, pin=pin, kind=kind, active=active, pull=pull)
    _check_pull(table, line)
    return line


def _check_pull(table: Table, line: LineConfig) -> None:
    if line.pin in FIXED_PULL_UP_PINS and line.pull is not Pull.UP:
        raise table.fail("pull", f"pin {line.pin} has a fixed pull-up on the board: use 'up'")
    # A button that shorts the line to the level the pull already holds it at
    # can never be seen: a wiring or config slip.
    pulled_to_active = (line.pull is Pull.UP and line.active is Active.HIGH) or (
        line.pull is Pull.DOWN and line.active is Active.LOW
    )
    if line.kind in CONTACT_KINDS and pulled_to_active:
        need = "down" if line.active is Active.HIGH else "up"
        raise table.fail(
            "pull",
            f"a button active {line.active} is never seen with pull {line.pull}: "
            f"use pull = {need!r} (or 'none' with an external resistor)",
        )


def _check_pairs(table: Table, lines: list[LineConfig]) -> None:
    roles = {line.role for line in lines}
    for line in lines:
        partner = line.role.partner
        if partner is not None and partner not in roles:
            raise table.fail(
                "line", f"{line.role.value!r} is the second beam of a pair: wire {partner} too"
            )
