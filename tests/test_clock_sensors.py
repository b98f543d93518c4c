"""Clock hardware: player buttons and the pause switch through a fake edge source
into the sensor pipeline, and on into the clock engine."""

from __future__ import annotations

import pytest

from controller.clock import (
    ClockPress,
    PauseReason,
    PauseSwitch,
    PressOutcome,
    Seat,
    TimeControl,
    apply_event,
    new_clock,
    remaining_ms,
    start,
)
from controller.errors import InputError
from controller.model import Event
from controller.sensors.edges import EdgeEvent
from controller.sensors.fake import FakeEdgeSource
from controller.sensors.health import HealthEvent
from controller.sensors.lines import Active, LineConfig, Pull, Role, parse_sensors
from controller.sensors.pipeline import DEFAULT_REORDER_NS, SensorPipeline
from controller.strict import Table

MS = 1_000_000
S = 1_000_000_000
LEFT, RIGHT = "clock_left", "clock_right"
LINES = [
    LineConfig(role=role, pin=pin, kind=role.kind, active=Active.LOW, pull=Pull.UP)
    for role, pin in ((Role.CLOCK_LEFT, 5), (Role.CLOCK_RIGHT, 6), (Role.CLOCK_PAUSE, 13))
]
DOWN, UP = False, True  # active low: pressed pulls the line low


class ClockTable:
    """A fake edge source wired to a clock table's pipeline, serviced like the service does."""

    def __init__(self, levels: dict[str, bool] | None = None, **kwargs: int) -> None:
        self.pipeline = SensorPipeline.for_clock(LINES, **kwargs)
        self.source = FakeEdgeSource.for_lines(LINES)
        start_levels = self.source.levels() | (levels or {})
        self.out: list[Event] = self.pipeline.start(start_levels, 0)
        self.source.start(self.deliver)

    def deliver(self, edge: EdgeEvent) -> None:
        self.run_to(edge.t_ns)
        self.out += self.pipeline.edge(edge)

    def run_to(self, t_ns: int) -> None:
        while (due := self.pipeline.deadline()) is not None and due <= t_ns:
            self.out += self.pipeline.tick(due)
        self.out += self.pipeline.tick(t_ns)

    def tap(self, line: str, t_ns: int, hold_ns: int = 80 * MS) -> None:
        self.source.push(line, DOWN, t_ns)
        self.source.push(line, UP, t_ns + hold_ns)

    def clock_events(self) -> list[Event]:
        return [e for e in self.out if isinstance(e, ClockPress | PauseSwitch)]


def test_a_press_is_timed_at_its_first_edge_and_its_bounce_rejected() -> None:
    table = ClockTable()
    t = 2 * S + 123_456
    for i, level in enumerate([DOWN, UP, DOWN, UP, DOWN]):  # 4 bounces within 3 ms
        table.source.push(LEFT, level, t + i * 700_000)
    table.source.push(LEFT, UP, t + 90 * MS)  # the release, and its bounce
    table.source.push(LEFT, DOWN, t + 90 * MS + 300_000)
    table.source.push(LEFT, UP, t + 91 * MS)
    table.run_to(5 * S)
    assert table.clock_events() == [ClockPress(t_ns=t, seat=Seat.LEFT)]
    assert table.pipeline.buttons.bounces(LEFT) == 6


def test_near_simultaneous_presses_leave_in_edge_order() -> None:
    table = ClockTable()
    table.source.push(RIGHT, DOWN, 1 * S)
    table.source.push(LEFT, DOWN, 1 * S + 300_000)  # 0.3 ms later
    table.source.push(RIGHT, UP, 1 * S + 80 * MS)
    table.source.push(LEFT, UP, 1 * S + 81 * MS)
    table.run_to(2 * S)
    assert [(type(e).__name__, e.t_ns) for e in table.clock_events()] == [
        ("ClockPress", 1 * S),
        ("ClockPress", 1 * S + 300_000),
    ]
    assert [e.seat for e in table.clock_events() if isinstance(e, ClockPress)] == [
        Seat.RIGHT,
        Seat.LEFT,
    ]


def test_an_edge_delivered_late_is_still_ordered_by_its_time() -> None:
    """Each line's callback is its own: edges of two lines may arrive out of order."""
    pipeline = SensorPipeline.for_clock(LINES)
    pipeline.start({LEFT: UP, RIGHT: UP}, 0)
    out = pipeline.edge(EdgeEvent(line=LEFT, level=DOWN, t_ns=1 * S + 2 * MS, seq=1))
    out += pipeline.edge(EdgeEvent(line=RIGHT, level=DOWN, t_ns=1 * S, seq=2))  # 2 ms late
    while (due := pipeline.deadline()) is not None and due < 2 * S:
        out += pipeline.tick(due)
    assert out == [
        ClockPress(t_ns=1 * S, seat=Seat.RIGHT),
        ClockPress(t_ns=1 * S + 2 * MS, seat=Seat.LEFT),
    ]
    assert pipeline.max_latency_ns == DEFAULT_REORDER_NS


