"""A Heads & Tails match through the live service, its edges through the bridge.

The same play as the fake-edge-source tests of the service
(``test_service_sensors.py``), but every edge goes through the simulated
board (100 ppm drift), a cable with 0-2 ms jitter, the host session and the
clock sync, and reaches the service with its mapped time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.config import load_config
from controller.sensors.fake import FakeEdgeSource
from controller.service import TableService
from controller.timebase import SimClock
from firmware_bridge.simlink import SimBridge
from firmware_bridge.simmcu import LinkNoise
from tests.test_service_sensors import CONFIG, PAD, START, WIRING, S, Table

MS = 1_000_000
MATCH = CONFIG.replace("plays = 1", "plays = 3")


class BridgeTable(Table):
    """The service on a SimClock with a :class:`SimBridge` as its edge source."""

    def __init__(self, folder: Path, *, corrupt: float = 0.0) -> None:
        path = folder / "table.toml"
        path.write_text(MATCH, encoding="utf-8")
        config = load_config(path)
        self.clock = SimClock(start_ns=START, wall_at_start=1_000_000.0)
        lines = {pin: role for role, pin in (WIRING | PAD).items()}
        noise = LinkNoise(jitter_ns=2 * MS, corrupt=corrupt)
        # The board booted 30 s before the service: the clock sync is warm.
        self.bridge = SimBridge(
            lines, seed=7, drift_ppm=100.0, noise=noise, origin_ns=START - 30 * S
        )
        self.bridge.advance_to(START)
        self.service = TableService(config, clock=self.clock, edge_source=self.bridge)
        self.bridge.on_health = self.service.queue.put  # as open_bridge_source wires it
        self.folder = folder

    def at(self, t: float) -> None:
        """Run board, cable and service together, a millisecond at a time."""
        target = START + round(t * S)
        while True:
            service = self.service.next_wake()
            due = [d for d in (self.bridge.next_due(), service) if d is not None]
            now = min([target, *due])
            self.bridge.advance_to(now)
            self.clock.advance_to(now)
            while not self.service.queue.empty() or (
                (wake := self.service.next_wake()) is not None and wake <= now
            ):
                self.service.step_once(0)
            if now >= target:
                return

    def beam(self, line: str, broken: bool, t: float) -> None:
        self.at(t)
        self.bridge.push(line, not broken, START + round(t * S))  # active low


def _play(table: Table) -> None:
    table.cmd("go", 0.0)
    table.press("call_heads", 2.1)  # ben calls heads while the coin is up
    table.crossing("start", 2.3)
    table.crossing("fault", 2.5)
    table.cmd("landed", 3.0, face="heads")
    table.cmd("go", 5.0)  # ben tosses, ann calls tails
    table.crossing("start", 7.3)
    table.press("call_tails", 7.35)
    table.crossing("fault", 7.5)
    table.cmd("landed", 8.0, face="heads")
    table.cmd("go", 10.0)  # ann tosses; ben calls too late
    table.crossing("start", 12.3)
    table.crossing("fault", 12.5)
    table.press("call_tails", 12.6)
    table.cmd("landed", 13.0, face="tails")
    table.at(50.0)


def _shown(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    # ``at`` to the millisecond: mapped times are tens of microseconds off the true ones.
    return [(*r[:4], round(r[4], 3)) for r in rows]


class FakeTable(Table):
    """The same match with a fake edge source: the exact edge times."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir()
        path = folder / "table.toml"
        path.write_text(MATCH, encoding="utf-8")
        config = load_config(path)
        self.clock = SimClock(start_ns=START, wall_at_start=1_000_000.0)
        self.source = FakeEdgeSource.for_lines(config.sensors.lines)
        self.service = TableService(config, clock=self.clock, edge_source=self.source)
        self.folder = folder


@pytest.mark.parametrize("corrupt", [0.0, 0.01])
def test_a_match_through_the_bridge_rules_like_the_fake_source(
    tmp_path: Path, corrupt: float
) -> None:
    fake = FakeTable(tmp_path / "fake")
    _play(fake)
    (tmp_path / "bridge").mkdir()
    bridged = BridgeTable(tmp_path / "bridge", corrupt=corrupt)
    _play(bridged)
    assert _shown(bridged.rulings()) == _shown(fake.rulings())
    kinds = [r[0] for r in bridged.rulings()]
    assert kinds.count("point") + kinds.count("fault") == 3 and "match_over" in kinds
    assert "suspended" not in kinds


def test_unplug_and_replug_mid_match_suspends_then_resumes(tmp_path: Path) -> None:
    table = BridgeTable(tmp_path)
    table.cmd("go", 0.0)
    table.at(1.0)
    table.bridge.unplug(table.clock.mono_ns())
    table.beam("start_a", True, 1.5)  # the board keeps what happens while unplugged
    table.beam("start_a", False, 1.6)
    table.at(3.0)
    table.bridge.replug(table.clock.mono_ns())
    table.at(4.0)
    table.press("call_heads", 4.1)
    table.crossing("start", 4.3)
    table.crossing("fault", 4.5)
    table.cmd("landed", 5.0, face="heads")
    table.at(50.0)
    rows = table.rulings()
    suspended = [r for r in rows if r[0] == "suspended"]
    assert len(suspended) == 1 and suspended[0][4] == 1.0
    assert suspended[0][5].startswith("bridge link lost")
    recovered = [r for r in rows if "bridge" in r[5] and "recovered" in r[5]]
    assert recovered and 3.0 < recovered[0][4] < 4.0
    assert table.state()["suspended"] == []


def test_a_command_during_an_outage_waits_for_none_held_before_it(tmp_path: Path) -> None:
    # The landing (3.0) is still in the fusion's look-ahead when the cable is
    # pulled (3.3). The next Go (4.0), sent while the table is suspended and
    # run at once, must not overtake it: the landing is ruled first, at 3.0.
    table = BridgeTable(tmp_path)
    table.cmd("go", 0.0)
    table.press("call_heads", 2.1)
    table.crossing("start", 2.3)
    table.crossing("fault", 2.5)
    table.cmd("landed", 3.0, face="heads")
    table.at(3.3)
    table.bridge.unplug(table.clock.mono_ns())
    table.cmd("go", 4.0)
    table.at(6.0)
    rows = [(r[0], r[4], r[5]) for r in table.rulings()]
    point = next(i for i, r in enumerate(rows) if r[0] == "point")
    lost = next(i for i, r in enumerate(rows) if r[0] == "suspended")
    ready = [i for i, r in enumerate(rows) if r[2].startswith("Ready - Go")]
    assert rows[point][1] == 3.0 and point < lost
    assert len(ready) == 2 and rows[ready[1]][1] == 4.0 and lost < ready[1]
