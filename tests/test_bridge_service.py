"""``[hardware] backend = "bridge"``: the config key and the service's real link."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from controller.config import ConfigError, load_config
from controller.errors import TablerefError
from controller.journal import open_readonly
from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role
from controller.service import TableService
from controller.timebase import MonotonicClock
from firmware_bridge.host import BridgeEdgeSource
from firmware_bridge.simmcu import PtyMcu

BASE = """
[table]
venue = "hall"
id = "t1"
game = "heads-and-tails"
journal = "journal.sqlite"

[match]
players = ["ann", "ben"]
plays = 1
"""
LINES = """
[sensors]
beam_blocked_s = 0.1
[[sensors.line]]
role = "start_a"
pin = 2
active = "low"
[[sensors.line]]
role = "fault_a"
pin = 3
active = "low"
"""


def _config(folder: Path, hardware: str) -> Path:
    path = folder / "table.toml"
    path.write_text(BASE + hardware + LINES, encoding="utf-8")
    return path


def test_bridge_needs_a_port_and_only_the_bridge_backend_takes_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="field 'bridge': backend 'bridge' needs the board"):
        load_config(_config(tmp_path, '[hardware]\nbackend = "bridge"\n'))
    with pytest.raises(ConfigError, match="field 'bridge': only for backend = 'bridge'"):
        load_config(_config(tmp_path, '[hardware]\nbackend = "gpio"\nbridge = "sim"\n'))
    config = load_config(_config(tmp_path, '[hardware]\nbackend = "bridge"\nbridge = "usb"\n'))
    assert config.bridge == str(tmp_path / "usb")
    by_id = "/dev/serial/by-id/usb-MicroPython_Board_e6614c-if00"
    config = load_config(_config(tmp_path, f'[hardware]\nbackend = "bridge"\nbridge = "{by_id}"\n'))
    assert config.bridge == by_id


def test_a_missing_port_stops_the_service_with_its_name(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, '[hardware]\nbackend = "bridge"\nbridge = "nope"\n'))
    with pytest.raises(TablerefError, match=r"table.toml: cannot open the bridge's port .*nope"):
        TableService(config)
    assert not (tmp_path / "journal.sqlite").exists()  # refused before the journal


def test_the_simulated_board_referees_over_a_real_pty(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, '[hardware]\nbackend = "bridge"\nbridge = "sim"\n'))
    service = TableService(config)
    stop = threading.Event()
    thread = threading.Thread(target=service.run, args=(stop,))
    thread.start()
    try:
        source = service.source
        assert isinstance(source, BridgeEdgeSource) and source.simulated is not None
        assert source.levels() == {"start_a": True, "fault_a": True}
        # The fault beam blocked for longer than 0.1 s: a suspended ruling
        # naming it, from an edge that crossed the pty link.
        source.simulated.edge(3, 0)
        assert _wait_for(tmp_path, "fault_a: beam broken")
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()
    assert not source.simulated.link.exists()  # the board and its pty went with the service


def _wait_for(folder: Path, word: str) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        reader = open_readonly(folder / "journal.sqlite")
        try:
            rows = reader.rulings()
        finally:
            reader.close()
        if any(word in f"{r['kind']} {r['detail']}" for r in rows):
            return True
        time.sleep(0.05)
    return False


def test_the_port_is_opened_exclusively(tmp_path: Path) -> None:
    mcu = PtyMcu(tmp_path / "usb")
    line = LineConfig(role=Role.FAULT_A, pin=2, kind=LineKind.BEAM, active=Active.LOW, pull=Pull.UP)
    first = BridgeEdgeSource([line], str(mcu.link), clock=MonotonicClock())
    try:
        with pytest.raises(TablerefError, match="cannot open the bridge's port"):
            BridgeEdgeSource([line], str(mcu.link), clock=MonotonicClock(), connect_timeout_s=1)
    finally:
        first.close()
        mcu.close()
