"""Sensor health on simulated time: blocked beams, beams never seen, stuck buttons,
and recovery when the line reads idle again."""

from __future__ import annotations

import dataclasses
import doctest

import pytest

import controller.sensors.health
from controller.model import Event
from controller.sensors.edges import EdgeEvent
from controller.sensors.health import HealthEvent, HealthMonitor
from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role, SensorSettings
from controller.timebase import SimClock

S = 1_000_000_000
MS = 1_000_000
FAULT = LineConfig(role=Role.FAULT_A, pin=17, kind=LineKind.BEAM, active=Active.HIGH, pull=Pull.UP)
START = LineConfig(role=Role.START_A, pin=23, kind=LineKind.BEAM, active=Active.LOW, pull=Pull.UP)
HEADS = LineConfig(
    role=Role.CALL_HEADS, pin=5, kind=LineKind.BUTTON, active=Active.LOW, pull=Pull.UP
)
LINES = (FAULT, START, HEADS)
IDLE = {line.role.value: line.idle_level for line in LINES}


def _edge(line: LineConfig, active: bool, t_ns: int) -> EdgeEvent:
    level = line.active_level if active else line.idle_level
    return EdgeEvent(line=line.role.value, level=level, t_ns=t_ns, seq=0)


def _started() -> HealthMonitor:
    monitor = HealthMonitor(LINES)
    assert monitor.start(IDLE, t_ns=0) == []
    return monitor


def _run_until(monitor: HealthMonitor, clock: SimClock, end_ns: int) -> list[HealthEvent]:
    """What the runtime does: wake at each deadline until ``end_ns``."""
    events: list[HealthEvent] = []
    while (due := monitor.deadline()) is not None and due <= end_ns:
        clock.advance_to(due)
        events.extend(monitor.tick(clock.mono_ns()))
    clock.advance_to(end_ns)
    return events


def test_idle_lines_are_healthy_and_set_no_timer() -> None:
    monitor = _started()
    assert monitor.deadline() is None
    assert monitor.tick(3600 * S) == []
    assert monitor.faults() == {"fault_a": False, "start_a": False, "call_heads": False}


def test_coins_and_hands_are_not_faults() -> None:
    monitor = _started()
    assert monitor.feed(_edge(FAULT, True, 1 * S)) == []
    assert monitor.feed(_edge(FAULT, False, 1 * S + 500_000)) == []  # a 0.5 ms coin
    assert monitor.feed(_edge(START, True, 2 * S)) == []
    assert monitor.deadline() == 4 * S
    assert monitor.feed(_edge(START, False, 2 * S + 600 * MS)) == []  # a hand, 0.6 s
    assert monitor.deadline() is None


def test_a_beam_blocked_outside_a_toss_is_a_fault_then_recovers() -> None:
    monitor, clock = _started(), SimClock()
    monitor.feed(_edge(START, True, 10 * S))
    events = _run_until(monitor, clock, 60 * S)
    assert events == [
        HealthEvent(
            t_ns=12 * S,
            sensor="start_a",
            ok=False,
            detail="start_a: beam broken for 2 s (pin 23 low, idle is high)",
        )
    ]
    assert monitor.faults()["start_a"] and monitor.deadline() is None  # reported once
    recovered = monitor.feed(_edge(START, False, 61 * S))
    assert [(e.sensor, e.ok, e.t_ns) for e in recovered] == [("start_a", True, 61 * S)]
    assert not monitor.faults()["start_a"]


def test_a_fault_due_before_an_edge_comes_first_even_without_a_tick() -> None:
    monitor = _started()
    monitor.feed(_edge(FAULT, True, 0))
    events = monitor.feed(_edge(FAULT, False, 5 * S))
    assert [(e.ok, e.t_ns) for e in events] == [(False, 2 * S), (True, 5 * S)]


def test_a_beam_may_stay_broken_during_a_toss() -> None:
    monitor, clock = _started(), SimClock()
    assert monitor.set_toss_in_flight(True, 1 * S) == []
    monitor.feed(_edge(START, True, 1 * S))  # the tosser's hand rests over the start line
    assert monitor.deadline() is None
    assert _run_until(monitor, clock, 9 * S) == []
    monitor.set_toss_in_flight(False, 9 * S)  # landed: the clock runs from here
    assert monitor.deadline() == 11 * S
    events = _run_until(monitor, clock, 20 * S)
    assert [(e.sensor, e.ok, e.t_ns) for e in events] == [("start_a", False, 11 * S)]


