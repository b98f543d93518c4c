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

A table with no light gates and a game clock (Tantrix, backgammon) gets a
:class:`ClockOrder` in place of the fusion: the clock buttons' presses leave
as :class:`~controller.clock.events.ClockPress` (timed at the first edge)
and the pause switch as :class:`~controller.clock.events.PauseSwitch`, in
order of their edges' times (see :class:`ClockOrder`).

>>> buttons = [LineConfig(role=role, pin=pin, kind=role.kind, active=Active.LOW, pull=Pull.UP)
...            for role, pin in ((Role.CLOCK_LEFT, 5), (Role.CLOCK_RIGHT, 6))]
>>> clock = SensorPipeline.for_clock(buttons)
>>> clock.start({"clock_left": True, "clock_right": True}, t_ns=0)
[]
>>> clock.edge(EdgeEvent(line="clock_left", level=False, t_ns=7_000_000, seq=1))
[]
>>> clock.tick(clock.deadline())  # released once no earlier edge can still arrive
[ClockPress(t_ns=7000000, seat=<Seat.LEFT: 'left'>)]
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping

from controller.clock.control import Seat
from controller.clock.events import ClockPress, PauseSwitch
from controller.errors import TablerefError
from controller.model import Event
from controller.sensors.buttons import DEFAULT_LOCKOUT_NS, ButtonOutput, Buttons, Press
from controller.sensors.edges import EdgeEvent
from controller.sensors.fusion import BEAMS, HeadsAndTailsFusion
from controller.sensors.geometry import FusionConfig, Geometry
from controller.sensors.health import (
    DEFAULT_BEAM_BLOCKED_NS,
    DEFAULT_BUTTON_STUCK_NS,
    HealthEvent,
    HealthMonitor,
)
from controller.sensors.lines import (
    DEFAULT_CLOCK_REORDER_MS,
    LineConfig,
    LineKind,
    Role,
    SensorSettings,
)

DEFAULT_REORDER_NS = DEFAULT_CLOCK_REORDER_MS * 1_000_000
"""How long a clock table holds each event for an earlier edge of another line
to arrive: edges of different lines may be delivered a little out of time order
(each line's callback is its own), and near-simultaneous presses go by edge time.
``[sensors] clock_reorder_ms`` sets it."""

CLOCK_SEATS = {Role.CLOCK_LEFT.value: Seat.LEFT, Role.CLOCK_RIGHT.value: Seat.RIGHT}
CLOCK_ROLES = frozenset({*CLOCK_SEATS, Role.CLOCK_PAUSE.value})
CAMERA_ROLES = frozenset({Role.SHOT.value})
"""Buttons whose presses leave the pipeline as they are (:class:`Press`),
for the table's camera (tiddlywinks' shot button)."""


class PipelineError(TablerefError):
    """The wired lines cannot make a Heads & Tails table."""


def clock_event(output: ButtonOutput) -> Event | None:
    """The clock event of a debounced clock line's press or release, if any.

    >>> clock_event(Press(role="clock_right", t_ns=5))
    ClockPress(t_ns=5, seat=<Seat.RIGHT: 'right'>)
    >>> from controller.sensors.buttons import Release
    >>> clock_event(Release(role="clock_pause", t_ns=9))
    PauseSwitch(t_ns=9, engaged=False)
    """
    seat = CLOCK_SEATS.get(output.role)
    if seat is not None:
        return ClockPress(t_ns=output.t_ns, seat=seat) if isinstance(output, Press) else None
    if output.role == Role.CLOCK_PAUSE.value:
        return PauseSwitch(t_ns=output.t_ns, engaged=isinstance(output, Press))
    return None


