"""Ruling latency: an input entering the runtime to a subscriber receiving its
ruling, journaling on (SQLite WAL, synchronous=FULL), against a bare paho
publish-to-subscriber round trip on the same broker in the same run.

Run from the repository root:  .venv/bin/python -m bench.latency [--n 2000]

Fair by construction: both sides publish QoS 1 to the same QoS 1 subscriber,
payloads of the same size (the baseline's is padded to the rulings' mean
size), and the first WARMUP of each side are not timed. The two sides run in
alternating blocks, so background load on the machine hits both alike. The
subscriber is its own process, like a real one (a dashboard, Home Assistant):
inside the benchmark's process it would share the interpreter lock with the
service's threads, which the baseline's sender does not have, and time the
service's bookkeeping instead of its delivery (``--subscriber thread`` shows
that). Both sides stamp with CLOCK_MONOTONIC, which is one clock for the
whole machine.

The run also times a bare ``synchronous=FULL`` SQLite commit in the journal's
folder (one after each bare round trip), and the floor a durable journal
cannot go under: a bare round trip plus one such commit (independent
draws). ``--journal-dir /dev/shm`` runs on tmpfs, where fsync costs nothing:
a diagnostic, labelled as such, never a result.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

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
journal = "{journal}"
[match]
players = ["ann", "ben"]
plays = {plays}
first_tosser = "ann"
[broker]
url = "{url}"
username = "bench-t1"
"""

RULINGS = "tableref/v1/bench/t1/ruling"
RAW = "bench/raw"
WARMUP = 200  # per side, not timed
ROUNDS = 4  # alternating blocks of each side