def test_presses_drive_the_clock_to_the_millisecond() -> None:
    table = ClockTable()
    table.tap(LEFT, 10 * S + 400_000)  # left ends its turn 10.0004 s after the start
    table.tap(RIGHT, 10 * S + 200 * MS)  # a press in the lockout of nothing: right's move
    table.tap(RIGHT, 11 * S)  # right presses again: not its clock, ignored
    table.run_to(12 * S)
    clock = start(new_clock(TimeControl.sudden_death(60_000)), Seat.LEFT, 0)
    outcomes = []
    for event in table.clock_events():
        clock, step = apply_event(clock, event)
        outcomes.append(step.press)
    assert outcomes == [PressOutcome.SWITCHED, PressOutcome.SWITCHED, PressOutcome.NOT_RUNNING]
    assert remaining_ms(clock, Seat.LEFT, 12 * S) == 60_000 - 10_000 - 2_000 + 200


def test_a_stuck_player_button_is_a_health_event() -> None:
    table = ClockTable(button_stuck_ns=10 * S)
    table.source.push(RIGHT, DOWN, 1 * S)
    table.run_to(20 * S)
    health = [(e.sensor, e.ok, e.t_ns) for e in table.out if isinstance(e, HealthEvent)]
    assert health == [(RIGHT, False, 11 * S)]
    table.source.push(RIGHT, UP, 21 * S)
    table.run_to(22 * S)
    assert [(e.sensor, e.ok) for e in table.out if isinstance(e, HealthEvent)][-1] == (RIGHT, True)


def test_the_pause_switch_may_stay_on_and_pauses_the_clock() -> None:
    table = ClockTable(button_stuck_ns=10 * S)
    table.source.push("clock_pause", DOWN, 5 * S)
    table.source.push("clock_pause", UP, 5 * S + 1 * MS)  # bounce
    table.source.push("clock_pause", DOWN, 5 * S + 2 * MS)
    table.run_to(3600 * S)  # an hour's break: a switch, not a stuck button
    table.source.push("clock_pause", UP, 3600 * S)
    table.run_to(3601 * S)
    assert not [e for e in table.out if isinstance(e, HealthEvent)]
    assert table.clock_events() == [
        PauseSwitch(t_ns=5 * S, engaged=True),
        PauseSwitch(t_ns=3600 * S, engaged=False),
    ]
    clock = start(new_clock(TimeControl.sudden_death(60_000)), Seat.LEFT, 0)
    for event in table.clock_events():
        clock, _ = apply_event(clock, event)
    assert remaining_ms(clock, Seat.LEFT, 3601 * S) == 54_000


def test_a_pause_switch_found_on_at_start_up_pauses() -> None:
    table = ClockTable(levels={"clock_pause": DOWN})
    table.run_to(1 * S)
    assert table.clock_events() == [PauseSwitch(t_ns=0, engaged=True)]
    clock = start(new_clock(TimeControl.sudden_death(60_000)), Seat.LEFT, 0)
    clock, _ = apply_event(clock, table.clock_events()[0])
    assert clock.pause is not None and clock.pause.reason is PauseReason.SWITCH


def test_clock_lines_and_no_beams_make_a_clock_table() -> None:
    settings = parse_sensors(
        Table(
            {
                "line": [
                    {"role": "clock_left", "pin": 5},
                    {"role": "clock_right", "pin": 6},
                    {"role": "clock_pause", "pin": 13, "kind": "switch"},
                ]
            },
            "t.toml",
            "[sensors]",
        )
    )
    pipeline = SensorPipeline.from_settings(
        settings, caller=lambda: "", toss_in_flight=lambda: False
    )
    assert pipeline.max_latency_ns == DEFAULT_REORDER_NS
    assert [line.kind.value for line in settings.lines] == ["button", "button", "switch"]


def test_the_pause_switch_is_not_a_button_in_the_config() -> None:
    table = Table(
        {"line": [{"role": "clock_pause", "pin": 13, "kind": "button"}]}, "t.toml", "[sensors]"
    )
    with pytest.raises(InputError, match="'clock_pause' is a switch line, not button"):
        parse_sensors(table)


def test_clock_reorder_ms_from_the_config_sets_the_hold() -> None:
    from controller.sensors.lines import parse_sensors
    from controller.sensors.pipeline import SensorPipeline
    from controller.strict import Table as StrictTable

    doc = {
        "clock_reorder_ms": 0,
        "line": [{"role": "clock_left", "pin": 20}, {"role": "clock_right", "pin": 21}],
    }
    settings = parse_sensors(StrictTable(doc, "t.toml", "[sensors]"))
    pipeline = SensorPipeline.from_settings(
        settings, caller=lambda: "", toss_in_flight=lambda: False
    )
    assert pipeline.max_latency_ns == 0
    default = parse_sensors(StrictTable({"line": doc["line"]}, "t.toml", "[sensors]"))
    held = SensorPipeline.from_settings(default, caller=lambda: "", toss_in_flight=lambda: False)
    assert held.max_latency_ns == 5_000_000
