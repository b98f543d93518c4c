"""Where the ruling latency goes: the path of ``bench.latency`` cut into stages.

Run from the repository root:  .venv/bin/python -m bench.latency_stages [--n 2000]

It runs the same service, broker and subscriber process as ``bench.latency``
and stamps (CLOCK_MONOTONIC) each input on its way through, by wrapping a
few methods of the journal, runtime, link and paho client. The wrappers add
a few microseconds per stage, so the total is a little above the benchmark's.
Stages, in order:

    queue -> loop         submit_event until the loop opens the transaction
    input row             the input written (not yet committed)
    engine step           Runtime.feed: the engine's step and the ruling's stamp
    ruling + state rows   rulings, outbox rows and the retained state written
    FULL commit           COMMIT with synchronous=FULL: the fsync
    paho publish()        offer() handing the ruling to paho (this thread)
    paho thread           paho's network thread waking and writing the socket
    broker -> subscriber  mosquitto, the subscriber process, its callback
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.latency import WARMUP, Arrivals, Table, now_ns, pct
from controller import journal, mqtt, publisher, runtime, service
from tests.mosquitto import Mosquitto

STAGES = [
    ("queue -> loop", "submit", "transaction"),
    ("input row", "transaction", "input"),
    ("engine step", "input", "feed"),
    ("ruling + state rows", "feed", "rows"),
    ("FULL commit", "rows", "offer"),
    ("paho publish()", "offer", "published"),
    ("paho thread", "published", "sent"),
    ("broker -> subscriber", "sent", "received"),
]

marks: list[tuple[str, int]] = []


def _stamp(cls: Any, name: str, before: str | None, after: str | None) -> None:
    original: Callable[..., Any] = getattr(cls, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if before:
            marks.append((before, now_ns()))
        result = original(*args, **kwargs)
        if after:
            marks.append((after, now_ns()))
        return result

    setattr(cls, name, wrapper)


def _stamp_socket(cls: Any) -> None:
    """Stamp each PUBLISH packet paho's thread writes to the socket."""
    make: Callable[..., Any] = cls._make_client

    def wrapper(self: Any) -> Any:
        client = make(self)
        send: Callable[[bytes], int] = client._sock_send

        def sock_send(buf: bytes) -> int:
            if buf and buf[0] & 0xF0 == 0x30:
                marks.append(("sent", now_ns()))
            return send(buf)

        client._sock_send = sock_send
        return client

    cls._make_client = wrapper


def instrument() -> None:
    _stamp(service.TableService, "submit_event", "submit", None)
    _stamp(journal.Journal, "transaction", "transaction", None)
    _stamp(journal.Journal, "record_input", None, "input")
    _stamp(runtime.Runtime, "feed", None, "feed")
    _stamp(journal.Journal, "record_rulings", None, "rows")
    _stamp(mqtt.MqttLink, "offer", "offer", None)
    _stamp(publisher.Publisher, "_publish", None, "published")
    _stamp_socket(mqtt.MqttLink)


def stages(trace: list[tuple[str, int]]) -> list[int] | None:
    """Each stage's duration (ns) for one input, None if a stamp is missing.

    Stamps up to ``offer`` are taken in order. After it, the first
    ``published`` and the first ``sent`` are the ruling's (it goes before
    the state row); paho's thread may write it before ``publish()`` has
    returned, in which case the paho thread stage is 0.
    """
    times: dict[str, int] = {}
    at = 0
    for name in ("submit", "transaction", "input", "feed", "rows", "offer"):
        while at < len(trace) and trace[at][0] != name:
            at += 1
        if at == len(trace):
            return None
        times[name] = trace[at][1]
    for name in ("published", "sent", "received"):
        found = [t for n, t in trace[at:] if n == name]
        if not found:
            return None
        times[name] = found[0]
    times["published"] = min(times["published"], times["sent"])
    return [times[end] - times[start] for _, start, end in STAGES]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="inputs to time (default 2000)")
    parser.add_argument("--journal-dir", type=Path, default=None, help="where the journal goes")
    args = parser.parse_args(argv)
    instrument()
    rows: list[list[int]] = []
    with (
        tempfile.TemporaryDirectory(prefix="tableref-stages-") as tmp,
        tempfile.TemporaryDirectory(prefix="tableref-stages-", dir=args.journal_dir) as jdir,
    ):
        (Path(tmp) / "broker").mkdir()
        broker = Mosquitto(Path(tmp) / "broker")
        broker.start()
        arrivals = Arrivals(broker, "process")
        table = Table(broker, arrivals, Path(jdir) / "journal.sqlite", WARMUP + args.n)
        try:
            for i in range(WARMUP + args.n):
                marks.clear()
                table.once()
                trace = [*marks, ("received", arrivals.arrived[f"t1:1:{table.seq}"])]
                durations = stages(trace)
                if i >= WARMUP and durations is not None:
                    rows.append(durations)
        finally:
            table.close()
            arrivals.close()
            broker.stop()
    totals = [sum(r) / 1e6 for r in rows]
    print(f"{len(rows)} inputs traced (of {args.n}); ms")
    print(f"{'stage':<22} {'p50':>7} {'p90':>7} {'p99':>7}")
    for column, (label, _, _) in enumerate(STAGES):
        values = [r[column] / 1e6 for r in rows]
        print(f"{label:<22} {pct(values, 0.5):7.3f} {pct(values, 0.9):7.3f} "
              f"{pct(values, 0.99):7.3f}")  # fmt: skip
    print(f"{'total':<22} {pct(totals, 0.5):7.3f} {pct(totals, 0.9):7.3f} "
          f"{pct(totals, 0.99):7.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
