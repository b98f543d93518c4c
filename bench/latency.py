"""Ruling latency: an input entering the runtime to a subscriber receiving its
ruling, journaling on (SQLite WAL, synchronous=FULL), against a bare paho
publish-to-subscriber round trip on the same broker in the same run.

Run from the repository root:  .venv/bin/python -m bench.latency [--n 2000]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from controller.config import load_config
from controller.games.heads_and_tails.events import Go, Toss
from controller.model import Event
from controller.service import TableService
from tests.mosquitto import Mosquitto

CONFIG = """
[table]
venue = "bench"
id = "t1"
game = "heads-and-tails"
journal = "journal.sqlite"
[match]
players = ["ann", "ben"]
plays = {plays}
first_tosser = "ann"
[broker]
url = "{url}"
username = "bench-t1"
"""


class Receiver:
    """A QoS 1 subscriber that stamps each message on arrival."""

    def __init__(self, broker: Mosquitto, topic: str) -> None:
        self.arrived: dict[str, float] = {}
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
        assert ready.wait(5), "no SUBACK"

    def _on_message(self, _c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
        now = time.perf_counter()
        key = json.loads(msg.payload)["id"]
        with self.cond:
            self.arrived.setdefault(key, now)
            self.cond.notify_all()

    def wait(self, key: str, timeout: float = 10.0) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: key in self.arrived, timeout):
                raise TimeoutError(key)
            return self.arrived[key]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def baseline(broker: Mosquitto, n: int) -> list[float]:
    """Bare paho: publish QoS 1, wait until the subscriber has it, repeat."""
    receiver = Receiver(broker, "bench/raw")
    sender = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5
    )
    sender.connect(broker.host, broker.port)
    sender.loop_start()
    out = []
    for i in range(n):
        start = time.perf_counter()
        sender.publish("bench/raw", json.dumps({"id": str(i)}), qos=1)
        out.append(receiver.wait(str(i)) - start)
    sender.disconnect()
    sender.loop_stop()
    receiver.close()
    return out


def _inputs(t_ns: int) -> list[Event]:
    """Four inputs that make four rulings: Go, a let, Go, a 2.1.8 fault."""
    return [
        Go(t_ns=t_ns),
        Toss(t_ns=t_ns, upward=False),
        Go(t_ns=t_ns),
        Toss(t_ns=t_ns, upward=False),
    ]


def tableref(broker: Mosquitto, n: int, folder: Path) -> list[float]:
    """The whole path: submit_event -> journal -> engine -> journal -> outbox
    -> MQTT -> subscriber, one input at a time."""
    plays = n // 4 + 2
    (folder / "t.toml").write_text(CONFIG.format(url=broker.url, plays=plays), encoding="utf-8")
    service = TableService(load_config(folder / "t.toml"))
    receiver = Receiver(broker, "tableref/v1/bench/t1/ruling")
    stop = threading.Event()
    loop = threading.Thread(target=service.run, args=(stop,), daemon=True)
    loop.start()
    out: list[float] = []
    seq = 0
    try:
        while len(out) < n:
            for event in _inputs(service.clock.mono_ns()):
                seq += 1
                start = time.perf_counter()
                service.submit_event(event)
                out.append(receiver.wait(f"t1:1:{seq}") - start)
    finally:
        stop.set()
        loop.join(10)
        receiver.close()
    return out[:n]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def report(name: str, values: list[float]) -> tuple[float, float]:
    p50, p99 = _pct(values, 0.50), _pct(values, 0.99)
    mean = statistics.fmean(values) * 1000
    print(f"{name:<28} n={len(values):5d}  p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  "
          f"mean {mean:7.3f} ms")  # fmt: skip
    return p50, p99


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="rulings to time (default 2000)")
    args = parser.parse_args(argv)
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()}")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="tableref-bench-") as tmp:
        (Path(tmp) / "broker").mkdir()
        broker = Mosquitto(Path(tmp) / "broker")
        broker.start()
        try:
            run: Callable[[], list[float]] = lambda: baseline(broker, args.n)  # noqa: E731
            base50, base99 = report("bare paho round trip", run())
            ours50, ours99 = report("tableref input -> ruling", tableref(broker, args.n, Path(tmp)))
        finally:
            broker.stop()
    print(f"ratio p50 {ours50 / base50:.2f}  p99 {ours99 / base99:.2f}  (goal: p99 <= 1.5)")


if __name__ == "__main__":
    main()
