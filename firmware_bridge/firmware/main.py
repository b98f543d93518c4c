"""The board's entry point (MicroPython on an RP2040): copy the package to the
board and this file to its root as ``main.py`` (docs/bridge-protocol.md).

Everything with a hardware name lives here: the pins and their hard
interrupts, the USB serial port (stdin/stdout of MicroPython's USB CDC), the
microsecond counter and the watchdog. The logic is :mod:`core`'s.
"""

import sys

from firmware_bridge.firmware.board import PINS
from firmware_bridge.firmware.core import EdgeRing, Firmware
from firmware_bridge.firmware.messages import PULL_DOWN, PULL_UP

# Imported by name so that CPython and mypy, which have no such modules, can
# still read this file; on the board they are MicroPython's own.
machine = __import__("machine")
micropython = __import__("micropython")
select = __import__("select")
utime = __import__("time")
uos = __import__("os")

WATCHDOG_MS = 2000  # the loop feeds it every pass; a hang reboots the board
READ_MAX = 512  # bytes taken from USB per loop pass


class Board:
    """:class:`~firmware_bridge.firmware.shim.Hardware` on a real RP2040."""

    TICKS_PERIOD = 1 << 30  # time.ticks_us() wraps at 2**30 on the rp2 port

    def __init__(self) -> None:
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._pins = {}  # type: dict[int, object]
        self._wdt = machine.WDT(timeout=WATCHDOG_MS)

    def ticks_us(self) -> int:
        return int(utime.ticks_us())

    def read(self) -> bytes:
        data = b""
        while len(data) < READ_MAX and self._poll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data: bytes) -> None:
        self._out.write(data)

    def pin_value(self, gpio: int) -> int:
        return int(machine.Pin(gpio).value())

    def feed_watchdog(self) -> None:
        self._wdt.feed()


def _handler(ring: EdgeRing, gpio: int) -> object:
    rising = machine.Pin.IRQ_RISING
    falling = machine.Pin.IRQ_FALLING

    def on_edge(pin: object) -> None:
        ticks = utime.ticks_us()  # first: the timestamp is the point of the bridge
        flags = pin.irq().flags()  # type: ignore[attr-defined]
        if flags & rising and not flags & falling:
            level = 1
        elif flags & falling and not flags & rising:
            level = 0
        else:  # both edges before we ran: the pin's level now is the later one
            level = pin.value()  # type: ignore[attr-defined]
        ring.put(gpio, level, ticks)

    return on_edge


def main() -> None:
    micropython.kbd_intr(-1)  # a 0x03 byte in a frame must not stop the program
    board = Board()
    boot_id = int.from_bytes(uos.urandom(4), "little")
    pins = []
    for gpio, flags in PINS:
        pull = machine.Pin.PULL_UP if flags & PULL_UP else None
        if flags & PULL_DOWN:
            pull = machine.Pin.PULL_DOWN
        pins.append(machine.Pin(gpio, machine.Pin.IN, pull))
    firmware = Firmware(board, PINS, boot_id)
    trigger = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
    for index, (gpio, _) in enumerate(PINS):
        pins[index].irq(handler=_handler(firmware.ring, gpio), trigger=trigger, hard=True)
    while True:
        firmware.poll()


if __name__ == "__main__":
    main()
