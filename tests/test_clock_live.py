"""A live clock table against a real mosquitto: clock button edges in, the
retained ``clock`` topic out, commands answered (issue 5: every clock change
journaled and published so displays interpolate).

The service runs its own loop thread on the real monotonic clock; a fake edge
source stands in for the GPIO header, stamping edges with that clock as the
kernel would.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.clock.snapshot import interpolate
from controller.config import load_config
from controller.sensors.fake import FakeEdgeSource
from controller.service import TableService
from tests.mosquitto import Mosquitto
from tests.test_mqtt import Received, Subscriber

CONFIG = """
[table]
venue = "hall"
id = "bg1"
game = "backgammon"
journal = "journal.sqlite"
[match]
players = ["ann", "ben"]
length = 3
[hardware]
backend = "gpio"
[sensors]
pin_factory = "mock"
[[sensors.line]]
role = "clock_left"
pin = 20
[[sensors.line]]
role = "clock_right"
pin = 21
[broker]
url = "{url}"
username = "table-bg1"
"""
BASE = "tableref/v1/hall/bg1/"
UP, DOWN = True, False  # buttons to ground, pulled up


class LiveTable:
    def __init__(self, folder: Path, broker: Mosquitto) -> None:
        (folder / "t.toml").write_text(CONFIG.format(url=broker.url), encoding="utf-8")
        self.source = FakeEdgeSource({"clock_left": UP, "clock_right": UP})
        self.service = TableService(load_config(folder / "t.toml"), edge_source=self.source)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.service.run, args=(self.stop,), daemon=True)

    def press(self, line: str) -> None:
        self.source.push(line, DOWN, self.service.clock.mono_ns())
        time.sleep(0.03)  # held past the 15 ms lockout
        self.source.push(line, UP, self.service.clock.mono_ns())

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)


@pytest.fixture
def table(tmp_path: Path, broker: Mosquitto) -> Iterator[LiveTable]:
    live = LiveTable(tmp_path, broker)
    try:
        yield live
    finally:
        live.close()


def _clocks(messages: list[Received]) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in messages if m.topic.endswith("/clock")]


def _running(who: str | None, moves: int) -> Any:
    def done(messages: list[Received]) -> bool:
        return any(
            c["running"] == who and sum(c["moves"].values()) == moves for c in _clocks(messages)
        )

    return done


def test_button_edges_drive_the_retained_clock_topic(table: LiveTable, broker: Mosquitto) -> None:
    sub = Subscriber(broker, BASE + "#").connect()
    try:
        table.thread.start()
        cmd = {"cmd_id": "roll", "dice": {"ann": 6, "ben": 1}}
        table.service.submit_command("opening_roll", json.dumps(cmd).encode())
        assert sub.wait_for(lambda ms: any(m.topic.endswith("cmd/result") for m in ms))
        table.press("clock_right")  # ben, the lower die, starts ann's clock (5.1)
        assert sub.wait_for(_running("ann", 0)), "no clock message with ann running"
        time.sleep(0.2)
        table.press("clock_left")  # ann ends her move: ben's clock runs
        assert sub.wait_for(_running("ben", 1)), "no clock message with ben running"
        # A press by the player whose clock is not running: a notice, no switch.
        seen = len(_clocks(sub.messages))
        table.press("clock_left")
        assert sub.wait_for(
            lambda ms: any(
                json.loads(m.payload).get("detail", "").startswith("press by ann ignored")
                for m in ms
                if m.topic.endswith("/ruling")
            )
        )
        # Every input publishes the clock after its rulings: wait for the
        # notice's, or (under load) the retained clock read below is newer
        # than the last one seen here.
        assert sub.wait_for(lambda ms: len(_clocks(ms)) > seen)
    finally:
        sub.close()
    last = _clocks(sub.messages)[-1]
    assert last["running"] == "ben" and last["moves"] == {"ann": 1, "ben": 0}
    # ann's move took ~0.2 s, inside the 12 s delay: her 6-minute reserve is whole.
    assert last["remaining_ms"]["ann"] == 3 * 120_000
    assert last["v"] == 1 and last["table"] == "bg1" and isinstance(last["wall"], float)

    # A display that connects now gets the retained clock and interpolates it.
    late = Subscriber(broker, BASE + "clock").connect()
    try:
        assert late.wait_for(lambda ms: len(ms) >= 1)
        retained = late.messages[0]
        assert retained.retain
        doc = json.loads(retained.payload)
        assert doc == last
        shown = interpolate(doc, doc["at_ns"] + 20_000_000_000)  # 20 s later
        assert shown["ann"] == 3 * 120_000
        # ben's clock: 20 s on, less what is left of his 12 s delay at ``at_ns``.
        assert 0 < doc["delay_left_ms"] <= 12_000
        assert shown["ben"] == 3 * 120_000 - (20_000 - doc["delay_left_ms"])
    finally:
        late.close()