class ClockOrder:
    """The fusion's stand-in on a table without light gates: it only orders.

    Clock and health events are held ``reorder_ns`` and then released in time
    order, so a press whose edge was delivered late still goes before a press
    of the other button made after it. A tap shorter than the lockout is
    only accepted once the lockout is over (see :mod:`~controller.sensors.buttons`)
    and may then leave after later events; no clock button is tapped that briefly.
    """

    def __init__(self, reorder_ns: int = DEFAULT_REORDER_NS) -> None:
        self.max_latency_ns = reorder_ns
        self._pending: list[tuple[int, int, Event]] = []
        self._order = 0
        self._now: int | None = None

    def edge(self, edge: EdgeEvent) -> list[Event]:
        """Time has reached this edge (the edge itself is the buttons' business)."""
        return self.tick(edge.t_ns)

    def press(self, press: Press) -> list[Event]:
        """Time has reached this press (its clock event was :meth:`hold`-ed)."""
        return self.tick(press.t_ns)

    def hold(self, event: Event) -> None:
        """Queue ``event`` for release in time order."""
        self._order += 1
        heapq.heappush(self._pending, (event.t_ns, self._order, event))

    def tick(self, t_ns: int) -> list[Event]:
        """Release every event at least ``reorder_ns`` old by ``t_ns``."""
        self._now = t_ns if self._now is None else max(self._now, t_ns)
        return self.flush(self._now - self.max_latency_ns)

    def flush(self, t_ns: int) -> list[Event]:
        """Release every event dated up to ``t_ns`` now (no edge can still come)."""
        out: list[Event] = []
        while self._pending and self._pending[0][0] <= t_ns:
            out.append(heapq.heappop(self._pending)[2])
        return out

    def deadline(self) -> int | None:
        """When the oldest held event is due out."""
        return self._pending[0][0] + self.max_latency_ns if self._pending else None


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
        fusion: HeadsAndTailsFusion | ClockOrder,
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
        clock_reorder_ns: int = DEFAULT_REORDER_NS,
    ) -> SensorPipeline:
        """A pipeline over these lines; the fusion's geometry follows the
        wired beams (a ``*_b`` beam makes its gate a pair) unless ``config``
        gives one. Raises :class:`PipelineError` when a gate is missing.
        Clock lines or a camera's button and no beams make a button table
        (:meth:`for_clock`)."""
        lines = tuple(lines)
        beams = {line.role.value: line for line in lines if line.kind is LineKind.BEAM}
        if not beams and any(line.role.value in CLOCK_ROLES | CAMERA_ROLES for line in lines):
            return cls.for_clock(
                lines,
                lockout_ns=lockout_ns,
                button_stuck_ns=button_stuck_ns,
                reorder_ns=clock_reorder_ns,
            )
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
    def for_clock(
        cls,
        lines: Iterable[LineConfig],
        *,
        lockout_ns: int = DEFAULT_LOCKOUT_NS,
        button_stuck_ns: int = DEFAULT_BUTTON_STUCK_NS,
        reorder_ns: int = DEFAULT_REORDER_NS,
    ) -> SensorPipeline:
        """A clock table's pipeline: buttons and pause switch, no light gates
        (or a tiddlywinks table's shot button: its presses leave as
        :class:`Press` events, in time order with the rest).

        A stuck player button is a health event; the pause switch is not
        watched for being held (it is a switch: on for a whole break).
        """
        lines = tuple(lines)
        watched = [line for line in lines if line.kind is not LineKind.SWITCH]
        return cls(
            fusion=ClockOrder(reorder_ns),
            buttons=Buttons(lines, lockout_ns=lockout_ns),
            health=HealthMonitor(watched, button_stuck_ns=button_stuck_ns),
            toss_in_flight=lambda: False,
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
            clock_reorder_ns=settings.clock_reorder_ns,
        )

    @property
    def max_latency_ns(self) -> int:
        """How late an event may leave the pipeline after it happened."""
        if isinstance(self.fusion, ClockOrder):
            return self.fusion.max_latency_ns
        return self.fusion.config.max_latency_ns

    def start(self, levels: Mapping[str, bool], t_ns: int) -> list[Event]:
        """The lines' levels at start-up (a beam reading broken is a fault;
        a clock pause switch found on pauses the clock)."""
        self._hold(self.health.start(levels, t_ns))
        self.buttons.start(levels)
        pause = Role.CLOCK_PAUSE.value
        if pause in self.buttons.roles() and self.buttons.is_pressed(pause):
            self.fusion.hold(PauseSwitch(t_ns=t_ns, engaged=True))
        return self.fusion.tick(t_ns)

    def edge(self, edge: EdgeEvent) -> list[Event]:
        """One raw edge of any line, in time order with the others."""
        self.sync(edge.t_ns)
        self._hold(self.health.feed(edge))
        out: list[Event] = []
        for output in self.buttons.feed(edge):
            out += self._button(output)
        return out + self.fusion.edge(edge)

    def press(self, press: Press) -> list[Event]:
        """An already debounced press (a scenario's call-pad press)."""
        self.sync(press.t_ns)
        return self._button(press)

    def _button(self, output: ButtonOutput) -> list[Event]:
        """A debounced press or release: clock events are held for ordering."""
        clock = clock_event(output)
        if clock is None and output.role in CAMERA_ROLES and isinstance(output, Press):
            clock = output  # handed on as it is, for the camera
        if clock is not None:
            self.fusion.hold(clock)
        if isinstance(output, Press):
            return self.fusion.press(output)
        return self.fusion.tick(output.t_ns) if clock is not None else []

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
            out += self._button(output)
        return out + self.fusion.tick(t_ns)

    def flush(self, t_ns: int) -> list[Event]:
        """Time to ``t_ns``, then every held event dated up to it, without
        waiting out the look-ahead: for when no edge can come any more to go
        before them (the sensor link is lost)."""
        return self.tick(t_ns) + self.fusion.flush(t_ns)

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