def test_a_fault_already_due_when_a_toss_starts_is_still_reported() -> None:
    monitor = _started()
    monitor.feed(_edge(FAULT, True, 0))
    events = monitor.set_toss_in_flight(True, 3 * S)
    assert [(e.sensor, e.t_ns) for e in events] == [("fault_a", 2 * S)]


def test_a_beam_broken_at_start_up_was_never_seen() -> None:
    monitor = HealthMonitor(LINES)
    events = monitor.start({**IDLE, "fault_a": True}, t_ns=7)
    assert events == [
        HealthEvent(
            t_ns=7,
            sensor="fault_a",
            ok=False,
            detail="fault_a: beam not seen at start-up: reads broken (pin 17 high, idle is low)",
        )
    ]
    assert monitor.feed(_edge(FAULT, False, 3 * S))[0].ok is True


def test_a_line_with_no_level_at_start_up_is_a_fault_until_it_reads_idle() -> None:
    monitor = HealthMonitor(LINES)
    events = monitor.start({"fault_a": False, "start_a": True}, t_ns=0)
    assert [(e.sensor, e.ok, e.detail) for e in events] == [
        ("call_heads", False, "call_heads: no level read at start-up")
    ]
    assert monitor.feed(_edge(HEADS, True, 1 * S)) == []  # still faulty, no repeat
    assert monitor.deadline() is None
    assert [e.ok for e in monitor.feed(_edge(HEADS, False, 2 * S))] == [True]


def test_a_stuck_button_is_a_fault_after_the_stuck_time() -> None:
    monitor, clock = _started(), SimClock()
    monitor.feed(_edge(HEADS, True, 5 * S))
    assert monitor.deadline() == 15 * S  # default 10 s
    events = _run_until(monitor, clock, 30 * S)
    assert [(e.sensor, e.ok, e.t_ns, e.detail) for e in events] == [
        (
            "call_heads",
            False,
            15 * S,
            "call_heads: button held down for 10 s (pin 5 low, idle is high)",
        )
    ]
    assert [(e.sensor, e.ok) for e in monitor.feed(_edge(HEADS, False, 31 * S))] == [
        ("call_heads", True)
    ]


def test_a_button_held_at_start_up_gets_the_stuck_time_from_start_up() -> None:
    monitor = HealthMonitor(LINES)
    assert monitor.start({**IDLE, "call_heads": False}, t_ns=1 * S) == []
    assert monitor.deadline() == 11 * S


def test_a_toss_does_not_excuse_a_stuck_button() -> None:
    monitor = _started()
    monitor.set_toss_in_flight(True, 0)
    monitor.feed(_edge(HEADS, True, 0))
    assert monitor.deadline() == 10 * S


def test_thresholds_come_from_the_settings() -> None:
    settings = SensorSettings(lines=LINES, beam_blocked_s=0.5, button_stuck_s=3.0)
    monitor = HealthMonitor.from_settings(settings)
    monitor.start(IDLE, t_ns=0)
    monitor.feed(_edge(FAULT, True, 0))
    monitor.feed(_edge(HEADS, True, 0))
    events = monitor.tick(10 * S)
    assert [(e.sensor, e.t_ns) for e in events] == [("fault_a", 500 * MS), ("call_heads", 3 * S)]


def test_repeated_active_reports_do_not_restart_the_timer() -> None:
    monitor = _started()
    monitor.feed(_edge(FAULT, True, 0))
    monitor.feed(_edge(FAULT, True, 1 * S))
    assert monitor.deadline() == 2 * S


def test_nothing_is_timed_before_start_and_unknown_lines_are_ignored() -> None:
    monitor = HealthMonitor(LINES)
    assert monitor.deadline() is None
    assert monitor.feed(EdgeEvent(line="pause", level=True, t_ns=0, seq=1)) == []


def test_health_event_is_a_frozen_slotted_event() -> None:
    event = HealthEvent(t_ns=1, sensor="fault_a", ok=False, detail="x")
    assert isinstance(event, Event) and not hasattr(event, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.ok = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        HealthEvent(1, "fault_a", False, "x")  # type: ignore[call-arg]  # keyword-only


def test_docstring_examples() -> None:
    result = doctest.testmod(controller.sensors.health)
    assert result.attempted > 0 and result.failed == 0
