"""The firmware's logic: edges in, reliable frames out, answers to the host.

Runs unchanged under MicroPython (called from ``main.py``'s loop) and under
CPython (the tests and :mod:`firmware_bridge.simmcu`, behind
:class:`~firmware_bridge.firmware.shim.FakeHardware`).

- The pin interrupt only stores ``(pin, level, ticks)`` in :class:`EdgeRing`
  (preallocated: a hard interrupt must not allocate).
- :meth:`Firmware.poll` extends the counter to 32 bits, drains the ring into
  EDGES frames numbered 0..255, answers IDENTIFY and CLOCK_QUERY, and resends
  unacknowledged frames after an adaptive timeout (RFC 6298, Karn's rule).

>>> from firmware_bridge.firmware.shim import FakeHardware
>>> hw = FakeHardware({2: 1})
>>> fw = Firmware(hw, pins=[(2, PULL_UP)], boot_id=7)
>>> hw.edge(2, 0, 1500)
>>> hw.now_us = 2000; fw.poll()   # no host yet: the edge waits
>>> hw.take_output()
b''
"""

import struct
from array import array

from .framing import Decoder, encode
from .messages import (
    ACK,
    ACK_NAK,
    CLOCK,
    CLOCK_QUERY,
    EDGES,
    ERR_BAD_PAYLOAD,
    ERR_UNKNOWN_TYPE,
    ERR_VERSION,
    ERROR,
    IDENTIFY,
    IDENTITY,
    MAX_EDGES_PER_FRAME,
    PROTOCOL_VERSION,
    PULL_UP,
    pack_edges,
    pack_identity,
)

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython has no typing module
    TYPE_CHECKING = False  # type: ignore[misc]

if TYPE_CHECKING:
    from .shim import Hardware

CLOCK_HZ = 1_000_000
WINDOW = 16  # frames in flight; far below 128, so seq comparison mod 256 is safe
MAX_PENDING = 1024  # edges waiting for a frame; more are dropped and counted
RTO_INITIAL_US = 50_000
RTO_MIN_US = 10_000
RTO_MAX_US = 1_000_000
MASK32 = 0xFFFFFFFF

__all__ = ["PULL_UP", "EdgeRing", "Firmware"]


def seq_before(a: int, b: int) -> bool:
    """Whether sequence number ``a`` comes before ``b`` (mod 256, window < 128).

    >>> seq_before(250, 3), seq_before(3, 250), seq_before(5, 5)
    (True, False, False)
    """
    return 0 < ((b - a) & 0xFF) < 128


