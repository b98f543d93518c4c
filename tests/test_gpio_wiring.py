"""The gpiozero backend on MockFactory: pins claimed as configured, callbacks hooked,
everything released on close; the pin factory choice; the not-a-Pi error; ticks."""

from __future__ import annotations

import doctest
import gc
import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device, InputDevice  # type: ignore[import-untyped]
from gpiozero.exc import GPIOPinInUse  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

import controller.sensors.gpio
from controller.errors import TablerefError
from controller.sensors.edges import EdgeEvent
from controller.sensors.gpio import (
    GpioEdgeSource,
    GpioError,
    NotAPiError,
    TickFormat,
    check_can_drive,
    monotonic_ticks_to_mono_ns,
    open_gpio_source,
    pi_model,
    resolve_pin_factory,
    tick_format_of,
    us32_ticks_to_mono_ns,
)
from controller.sensors.lines import (
    Active,
    LineConfig,
    PinFactory,
    Pull,
    Role,
    SensorSettings,
)
from controller.timebase import SimClock

ROOT = Path(__file__).resolve().parent.parent


def _line(role: Role, pin: int, active: Active, pull: Pull) -> LineConfig:
    return LineConfig(role=role, pin=pin, kind=role.kind, active=active, pull=pull)


LINES = (
    _line(Role.START_A, 23, Active.HIGH, Pull.UP),
    _line(Role.FAULT_A, 17, Active.HIGH, Pull.NONE),  # a receiver that drives its output
    _line(Role.FAULT_B, 27, Active.LOW, Pull.DOWN),
    _line(Role.CALL_HEADS, 5, Active.LOW, Pull.UP),
    _line(Role.CALL_TAILS, 6, Active.HIGH, Pull.DOWN),
)
GPIOZERO_PULL = {Pull.UP: "up", Pull.DOWN: "down", Pull.NONE: "floating"}


@pytest.fixture
def factory() -> Iterator[Any]:
    """A fresh MockFactory, reset afterwards; the global Device.pin_factory is left alone."""
    saved = Device.pin_factory
    made = MockFactory()
    try:
        yield made
    finally:
        made.reset()
        assert Device.pin_factory is saved  # the source never sets the global factory


@pytest.fixture
def source(factory: Any) -> Iterator[GpioEdgeSource]:
    made = GpioEdgeSource(LINES, factory)
    try:
        yield made
    finally:
        made.close()


def test_every_line_is_claimed_as_an_input_with_its_pull(
    factory: Any, source: GpioEdgeSource
) -> None:
    for line in LINES:
        pin = factory.pin(line.pin)
        assert pin.function == "input"
        assert pin.pull == GPIOZERO_PULL[line.pull], line
        # No debounce anywhere: kernel debounce swallows 0.3 ms coin breaks.
        assert pin.bounce is None
        assert pin.edges == "both"
        with pytest.raises(GPIOPinInUse):
            InputDevice(line.pin, pin_factory=factory)


def test_callbacks_are_hooked_on_start_not_before(factory: Any, source: GpioEdgeSource) -> None:
    assert all(factory.pin(line.pin).when_changed is None for line in LINES)
    got: list[EdgeEvent] = []
    source.start(got.append)
    assert all(factory.pin(line.pin).when_changed is not None for line in LINES)
    factory.pin(27).drive_high()  # fault_b, pulled down, goes high
    factory.pin(5).drive_low()  # call_heads pressed
    assert [(e.line, e.level, e.seq) for e in got] == [
        ("fault_b", True, 1),
        ("call_heads", False, 2),
    ]


def test_levels_are_read_from_the_pins(factory: Any, source: GpioEdgeSource) -> None:
    assert source.levels() == {
        "start_a": True,  # pull-up, nothing driving it
        "fault_a": False,  # floating reads low on the mock
        "fault_b": False,
        "call_heads": True,
        "call_tails": False,
    }


