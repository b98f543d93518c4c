"""The whole table against a real mosquitto: simulate --publish, the live
service killed with SIGKILL mid-match, and the journal replayed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from tests.mosquitto import Mosquitto

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "heads-and-tails-standard.toml"
CLI = [sys.executable, "-m", "controller.cli"]


class Listener:
    """Subscribes to a venue and keeps every message, in arrival order."""

    def __init__(self, broker: Mosquitto, venue: str) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.cond = threading.Condition()
        self.ready = threading.Event()
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            protocol=MQTTProtocolVersion.MQTTv5,
        )
        self.client.on_connect = lambda c, *_: c.subscribe(f"tableref/v1/{venue}/#", qos=1)
        self.client.on_subscribe = lambda *_: self.ready.set()
        self.client.on_message = self._on_message
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert self.ready.wait(5)

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with self.cond:
            self.messages.append((msg.topic, bytes(msg.payload)))
            self.cond.notify_all()

    def rulings(self) -> list[dict[str, Any]]:
        """Rulings in first-arrival order, duplicates dropped by id."""
        seen: set[str] = set()
        out = []
        with self.cond:
            for topic, payload in self.messages:
                if topic.endswith("/ruling"):
                    doc = json.loads(payload)
                    if doc["id"] not in seen:
                        seen.add(doc["id"])
                        out.append(doc)
        return out

    def wait(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            with self.cond:
                self.cond.wait(0.05)
        return predicate()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def listener(broker: Mosquitto) -> Iterator[Listener]:
    sub = Listener(broker, "hall")
    yield sub
    sub.close()


def test_simulate_publish_delivers_exactly_what_it_prints(
    broker: Mosquitto, listener: Listener
) -> None:
    done = subprocess.run(
        [*CLI, "simulate", str(EXAMPLE), "--publish", broker.url, "--venue", "hall",
         "--table", "t7", "--publish-timeout", "10"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert printed[0]["id"] == "t7:0:1"
    assert listener.wait(lambda: len(listener.rulings()) >= len(printed))
    assert listener.rulings() == printed  # ids, order and content intact


def test_simulate_publish_fails_cleanly_without_a_broker(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CLI, "simulate", "-q", str(EXAMPLE), "--publish", "mqtt://127.0.0.1:9",
         "--publish-timeout", "1"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 3
    assert "did not acknowledge" in done.stderr and "Traceback" not in done.stderr


CONFIG = """
[table]
venue = "hall"
id = "t1"
game = "heads-and-tails"
journal = "journal.sqlite"
heartbeat_seconds = 0.2

[match]
players = ["ann", "ben"]
plays = 2
first_tosser = "ann"

[broker]
url = "{url}"
username = "table-t1"
"""


class Service:
    """``tableref run`` in a subprocess, driven by commands over MQTT."""

    def __init__(self, folder: Path, broker: Mosquitto, listener: Listener) -> None:
        self.config = folder / "table.toml"
        self.config.write_text(CONFIG.format(url=broker.url), encoding="utf-8")
        self.listener = listener
        self.broker = broker
        self.proc: subprocess.Popen[str] | None = None
        self.sent = 0

    def start(self) -> None:
        mark = len(self.listener.messages)
        self.proc = subprocess.Popen(
            [*CLI, "run", "--config", str(self.config)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        online = ("tableref/v1/hall/t1/status", b"online")
        came_online = self.listener.wait(lambda: online in self.listener.messages[mark:], 10)
        assert came_online, self._stderr()

    def command(self, verb: str, **fields: Any) -> dict[str, Any]:
        self.sent += 1
        cmd_id = f"c{self.sent}"
        payload = json.dumps({"cmd_id": cmd_id, **fields})
        publish = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5
        )
        publish.connect(self.broker.host, self.broker.port)
        publish.loop_start()
        publish.publish(f"tableref/v1/hall/t1/cmd/{verb}", payload, qos=1).wait_for_publish(5)
        publish.disconnect()
        publish.loop_stop()
        found: list[dict[str, Any]] = []

        def answered() -> bool:
            with self.listener.cond:
                for topic, body in self.listener.messages:
                    if topic.endswith("/cmd/result") and json.loads(body)["cmd_id"] == cmd_id:
                        found.append(json.loads(body))
                        return True
            return False

        assert self.listener.wait(answered, 10), f"no result for {verb}: {self._stderr()}"
        return found[0]

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)

    def _stderr(self) -> str:
        if self.proc is not None and self.proc.poll() is not None and self.proc.stderr:
            return self.proc.stderr.read()
        return "(still running)"


def _play(service: Service, caller: str, call: str, face: str) -> None:
    for verb, fields in [
        ("go", {}), ("toss", {}), ("call", {"player": caller, "call": call}),
        ("fault_line", {}), ("landed", {"face": face}),
    ]:  # fmt: skip
        result = service.command(verb, **fields)
        assert result["ok"], result


def test_kill_9_mid_match_loses_and_renumbers_nothing(
    tmp_path: Path, broker: Mosquitto, listener: Listener
) -> None:
    service = Service(tmp_path, broker, listener)
    try:
        service.start()
        _play(service, "ben", "heads", "heads")  # play 1: point to ben
        assert service.command("go")["ok"]  # play 2's toss window is open...
        service.kill9()  # ...when the power goes
        before = listener.rulings()
        service.start()
        assert listener.wait(lambda: any("restarted" in r["detail"] for r in listener.rulings()))
        for verb, fields in [("toss", {}), ("call", {"player": "ann", "call": "tails"}),
                             ("fault_line", {}), ("landed", {"face": "heads"})]:  # fmt: skip
            assert service.command(verb, **fields)["ok"]
        assert listener.wait(lambda: listener.rulings()[-1]["kind"] == "match_over")
    finally:
        service.stop()
    rulings = listener.rulings()
    assert rulings[: len(before)] == before  # nothing renumbered or rewritten
    assert [r["seq"] for r in rulings] == list(range(1, len(rulings) + 1))
    assert {r["id"].split(":")[1] for r in rulings} == {"1", "2"}  # two boots
    final = rulings[-1]
    assert final["winner"] == "ben" and final["score"] == {"ann": 0, "ben": 2}
    replay = subprocess.run(
        [*CLI, "replay", str(tmp_path / "journal.sqlite")],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    assert [json.loads(line) for line in replay.stdout.splitlines()] == rulings


def test_check_config_refuses_broken_files_and_passes_examples(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(CONFIG.format(url="mqtt://h:1") + "\n[table2]\nx = 1\n", encoding="utf-8")
    done = subprocess.run([*CLI, "check-config", str(bad)], capture_output=True, text=True)
    assert done.returncode == 2 and "bad.toml" in done.stderr and "'table2'" in done.stderr
    syntax = tmp_path / "syntax.toml"
    syntax.write_text("[table\n", encoding="utf-8")
    done = subprocess.run([*CLI, "check-config", str(syntax)], capture_output=True, text=True)
    assert done.returncode == 2 and "syntax.toml" in done.stderr and "TOML" in done.stderr
    example = ROOT / "config" / "heads-and-tails.toml"
    done = subprocess.run([*CLI, "check-config", str(example)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