def now_ns() -> int:
    """CLOCK_MONOTONIC: the same clock in every process of the machine."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def _subscriber(host: str, port: int, on_message: Callable[[str, int, int], None]) -> mqtt.Client:
    """A QoS 1 subscriber to both topics calling ``on_message(id, t_ns, size)``."""
    ready = threading.Event()
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5
    )

    def message(_c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
        t = now_ns()  # first thing: what comes after is the subscriber's own business
        on_message(json.loads(msg.payload)["id"], t, len(msg.payload))

    client.on_connect = lambda c, *_: c.subscribe([(RULINGS, 1), (RAW, 1)])
    client.on_subscribe = lambda *_: ready.set()
    client.on_message = message
    client.connect(host, port)
    client.loop_start()
    if not ready.wait(5):
        raise RuntimeError("subscriber got no SUBACK")
    return client


def receive(host: str, port: int) -> None:
    """The subscriber process: one line ``id t_ns size`` per message on stdout."""
    lock = threading.Lock()

    def write(key: str, t: int, size: int) -> None:
        with lock:
            sys.stdout.write(f"{key} {t} {size}\n")
            sys.stdout.flush()

    client = _subscriber(host, port, write)
    write("ready", now_ns(), 0)
    sys.stdin.read()  # until the benchmark closes our stdin
    client.disconnect()
    client.loop_stop()


class Arrivals:
    """When (CLOCK_MONOTONIC ns) each message id reached the subscriber."""

    def __init__(self, broker: Mosquitto, mode: str) -> None:
        self.arrived: dict[str, int] = {}
        self.sizes: list[int] = []
        self.cond = threading.Condition()
        self._child: subprocess.Popen[str] | None = None
        self._client: mqtt.Client | None = None
        if mode == "thread":
            self._client = _subscriber(broker.host, broker.port, self._add)
            return
        self._child = subprocess.Popen(
            [sys.executable, "-m", "bench.latency", "--receive", f"{broker.host}:{broker.port}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._child.stdout is not None
        threading.Thread(target=self._read, args=(self._child.stdout,), daemon=True).start()
        self.wait("ready")

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            key, t, size = line.split()
            self._add(key, int(t), int(size))

    def _add(self, key: str, t: int, size: int) -> None:
        with self.cond:
            self.arrived.setdefault(key, t)
            self.sizes.append(size)
            self.cond.notify_all()

    def wait(self, key: str, timeout: float = 10.0) -> int:
        with self.cond:
            if not self.cond.wait_for(lambda: key in self.arrived, timeout):
                raise TimeoutError(key)
            return self.arrived[key]

    def close(self) -> None:
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self._child is not None:
            assert self._child.stdin is not None
            self._child.stdin.close()
            self._child.wait(10)


class Bare:
    """The baseline: bare paho, publish QoS 1, wait until the subscriber has it."""

    def __init__(self, broker: Mosquitto, arrivals: Arrivals) -> None:
        self.arrivals = arrivals
        self.count = 0
        self.size = 0  # payload bytes; set to the rulings' mean after the warm-up
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5
        )
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def once(self) -> float:
        self.count += 1
        key = f"raw:{self.count}"
        head = json.dumps({"id": key, "pad": ""})
        payload = head[:-2] + "x" * max(0, self.size - len(head)) + '"}'
        start = now_ns()
        self.client.publish(RAW, payload, qos=1)
        return (self.arrivals.wait(key) - start) / 1e6

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _inputs(t_ns: int) -> list[Event]:
    """Four inputs that make four rulings: Go, a let, Go, a 2.1.8 fault."""
    return [
        Go(t_ns=t_ns),
        Toss(t_ns=t_ns, upward=False),
        Go(t_ns=t_ns),
        Toss(t_ns=t_ns, upward=False),
    ]


class Table:
    """The whole path: submit_event -> journal -> engine -> journal -> outbox
    -> MQTT -> subscriber, one input at a time (each makes one ruling)."""

    def __init__(self, broker: Mosquitto, arrivals: Arrivals, journal: Path, n: int) -> None:
        self.arrivals = arrivals
        config = journal.parent / "t.toml"
        plays = n // 4 + 2
        text = CONFIG.format(url=broker.url, plays=plays, journal=journal.as_posix())
        config.write_text(text, encoding="utf-8")
        self.service = TableService(load_config(config))
        self.stop = threading.Event()
        self.loop = threading.Thread(target=self.service.run, args=(self.stop,), daemon=True)
        self.loop.start()
        self.seq = 0
        self.pending: list[Event] = []

    def once(self) -> float:
        if not self.pending:
            self.pending = _inputs(self.service.clock.mono_ns())
        self.seq += 1
        start = now_ns()
        self.service.submit_event(self.pending.pop(0))
        return (self.arrivals.wait(f"t1:1:{self.seq}") - start) / 1e6

    def close(self) -> None:
        self.stop.set()
        self.loop.join(10)


class Commits:
    """Bare ``synchronous=FULL`` WAL commits of ``size`` bytes in ``folder``.

    In the steady state of a running journal: the WAL already has its size
    and is written over from its start after each checkpoint (so an fsync
    need not also record a longer file), and checkpoints happen outside the
    timed commits, as the MQTT worker runs them for the service.
    """

    def __init__(self, folder: Path, size: int) -> None:
        self.path = folder / "floor.sqlite"
        self.size = size
        self.count = 0
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")

    def once(self) -> float:
        """One commit, in ms."""
        self.count += 1
        if self.count % 200 == 0:
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        start = now_ns()
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO t (payload) VALUES (?)", ("x" * self.size,))
        self.db.execute("COMMIT")
        return (now_ns() - start) / 1e6

    def close(self) -> None:
        self.db.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(name: str, values: list[float]) -> tuple[float, float]:
    p50, p99 = pct(values, 0.50), pct(values, 0.99)
    mean = sum(values) / len(values)
    print(f"{name:<34} n={len(values):5d}  p50 {p50:6.3f} ms  p99 {p99:6.3f} ms  "
          f"mean {mean:6.3f} ms")  # fmt: skip
    return p50, p99


def floor(bare: list[float], commit: list[float]) -> list[float]:
    """Sums of independent draws: a bare round trip plus one durable commit."""
    rng = random.Random(1)
    return [rng.choice(bare) + rng.choice(commit) for _ in range(20_000)]


def filesystem(folder: Path) -> str:
    """The type of the file system ``folder`` is on (from /proc/mounts)."""
    best, kind = "", "unknown"
    try:
        mounts = Path("/proc/mounts").read_text(encoding="utf-8").splitlines()
    except OSError:
        return kind
    target = str(folder.resolve())
    for line in mounts:
        fields = line.split()
        point = fields[1]
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) > len(best):
            best, kind = point, fields[2]
    return kind


def machine() -> str:
    cpu = "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.machine()}, {os.cpu_count()} cpus, {cpu}, "
            f"python {platform.python_version()}")  # fmt: skip


@contextmanager
def scratch(parent: str | None) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="tableref-bench-", dir=parent) as tmp:
        yield Path(tmp)


def run(args: argparse.Namespace, folder: Path, journal_dir: Path) -> dict[str, float]:
    (folder / "broker").mkdir()
    broker = Mosquitto(folder / "broker")
    broker.start()
    arrivals = Arrivals(broker, args.subscriber)
    bare = Bare(broker, arrivals)
    table = Table(broker, arrivals, journal_dir / "journal.sqlite", WARMUP + args.n)
    commits = Commits(journal_dir, 0)
    ours: list[float] = []
    base: list[float] = []
    commit: list[float] = []
    try:
        for _ in range(WARMUP):
            table.once()
        bare.size = round(sum(arrivals.sizes) / len(arrivals.sizes))
        commits.size = 3 * bare.size  # a ruling, its outbox row and the state: about
        for _ in range(WARMUP):
            bare.once()
            commits.once()
        for i in range(ROUNDS):
            block = args.n // ROUNDS + (1 if i < args.n % ROUNDS else 0)
            for _ in range(block):
                # A commit after each round trip: paced like the service's
                # commits (back to back, this VM's disk throttles them).
                base.append(bare.once())
                commit.append(commits.once())
            ours += [table.once() for _ in range(block)]
    finally:
        commits.close()
        table.close()
        bare.close()
        arrivals.close()
        broker.stop()
    print(f"payload: baseline padded to {bare.size} bytes (the rulings' mean)")
    base50, base99 = report("bare paho round trip", base)
    ours50, ours99 = report("tableref input -> ruling", ours)
    print(f"ratio p50 {ours50 / base50:.2f}  p99 {ours99 / base99:.2f}  (goal: p99 <= 1.5)")
    report("one FULL commit alone", commit)
    f50, f99 = report("floor: bare + one FULL commit", floor(base, commit))
    print(f"floor ratio p50 {f50 / base50:.2f}  p99 {f99 / base99:.2f}  "
          "(no durable journal can do better on this disk)")  # fmt: skip
    return {
        "bare_p50": base50,
        "bare_p99": base99,
        "tableref_p50": ours50,
        "tableref_p99": ours99,
        "ratio_p50": ours50 / base50,
        "ratio_p99": ours99 / base99,
        "commit_p50": pct(commit, 0.5),
        "commit_p99": pct(commit, 0.99),
        "floor_p50": f50,
        "floor_p99": f99,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="rulings to time (default 2000)")
    parser.add_argument(
        "--subscriber",
        choices=["process", "thread"],
        default="process",
        help="where the subscriber runs (default: its own process, like a real one)",
    )
    parser.add_argument(
        "--journal-dir", type=Path, default=None, help="put the journal here (default: a temp dir)"
    )
    parser.add_argument("--json", action="store_true", help="end with the figures as one JSON line")
    parser.add_argument("--receive", metavar="HOST:PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.receive:
        host, port = args.receive.rsplit(":", 1)
        receive(host, int(port))
        return
    load = os.getloadavg()[0]
    print(f"machine: {machine()}; load average {load:.2f}")
    with scratch(None) as folder, scratch(args.journal_dir) as journal_dir:
        kind = filesystem(journal_dir)
        print(f"journal: {journal_dir} on {kind}; subscriber: {args.subscriber}")
        if kind == "tmpfs":
            print("DIAGNOSTIC ONLY: the journal is on tmpfs, where fsync costs nothing; "
                  "these figures are not durable and are not the result")  # fmt: skip
        figures = run(args, folder, journal_dir)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        figures |= {"load_before": load, "load_after": os.getloadavg()[0]}
        print(json.dumps({"journal_fs": kind, **{k: round(v, 4) for k, v in figures.items()}}))


if __name__ == "__main__":
    main()
