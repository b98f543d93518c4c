"""The sensor pipeline: buttons, health and fusion, events out in time order."""

from __future__ import annotations

import pytest

from controller.games.heads_and_tails.events import Call, Touch
from controller.model import Event
from controller.sensors.edges import EdgeEvent
from controller.sensors.health import HealthEvent
from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role
from controller.sensors.pipeline import PipelineError, SensorPipeline

S = 1_000_000_000
MS = 1_000_000
BEAMS = [
    LineConfig(role=r, pin=p, kind=LineKind.BEAM, active=Active.LOW, pull=Pull.UP)
    for r, p in ((Role.START_A, 23), (Role.FAULT_A, 17))
]
PAD = LineConfig(role=Role.CALL_HEADS, pin=5, kind=LineKind.BUTTON, active=Active.LOW, pull=Pull.UP)
IDLE = {line.role.value: True for line in (*BEAMS, PAD)}


class Table:
    """A pipeline with a switchable 'toss in flight' and a loop that services it."""

    def __init__(self) -> None:
        self.flight = False
        self.pipeline = SensorPipeline.for_lines(
            [*BEAMS, PAD], caller=lambda: "ben", toss_in_flight=lambda: self.flight
        )
        self.out: list[Event] = self.pipeline.start(IDLE, 0)
        self.seq = 0

    def run_to(self, t_ns: int) -> None:
        while (due := self.pipeline.deadline()) is not None and due <= t_ns:
            self.out += self.pipeline.tick(due)
        self.out += self.pipeline.tick(t_ns)

    def edge(self, line: str, level: bool, t_ns: int) -> None:
        self.run_to(t_ns)
        self.seq += 1
        self.out += self.pipeline.edge(EdgeEvent(line=line, level=level, t_ns=t_ns, seq=self.seq))

    def health(self) -> list[tuple[str, bool, int]]:
        return [(e.sensor, e.ok, e.t_ns) for e in self.out if isinstance(e, HealthEvent)]


def test_events_leave_in_time_order_across_buttons_fusion_and_health() -> None:
    table = Table()
    table.edge("call_heads", False, 1 * S)  # held by the fusion: no toss seen yet
    table.edge("call_heads", True, 1 * S + 100 * MS)
    table.edge("start_a", False, 1 * S + 200 * MS)  # blocked from here on
    table.run_to(10 * S)
    kinds = [type(e) for e in table.out]
    assert kinds == [Call, Touch, HealthEvent]
    assert [e.t_ns for e in table.out] == sorted(e.t_ns for e in table.out)
    assert table.health() == [("start_a", False, 3 * S + 200 * MS)]


def test_a_beam_may_stay_broken_while_a_toss_is_in_flight() -> None:
    table = Table()
    table.flight = True
    table.edge("fault_a", False, 1 * S)
    table.run_to(8 * S)
    assert table.health() == []
    table.flight = False  # the toss was ruled at 8 s: the clock runs from there
    table.pipeline.sync(8 * S)
    table.run_to(12 * S)
    assert table.health() == [("fault_a", False, 10 * S)]
    table.edge("fault_a", True, 13 * S)
    table.run_to(16 * S)
    assert table.health()[-1] == ("fault_a", True, 13 * S)


def test_a_beam_broken_at_start_up_is_reported() -> None:
    table = Table()
    pipeline = SensorPipeline.for_lines(BEAMS, caller=lambda: "ben", toss_in_flight=lambda: False)
    table.pipeline = pipeline
    table.out = pipeline.start({"start_a": True, "fault_a": False}, 0)
    table.run_to(5 * S)
    assert [(e.sensor, e.ok) for e in table.out if isinstance(e, HealthEvent)] == [
        ("fault_a", False)
    ]


def test_a_table_without_both_gates_is_refused() -> None:
    with pytest.raises(PipelineError, match="light gates"):
        SensorPipeline.for_lines([PAD], caller=lambda: "ben", toss_in_flight=lambda: False)
