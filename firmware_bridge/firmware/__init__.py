"""The bridge firmware: MicroPython for an RP2040 board (the Raspberry Pi Pico).

``main.py`` is the only module that touches the hardware (``machine``, the
USB serial port, the watchdog); everything else is plain Python that runs the
same under MicroPython on the board and under CPython in the tests, behind the
small hardware interface of :mod:`firmware_bridge.firmware.shim`.
"""
