"""The gpiozero edge source: light gates and buttons on the Pi's own header.

Each configured line is a gpiozero ``InputDevice`` with the configured pull,
and we hook the *pin-level* callback ``pin.when_changed(ticks, state)``: under
the lgpio factory ``ticks`` is the kernel's timestamp of the edge (taken in the
interrupt, CLOCK_MONOTONIC), while ``when_pressed`` and ``LineSensor`` give no
timestamp at all (and ``LineSensor`` polls at 100 Hz, missing a 0.5 ms coin).
There is no ``bounce_time`` on any line: under lgpio it becomes kernel
debounce, which swallows pulses shorter than the setting and delays the
stamp. Buttons are debounced in software after the fact
(:mod:`controller.sensors.buttons`), keeping the first edge's time.

gpiozero is imported here only, and only when a source is opened, so the rest
of tableref (and every machine that is not a Pi) runs without it.

>>> from controller.sensors.lines import Active, LineKind, Pull, Role
>>> settings = SensorSettings(pin_factory=PinFactory.MOCK, lines=(LineConfig(
...     role=Role.FAULT_A, pin=17, kind=LineKind.BEAM, active=Active.HIGH, pull=Pull.UP),))
>>> source = open_gpio_source(settings)
>>> got = []
>>> source.start(got.append)
>>> source.factory.pin(17).drive_low()  # a MockFactory pin, as wired
>>> [(e.line, e.level, e.seq) for e in got]
[('fault_a', False, 1)]
>>> source.close()
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from controller.errors import TablerefError
from controller.sensors.edges import EdgeEvent, EdgeSink
from controller.sensors.lines import Active, LineConfig, PinFactory, Pull, SensorSettings
from controller.timebase import NS_PER_S, Clock

PI_MODEL_PATH = Path("/proc/device-tree/model")
"""The device tree's board name: "Raspberry Pi 5 Model B Rev 1.0" on a Pi."""

FACTORY_ENV = "GPIOZERO_PIN_FACTORY"
DEFAULT_FACTORY = PinFactory.LGPIO

_FACTORY_CLASSES = {
    PinFactory.LGPIO: ("gpiozero.pins.lgpio", "LGPIOFactory"),
    PinFactory.RPIGPIO: ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    PinFactory.NATIVE: ("gpiozero.pins.native", "NativeFactory"),
    PinFactory.MOCK: ("gpiozero.pins.mock", "MockFactory"),
}

_PULL_UP = {Pull.UP: True, Pull.DOWN: False, Pull.NONE: None}
"""gpiozero's ``pull_up`` argument for each pull (None = floating)."""

US32_WRAP = 1 << 32
"""pigpio-style ticks are unsigned 32-bit microseconds: they wrap every 71.6 min."""


class GpioError(TablerefError):
    """The GPIO backend cannot run as configured."""


class NotAPiError(GpioError):
    """The GPIO backend was asked for on a machine that is not a Raspberry Pi."""


class TickFormat(StrEnum):
    """What a gpiozero factory passes as ``ticks`` to ``when_changed``."""

    # lgpio: the kernel edge stamp (ns) / 1e9; rpigpio, native, mock:
    # time.monotonic() at callback, poll or drive time. All CLOCK_MONOTONIC.
    MONOTONIC_SECONDS = "monotonic-seconds"
    # pigpio: the daemon's unsigned 32-bit microsecond counter, any epoch.
    MICROS_32 = "micros-32"


def monotonic_ticks_to_mono_ns(ticks: float) -> int:
    """gpiozero ticks in CLOCK_MONOTONIC seconds -> ``mono_ns``.

    A float holds a monotonic time of 100 days to better than a nanosecond,
    so rounding gives back the kernel's stamp.

    >>> monotonic_ticks_to_mono_ns(1234.000000512)
    1234000000512
    """
    return round(ticks * NS_PER_S)


def us32_ticks_to_mono_ns(edge_ticks: int, now_ticks: int, now_mono_ns: int) -> int:
    """A 32-bit microsecond tick -> ``mono_ns``, by its age against a pair read now.

    ``now_ticks`` and ``now_mono_ns`` are read together just after the edge;
    the age is taken modulo 2**32, so an edge just before the counter wrapped
    and a reading just after it still give the right, small age.

    >>> us32_ticks_to_mono_ns(2**32 - 100, 50, 10_000_000)  # wrapped in between
    9850000
    """
    age_us = (now_ticks - edge_ticks) % US32_WRAP
    return now_mono_ns - age_us * 1_000


