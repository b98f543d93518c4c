"""The live service fed by gate and call-pad edges (backend "gpio"), on a SimClock.

A FakeEdgeSource stands in for the GPIO header: it stamps edges with the times
we give it, as the kernel does under lgpio. Everything after the source (the
queue, buttons, health, fusion, engine, journal) is the live code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.config import load_config
from controller.journal import open_readonly
from controller.outbox import Outbox
from controller.sensors.edges import EdgeEvent
from controller.sensors.fake import FakeEdgeSource
from controller.sensors.gpio import GpioEdgeSource
from controller.service import TableService
from controller.timebase import SimClock

S = 1_000_000_000
START = 50 * S  # mono_ns when the service starts: match time 0

CONFIG = """
[table]
venue = "hall"
id = "t1"
game = "heads-and-tails"
journal = "journal.sqlite"

[match]
players = ["ann", "ben"]
plays = 1
first_tosser = "ann"

[hardware]
backend = "gpio"

[sensors]
pin_factory = "mock"
"""
WIRING = {"start_a": 23, "start_b": 24, "fault_a": 17, "fault_b": 27}
PAD = {"call_heads": 5, "call_tails": 6}
for role, pin in WIRING.items():  # receivers pulled up, reading low when broken
    CONFIG += f'[[sensors.line]]\nrole = "{role}"\npin = {pin}\nactive = "low"\n'
for role, pin in PAD.items():
    CONFIG += f'[[sensors.line]]\nrole = "{role}"\npin = {pin}\n'


class Table:
    """A service on a SimClock with a fake edge source, and the loop driven by hand."""

    def __init__(self, folder: Path, source: FakeEdgeSource | None = None) -> None:
        path = folder / "table.toml"
        path.write_text(CONFIG, encoding="utf-8")
        config = load_config(path)
        self.clock = SimClock(start_ns=START, wall_at_start=1_000_000.0)
        self.source = source or FakeEdgeSource.for_lines(config.sensors.lines)
        self.service = TableService(config, clock=self.clock, edge_source=self.source)
        self.folder = folder

    def at(self, t: float) -> None:
        """Run the loop up to match time ``t``, waking at every deadline."""
        target = START + round(t * S)
        while (wake := self.service.next_wake()) is not None and wake <= target:
            self.clock.advance_to(wake)
            self.service.step_once(0)
        self.clock.advance_to(target)

    def beam(self, line: str, broken: bool, t: float) -> None:
        self.at(t)
        self.source.push(line, not broken, START + round(t * S))  # active low
        self.service.step_once(0)

    def press(self, button: str, t: float, held: float = 0.1) -> None:
        self.beam(button, True, t)  # a button to ground reads low, like a broken beam
        self.beam(button, False, t + held)

    def cmd(self, verb: str, t: float, **fields: Any) -> None:
        self.at(t)
        self.service.submit_command(verb, json.dumps({"cmd_id": verb, **fields}).encode())
        self.service.step_once(0)

    def crossing(self, gate: str, t: float) -> None:
        """A coin falling through a gate's pair at 5 m/s (``b`` is below ``a``)."""
        first, second = f"{gate}_a", f"{gate}_b"
        self.beam(first, True, t)
        self.beam(second, True, t + 0.001)
        self.beam(first, False, t + 0.002)
        self.beam(second, False, t + 0.003)

    def rulings(self) -> list[tuple[Any, ...]]:
        reader = open_readonly(self.folder / "journal.sqlite")
        try:
            rows = reader.rulings()
        finally:
            reader.close()
        return [(r["kind"], r["rule"], r["against"], r["to"], r["at"], r["detail"]) for r in rows]

    def state(self) -> dict[str, Any]:
        outbox = Outbox(self.folder / "journal.sqlite")
        try:
            rows = outbox.unsent(limit=100_000)
        finally:
            outbox.close()
        states = [json.loads(r.payload) for r in rows if r.topic.endswith("/state")]
        return dict(states[-1])


def _decided(table: Table) -> list[tuple[Any, ...]]:
    return [r[:4] for r in table.rulings() if r[0] != "notice"]


