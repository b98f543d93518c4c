"""A simulated microcontroller: the real firmware logic on a simulated board.

:class:`SimMcu` is :class:`~firmware_bridge.firmware.core.Firmware` behind
:class:`~firmware_bridge.firmware.shim.FakeHardware`, with a crystal that runs
``drift_ppm`` fast and a counter that starts anywhere. :class:`Channel` is
one direction of the USB cable: a latency of ``base`` plus up to ``jitter``,
order kept, and bytes corrupted or dropped at the given rates.

:class:`PtyMcu` runs one in real time behind a pty pair, so the host opens
it like a real board (a symlink stands in for ``/dev/serial/by-id/...``), and
can unplug and replug it. ``python -m firmware_bridge.simmcu`` runs one
from a terminal for trying a live table by hand.
"""

from __future__ import annotations

import contextlib
import heapq
import os
import random
import select
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.firmware.board import PINS
from firmware_bridge.firmware.core import Firmware
from firmware_bridge.firmware.shim import FakeHardware

MS = 1_000_000


@dataclass(frozen=True, slots=True)
class LinkNoise:
    """What the cable does to bytes, each direction."""

    base_ns: int = 100_000
    jitter_ns: int = 2 * MS  # each message's extra latency is uniform in [0, jitter]
    corrupt: float = 0.0  # per byte: replaced by a random other value
    drop: float = 0.0  # per byte: lost


class SimMcu:
    """A board: firmware logic, pins at their levels, a drifting counter."""

    def __init__(
        self,
        *,
        drift_ppm: float = 0.0,
        levels: dict[int, int] | None = None,
        boot_id: int = 1,
        counter_start_us: int = 0,
        pins: list[tuple[int, int]] | None = None,
    ) -> None:
        self.pins = list(PINS if pins is None else pins)
        start = {gpio: 1 for gpio, _ in self.pins} | dict(levels or {})
        self.hw = FakeHardware(start)
        self.rate = 1.0 + drift_ppm * 1e-6
        self.counter_start_us = counter_start_us
        self.hw.now_us = counter_start_us
        self.firmware = Firmware(self.hw, self.pins, boot_id)
        self.hw.irq = self.firmware.ring.put

    def counter_at(self, true_ns: int) -> int:
        """The board's counter (unwrapped) at true time ``true_ns`` (since boot)."""
        return self.counter_start_us + int(true_ns * self.rate) // 1000

    def counter32(self, true_ns: int) -> int:
        """The firmware's own 32-bit counter at ``true_ns`` (it starts from the
        raw ticks it read at boot, so it differs from :meth:`counter_at`)."""
        start_raw = self.counter_start_us % self.hw.TICKS_PERIOD
        return (start_raw + self.counter_at(true_ns) - self.counter_start_us) & 0xFFFFFFFF

    def run(self, true_ns: int, data: bytes = b"") -> bytes:
        """Hand the board ``data`` at ``true_ns``, run one loop pass, return its output."""
        self.hw.now_us = self.counter_at(true_ns)
        self.hw.inbox += data
        self.firmware.poll()
        return self.hw.take_output()

    def edge(self, gpio: int, level: int, true_ns: int) -> None:
        """A pin changes at ``true_ns``: the interrupt stamps it."""
        self.hw.edge(gpio, level, self.counter_at(true_ns))

    def retransmit_due_ns(self, true_ns: int) -> int | None:
        """When (true time) the firmware will next resend, if it has frames in flight."""
        fw = self.firmware
        if not fw.unacked or not fw.connected:
            return None
        elapsed_us = (fw.now32 - fw.unacked[0].sent_at) & 0xFFFFFFFF
        left_us = max(0, fw.rto - elapsed_us)
        return true_ns + int(left_us * 1000 / self.rate) + 1000