class _Pin(Protocol):
    state: Any
    when_changed: Callable[[Any, Any], None] | None
    bounce: float | None
    edges: str


class _Device(Protocol):
    @property
    def pin(self) -> _Pin: ...

    def close(self) -> None: ...


def pi_model(path: Path = PI_MODEL_PATH) -> str | None:
    """The board's model name when it is a Raspberry Pi, else None.

    >>> pi_model(Path("/nonexistent/model")) is None
    True
    """
    try:
        model = path.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def resolve_pin_factory(
    configured: PinFactory | None, environ: Mapping[str, str] = os.environ
) -> PinFactory:
    """The factory to use: the config's, else ``$GPIOZERO_PIN_FACTORY``, else lgpio.

    >>> resolve_pin_factory(None, {"GPIOZERO_PIN_FACTORY": "mock"})
    <PinFactory.MOCK: 'mock'>
    >>> resolve_pin_factory(PinFactory.LGPIO, {"GPIOZERO_PIN_FACTORY": "mock"})
    <PinFactory.LGPIO: 'lgpio'>
    """
    if configured is not None:
        return configured
    name = environ.get(FACTORY_ENV, "").strip().lower()
    if not name:
        return DEFAULT_FACTORY
    try:
        return PinFactory(name)
    except ValueError:
        allowed = ", ".join(f.value for f in PinFactory)
        raise GpioError(
            f"${FACTORY_ENV}={name!r} is not a pin factory tableref supports "
            f"({allowed}); set [sensors] pin_factory in the config"
        ) from None


def check_can_drive(factory: PinFactory, model_path: Path = PI_MODEL_PATH) -> None:
    """Refuse a hardware factory off a Pi, before anything imports RPi.GPIO or lgpio.

    RPi.GPIO raises on import on other machines and lgpio finds no GPIO chip;
    both would fail later with a message that says nothing about the config.

    >>> check_can_drive(PinFactory.MOCK)  # the mock runs anywhere
    >>> check_can_drive(PinFactory.LGPIO, Path("/nonexistent/model"))
    Traceback (most recent call last):
    ...
    controller.sensors.gpio.NotAPiError: backend 'gpio' needs a Raspberry Pi: ...
    """
    if factory is PinFactory.MOCK:
        return
    if pi_model(model_path) is None:
        raise NotAPiError(
            f"backend 'gpio' needs a Raspberry Pi: {model_path} does not name one "
            f"(pin factory {factory.value}); use backend = 'sim' in [hardware], "
            f"or [sensors] pin_factory = 'mock' to try the wiring"
        )
    module = _FACTORY_CLASSES[factory][0]
    needed = {PinFactory.LGPIO: "lgpio", PinFactory.RPIGPIO: "RPi"}.get(factory)
    # find_spec looks for the package without importing it (RPi.GPIO's import has side effects).
    if needed is not None and importlib.util.find_spec(needed) is None:
        raise GpioError(
            f"pin factory {factory.value} ({module}) needs the {needed!r} package: "
            "install tableref with the 'pi' extra (lgpio) or 'pi-legacy' (RPi.GPIO)"
        )


def make_factory(factory: PinFactory) -> Any:
    """Import and create the gpiozero pin factory (call :func:`check_can_drive` first)."""
    module_name, class_name = _FACTORY_CLASSES[factory]
    try:
        factory_class = getattr(importlib.import_module(module_name), class_name)
        return factory_class()
    except ImportError as exc:
        raise GpioError(f"pin factory {factory.value} needs gpiozero: {exc}") from exc
    except Exception as exc:  # gpiozero and the GPIO libraries raise many kinds
        raise GpioError(f"cannot open pin factory {factory.value}: {exc}") from exc


def tick_format_of(factory: Any) -> TickFormat:
    """How a gpiozero factory object stamps edges (pigpio alone uses 32-bit µs)."""
    if type(factory).__name__ == "PiGPIOFactory":
        return TickFormat.MICROS_32
    return TickFormat.MONOTONIC_SECONDS


def open_gpio_source(
    settings: SensorSettings,
    *,
    clock: Clock | None = None,
    environ: Mapping[str, str] = os.environ,
    model_path: Path = PI_MODEL_PATH,
) -> GpioEdgeSource:
    """Choose, check and create the pin factory, then claim every configured line."""
    factory = resolve_pin_factory(settings.pin_factory, environ)
    check_can_drive(factory, model_path)
    return GpioEdgeSource(settings.lines, make_factory(factory), clock=clock, owns_factory=True)


