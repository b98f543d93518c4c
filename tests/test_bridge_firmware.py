"""The firmware's logic under CPython, behind the fake hardware of the shim."""

from __future__ import annotations

import struct
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.firmware import messages as m
from firmware_bridge.firmware.core import MAX_PENDING, RTO_INITIAL_US, Firmware
from firmware_bridge.firmware.framing import Decoder
from firmware_bridge.firmware.shim import FakeHardware

PINS = [(2, m.PULL_UP), (3, m.PULL_UP)]


class Board:
    """A firmware on fake hardware, and a host-side decoder of what it sends."""

    def __init__(self, start_us: int = 0, period: int = 1 << 30) -> None:
        self.hw = FakeHardware({2: 1, 3: 1}, ticks_period=period)
        self.hw.now_us = start_us
        self.fw = Firmware(self.hw, PINS, boot_id=0xABCD)
        self.hw.irq = self.fw.ring.put
        self.decoder = Decoder()

    def run(self, at_us: int, *frames: bytes) -> list[p.Message]:
        self.hw.now_us = at_us
        self.hw.inbox += b"".join(frames)
        self.fw.poll()
        return [p.parse(*f) for f in self.decoder.feed(self.hw.take_output())]


def _connected(start_us: int = 0) -> Board:
    board = Board(start_us)
    [identity] = board.run(start_us + 10, p.identify())
    assert isinstance(identity, p.Identity)
    return board


def test_identify_reports_versions_clock_boot_pins_and_levels() -> None:
    board = Board()
    [identity] = board.run(10, p.identify())
    assert isinstance(identity, p.Identity)
    assert identity.protocol == m.PROTOCOL_VERSION and identity.firmware == m.FIRMWARE_VERSION
    assert identity.clock_hz == 1_000_000 and identity.boot_id == 0xABCD
    assert [pin.gpio for pin in identity.pins] == [2, 3] and identity.pins[0].pull_up
    assert identity.level(2) and identity.level(3) and identity.next_seq == 0
    assert board.hw.watchdog_feeds == 1


def test_nothing_is_sent_before_a_host_identifies() -> None:
    board = Board()
    board.hw.edge(2, 0, 5)
    assert board.run(100) == []
    identity, edges = board.run(200, p.identify())
    assert isinstance(identity, p.Identity) and identity.level(2) is False
    assert isinstance(edges, p.Edges) and edges.edges == (p.McuEdge(2, False, 5),)


def test_a_host_of_another_version_gets_an_error_and_no_edges() -> None:
    board = Board()
    board.hw.edge(2, 0, 5)
    got = board.run(100, p.identify(version=m.PROTOCOL_VERSION + 1))
    assert isinstance(got[0], p.Identity) and got[0].protocol == m.PROTOCOL_VERSION
    assert got[1] == p.ErrorReply(m.ERR_VERSION, m.PROTOCOL_VERSION)
    assert board.run(100_000) == [] and not board.fw.connected


def test_edge_times_are_taken_in_the_interrupt_and_cross_the_counter_wrap() -> None:
    period = 1 << 30
    board = _connected(start_us=period - 1000)
    board.hw.edge(2, 0, period - 10)  # before the raw counter wraps
    board.hw.edge(2, 1, period + 10)  # after it
    [edges] = board.run(period + 500)
    assert isinstance(edges, p.Edges)
    assert [e.t_us for e in edges.edges] == [period - 10, period + 10]
    assert [e.level for e in edges.edges] == [False, True]


def test_frames_are_resent_until_acknowledged_and_acks_release_them() -> None:
    board = _connected()
    board.hw.edge(3, 0, 1000)
    [first] = board.run(1100)
    assert isinstance(first, p.Edges) and first.seq == 0
    assert board.run(1100 + RTO_INITIAL_US - 10) == []  # not yet
    [again] = board.run(1100 + RTO_INITIAL_US + 10)
    assert again == first and board.fw.resends == 1
    board.run(1100 + RTO_INITIAL_US + 500, p.ack(1))
    assert board.fw.unacked == []
    assert board.run(10_000_000) == []  # nothing left to resend