class Channel:
    """One direction of the cable on simulated time."""

    def __init__(self, noise: LinkNoise, rng: random.Random) -> None:
        self.noise = noise
        self.rng = rng
        self._queue: list[tuple[int, int, bytes]] = []
        self._last = 0
        self._n = 0
        self.corrupted = 0
        self.dropped = 0

    def send(self, data: bytes, now_ns: int) -> None:
        if not data:
            return
        noise = self.noise
        at = now_ns + noise.base_ns + int(self.rng.uniform(0, noise.jitter_ns))
        at = max(at, self._last)  # USB keeps order
        self._last = at
        self._n += 1
        heapq.heappush(self._queue, (at, self._n, self._mangle(data)))

    def _mangle(self, data: bytes) -> bytes:
        noise = self.noise
        if not noise.corrupt and not noise.drop:
            return data
        out = bytearray()
        for byte in data:
            roll = self.rng.random()
            if roll < noise.drop:
                self.dropped += 1
                continue
            if roll < noise.drop + noise.corrupt:
                self.corrupted += 1
                byte ^= self.rng.randrange(1, 256)
            out.append(byte)
        return bytes(out)

    def next_at(self) -> int | None:
        return self._queue[0][0] if self._queue else None

    def take(self, now_ns: int) -> bytes:
        out = b""
        while self._queue and self._queue[0][0] <= now_ns:
            out += heapq.heappop(self._queue)[2]
        return out

    def clear(self) -> None:
        """Drop what is in flight (an unplug); order starts afresh, since a
        rebooted board's clock starts again from zero."""
        self._queue.clear()
        self._last = 0


class PtyMcu:
    """A :class:`SimMcu` in a thread behind a pty pair, in real time.

    ``link`` is the path of a symlink to the pty's slave end, standing in for
    ``/dev/serial/by-id/...``: :meth:`unplug` closes the master end and
    removes the link, :meth:`replug` makes a new pair and link. The board
    keeps running (and buffering edges) while unplugged, as one with its own
    power does; ``reboot=True`` on replug starts it afresh.
    """

    def __init__(self, link: Path, *, drift_ppm: float = 0.0, noise: LinkNoise | None = None,
                 seed: int = 0) -> None:  # fmt: skip
        self.link = link
        self.drift_ppm = drift_ppm
        self.noise = noise or LinkNoise(jitter_ns=0, base_ns=0)
        self.rng = random.Random(seed)
        self._boots = 1
        self._epoch_ns = time.monotonic_ns()
        self.mcu = SimMcu(drift_ppm=drift_ppm, boot_id=self._boots, counter_start_us=123_456)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._master: int | None = None
        self._to_mcu = Channel(self.noise, self.rng)
        self._to_host = Channel(self.noise, self.rng)
        self._thread = threading.Thread(target=self._run, name="simmcu", daemon=True)
        self.replug()
        self._thread.start()

    def set_noise(self, noise: LinkNoise) -> None:
        """Change what the cable does from now on."""
        with self._lock:
            self.noise = noise
            self._to_mcu.noise = noise
            self._to_host.noise = noise

    def now_ns(self) -> int:
        """True time since the board booted (the simulation's own clock)."""
        return time.monotonic_ns() - self._epoch_ns

    def edge(self, gpio: int, level: int) -> None:
        """A pin changes now."""
        with self._lock:
            self.mcu.edge(gpio, level, self.now_ns())

    def unplug(self) -> None:
        """Pull the cable: the host's port goes away."""
        with self._lock:
            if self._master is not None:
                os.close(self._master)
                self._master = None
            self.link.unlink(missing_ok=True)
            self._to_mcu.clear()
            self._to_host.clear()

    def replug(self, *, reboot: bool = False) -> None:
        """Plug the cable back in (a new pty, the link pointing at it)."""
        if self._master is not None:
            self.unplug()  # a power cycle is an unplug too
        with self._lock:
            if reboot:
                self._boots += 1
                self._epoch_ns = time.monotonic_ns()
                self.mcu = SimMcu(drift_ppm=self.drift_ppm, boot_id=self._boots)
            master, slave = os.openpty()
            name = os.ttyname(slave)
            os.close(slave)  # the host opens it by name
            self._master = master
            self.link.unlink(missing_ok=True)
            self.link.symlink_to(name)

    def close(self) -> None:
        """Stop the board and remove the link."""
        self._stop.set()
        self._thread.join(timeout=2)
        self.unplug()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master = self._master
            if master is None:
                with self._lock:
                    self.mcu.run(self.now_ns())  # keeps timestamping while unplugged
                time.sleep(0.002)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.0005)
                data = os.read(master, 4096) if ready else b""
            except OSError:
                data = b""  # the slave is not open yet, or was closed
            self._step(data)

    def _step(self, data: bytes) -> None:
        with self._lock:
            if self._master is None:
                return
            now = self.now_ns()
            self._to_mcu.send(data, now)
            out = self.mcu.run(now, self._to_mcu.take(now))
            self._to_host.send(out, now)
            pending = self._to_host.take(now)
            if pending:
                # Nobody has the port open: the bytes are lost, as on USB.
                with contextlib.suppress(OSError):
                    os.write(self._master, pending)
