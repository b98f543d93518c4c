"""One table's sensor pipeline: raw edges in, engine events out, in time order.

Edges go to three pure stages, the same ones whether the edges come from the
GPIO header, a fake source in a test or a scenario in the harness:

- :class:`~controller.sensors.buttons.Buttons` debounces the call pad (first
  edge, then a lockout) into presses;
- :class:`~controller.sensors.health.HealthMonitor` watches every line for a
  beam blocked or a button stuck, and its recovery (:class:`HealthEvent`);
- :class:`~controller.sensors.fusion.HeadsAndTailsFusion` turns beam edges
  and presses into the engine's semantic inputs.

Health events are handed to the fusion to release (:meth:`HeadsAndTailsFusion.hold`),
so everything leaves in time order even while the fusion holds a call made
before a toss it has not yet recognised. The caller services
:meth:`SensorPipeline.deadline` with :meth:`SensorPipeline.tick` and, since
fused events reach it up to :attr:`SensorPipeline.max_latency_ns` late, holds
back its own deadlines (the toss window) by that much.

>>> from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role
>>> lines = [LineConfig(role=role, pin=pin, kind=LineKind.BEAM, active=Active.LOW,
...                     pull=Pull.UP) for role, pin in ((Role.START_A, 23), (Role.FAULT_A, 17))]
>>> pipeline = SensorPipeline.for_lines(lines, caller=lambda: "ben", toss_in_flight=lambda: False)
>>> pipeline.start({"start_a": True, "fault_a": True}, t_ns=0)
[]
>>> pipeline.edge(EdgeEvent(line="fault_a", level=False, t_ns=1_000_000_000, seq=1))
[]
>>> out = []
>>> while (due := pipeline.deadline()) is not None:  # what the owner's loop does
...     out += pipeline.tick(due)
>>> [(type(e).__name__, e.t_ns) for e in out]  # a hand (dated at its first break), then a fault
[('Touch', 1000000000), ('HealthEvent', 3000000000)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from controller.errors import TablerefError
from controller.model import Event
from controller.sensors.buttons import DEFAULT_LOCKOUT_NS, Buttons, Press
from controller.sensors.edges import EdgeEvent
from controller.sensors.fusion import BEAMS, HeadsAndTailsFusion
from controller.sensors.geometry import FusionConfig, Geometry
from controller.sensors.health import (
    DEFAULT_BEAM_BLOCKED_NS,
    DEFAULT_BUTTON_STUCK_NS,
    HealthEvent,
    HealthMonitor,
)
from controller.sensors.lines import LineConfig, LineKind, SensorSettings


class PipelineError(TablerefError):
    """The wired lines cannot make a Heads & Tails table."""


class SensorPipeline:
    """Buttons, health and fusion of one table, driven by one owner thread.

    ``toss_in_flight`` says whether the engine has a toss in the air (read at
    every call and at :meth:`sync`): beams may then stay broken without being
    a fault. It reads the engine's state, which lags the pipeline by up to
    ``max_latency_ns``; harmless against a threshold of seconds.
    """

    def __init__(
        self,
        *,
        fusion: HeadsAndTailsFusion,
        buttons: Buttons,
        health: HealthMonitor,
        toss_in_flight: Callable[[], bool],
    ) -> None:
        self.fusion = fusion
        self.buttons = buttons
        self.health = health
        self._toss_in_flight = toss_in_flight
        self._flight = False

    @classmethod
    def for_lines(
        cls,
        lines: Iterable[LineConfig],
        *,
        caller: Callable[[], str],
        toss_in_flight: Callable[[], bool],
        config: FusionConfig | None = None,
        lockout_ns: int = DEFAULT_LOCKOUT_NS,
        beam_blocked_ns: int = DEFAULT_BEAM_BLOCKED_NS,
        button_stuck_ns: int = DEFAULT_BUTTON_STUCK_NS,
    ) -> SensorPipeline:
        """A pipeline over these lines; the fusion's geometry follows the
        wired beams (a ``*_b`` beam makes its gate a pair) unless ``config``
        gives one. Raises :class:`PipelineError` when a gate is missing."""
        lines = tuple(lines)
        beams = {line.role.value: line for line in lines if line.kind is LineKind.BEAM}
        if config is None:
            geometry = Geometry(start_pair="start_b" in beams, fault_pair="fault_b" in beams)
            config = FusionConfig(geometry=geometry)
        active = {role: line.active_level for role, line in beams.items() if role in BEAMS}
        try:
            fusion = HeadsAndTailsFusion(active=active, caller=caller, config=config)
        except ValueError as exc:
            raise PipelineError(f"the light gates of a Heads & Tails table: {exc}") from None
        return cls(
            fusion=fusion,
            buttons=Buttons(lines, lockout_ns=lockout_ns),
            health=HealthMonitor(
                lines, beam_blocked_ns=beam_blocked_ns, button_stuck_ns=button_stuck_ns
            ),
            toss_in_flight=toss_in_flight,
        )

    @classmethod
    def from_settings(
        cls,
        settings: SensorSettings,
        *,
        caller: Callable[[], str],
        toss_in_flight: Callable[[], bool],
    ) -> SensorPipeline:
        """The pipeline of a config's ``[sensors]`` table."""
        return cls.for_lines(
            settings.lines,
            caller=caller,
            toss_in_flight=toss_in_flight,
            lockout_ns=settings.lockout_ns,
            beam_blocked_ns=settings.beam_blocked_ns,
            button_stuck_ns=settings.button_stuck_ns,
        )

    @property
    def max_latency_ns(self) -> int:
        """How late an event may leave the pipeline after it happened."""
        return self.fusion.config.max_latency_ns

    def start(self, levels: Mapping[str, bool], t_ns: int) -> list[Event]:
        """The lines' levels at start-up (a beam reading broken is a fault)."""
        self._hold(self.health.start(levels, t_ns))
        return self.fusion.tick(t_ns)

    def edge(self, edge: EdgeEvent) -> list[Event]:
        """One raw edge of any line, in time order with the others."""
        self.sync(edge.t_ns)
        self._hold(self.health.feed(edge))
        out: list[Event] = []
        for output in self.buttons.feed(edge):
            if isinstance(output, Press):
                out += self.fusion.press(output)
        return out + self.fusion.edge(edge)

    def press(self, press: Press) -> list[Event]:
        """An already debounced press (a scenario's call-pad press)."""
        self.sync(press.t_ns)
        return self.fusion.press(press)

    def hold(self, event: Event) -> None:
        """Hand ``event`` (dated now) on in time order with the sensor events:
        the service queues its commands here so that a ``landed`` command is
        not ruled before the toss the fusion is still holding."""
        self.fusion.hold(event)

    def tick(self, t_ns: int) -> list[Event]:
        """Let time pass to ``t_ns``: lockouts, health timers, the fusion's timers."""
        self.sync(t_ns)
        self._hold(self.health.tick(t_ns))
        out: list[Event] = []
        for output in self.buttons.tick(t_ns):
            if isinstance(output, Press):
                out += self.fusion.press(output)
        return out + self.fusion.tick(t_ns)

    def deadline(self) -> int | None:
        """When :meth:`tick` must next run (None: nothing is pending)."""
        due = (self.fusion.deadline(), self.buttons.deadline(), self.health.deadline())
        return min((d for d in due if d is not None), default=None)

    def faults(self) -> dict[str, bool]:
        """Every line and whether the health monitor holds it faulty."""
        return self.health.faults()

    def sync(self, t_ns: int) -> None:
        """Read ``toss_in_flight`` now: call it after applying an event to the
        engine (at that event's time), so that a toss ruled while a beam stays
        broken starts that beam's clock then, not at the next edge."""
        flight = self._toss_in_flight()
        if flight != self._flight:
            self._flight = flight
            self._hold(self.health.set_toss_in_flight(flight, t_ns))

    def _hold(self, events: list[HealthEvent]) -> None:
        for event in events:
            self.fusion.hold(event)
