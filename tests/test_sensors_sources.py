"""Contract tests: the fake edge source and the gpiozero source (on MockFactory)
pass the same assertions; then what only the fake can do (explicit timestamps)."""

from __future__ import annotations

import contextlib
import doctest
import time
from collections.abc import Iterator
from typing import Protocol

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

import controller.sensors.fake
from controller.sensors.edges import EdgeEvent, EdgeSource
from controller.sensors.fake import FakeEdgeSource, FakeSourceError
from controller.sensors.gpio import GpioEdgeSource
from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role

BEAM = LineConfig(role=Role.FAULT_A, pin=17, kind=LineKind.BEAM, active=Active.HIGH, pull=Pull.UP)
BUTTON = LineConfig(
    role=Role.CALL_HEADS, pin=5, kind=LineKind.BUTTON, active=Active.LOW, pull=Pull.UP
)
LINES = (BEAM, BUTTON)
IDLE = {"fault_a": False, "call_heads": True}


class Rig(Protocol):
    """A source under test and a way to move its lines."""

    @property
    def source(self) -> EdgeSource: ...

    def drive(self, line: str, level: bool) -> None: ...

    def levels(self) -> dict[str, bool]: ...


class FakeRig:
    """The fake: each drive is 250 µs after the previous one."""

    def __init__(self) -> None:
        self.fake = FakeEdgeSource.for_lines(LINES)
        self.t_ns = 1_000_000_000

    @property
    def source(self) -> EdgeSource:
        return self.fake

    def drive(self, line: str, level: bool) -> None:
        self.t_ns += 250_000
        self.fake.push(line, level, self.t_ns)

    def levels(self) -> dict[str, bool]:
        return self.fake.levels()


class MockRig:
    """gpiozero on MockFactory: the rig plays the receivers and the buttons."""

    def __init__(self) -> None:
        self.factory = MockFactory()
        self.gpio = GpioEdgeSource(LINES, self.factory)
        # A beam receiver pulls its line to idle while it sees the light; the
        # mock has none, so put every line where the hardware would hold it.
        for line in LINES:
            self._pin(line.role.value, line.idle_level)

    @property
    def source(self) -> EdgeSource:
        return self.gpio

    def _pin(self, line: str, level: bool) -> None:
        pin = self.factory.pin({line.role.value: line.pin for line in LINES}[line])
        if level:
            pin.drive_high()
        else:
            pin.drive_low()

    def drive(self, line: str, level: bool) -> None:
        self._pin(line, level)

    def levels(self) -> dict[str, bool]:
        return self.gpio.levels()


@pytest.fixture(params=["fake", "gpio-mock"])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    made: Rig = FakeRig() if request.param == "fake" else MockRig()
    try:
        yield made
    finally:
        made.source.close()
        if isinstance(made, MockRig):
            made.factory.reset()  # no pin or reservation leaks into the next test


def _started(rig: Rig) -> list[EdgeEvent]:
    got: list[EdgeEvent] = []
    rig.source.start(got.append)
    return got


# --- the contract -----------------------------------------------------------------------


def test_lines_start_idle_and_nothing_is_delivered_before_start(rig: Rig) -> None:
    assert rig.levels() == IDLE
    got = _started(rig)
    assert got == []


def test_edges_arrive_in_order_with_seq_from_one_and_the_right_levels(rig: Rig) -> None:
    got = _started(rig)
    script = [
        ("fault_a", True),  # coin enters the beam
        ("fault_a", False),  # and leaves it
        ("call_heads", False),  # caller presses heads (active low)
        ("call_heads", True),
        ("fault_a", True),
    ]
    for line, level in script:
        rig.drive(line, level)
    assert [(e.line, e.level) for e in got] == script
    assert [e.seq for e in got] == [1, 2, 3, 4, 5]
    assert all(isinstance(e.line, str) and type(e.level) is bool for e in got)
    assert rig.levels() == {"fault_a": True, "call_heads": True}


def test_timestamps_are_mono_ns_and_never_go_back(rig: Rig) -> None:
    got = _started(rig)
    before = time.monotonic_ns()
    for level in (True, False, True, False):
        rig.drive("fault_a", level)
    stamps = [e.t_ns for e in got]
    assert stamps == sorted(stamps)
    if isinstance(rig, MockRig):
        # MockFactory stamps with time.monotonic() at the drive call: the same
        # CLOCK_MONOTONIC as lgpio's kernel stamps, mapped to ns.
        assert before <= stamps[0] <= stamps[-1] <= time.monotonic_ns()


def test_close_stops_delivery_and_is_idempotent(rig: Rig) -> None:
    got = _started(rig)
    rig.drive("fault_a", True)
    rig.source.close()
    rig.source.close()
    # Hardware just goes quiet; the fake also says so, loudly.
    with contextlib.suppress(FakeSourceError):
        rig.drive("fault_a", False)
    assert [e.seq for e in got] == [1]


def test_a_sink_sees_each_edge_once(rig: Rig) -> None:
    got = _started(rig)
    for _ in range(50):
        rig.drive("call_heads", False)
        rig.drive("call_heads", True)
    assert len(got) == 100
    assert len({e.seq for e in got}) == 100


# --- what only the fake does: explicit timestamps ----------------------------------------


def _fake() -> tuple[FakeEdgeSource, list[EdgeEvent]]:
    source = FakeEdgeSource.for_lines(LINES)
    got: list[EdgeEvent] = []
    source.start(got.append)
    return source, got


def test_fake_keeps_the_given_timestamps_to_the_nanosecond() -> None:
    source, got = _fake()
    source.pulse("fault_a", True, 5_000_000_123, 300_000)  # a 0.3 ms edge-on coin
    assert [(e.level, e.t_ns) for e in got] == [(True, 5_000_000_123), (False, 5_000_300_123)]
    assert got[1].t_ns - got[0].t_ns == 300_000


def test_fake_allows_simultaneous_edges_but_not_time_going_back() -> None:
    source, got = _fake()
    source.push("fault_a", True, 100)
    source.push("call_heads", False, 100)  # two lines, same kernel stamp: fine
    with pytest.raises(FakeSourceError, match="before the previous one"):
        source.push("fault_a", False, 99)
    assert [e.seq for e in got] == [1, 2]


def test_fake_refuses_lines_it_does_not_have() -> None:
    source, _ = _fake()
    with pytest.raises(FakeSourceError, match=r"no line 'fault_b' \(known: call_heads, fault_a\)"):
        source.push("fault_b", True, 1)


def test_fake_refuses_pushes_before_start_and_after_close() -> None:
    source = FakeEdgeSource({"pause": True})
    with pytest.raises(FakeSourceError, match="not started"):
        source.push("pause", False, 1)
    source.start(lambda edge: None)
    source.close()
    with pytest.raises(FakeSourceError, match="closed"):
        source.push("pause", False, 1)
    with pytest.raises(FakeSourceError, match="closed"):
        source.start(lambda edge: None)


def test_fake_pulse_needs_a_width() -> None:
    source, got = _fake()
    with pytest.raises(FakeSourceError, match="positive width"):
        source.pulse("fault_a", True, 10, 0)
    assert got == []


def test_fake_docstring_examples() -> None:
    result = doctest.testmod(controller.sensors.fake)
    assert result.attempted > 0 and result.failed == 0
