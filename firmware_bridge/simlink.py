"""The whole bridge on simulated time: board, cable and host session, no threads.

:class:`SimBridge` is an :class:`~controller.sensors.edges.EdgeSource` that a
test or the harness drives like a :class:`~controller.sensors.fake.FakeEdgeSource`
(``push`` an edge at its true time), but every edge goes through the real
firmware logic, a cable with latency, jitter and corruption, the host
session and the clock sync, and comes out with its *mapped* time. Time moves
only in :meth:`SimBridge.advance_to`, so ten simulated minutes take seconds.

>>> bridge = SimBridge({2: "fault_a"}, seed=1, drift_ppm=100.0)
>>> got = []
>>> bridge.start(got.append)
>>> bridge.advance_to(6 * 10**9)          # identify and clock warm-up
>>> _ = bridge.push("fault_a", False, 7 * 10**9)
>>> bridge.advance_to(8 * 10**9)
>>> [(e.line, e.level, e.seq) for e in got], abs(got[0].t_ns - 7 * 10**9) < 100_000
([('fault_a', False, 1)], True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from controller.sensors.edges import EdgeEvent, EdgeSink
from controller.sensors.health import HealthEvent
from firmware_bridge.firmware.framing import Decoder
from firmware_bridge.firmware.messages import PULL_UP
from firmware_bridge.session import HostSession, LinkChange, LinkState, MappedEdge
from firmware_bridge.simmcu import Channel, LinkNoise, SimMcu

MS = 1_000_000
LINK_SENSOR = "bridge"
REPLUG_DETECT_NS = 100 * MS  # how long the host takes to see the port again
LOOP_NS = 5 * MS  # the firmware's main loop passes at least this often when busy

HealthSink = Callable[[HealthEvent], None]


class SimBridge:
    """A simulated board and host link. ``lines`` maps a GPIO to its role;
    ``origin_ns`` is the true ``mono_ns`` at which the board boots."""

    def __init__(
        self,
        lines: Mapping[int, str],
        *,
        seed: int = 0,
        drift_ppm: float = 0.0,
        noise: LinkNoise | None = None,
        origin_ns: int = 0,
        levels: Mapping[str, bool] | None = None,
        on_health: HealthSink | None = None,
    ) -> None:
        self.lines = dict(lines)
        self.gpio = {role: gpio for gpio, role in self.lines.items()}
        rng = random.Random(seed)
        self.noise = noise or LinkNoise()
        start = {self.gpio[r]: int(v) for r, v in (levels or {}).items()}
        pins = [(gpio, PULL_UP) for gpio in sorted(self.lines)]  # the board watches our lines
        self.mcu = SimMcu(
            drift_ppm=drift_ppm, levels=start, pins=pins, counter_start_us=rng.randrange(2**32)
        )
        self.up = Channel(self.noise, rng)  # board -> host
        self.down = Channel(self.noise, rng)  # host -> board
        self.session = HostSession(self.lines)
        self.decoder = Decoder()
        self.origin_ns = origin_ns
        self.now_ns = origin_ns
        self.on_health = on_health
        self._sink: EdgeSink | None = None
        self._seq = 0
        self._was_up = False
        self._edges: list[tuple[int, int, int]] = []  # (true t_ns, gpio, level), in order
        self._plugged = True
        self._connect_at: int | None = origin_ns
        self._mcu_wake: int | None = None
        self.delivered: list[tuple[EdgeEvent, int]] = []  # (event, true t_ns) when recorded
        self.record_truth = False
        self._truth: dict[tuple[int, int], int] = {}  # (counter, gpio) -> true t_ns

    # -- EdgeSource ----------------------------------------------------------
    def start(self, sink: EdgeSink) -> None:
        """Deliver mapped edges to ``sink`` as simulated time passes."""
        self._sink = sink

    def levels(self) -> dict[str, bool]:
        """The lines' levels as the board reported them (its pins at boot)."""
        return {role: bool(self.mcu.hw.levels[g]) for g, role in self.lines.items()}

    def close(self) -> None:
        """Stop delivering."""
        self._sink = None

    # -- driving -------------------------------------------------------------
    def push(self, line: str, level: bool, t_ns: int) -> None:
        """A true edge on ``line`` at ``t_ns`` (delivered once time reaches it)."""
        if self._edges and t_ns < self._edges[-1][0]:
            raise ValueError(f"edge on {line!r} at {t_ns} is before the previous one")
        self._edges.append((t_ns, self.gpio[line], int(level)))

    def unplug(self, t_ns: int) -> None:
        """Pull the cable at ``t_ns`` (the board keeps its power and its edges)."""
        self.advance_to(t_ns)
        self._plugged = False
        self.up.clear()
        self.down.clear()
        self.session.disconnect(t_ns, "the port went away (unplugged)")
        self._deliver()

    def replug(self, t_ns: int) -> None:
        """Plug it back in at ``t_ns``; the host finds the port a moment later."""
        self.advance_to(t_ns)
        self._plugged = True
        self._connect_at = t_ns + REPLUG_DETECT_NS

    def advance_to(self, t_ns: int) -> None:
        """Run everything that happens up to ``t_ns``."""
        while True:
            due = self.next_due()
            if due is None or due > t_ns:
                break
            self._step(due)
        self.now_ns = max(self.now_ns, t_ns)

    def next_due(self) -> int | None:
        """When something next happens on the board, the cable or the host."""
        times = [
            self._edges[0][0] if self._edges else None,
            self._connect_at,
            self._mcu_wake,
        ]
        if self._plugged:
            times += [self.up.next_at(), self.down.next_at(), self.session.deadline()]
        return min((t for t in times if t is not None), default=None)

    def _step(self, now: int) -> None:
        self.now_ns = now
        while self._edges and self._edges[0][0] <= now:
            t, gpio, level = self._edges.pop(0)
            self.mcu.edge(gpio, level, t - self.origin_ns)
            if self.record_truth:
                self._truth[self.mcu.counter32(t - self.origin_ns), gpio] = t
        if self._connect_at is not None and now >= self._connect_at:
            self._connect_at = None
            self._host_send(self.session.connect(now))
        out = self.mcu.run(now - self.origin_ns, self.down.take(now) if self._plugged else b"")
        if self._plugged:
            self.up.send(out, now)
            for seq, kind, payload in self.decoder.feed(self.up.take(now)):
                self._host_send(self.session.receive(seq, kind, payload, now))
            self._host_send(self.session.poll(now))
            if self.session.state is LinkState.DOWN and self._connect_at is None:
                self._connect_at = now + REPLUG_DETECT_NS  # the host reopens the port
        due = self.mcu.retransmit_due_ns(now - self.origin_ns)
        busy = (
            self.mcu.firmware.pending or self.mcu.firmware.ring.head != self.mcu.firmware.ring.tail
        )
        self._mcu_wake = now + LOOP_NS if busy else (None if due is None else due + self.origin_ns)
        self._deliver()

    def _host_send(self, frames: list[bytes]) -> None:
        for frame in frames:
            self.down.send(frame, self.now_ns)

    def _deliver(self) -> None:
        for item in self.session.take():
            if isinstance(item, MappedEdge):
                self._edge(item)
            elif item.up and not self._was_up:
                self._was_up = True  # the first link-up is start-up, not a recovery
            elif self.on_health is not None:
                self.on_health(_health(item))

    def _truth_of(self, event: EdgeEvent) -> int:
        """The true time of an edge just delivered (``record_truth`` only)."""
        return self.delivered[-1][1] if self.delivered else -1

    def _edge(self, item: MappedEdge) -> None:
        self._seq += 1
        event = EdgeEvent(line=item.line, level=item.level, t_ns=item.t_ns, seq=self._seq)
        if self.record_truth:
            true = self._truth.get((item.mcu_us & 0xFFFFFFFF, self.gpio[item.line]), -1)
            self.delivered.append((event, true))
        if self._sink is not None:
            self._sink(event)


def _health(change: LinkChange) -> HealthEvent:
    return HealthEvent(t_ns=change.t_ns, sensor=LINK_SENSOR, ok=change.up, detail=change.detail)