class EdgeRing:
    """A fixed ring of edges written by the interrupt handler.

    :meth:`put` allocates nothing (MicroPython's hard interrupts forbid it);
    when the ring is full the edge is counted in ``lost`` and dropped.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.pins = array("i", [0] * size)
        self.levels = array("i", [0] * size)
        self.ticks = array("i", [0] * size)
        self.head = 0  # written by the interrupt
        self.tail = 0  # read by the main loop
        self.lost = 0

    def put(self, pin: int, level: int, ticks: int) -> None:
        nxt = (self.head + 1) % self.size
        if nxt == self.tail:
            self.lost += 1
            return
        self.pins[self.head] = pin
        self.levels[self.head] = level
        self.ticks[self.head] = ticks
        self.head = nxt

    def take(self) -> list[tuple[int, int, int]]:
        out = []
        while self.tail != self.head:
            i = self.tail
            out.append((self.pins[i], self.levels[i], self.ticks[i]))
            self.tail = (i + 1) % self.size
        return out


class _Sent:
    """One EDGES frame in flight."""

    def __init__(self, seq: int, frame: bytes, now: int) -> None:
        self.seq = seq
        self.frame = frame
        self.sent_at = now
        self.resent = False


class Firmware:
    """The bridge logic of one board. ``pins`` are ``(gpio, pull flags)``."""

    def __init__(self, hw: "Hardware", pins: list[tuple[int, int]], boot_id: int) -> None:
        self.hw = hw
        self.pins = list(pins)
        self.boot_id = boot_id & MASK32
        self.ring = EdgeRing()
        self.decoder = Decoder()
        self.connected = False
        self.next_seq = 0
        # Type comments, not annotations: MicroPython need not parse them.
        self.pending = []  # type: list[tuple[int, int, int]]
        self.unacked = []  # type: list[_Sent]
        self.resends = 0
        self.dropped = 0
        self.srtt = 0
        self.rttvar = 0
        self.rto = RTO_INITIAL_US
        self._raw = hw.ticks_us()
        self.now32 = self._raw
        self.levels = 0
        for gpio, _ in self.pins:
            if hw.pin_value(gpio):
                self.levels |= 1 << gpio

    # -- time ------------------------------------------------------------
    def _tick(self) -> int:
        """Advance the 32-bit counter by the raw counter's step (it wraps sooner)."""
        raw = self.hw.ticks_us()
        self.now32 = (self.now32 + (raw - self._raw) % self.hw.TICKS_PERIOD) & MASK32
        self._raw = raw
        return self.now32

    def _extend(self, ticks: int) -> int:
        """An interrupt's raw ticks as the 32-bit counter (it is in the past)."""
        return (self.now32 - (self._raw - ticks) % self.hw.TICKS_PERIOD) & MASK32

    # -- the loop --------------------------------------------------------
    def poll(self) -> None:
        """One pass of the main loop: edges, host frames, sends, watchdog."""
        now = self._tick()
        for pin, level, ticks in self.ring.take():
            self._queue_edge(pin, level, self._extend(ticks))
        data = self.hw.read()
        if data:
            for _seq, kind, payload in self.decoder.feed(data):
                self._handle(kind, payload)
        if self.connected:
            self._retransmit_due(now)
            self._send_new(now)
        self.hw.feed_watchdog()

    def _queue_edge(self, pin: int, level: int, t32: int) -> None:
        if len(self.pending) >= MAX_PENDING:
            self.dropped += 1
            return
        self.pending.append((pin, level, t32))
        if level:
            self.levels |= 1 << pin
        else:
            self.levels &= ~(1 << pin)

    def _send_new(self, now: int) -> None:
        while self.pending and len(self.unacked) < WINDOW:
            batch = self.pending[:MAX_EDGES_PER_FRAME]
            self.pending = self.pending[MAX_EDGES_PER_FRAME:]
            frame = encode(self.next_seq, EDGES, pack_edges(batch))
            self.unacked.append(_Sent(self.next_seq, frame, now))
            self.next_seq = (self.next_seq + 1) & 0xFF
            self.hw.write(frame)

    def _retransmit_due(self, now: int) -> None:
        if self.unacked and ((now - self.unacked[0].sent_at) & MASK32) >= self.rto:
            self.rto = min(self.rto * 2, RTO_MAX_US)  # back off: the link may be gone
            self._resend_all(now)

    def _resend_all(self, now: int) -> None:
        for sent in self.unacked:
            sent.sent_at = now
            sent.resent = True
            self.resends += 1
            self.hw.write(sent.frame)

    # -- host frames -----------------------------------------------------
    def _handle(self, kind: int, payload: bytes) -> None:
        if kind == IDENTIFY:
            self._identify(payload)
        elif kind == ACK and len(payload) == 2:
            if self.connected:
                self._ack(payload[0], payload[1])
        elif kind == CLOCK_QUERY and len(payload) == 1:
            if self.connected:
                now = self._tick()
                lost = self.dropped + self.ring.lost
                body = struct.pack("<BIII", payload[0], now, self.resends, lost)
                self.hw.write(encode(0, CLOCK, body))
        elif kind in (ACK, CLOCK_QUERY):
            self._error(ERR_BAD_PAYLOAD, kind)
        else:
            self._error(ERR_UNKNOWN_TYPE, kind)

    def _identify(self, payload: bytes) -> None:
        first = self.unacked[0].seq if self.unacked else self.next_seq
        body = pack_identity(CLOCK_HZ, self.boot_id, first, self.levels, self._tick(), self.pins)
        self.hw.write(encode(0, IDENTITY, body))
        if len(payload) < 1 or payload[0] != PROTOCOL_VERSION:
            # Say why, and send nothing more until a host of our version asks.
            self.connected = False
            self._error(ERR_VERSION, PROTOCOL_VERSION)
            return
        self.connected = True
        self.rto = RTO_INITIAL_US
        if self.unacked:
            self._resend_all(self.now32)  # a new host session: start from the oldest

    def _ack(self, next_expected: int, flags: int) -> None:
        now = self.now32
        acked = None
        while self.unacked and seq_before(self.unacked[0].seq, next_expected):
            acked = self.unacked.pop(0)
        if acked is not None:
            if not acked.resent:  # Karn: a resent frame's round trip is ambiguous
                self._rtt_sample((now - acked.sent_at) & MASK32)
            for sent in self.unacked:
                sent.sent_at = now  # restart the timer for what is still in flight
        if flags & ACK_NAK and self.unacked:
            self._resend_all(now)

    def _rtt_sample(self, rtt: int) -> None:
        if not self.srtt:
            self.srtt, self.rttvar = rtt, rtt // 2
        else:
            self.rttvar = (3 * self.rttvar + abs(self.srtt - rtt)) // 4
            self.srtt = (7 * self.srtt + rtt) // 8
        self.rto = min(max(self.srtt + 4 * self.rttvar, RTO_MIN_US), RTO_MAX_US)

    def _error(self, code: int, detail: int) -> None:
        self.hw.write(encode(0, ERROR, bytes([code, detail & 0xFF])))
