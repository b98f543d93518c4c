"""The host's half of the protocol, pure: frames in, frames out, edges mapped.

No I/O, no threads, no clock reads: :mod:`firmware_bridge.host` feeds it the
frames its reader thread decoded (with their arrival times) and writes what it
returns; :mod:`firmware_bridge.simmcu` drives it on simulated time.

A session identifies the board (protocol version, pin map, boot id), warms
the clock sync up with a quick burst of queries, then keeps querying at
``query_interval_ns``. EDGES frames are accepted strictly in sequence: a
duplicate is dropped and acked again, a frame after a gap is dropped and
NAKed once a round trip, so the firmware resends from the gap. Edges that
arrive before the clock is synced are held and mapped when it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from firmware_bridge import protocol as p
from firmware_bridge.clocksync import ClockSync
from firmware_bridge.firmware.core import seq_before

MS = 1_000_000
WARMUP_QUERIES = 3000  # quick queries after a (re)boot: 45 s of them (the burst, then 50 a second)
UP_AFTER_QUERIES = 10  # queries before edges flow: 0.2 s after a board boots
WARMUP_INTERVAL_NS = 20 * MS
BURST_QUERIES = 1000  # of which the first come quicker still: 5 s at 200 a second
BURST_INTERVAL_NS = 5 * MS
QUERY_INTERVAL_NS = 100 * MS
SILENCE_NS = 3000 * MS  # no frame for this long while up: the link is lost
RTO_MIN_NS = 10 * MS
RTO_MAX_NS = 1000 * MS
RTO_INITIAL_NS = 100 * MS
QUERY_EXPIRY_NS = 1000 * MS
IDENTIFY_TRIES = 6  # then the port is closed and opened again


class LinkState(StrEnum):
    """Where the session is."""

    DOWN = "down"  # no transport
    IDENTIFYING = "identifying"
    SYNCING = "syncing"
    UP = "up"
    REFUSED = "refused"  # wrong protocol version or pin map: needs a person


@dataclass
class Counters:
    """What the link has seen; exposed in health details and by the source."""

    crc_errors: int = 0
    skipped_bytes: int = 0
    frames: int = 0
    bad_frames: int = 0
    seq_gaps: int = 0
    duplicates: int = 0
    host_resends: int = 0
    mcu_resends: int = 0
    mcu_dropped: int = 0
    clock_outliers: int = 0
    reconnects: int = 0

    def summary(self) -> str:
        """One line for a health detail.

        >>> Counters(crc_errors=2).summary()[:30]
        'crc_errors=2 skipped_bytes=0 f'
        """
        return " ".join(f"{k}={v}" for k, v in vars(self).items())


@dataclass(frozen=True, slots=True)
class MappedEdge:
    """An edge with its time in ``mono_ns``, ready to become an EdgeEvent."""

    line: str
    level: bool
    t_ns: int
    mcu_us: int


@dataclass(frozen=True, slots=True)
class LinkChange:
    """The link came up (``up``) or went down, with why."""

    up: bool
    t_ns: int
    detail: str


@dataclass
class _Rto:
    """RFC 6298 retransmit timeout from measured round trips."""

    srtt: float = 0.0
    rttvar: float = 0.0
    rto: float = RTO_INITIAL_NS

    def sample(self, rtt: float) -> None:
        if not self.srtt:
            self.srtt, self.rttvar = rtt, rtt / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - rtt)
            self.srtt = 0.875 * self.srtt + 0.125 * rtt
        self.rto = min(max(self.srtt + 4 * self.rttvar, RTO_MIN_NS), RTO_MAX_NS)


@dataclass
class _Pending:
    """Things awaiting an answer."""

    identify_at: int | None = None
    identify_tries: int = 0
    queries: dict[int, int] = field(default_factory=dict)  # token -> sent_ns
    next_token: int = 0
    next_query_ns: int = 0
    warmup_left: int = WARMUP_QUERIES
    sent: int = 0  # queries sent in this session
    nak_at: dict[int, int] = field(default_factory=dict)  # expected seq -> when NAKed


class HostSession:
    """One host's view of one board. ``lines`` maps a GPIO to its role."""

    def __init__(
        self,
        lines: Mapping[int, str],
        pulls: Mapping[int, tuple[bool, bool]] | None = None,
        *,
        query_interval_ns: int = QUERY_INTERVAL_NS,
    ) -> None:
        self.lines = dict(lines)
        self.pulls = dict(pulls or {})
        self.query_interval_ns = query_interval_ns
        self.state = LinkState.DOWN
        self.counters = Counters()
        self.identity: p.Identity | None = None
        self.clock: ClockSync | None = None
        self.expected = 0
        self.levels: dict[int, bool] = {}
        self.refusal = ""
        self._rto = _Rto()
        self._pending = _Pending()
        self._held: list[p.McuEdge] = []
        self._out: list[MappedEdge | LinkChange] = []
        self._last_rx = 0
        self._announced_up = False
        self._last_t_ns = 0

    # -- transport events ---------------------------------------------------
    def connect(self, now_ns: int) -> list[bytes]:
        """A transport was opened: identify the board."""
        if self.state is not LinkState.DOWN:
            self.disconnect(now_ns, "transport reopened")
        self.state = LinkState.IDENTIFYING
        self._pending = _Pending(identify_at=now_ns + int(self._rto.rto))
        self._last_rx = now_ns
        return [p.identify()]

    def disconnect(self, now_ns: int, reason: str) -> None:
        """The transport failed or was closed."""
        if self._announced_up:
            self._out.append(LinkChange(False, now_ns, f"bridge link lost: {reason}"))
            self._announced_up = False
            self.counters.reconnects += 1
        self.state = LinkState.DOWN
        self._pending = _Pending()

    def take(self) -> list[MappedEdge | LinkChange]:
        """Everything that happened since the last call, in order."""
        out, self._out = self._out, []
        return out

    # -- frames in --------------------------------------------------------
    def receive(self, seq: int, kind: int, payload: bytes, rx_ns: int) -> list[bytes]:
        """One decoded frame that arrived at ``rx_ns``; returns frames to send."""
        self.counters.frames += 1
        self._last_rx = rx_ns
        try:
            message = p.parse(seq, kind, payload)
        except p.ProtocolError:
            self.counters.bad_frames += 1
            return []
        match message:
            case p.Identity():
                return self._identity(message, rx_ns)
            case p.ClockReply():
                self._clock(message, rx_ns)
                return []
            case p.Edges():
                return self._edges(message, rx_ns)
            case p.ErrorReply():
                return self._error(message, rx_ns)
        return []

    def _identity(self, msg: p.Identity, rx_ns: int) -> list[bytes]:
        if self.state is not LinkState.IDENTIFYING:
            return []
        sent = self._pending.identify_at
        if sent is not None and self._pending.identify_tries == 0:
            self._rto.sample(max(0, rx_ns - (sent - int(self._rto.rto))))
        problem = self._check(msg)
        if problem:
            self._refuse(problem, rx_ns)
            return []
        same_boot = self.identity is not None and self.identity.boot_id == msg.boot_id
        if not same_boot or self.clock is None:
            self.clock = ClockSync(msg.clock_hz)
            self._held.clear()
            self.expected = msg.next_seq
            if self.identity is not None:
                self._resync_levels(msg, rx_ns)
        elif not seq_before(msg.next_seq, self.expected) and msg.next_seq != self.expected:
            self.expected = msg.next_seq  # frames we never saw are gone: the board says so
        self.clock.note(msg.now_us)
        if not self.levels or not same_boot:
            self.levels = {gpio: msg.level(gpio) for gpio in self.lines}
        self.identity = msg
        self.state = LinkState.SYNCING
        self._pending = _Pending(next_query_ns=rx_ns)
        if same_boot and self.clock.synced:
            # The sync is kept, but edges buffered during the outage are mapped
            # better with a few samples after it (between, not beyond, samples).
            self._pending.warmup_left = UP_AFTER_QUERIES
        return [p.ack(self.expected)]

    def _check(self, msg: p.Identity) -> str:
        if msg.protocol != p.PROTOCOL_VERSION:
            version = ".".join(map(str, msg.firmware))
            return (
                f"the board's firmware {version} speaks bridge protocol v{msg.protocol}, "
                f"this host v{p.PROTOCOL_VERSION}: flash the firmware from this tableref "
                "(docs/bridge-protocol.md)"
            )
        watched = {pin.gpio: pin for pin in msg.pins}
        for gpio, role in sorted(self.lines.items()):
            pin = watched.get(gpio)
            if pin is None:
                known = ", ".join(str(g) for g in sorted(watched)) or "none"
                return f"line {role!r}: pin {gpio} is not watched by the firmware ({known} are)"
            want = self.pulls.get(gpio)
            if want is not None and want != (pin.pull_up, pin.pull_down):
                return f"line {role!r}: pin {gpio} pull differs from the firmware's board.py"
        return ""

    def _refuse(self, problem: str, now_ns: int) -> None:
        self.state = LinkState.REFUSED
        self.refusal = problem
        self._out.append(LinkChange(False, now_ns, f"bridge refused: {problem}"))
        self._announced_up = False

    def _resync_levels(self, msg: p.Identity, rx_ns: int) -> None:
        """The board restarted: edges while it was away are lost, so a line
        whose level differs from the last one we know gets an edge now."""
        for gpio, role in sorted(self.lines.items()):
            level = msg.level(gpio)
            if self.levels.get(gpio, level) != level:
                self._emit(MappedEdge(role, level, max(rx_ns, self._last_t_ns), -1))
                self.levels[gpio] = level

    def _clock(self, msg: p.ClockReply, rx_ns: int) -> None:
        sent = self._pending.queries.pop(msg.token, None)
        self.counters.mcu_resends = msg.resends
        self.counters.mcu_dropped = msg.dropped
        if sent is None or self.clock is None:
            return
        self._rto.sample(rx_ns - sent)
        if not self.clock.add(sent, msg.t_us, rx_ns):
            self.counters.clock_outliers += 1
        if self.state is LinkState.SYNCING and self._pending.sent >= UP_AFTER_QUERIES:
            self._up(rx_ns)

    def _up(self, now_ns: int) -> None:
        self.state = LinkState.UP
        held, self._held = self._held, []
        for edge in held:
            self._map(edge)
        if not self._announced_up:
            self._announced_up = True
            assert self.identity is not None
            version = ".".join(map(str, self.identity.firmware))
            self._out.append(
                LinkChange(True, now_ns, f"bridge link up: firmware {version}, clock synced")
            )

    def _edges(self, msg: p.Edges, rx_ns: int) -> list[bytes]:
        if self.state not in (LinkState.SYNCING, LinkState.UP):
            return []
        if msg.seq == self.expected:
            self.expected = (self.expected + 1) & 0xFF
            for edge in msg.edges:
                if self.state is LinkState.UP:
                    self._map(edge)
                else:
                    self._held.append(edge)
            return [p.ack(self.expected)]
        if seq_before(msg.seq, self.expected):
            self.counters.duplicates += 1
            return [p.ack(self.expected)]
        # A gap: a frame before this one was lost. Ask once a round trip.
        last = self._pending.nak_at.get(self.expected)
        if last is not None and rx_ns - last < self._rto.rto:
            return []
        self.counters.seq_gaps += 1
        self._pending.nak_at = {self.expected: rx_ns}
        return [p.ack(self.expected, nak=True)]

    def _map(self, edge: p.McuEdge) -> None:
        assert self.clock is not None
        role = self.lines.get(edge.pin)
        if role is None:
            return  # a watched pin no line is configured on
        mcu_us = self.clock.extend(edge.t_us)
        # Never backwards: two edges microseconds apart may be mapped by two
        # fits a few microseconds apart.
        t_ns = max(self.clock.to_mono_ns(mcu_us), self._last_t_ns)
        self.levels[edge.pin] = edge.level
        self._emit(MappedEdge(role, edge.level, t_ns, mcu_us))

    def _emit(self, edge: MappedEdge) -> None:
        self._last_t_ns = edge.t_ns
        self._out.append(edge)

    def _error(self, msg: p.ErrorReply, rx_ns: int) -> list[bytes]:
        if msg.code == p.ErrorCode.VERSION:
            self._refuse(
                f"the board speaks bridge protocol v{msg.detail}, this host "
                f"v{p.PROTOCOL_VERSION}: flash the firmware from this tableref",
                rx_ns,
            )
        else:
            self.counters.bad_frames += 1
        return []

    # -- timers -------------------------------------------------------------
    def deadline(self) -> int | None:
        """When :meth:`poll` must next run."""
        pending = self._pending
        due = [t for t in (pending.identify_at,) if t is not None]
        if self.state in (LinkState.SYNCING, LinkState.UP):
            due.append(pending.next_query_ns)
            due.append(self._last_rx + SILENCE_NS)
        return min(due, default=None)

    def poll(self, now_ns: int) -> list[bytes]:
        """Timers: identify retries, clock queries, silence."""
        pending = self._pending
        if self.state is LinkState.IDENTIFYING and pending.identify_at is not None:
            if now_ns >= pending.identify_at and pending.identify_tries >= IDENTIFY_TRIES:
                self.disconnect(now_ns, "the board does not answer IDENTIFY")
                return []
            if now_ns >= pending.identify_at:
                pending.identify_tries += 1
                self.counters.host_resends += 1
                backoff = min(self._rto.rto * 2**pending.identify_tries, RTO_MAX_NS)
                pending.identify_at = now_ns + int(backoff)
                return [p.identify()]
            return []
        if self.state not in (LinkState.SYNCING, LinkState.UP):
            return []
        if now_ns - self._last_rx >= SILENCE_NS:
            # The owner sees DOWN and reopens the port: a board reset by its
            # watchdog comes back as a new USB device.
            silent = (now_ns - self._last_rx) / 1e9
            self.disconnect(now_ns, f"no answer from the board for {silent:.1f} s")
            return []
        if now_ns < pending.next_query_ns:
            return []
        pending.queries = {t: s for t, s in pending.queries.items() if now_ns - s < QUERY_EXPIRY_NS}
        token = pending.next_token
        pending.next_token = (token + 1) & 0xFF
        pending.queries[token] = now_ns
        warm = pending.warmup_left > 0
        pending.warmup_left -= 1
        pending.sent += 1
        interval = BURST_INTERVAL_NS if pending.sent <= BURST_QUERIES else WARMUP_INTERVAL_NS
        pending.next_query_ns = now_ns + (interval if warm else self.query_interval_ns)
        return [p.clock_query(token)]