class GpioEdgeSource:
    """An :class:`~controller.sensors.edges.EdgeSource` over gpiozero pins.

    The constructor claims every line (so a wrong pin stops the service at
    start-up); :meth:`start` hooks the callbacks; :meth:`close` releases every
    pin, and the factory too when this source created it.
    """

    def __init__(
        self,
        lines: Sequence[LineConfig],
        factory: Any,
        *,
        clock: Clock | None = None,
        owns_factory: bool = False,
    ) -> None:
        self._factory = factory
        self._owns_factory = owns_factory
        self._clock = clock
        self._format = tick_format_of(factory)
        if self._format is TickFormat.MICROS_32 and clock is None:
            raise GpioError("a factory with 32-bit tick counters needs a clock to map them")
        self._lock = threading.Lock()
        self._sink: EdgeSink | None = None
        self._seq = 0
        self._devices: dict[str, _Device] = {}
        # gpiozero holds when_changed through a weak reference: we keep the
        # strong one, or the callbacks would be collected and edges lost.
        self._callbacks: dict[str, Callable[[Any, Any], None]] = {}
        self._closed = False
        try:
            for line in lines:
                self._devices[line.role.value] = self._claim(line)
        except BaseException:
            self.close()
            raise

    @property
    def factory(self) -> Any:
        """The gpiozero pin factory (a MockFactory in tests, to drive pins)."""
        return self._factory

    def _claim(self, line: LineConfig) -> _Device:
        input_device = importlib.import_module("gpiozero").InputDevice
        pull_up = _PULL_UP[line.pull]
        # gpiozero wants to know the active state only for a floating pin; our
        # own LineConfig decides what a level means, so this is only for it.
        active_state = (line.active is Active.HIGH) if pull_up is None else None
        try:
            device: _Device = input_device(
                line.pin, pull_up=pull_up, active_state=active_state, pin_factory=self._factory
            )
            device.pin.bounce = None  # never debounce: it swallows 0.3 ms beam breaks
            device.pin.edges = "both"
        except Exception as exc:
            raise GpioError(f"cannot claim pin {line.pin} for {line.role.value!r}: {exc}") from exc
        return device

    def start(self, sink: EdgeSink) -> None:
        """Hook every line's pin-level callback; edges go to ``sink`` from gpiozero's thread."""
        if self._closed:
            raise GpioError("the GPIO edge source is closed")
        self._sink = sink
        for role, device in self._devices.items():
            self._callbacks[role] = self._callback(role)
            device.pin.when_changed = self._callbacks[role]

    def _callback(self, role: str) -> Callable[[Any, Any], None]:
        def when_changed(ticks: Any, state: Any) -> None:
            # lgpio reports level 2 for a watchdog timeout (no edge); we set no
            # watchdog, but a non-level must never become an edge.
            if state not in (0, 1):
                return
            self._emit(role, bool(state), self.ticks_to_mono_ns(ticks))

        return when_changed

    def ticks_to_mono_ns(self, ticks: Any) -> int:
        """Map this factory's ``ticks`` to ``mono_ns`` (the named conversion)."""
        if self._format is TickFormat.MICROS_32:
            assert self._clock is not None  # checked in __init__
            now_ticks = int(self._factory.ticks())
            return us32_ticks_to_mono_ns(int(ticks), now_ticks, self._clock.mono_ns())
        return monotonic_ticks_to_mono_ns(float(ticks))

    def _emit(self, role: str, level: bool, t_ns: int) -> None:
        # One lock so that seq order is delivery order when callbacks come
        # from more than one thread; the sink only enqueues.
        with self._lock:
            sink = self._sink
            if sink is None:
                return
            self._seq += 1
            sink(EdgeEvent(line=role, level=level, t_ns=t_ns, seq=self._seq))

    def levels(self) -> dict[str, bool]:
        """The current level of every line (True = high), read from the pins."""
        return {role: bool(device.pin.state) for role, device in self._devices.items()}

    def close(self) -> None:
        """Unhook the callbacks and release every pin (and an owned factory)."""
        with self._lock:
            self._sink = None
        for device in self._devices.values():
            device.close()  # gpiozero unhooks when_changed and releases the reservation
        self._devices.clear()
        self._callbacks.clear()
        if self._owns_factory and not self._closed:
            self._factory.close()
        self._closed = True