def test_a_play_from_gate_and_call_pad_edges(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.cmd("go", 0.0)
    table.press("call_heads", 2.1)  # ben calls while the coin is up: held until it is seen
    table.crossing("start", 2.3)
    table.crossing("fault", 2.5)
    table.cmd("landed", 3.0, face="heads")
    table.at(40.0)
    assert _decided(table) == [
        ("point", "2.3.1", "ann", "ben"),
        ("match_over", "2.3.4", "ann", "ben"),
    ]
    point = next(r for r in table.rulings() if r[0] == "point")
    assert point[4] == 3.0 and point[5].startswith("ben called heads")
    assert table.state()["suspended"] == []


def test_a_toss_just_inside_the_window_beats_the_tick(tmp_path: Path) -> None:
    # The coin passes the start line at 30.3 s: the toss is dated back to
    # about 29.7 s, and recognised only after the window's 30 s deadline.
    table = Table(tmp_path)
    table.cmd("go", 0.0)
    table.crossing("start", 30.3)
    table.press("call_tails", 30.35)
    table.crossing("fault", 30.5)
    table.cmd("landed", 31.0, face="heads")
    table.at(60.0)
    assert _decided(table) == [
        ("point", "2.3.2", "ben", "ann"),
        ("match_over", "2.3.4", "ben", "ann"),
    ]


def test_no_toss_still_faults_when_the_window_closes(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.cmd("go", 0.0)
    table.at(29.0)
    assert _decided(table) == []
    table.at(40.0)
    fault = [r for r in table.rulings() if r[0] == "fault"]
    assert [(r[1], r[2], r[4]) for r in fault] == [("2.1.2", "ann", 30.0)]


def test_a_blocked_beam_suspends_and_its_clearing_recovers(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.cmd("go", 0.0)
    table.beam("fault_a", True, 5.0)
    table.at(9.0)
    suspended = [r for r in table.rulings() if r[0] == "suspended"]
    assert [(r[1], r[2], r[3], r[4]) for r in suspended] == [(None, None, None, 7.0)]
    assert suspended[0][5].startswith("fault_a: beam broken for 2 s (pin 17")
    assert table.state()["suspended"] == ["fault_a"]
    table.beam("fault_a", False, 10.0)
    table.at(12.0)
    assert "recovered; automated rulings resume" in table.rulings()[-1][5]
    assert table.state()["suspended"] == []


def test_restart_replays_health_and_clears_a_fault_mended_while_down(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.beam("start_a", True, 1.0)
    table.at(5.0)
    assert table.state()["suspended"] == ["start_a"]
    table.service.close()
    # Back up with the gate mended: the journal's fault is answered at once.
    again = Table(tmp_path)
    assert again.service.runtime.state.suspended == frozenset()
    assert "start_a: reads idle at start-up" in again.rulings()[-1][5]
    again.service.close()


def test_a_beam_broken_at_start_up_is_suspended(tmp_path: Path) -> None:
    lines = load_config_lines(tmp_path)
    source = FakeEdgeSource({**lines, "fault_b": False})  # reads broken
    table = Table(tmp_path, source)
    table.at(3.0)
    suspended = [r for r in table.rulings() if r[0] == "suspended"]
    assert len(suspended) == 1 and suspended[0][5].startswith("fault_b: beam not seen at start-up")


def load_config_lines(folder: Path) -> dict[str, bool]:
    path = folder / "table.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return FakeEdgeSource.for_lines(load_config(path).sensors.lines).levels()


def test_gpio_backend_with_the_mock_factory_queues_edges_only(tmp_path: Path) -> None:
    pytest.importorskip("gpiozero")
    path = tmp_path / "table.toml"
    path.write_text(CONFIG, encoding="utf-8")
    service = TableService(load_config(path), clock=SimClock(start_ns=START))
    try:
        assert isinstance(service.source, GpioEdgeSource)
        service.source.factory.pin(17).drive_low()  # fault_a broken, as wired
        item = service.queue.get_nowait()
        # The callback decided nothing: the edge waits for the loop thread.
        assert isinstance(item, EdgeEvent) and (item.line, item.level) == ("fault_a", False)
        assert service.queue.empty() and service.runtime.next_seq == 1  # no ruling yet
    finally:
        service.close()


def test_edges_held_by_a_board_during_an_unplug_raise_no_false_faults(tmp_path: Path) -> None:
    """A microcontroller keeps the edges it saw while its USB link was down and
    sends them, with their true (older) times, after the replug. A beam broken
    and cleared during the outage must not read as blocked for seconds: the
    pipeline's health timers wait for those edges."""
    from controller.sensors.health import HealthEvent

    table = Table(tmp_path)
    table.cmd("go", 0.0)
    table.at(1.0)
    down = START + 1 * S
    table.service.queue.put(HealthEvent(t_ns=down, sensor="bridge", ok=False, detail="unplugged"))
    table.service.step_once(0)
    table.at(3.0)  # the link's loss is ruled while the board is away, not when it is back
    assert [r[0] for r in table.rulings()][-1] == "suspended"
    table.at(6.0)  # the board was away for 5 s; meanwhile a hand crossed the start line
    up = START + 6 * S
    table.service.queue.put(HealthEvent(t_ns=up, sensor="bridge", ok=True, detail="back"))
    table.service.step_once(0)
    for edges_at in (2.0, 2.05):  # ... delivered now, one by one, with their own times
        table.at(6.0 + (edges_at - 2.0))
        table.source.push("start_a", edges_at == 2.05, START + round(edges_at * S))
        table.service.step_once(0)
    table.at(10.0)
    suspended = [r for r in table.rulings() if r[0] == "suspended"]
    assert [r[5].split(":")[0] for r in suspended] == ["bridge"], suspended
    assert table.state()["suspended"] == []