def test_close_releases_every_pin_and_unhooks_every_callback(factory: Any) -> None:
    source = GpioEdgeSource(LINES, factory)
    got: list[EdgeEvent] = []
    source.start(got.append)
    pins = [factory.pin(line.pin) for line in LINES]
    source.close()
    assert all(pin.when_changed is None for pin in pins)
    for line in LINES:
        InputDevice(line.pin, pin_factory=factory).close()  # free to claim again
    pins[0].drive_low()
    assert got == []
    with pytest.raises(GpioError, match="closed"):
        source.start(got.append)


def test_an_owned_factory_is_closed_with_the_source(factory: Any) -> None:
    source = GpioEdgeSource(LINES[:1], factory, owns_factory=True)
    assert factory.pins
    source.close()
    assert not factory.pins  # MockFactory.close() closes and forgets every pin


def test_a_pin_in_use_names_the_role_and_releases_what_was_claimed(factory: Any) -> None:
    squatter = InputDevice(5, pin_factory=factory)  # call_heads' pin, taken elsewhere
    with pytest.raises(GpioError, match=r"cannot claim pin 5 for 'call_heads'"):
        GpioEdgeSource(LINES, factory)
    squatter.close()
    for line in LINES:  # the lines claimed before the failure were given back
        InputDevice(line.pin, pin_factory=factory).close()


def test_callbacks_survive_garbage_collection(factory: Any, source: GpioEdgeSource) -> None:
    """gpiozero keeps when_changed through a weak reference; the source must not lose it."""
    got: list[EdgeEvent] = []
    source.start(got.append)
    gc.collect()
    factory.pin(23).drive_low()
    assert [e.line for e in got] == ["start_a"]


# --- choosing the factory, and refusing to run off a Pi ----------------------------------

MOCK_SETTINGS = SensorSettings(pin_factory=PinFactory.MOCK, lines=LINES[:2])


def test_open_with_the_mock_factory_runs_anywhere(tmp_path: Path) -> None:
    source = open_gpio_source(MOCK_SETTINGS, model_path=tmp_path / "no-model")
    try:
        assert type(source.factory).__name__ == "MockFactory"
        assert set(source.levels()) == {"start_a", "fault_a"}
    finally:
        source.close()


def test_the_factory_can_come_from_the_environment(tmp_path: Path) -> None:
    settings = SensorSettings(lines=LINES[:1])
    env = {"GPIOZERO_PIN_FACTORY": "mock"}
    source = open_gpio_source(settings, environ=env, model_path=tmp_path / "no-model")
    source.close()
    assert type(source.factory).__name__ == "MockFactory"


@pytest.mark.parametrize(
    ("configured", "env", "expected"),
    [
        (None, {}, PinFactory.LGPIO),
        (None, {"GPIOZERO_PIN_FACTORY": ""}, PinFactory.LGPIO),
        (None, {"GPIOZERO_PIN_FACTORY": "RPiGPIO"}, PinFactory.RPIGPIO),
        (None, {"GPIOZERO_PIN_FACTORY": "native"}, PinFactory.NATIVE),
        (PinFactory.MOCK, {"GPIOZERO_PIN_FACTORY": "lgpio"}, PinFactory.MOCK),
    ],
)
def test_resolve_pin_factory(
    configured: PinFactory | None, env: dict[str, str], expected: PinFactory
) -> None:
    assert resolve_pin_factory(configured, env) is expected


def test_an_unsupported_factory_in_the_environment_is_an_error() -> None:
    with pytest.raises(GpioError, match=r"\$GPIOZERO_PIN_FACTORY='pigpio' is not a pin factory"):
        resolve_pin_factory(None, {"GPIOZERO_PIN_FACTORY": "pigpio"})


@pytest.mark.parametrize("factory_name", [PinFactory.LGPIO, PinFactory.RPIGPIO, PinFactory.NATIVE])
def test_off_a_pi_a_hardware_factory_is_a_clear_error(
    tmp_path: Path, factory_name: PinFactory
) -> None:
    settings = SensorSettings(pin_factory=factory_name, lines=LINES)
    with pytest.raises(NotAPiError) as info:
        open_gpio_source(settings, model_path=tmp_path / "model")
    message = str(info.value)
    assert message.startswith("backend 'gpio' needs a Raspberry Pi: ")
    assert "use backend = 'sim'" in message
    assert isinstance(info.value, TablerefError)


