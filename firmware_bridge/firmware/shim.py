"""The firmware's view of the hardware, and a fake of it for CPython.

On the board, ``main.py`` implements :class:`Hardware` with ``machine.Pin``,
``time.ticks_us``, the USB serial port and ``machine.WDT``. In the tests and
in the simulated microcontroller, :class:`FakeHardware` stands in: its clock
is set by the caller, its serial port is two byte buffers, and an edge is a
call to :meth:`FakeHardware.edge`, which does what the pin interrupt does.

This module is never copied to the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Hardware(Protocol):
    """What the firmware logic needs from the board."""

    TICKS_PERIOD: int

    def ticks_us(self) -> int:
        """The free-running microsecond counter, modulo ``TICKS_PERIOD``."""
        ...

    def read(self) -> bytes:
        """Whatever the host has sent since the last call (never blocks)."""
        ...

    def write(self, data: bytes) -> None:
        """Send bytes to the host."""
        ...

    def pin_value(self, gpio: int) -> int:
        """The level of a pin now (0 or 1)."""
        ...

    def feed_watchdog(self) -> None:
        """Tell the watchdog the main loop is alive."""
        ...


IrqHandler = Callable[[int, int, int], None]


class FakeHardware:
    """A board with a settable clock, byte buffers for serial and fake pins.

    ``now_us`` is the board's true elapsed microseconds; the counter it shows
    wraps at ``ticks_period`` (2**30 like MicroPython's ``ticks_us`` on the
    RP2040, so the tests cross a wrap quickly).
    """

    def __init__(self, levels: dict[int, int], ticks_period: int = 1 << 30) -> None:
        self.TICKS_PERIOD = ticks_period
        self.now_us = 0
        self.levels = dict(levels)
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.watchdog_feeds = 0
        self.irq: IrqHandler | None = None

    def ticks_us(self) -> int:
        return self.now_us % self.TICKS_PERIOD

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        self.outbox += data

    def pin_value(self, gpio: int) -> int:
        return self.levels[gpio]

    def feed_watchdog(self) -> None:
        self.watchdog_feeds += 1

    def edge(self, gpio: int, level: int, at_us: int) -> None:
        """The pin changes at ``at_us``: what the interrupt handler sees."""
        self.levels[gpio] = level
        if self.irq is not None:
            self.irq(gpio, level, at_us % self.TICKS_PERIOD)

    def take_output(self) -> bytes:
        """Everything the firmware wrote since the last call."""
        data = bytes(self.outbox)
        self.outbox.clear()
        return data
