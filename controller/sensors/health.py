"""Sensor health: a line that stays where no coin, hand or finger would leave it.

A coin breaks a beam for milliseconds and a hand for a fraction of a second,
so a beam broken for seconds outside a toss is a fault (something in the gate,
a misaligned or unpowered emitter, a cut wire), and so is a beam that reads
broken the moment the service starts (never seen). A button held for seconds
is stuck. Each of these is a :class:`HealthEvent` with ``ok=False`` naming the
sensor; the line reading idle again is the ``ok=True`` recovery. The engine
turns them into a ``suspended`` ruling: a lost sensor is never silent.

Pure and deterministic: the runtime delivers edges, tells it when a toss is
in flight, and calls :meth:`HealthMonitor.tick` at :meth:`HealthMonitor.deadline`.

>>> from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role
>>> beam = LineConfig(role=Role.FAULT_A, pin=17, kind=LineKind.BEAM,
...                   active=Active.HIGH, pull=Pull.UP)
>>> health = HealthMonitor([beam], beam_blocked_ns=2_000_000_000)
>>> health.start({"fault_a": False}, t_ns=0)
[]
>>> health.feed(EdgeEvent(line="fault_a", level=True, t_ns=1_000_000_000, seq=1))
[]
>>> health.deadline()
3000000000
>>> [(e.sensor, e.ok, e.t_ns) for e in health.tick(3_000_000_000)]
[('fault_a', False, 3000000000)]
>>> [(e.sensor, e.ok) for e in health.feed(
...     EdgeEvent(line="fault_a", level=False, t_ns=4_000_000_000, seq=2))]
[('fault_a', True)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from controller.model import Event
from controller.sensors.edges import EdgeEvent
from controller.sensors.lines import LineConfig, LineKind, SensorSettings
from controller.timebase import ns_to_seconds, seconds_to_ns

DEFAULT_BEAM_BLOCKED_NS = seconds_to_ns(2.0)
DEFAULT_BUTTON_STUCK_NS = seconds_to_ns(10.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthEvent(Event):
    """A sensor went bad (``ok=False``) or recovered (``ok=True``) at ``t_ns``.

    >>> HealthEvent(t_ns=5, sensor="fault_a", ok=False, detail="blocked").ok
    False
    """

    sensor: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LineHealth:
    """What the monitor knows of one line.

    ``active`` is None until a level has been read. ``since_ns`` is when the
    line last went active. ``faulty`` is True between an ``ok=False`` event
    and its recovery.
    """

    active: bool | None
    since_ns: int = 0
    faulty: bool = False


class HealthMonitor:
    """Watches every configured line for the faults described in the module doc."""

    def __init__(
        self,
        lines: Iterable[LineConfig],
        *,
        beam_blocked_ns: int = DEFAULT_BEAM_BLOCKED_NS,
        button_stuck_ns: int = DEFAULT_BUTTON_STUCK_NS,
    ) -> None:
        self._lines = {line.role.value: line for line in lines}
        self._limits = {LineKind.BEAM: beam_blocked_ns, LineKind.BUTTON: button_stuck_ns}
        self._health = {role: LineHealth(active=None) for role in self._lines}
        self._in_flight = False
        # Beam timers restart when a toss lands: a hand resting over the start
        # line during the toss is allowed, the clock runs from the landing.
        self._quiet_since_ns: int | None = None
        self._started = False

    @classmethod
    def from_settings(cls, settings: SensorSettings) -> HealthMonitor:
        """A monitor over the configured lines with the configured thresholds."""
        return cls(
            settings.lines,
            beam_blocked_ns=settings.beam_blocked_ns,
            button_stuck_ns=settings.button_stuck_ns,
        )

    def start(self, levels: Mapping[str, bool], t_ns: int) -> list[HealthEvent]:
        """The levels read at start-up; a beam reading broken is a fault at once.

        A line missing from ``levels`` could not be read: a fault until it
        reports an idle level.
        """
        self._started = True
        events: list[HealthEvent] = []
        for role, line in self._lines.items():
            level = levels.get(role)
            if level is None:
                self._health[role] = LineHealth(active=None, faulty=True)
                events.append(self._event(role, t_ns, False, "no level read at start-up"))
                continue
            active = line.is_active(level)
            faulty = active and line.kind is LineKind.BEAM
            self._health[role] = LineHealth(active=active, since_ns=t_ns, faulty=faulty)
            if faulty:
                detail = f"beam not seen at start-up: reads broken ({self._levels(line)})"
                events.append(self._event(role, t_ns, False, detail))
        return events

    def feed(self, edge: EdgeEvent) -> list[HealthEvent]:
        """One edge: faults due before it first, then a recovery if it clears a fault."""
        events = self.tick(edge.t_ns)
        line = self._lines.get(edge.line)
        if line is None:
            return events
        active = line.is_active(edge.level)
        old = self._health[edge.line]
        if active:
            since = old.since_ns if old.active else edge.t_ns
            self._health[edge.line] = replace(old, active=True, since_ns=since)
            return events
        self._health[edge.line] = LineHealth(active=False, since_ns=old.since_ns)
        if old.faulty:
            events.append(self._event(edge.line, edge.t_ns, True, f"{line.kind} reads idle again"))
        return events

    def set_toss_in_flight(self, in_flight: bool, t_ns: int) -> list[HealthEvent]:
        """A toss started (True) or ended (False) at ``t_ns``; beams may stay broken during it."""
        events = self.tick(t_ns)
        if self._in_flight and not in_flight:
            self._quiet_since_ns = t_ns
        self._in_flight = in_flight
        return events

    def deadline(self) -> int | None:
        """The next time a line would become a fault (None: none is pending)."""
        due = [d for role in self._lines if (d := self._due(role)) is not None]
        return min(due, default=None)

    def tick(self, t_ns: int) -> list[HealthEvent]:
        """Every fault due by ``t_ns``, stamped with the time it became due."""
        events: list[HealthEvent] = []
        for role, line in self._lines.items():
            due = self._due(role)
            if due is None or due > t_ns:
                continue
            self._health[role] = replace(self._health[role], faulty=True)
            held = ns_to_seconds(due - self._health[role].since_ns)
            what = "broken" if line.kind is LineKind.BEAM else "held down"
            detail = f"{line.kind} {what} for {held:g} s ({self._levels(line)})"
            events.append(self._event(role, due, False, detail))
        return sorted(events, key=lambda e: (e.t_ns, e.sensor))

    def faults(self) -> dict[str, bool]:
        """Every line and whether it is currently reported faulty."""
        return {role: health.faulty for role, health in self._health.items()}

    def _due(self, role: str) -> int | None:
        health = self._health[role]
        if not self._started or health.faulty or not health.active:
            return None
        line = self._lines[role]
        since = health.since_ns
        if line.kind is LineKind.BEAM:
            if self._in_flight:
                return None
            if self._quiet_since_ns is not None:
                since = max(since, self._quiet_since_ns)
        return since + self._limits[line.kind]

    def _levels(self, line: LineConfig) -> str:
        return f"pin {line.pin} {line.active}, idle is {'high' if line.idle_level else 'low'}"

    def _event(self, role: str, t_ns: int, ok: bool, detail: str) -> HealthEvent:
        return HealthEvent(t_ns=t_ns, sensor=role, ok=ok, detail=f"{role}: {detail}")