def test_a_nak_resends_at_once_and_the_timeout_adapts() -> None:
    board = _connected()
    for i in range(3):
        board.hw.edge(2, i % 2, 1000 + i)
        board.run(1100 + 1000 * i)
    board.run(5000, p.ack(1))  # frame 0 acked after ~4 ms: a clean round trip
    assert board.fw.rto < RTO_INITIAL_US
    got = board.run(5100, p.ack(1, nak=True))
    assert [e.seq for e in got if isinstance(e, p.Edges)] == [1, 2]


def test_clock_query_answers_the_32_bit_counter_and_counters() -> None:
    board = _connected(start_us=(1 << 32) + 77)
    [reply] = board.run((1 << 32) + 5000, p.clock_query(42))
    assert isinstance(reply, p.ClockReply) and reply.token == 42
    start_raw = ((1 << 32) + 77) % (1 << 30)
    assert reply.t_us == (start_raw + 5000 - 77) & 0xFFFFFFFF


def test_a_full_buffer_drops_and_counts_edges() -> None:
    board = Board()  # never identified: nothing leaves
    for i in range(MAX_PENDING + 10):
        board.hw.edge(2, i % 2, i)
        if i % 100 == 0:
            board.run(i)
    board.run(MAX_PENDING + 20)
    assert len(board.fw.pending) == MAX_PENDING and board.fw.dropped == 10


def test_unknown_and_malformed_frames_get_an_error() -> None:
    board = _connected()
    got = board.run(100, p.encode(0, 0x55, b""), p.encode(0, m.CLOCK_QUERY, b"xx"))
    assert got == [
        p.ErrorReply(m.ERR_UNKNOWN_TYPE, 0x55),
        p.ErrorReply(m.ERR_BAD_PAYLOAD, m.CLOCK_QUERY),
    ]


def test_main_runs_on_fake_micropython_modules(monkeypatch: Any) -> None:
    """main.py, with stand-ins for machine, micropython and select: it arms
    both edges of every pin with a hard interrupt and feeds the watchdog."""
    armed: list[tuple[int, dict[str, Any]]] = []
    fed: list[int] = []

    class Pin:
        IN, PULL_UP, PULL_DOWN, IRQ_RISING, IRQ_FALLING = 0, 1, 2, 8, 4

        def __init__(self, gpio: int, *args: Any) -> None:
            self.gpio = gpio

        def value(self) -> int:
            return 1

        def irq(self, **kwargs: Any) -> None:
            armed.append((self.gpio, kwargs))

    class Wdt:
        def __init__(self, timeout: int) -> None:
            assert timeout <= 8000  # the RP2040's limit is 8.3 s

        def feed(self) -> None:
            fed.append(1)
            if len(fed) >= 3:
                raise KeyboardInterrupt  # leave the endless loop

    class Poll:
        def register(self, *args: Any) -> None: ...

        def poll(self, timeout: int) -> list[int]:
            return []

    fakes = {
        "machine": types.SimpleNamespace(Pin=Pin, WDT=Wdt),
        "micropython": types.SimpleNamespace(kbd_intr=lambda c: None),
        "select": types.SimpleNamespace(poll=Poll, POLLIN=1),
        "time": types.SimpleNamespace(ticks_us=lambda: 1234),
        "os": types.SimpleNamespace(urandom=lambda n: bytes(n)),
    }
    real_import = __import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        return fakes[name] if name in fakes else real_import(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", fake_import)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=None))
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=None))
    source = (Path(__file__).parent.parent / "firmware_bridge/firmware/main.py").read_text()
    namespace: dict[str, Any] = {"__name__": "board_main"}
    exec(compile(source, "main.py", "exec"), namespace)
    with pytest.raises(KeyboardInterrupt):
        namespace["main"]()
    assert [gpio for gpio, _ in armed] == list(range(2, 10))
    assert all(kw["hard"] and kw["trigger"] == Pin.IRQ_RISING | Pin.IRQ_FALLING for _, kw in armed)
    assert len(fed) == 3
    assert struct.calcsize(m.IDENTITY_HEAD) == m.IDENTITY_HEAD_SIZE