def test_another_board_is_not_a_pi(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Radxa ROCK 5B\x00")
    assert pi_model(model) is None
    with pytest.raises(NotAPiError):
        check_can_drive(PinFactory.LGPIO, model)


def test_a_pi_is_recognised_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert pi_model(model) == "Raspberry Pi 5 Model B Rev 1.0"


def test_a_pi_without_lgpio_says_which_package_to_install(tmp_path: Path) -> None:
    if importlib.util.find_spec("lgpio") is not None:
        pytest.skip("lgpio is installed here")
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    with pytest.raises(GpioError, match="needs the 'lgpio' package"):
        check_can_drive(PinFactory.LGPIO, model)


def test_no_gpio_library_is_imported_off_a_pi(tmp_path: Path) -> None:
    """RPi.GPIO raises on import off a Pi; importing tableref must never pull it in,
    nor gpiozero itself until a GPIO source is opened."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "import controller.config, controller.sensors.gpio as g\n"
        "assert 'gpiozero' not in sys.modules\n"
        "from controller.sensors.lines import PinFactory, SensorSettings\n"
        "for f in (PinFactory.RPIGPIO, PinFactory.LGPIO):\n"
        "    try:\n"
        f"        model = Path({str(tmp_path / 'model')!r})\n"
        "        g.open_gpio_source(SensorSettings(pin_factory=f), model_path=model)\n"
        "    except g.NotAPiError:\n"
        "        pass\n"
        "assert not {'RPi', 'RPi.GPIO', 'lgpio', 'gpiozero'} & set(sys.modules), sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=30)


# --- ticks -> mono_ns ------------------------------------------------------------------


def test_monotonic_ticks_keep_the_kernel_nanoseconds() -> None:
    # lgpio hands gpiozero the kernel stamp in ns; gpiozero divides by 1e9.
    for kernel_ns in (1, 123_456_789, 86_400_000_000_123, 8_640_000_000_000_007):
        assert monotonic_ticks_to_mono_ns(kernel_ns / 1_000_000_000) == kernel_ns


@pytest.mark.parametrize(
    ("edge", "now", "age_us"),
    [
        (1_000, 1_250, 250),
        (2**32 - 100, 50, 150),  # the counter wrapped between the edge and the reading
        (2**32 - 1, 0, 1),
        (7, 7, 0),
    ],
)
def test_32_bit_microsecond_ticks_wrap(edge: int, now: int, age_us: int) -> None:
    assert us32_ticks_to_mono_ns(edge, now, 5_000_000_000) == 5_000_000_000 - age_us * 1_000


class PiGPIOFactory(MockFactory):  # type: ignore[misc]
    """Stands in for pigpio's factory: 32-bit microsecond ticks, any epoch."""

    now_ticks = 2**32 - 10

    def ticks(self) -> int:
        return self.now_ticks


def test_a_32_bit_tick_factory_is_mapped_through_the_clock() -> None:
    factory = PiGPIOFactory()
    assert tick_format_of(factory) is TickFormat.MICROS_32
    assert tick_format_of(MockFactory()) is TickFormat.MONOTONIC_SECONDS
    with pytest.raises(GpioError, match="needs a clock"):
        GpioEdgeSource(LINES[:1], factory)
    clock = SimClock(start_ns=9_000_000_000)
    source = GpioEdgeSource(LINES[:1], factory, clock=clock)
    try:
        factory.now_ticks = 40  # read after the wrap
        assert source.ticks_to_mono_ns(2**32 - 60) == 9_000_000_000 - 100_000
    finally:
        source.close()
        factory.reset()


def test_docstring_examples() -> None:
    result = doctest.testmod(controller.sensors.gpio, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
