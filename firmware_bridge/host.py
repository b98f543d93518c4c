"""The host link over a real serial port, and the bridge's edge source.

Two threads per board:

- the *reader* only reads bytes, stamps their arrival (``mono_ns``), decodes
  frames and enqueues them (its timestamps are what the clock sync measures);
- the *link* thread owns the :class:`~firmware_bridge.session.HostSession`:
  it answers frames, fires the session's timers, writes, hands mapped edges
  to the sink, and reopens the port after an unplug.

The port is opened exclusively (pyserial's ``exclusive=True``: an advisory
lock, so a second tableref or a stray terminal cannot share it), by its
``/dev/serial/by-id/...`` path, which names the board, not the order in which
USB devices happened to enumerate.

>>> from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role
>>> line = LineConfig(role=Role.FAULT_A, pin=2, kind=LineKind.BEAM, active=Active.HIGH,
...                   pull=Pull.UP)
>>> session_lines([line])
({2: 'fault_a'}, {2: (True, False)})
"""

from __future__ import annotations

import contextlib
import queue
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.errors import TablerefError
from controller.sensors.edges import EdgeEvent, EdgeSink
from controller.sensors.health import HealthEvent
from controller.sensors.lines import LineConfig, Pull
from controller.timebase import Clock
from firmware_bridge.firmware.framing import Decoder
from firmware_bridge.session import Counters, HostSession, LinkChange, LinkState, MappedEdge

LINK_SENSOR = "bridge"
REOPEN_INTERVAL_S = 0.05
READ_TIMEOUT_S = 0.05
CONNECT_TIMEOUT_S = 15.0

HealthSink = Callable[[HealthEvent], None]


class BridgeError(TablerefError):
    """The bridge cannot start as configured."""


def session_lines(
    lines: Sequence[LineConfig],
) -> tuple[dict[int, str], dict[int, tuple[bool, bool]]]:
    """GPIO -> role, and GPIO -> (pull up, pull down), for a :class:`HostSession`."""
    roles = {line.pin: line.role.value for line in lines}
    pulls = {line.pin: (line.pull is Pull.UP, line.pull is Pull.DOWN) for line in lines}
    return roles, pulls


