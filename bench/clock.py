"""Clock latency: a clock button's first edge to a subscriber receiving the
``clock`` message that shows the turn switched, against a bare paho
publish-to-subscriber round trip on the same broker in the same run.

The path is the live service's: the edge enters the sensor queue as the GPIO
callback would put it there (a fake edge source stamped with the real
monotonic clock), then the button debouncer, the clock's press ordering, the
Backgammon engine and its clock, the journal (WAL, synchronous=FULL), the
outbox and MQTT.

Run from the repository root:  .venv/bin/python -m bench.clock [--n 2000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from bench.latency import Arrivals, Bare, machine, report
from controller.config import load_config
from controller.sensors.fake import FakeEdgeSource
from controller.service import TableService
from tests.mosquitto import Mosquitto

CONFIG = """
[table]
venue = "bench"
id = "c1"
game = "backgammon"
journal = "journal.sqlite"
[match]
players = ["ann", "ben"]
length = 25
[hardware]
backend = "gpio"
[sensors]
pin_factory = "mock"
clock_reorder_ms = {reorder}
[[sensors.line]]
role = "clock_left"
pin = 20
[[sensors.line]]
role = "clock_right"
pin = 21
[broker]
url = "{url}"
username = "bench-c1"
"""
PRESSED, RELEASED = False, True  # buttons to ground, pulled up
WARMUP = 100  # presses (and baseline messages) left out: connections, caches
CLOCK_BYTES = 600  # about a clock message's size, for the baseline's payloads


class ClockReceiver:
    """Stamps each ``clock`` message on arrival, keyed by the moves made."""

    def __init__(self, broker: Mosquitto, topic: str) -> None:
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()
        ready = threading.Event()
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5
        )
        self.client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda *_: ready.set()
        self.client.on_message = self._on_message
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        if not ready.wait(5):
            raise RuntimeError("no SUBACK from the broker")

    def _on_message(self, _c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
        now = time.perf_counter()
        moves = sum(json.loads(msg.payload)["moves"].values())
        with self.cond:
            self.arrived.setdefault(moves, now)
            self.cond.notify_all()

    def wait(self, moves: int, timeout: float = 10.0) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: moves in self.arrived, timeout):
                raise TimeoutError(f"no clock message with {moves} moves")
            return self.arrived[moves]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def tableref(broker: Mosquitto, n: int, folder: Path, reorder_ms: int) -> list[float]:
    """Button edge -> clock message, one press at a time, seats alternating."""
    text = CONFIG.format(url=broker.url, reorder=reorder_ms)
    (folder / "t.toml").write_text(text, encoding="utf-8")
    source = FakeEdgeSource({"clock_left": RELEASED, "clock_right": RELEASED})
    service = TableService(load_config(folder / "t.toml"), edge_source=source)
    receiver = ClockReceiver(broker, "tableref/v1/bench/c1/clock")
    stop = threading.Event()
    loop = threading.Thread(target=service.run, args=(stop,), daemon=True)
    loop.start()
    # ann rolls the higher die; ben's press starts her clock (5.1), then they alternate.
    service.submit_command("opening_roll", b'{"cmd_id": "o", "dice": {"ann": 5, "ben": 2}}')
    time.sleep(0.5)  # the roll is ruled before the first press (moves 0 is then ben's press)
    lines = ["clock_right", "clock_left"]
    out: list[float] = []
    try:
        for i in range(WARMUP + n + 1):
            line = lines[i % 2]
            start = time.perf_counter()
            source.push(line, PRESSED, service.clock.mono_ns())
            arrived = receiver.wait(i)  # the opening press counts no move
            if i > WARMUP:
                out.append((arrived - start) * 1000)  # ms
            source.push(line, RELEASED, service.clock.mono_ns())
            time.sleep(0.02)  # past the 15 ms lockout, as a hand would be
    finally:
        stop.set()
        loop.join(10)
        receiver.close()
    return out


def baseline(broker: Mosquitto, n: int, size: int) -> list[float]:
    """Bare paho QoS 1 publish to an in-process subscriber, payloads of ``size``
    bytes (a clock message's), in ms; the first WARMUP are left out."""
    arrivals = Arrivals(broker, "thread")
    bare = Bare(broker, arrivals)
    bare.size = size
    try:
        return [bare.once() for _ in range(WARMUP + n)][WARMUP:]
    finally:
        bare.close()
        arrivals.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="presses to time (default 2000)")
    parser.add_argument(
        "--reorder-ms",
        type=int,
        default=5,
        help="[sensors] clock_reorder_ms of the table (default 5, the config's default)",
    )
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="tableref-bench-") as tmp:
        (Path(tmp) / "broker").mkdir()
        broker = Mosquitto(Path(tmp) / "broker")
        broker.start()
        try:
            base50, base99 = report("bare paho round trip", baseline(broker, args.n, CLOCK_BYTES))
            times = tableref(broker, args.n, Path(tmp), args.reorder_ms)
            ours50, ours99 = report(f"edge -> clock (hold {args.reorder_ms} ms)", times)
        finally:
            broker.stop()
    print(f"ratio p50 {ours50 / base50:.2f}  p99 {ours99 / base99:.2f}")


if __name__ == "__main__":
    main()