def _open_port(path: str) -> Any:
    import serial  # type: ignore[import-untyped]  # pyserial: only bridge tables need it

    try:
        return serial.Serial(path, baudrate=115200, timeout=READ_TIMEOUT_S, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise BridgeError(f"cannot open the bridge's port {path}: {exc}") from None


class BridgeEdgeSource:
    """An :class:`~controller.sensors.edges.EdgeSource` over the bridge.

    The constructor opens the port, identifies the board and syncs its clock
    (a wrong protocol version or a pin the firmware does not watch is a
    :class:`BridgeError` naming it). After that, a lost link is never an
    error: it is a :class:`HealthEvent` (sensor ``"bridge"``, ``ok=False``)
    to ``on_health``, and its return after a reconnect an ``ok=True`` one.
    """

    def __init__(
        self,
        lines: Sequence[LineConfig],
        port: str,
        *,
        clock: Clock,
        on_health: HealthSink | None = None,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        roles, pulls = session_lines(lines)
        self.path = port
        self.clock = clock
        self.on_health = on_health
        self.session = HostSession(roles, pulls)
        self._lock = threading.Lock()  # the session, the sink, the port handle
        self._write_lock = threading.Lock()
        self._inbox: queue.Queue[tuple[str, Any, int]] = queue.Queue()
        self._stop = threading.Event()
        self._up = threading.Event()
        self._sink: EdgeSink | None = None
        self._held: list[EdgeEvent] = []
        self._seq = 0
        self._port: Any = None
        self._decoder = Decoder()
        self._generation = 0
        self._crc_base = (0, 0)
        self._next_open = 0.0
        self.simulated: Any = None  # the PtyMcu behind bridge = "sim", closed with us
        self._open(_open_port(port))
        self._reader = threading.Thread(target=self._read_loop, name="bridge-reader", daemon=True)
        self._link = threading.Thread(target=self._link_loop, name="bridge-link", daemon=True)
        self._reader.start()
        self._link.start()
        if not self._up.wait(connect_timeout_s) or self.session.state is not LinkState.UP:
            problem = self.session.refusal or f"no answer within {connect_timeout_s:g} s"
            self.close()
            raise BridgeError(f"bridge on {port}: {problem}")

    # -- EdgeSource -------------------------------------------------------------
    def start(self, sink: EdgeSink) -> None:
        """Deliver edges to ``sink`` (from the link thread)."""
        with self._lock:
            self._sink = sink
            held, self._held = self._held, []
        for edge in held:
            sink(edge)

    def levels(self) -> dict[str, bool]:
        """Every line's level as the board last reported it."""
        with self._lock:
            return {
                role: self.session.levels.get(g, True) for g, role in self.session.lines.items()
            }

    def close(self) -> None:
        """Stop both threads and release the port."""
        self._stop.set()
        for thread in (getattr(self, "_reader", None), getattr(self, "_link", None)):
            if thread is not None and thread.is_alive():
                thread.join(timeout=2)
        self._close_port()
        if self.simulated is not None:
            self.simulated.close()

    def counters(self) -> Counters:
        """The link's counters (CRC errors, resends, sequence gaps...)."""
        with self._lock:
            self._sync_decoder_counts()
            return Counters(**vars(self.session.counters))

    # -- the port ---------------------------------------------------------------
    def _open(self, port: Any) -> None:
        with self._lock:
            self._port = port
            self._decoder = Decoder()
            self._generation += 1
            self._crc_base = (self.session.counters.crc_errors, self.session.counters.skipped_bytes)
            frames = self.session.connect(self.clock.mono_ns())
        self._write(frames)

    def _close_port(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            # pyserial raises many kinds of error on a vanished device
            with contextlib.suppress(Exception):
                port.close()

    def _read_loop(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                port, decoder, generation = self._port, self._decoder, self._generation
            if port is None:
                self._stop.wait(READ_TIMEOUT_S)
                continue
            try:
                data = port.read(max(1, port.in_waiting))
            except Exception as exc:  # SerialException, OSError: unplugged
                self._inbox.put(("lost", f"{exc}", generation))
                self._stop.wait(READ_TIMEOUT_S)
                continue
            rx_ns = self.clock.mono_ns()
            for frame in decoder.feed(data):
                self._inbox.put(("frame", (frame, rx_ns), generation))

    def _write(self, frames: list[bytes]) -> None:
        if not frames:
            return
        port = self._port
        if port is None:
            return
        try:
            with self._write_lock:
                port.write(b"".join(frames))
        except Exception as exc:
            self._inbox.put(("lost", f"{exc}", self._generation))

    # -- the link thread --------------------------------------------------------
    def _link_loop(self) -> None:
        while not self._stop.is_set():
            due = self.session.deadline()
            wait = READ_TIMEOUT_S
            if due is not None:
                wait = min(wait, max(0.0, (due - self.clock.mono_ns()) / 1e9))
            try:
                kind, item, generation = self._inbox.get(timeout=wait)
            except queue.Empty:
                kind, item, generation = "", None, -1
            if generation == self._generation:
                self._handle(kind, item)
            self._timers()
            self._deliver()

    def _handle(self, kind: str, item: Any) -> None:
        if kind == "frame":
            (seq, type_, payload), rx_ns = item
            with self._lock:
                frames = self.session.receive(seq, type_, payload, rx_ns)
            self._write(frames)
        elif kind == "lost":
            self._close_port()
            with self._lock:
                self.session.disconnect(self.clock.mono_ns(), f"the port failed ({item})")
                self._generation += 1

    def _timers(self) -> None:
        now = self.clock.mono_ns()
        if self._port is None:
            if now >= self._next_open and Path(self.path).exists():
                self._next_open = now + REOPEN_INTERVAL_S * 1e9
                # Not ready yet (udev still setting it up): try again.
                with contextlib.suppress(BridgeError):
                    self._open(_open_port(self.path))
            return
        with self._lock:
            frames = self.session.poll(now)
            given_up = self.session.state is LinkState.DOWN
        self._write(frames)
        if given_up:  # silence, or no answer to IDENTIFY: reopen the port
            self._close_port()
            with self._lock:
                self._generation += 1
            self._next_open = now + REOPEN_INTERVAL_S * 1e9

    def _sync_decoder_counts(self) -> None:
        crc, skipped = self._crc_base
        self.session.counters.crc_errors = crc + self._decoder.crc_errors
        self.session.counters.skipped_bytes = skipped + self._decoder.skipped

    def _deliver(self) -> None:
        with self._lock:
            self._sync_decoder_counts()
            items = self.session.take()
            sink = self._sink
            events: list[EdgeEvent] = []
            for item in items:
                if isinstance(item, MappedEdge):
                    self._seq += 1
                    events.append(
                        EdgeEvent(line=item.line, level=item.level, t_ns=item.t_ns, seq=self._seq)
                    )
            if sink is None:
                self._held += events
        for item in items:
            if isinstance(item, LinkChange):
                self._link_change(item)
        if sink is not None:
            for event in events:
                sink(event)

    def _link_change(self, change: LinkChange) -> None:
        first = change.up and not self._up.is_set()
        if change.up:
            self._up.set()
        elif self.session.state is LinkState.REFUSED:
            self._up.set()  # wake the constructor: it reports the refusal
        if first or self.on_health is None:
            return  # the first link-up is start-up, not a recovery
        detail = f"{change.detail} ({self.counters().summary()})"
        self.on_health(
            HealthEvent(t_ns=change.t_ns, sensor=LINK_SENSOR, ok=change.up, detail=detail)
        )


def open_bridge_source(
    config: Any, *, clock: Clock, on_health: HealthSink | None = None
) -> BridgeEdgeSource:
    """The bridge a service config names: ``[hardware] bridge`` is the board's
    port, or ``"sim"`` for a simulated board (100 ppm drift, 0-2 ms jitter)
    behind a pty pair in this process, which lives as long as the source."""
    lines = config.sensors.lines
    if config.bridge != "sim":
        return BridgeEdgeSource(lines, config.bridge, clock=clock, on_health=on_health)
    from firmware_bridge.simmcu import LinkNoise, PtyMcu

    folder = Path(tempfile.mkdtemp(prefix="tableref-simmcu-"))
    mcu = PtyMcu(folder / "usb-tableref-sim-mcu", drift_ppm=100.0, noise=LinkNoise())
    try:
        source = BridgeEdgeSource(lines, str(mcu.link), clock=clock, on_health=on_health)
    except BaseException:
        mcu.close()
        raise
    source.simulated = mcu
    return source
