"""``tableref watch``: every table of a venue in one terminal view.

The model is pure (:class:`VenueView` takes MQTT messages, :func:`render`
draws text) so it is tested without a broker; :func:`watch` adds paho.
Rulings are deduplicated by id: delivery is at-least-once.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

RECENT = 5  # rulings shown per table
SEEN_IDS = 10_000  # ids remembered per table for dedupe


@dataclass
class TableView:
    """What the watcher knows of one table."""

    table: str
    status: str = "unknown"
    state: dict[str, Any] = field(default_factory=dict)
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT))
    seen: set[str] = field(default_factory=set)
    order: deque[str] = field(default_factory=deque)
    rulings: int = 0
    duplicates: int = 0


class VenueView:
    """Folds the messages of ``tableref/v1/<venue>/#`` into per-table views."""

    def __init__(self, venue: str) -> None:
        self.venue = venue
        self.tables: dict[str, TableView] = {}
        self.malformed = 0

    def handle(self, topic: str, payload: bytes) -> dict[str, Any] | None:
        """Take one message; returns a ruling the first time its id is seen."""
        parts = topic.split("/")
        if len(parts) < 5 or parts[:3] != ["tableref", "v1", self.venue]:
            return None
        table, what = parts[3], "/".join(parts[4:])
        view = self.tables.setdefault(table, TableView(table))
        if what == "status":
            view.status = payload.decode("utf-8", "replace").strip() or "unknown"
            return None
        if what not in ("state", "ruling"):
            return None
        try:
            doc = json.loads(payload)
        except (UnicodeDecodeError, json.JSONDecodeError):
            self.malformed += 1
            return None
        if not isinstance(doc, dict):
            self.malformed += 1
            return None
        if what == "state":
            view.state = doc
            return None
        return self._ruling(view, doc)

    def _ruling(self, view: TableView, doc: dict[str, Any]) -> dict[str, Any] | None:
        rid = doc.get("id")
        if not isinstance(rid, str):
            self.malformed += 1
            return None
        if rid in view.seen:
            view.duplicates += 1
            return None
        view.seen.add(rid)
        view.order.append(rid)
        if len(view.order) > SEEN_IDS:
            view.seen.discard(view.order.popleft())
        view.rulings += 1
        view.recent.append(doc)
        return doc


def ruling_line(table: str, doc: dict[str, Any]) -> str:
    """One ruling as a line of text."""
    parties = " ".join(f"{k} {doc[k]}" for k in ("to", "against") if doc.get(k))
    rule = doc.get("rule") or "-"
    return f"{table:<8} {doc.get('at', 0):>8.1f}s  {doc.get('kind', '?'):<10} {rule:<7} " + (
        f"{parties}: {doc.get('detail', '')}" if parties else str(doc.get("detail", ""))
    )


def render(view: VenueView) -> str:
    """The whole venue as text: one block per table, offline ones flagged."""
    lines = [f"tableref venue {view.venue}: {len(view.tables)} table(s)"]
    for name in sorted(view.tables):
        table = view.tables[name]
        state = table.state
        flag = "OFFLINE" if table.status != "online" else "online"
        score = " ".join(f"{p} {s}" for p, s in (state.get("score") or {}).items())
        phase = state.get("phase", "?")
        lines.append("")
        lines.append(f"[{name}] {flag}  {state.get('game', '')}  score: {score or '-'}  "
                     f"phase: {phase}  rulings: {table.rulings}")  # fmt: skip
        lines += ["  " + ruling_line(name, doc) for doc in table.recent]
    return "\n".join(lines) + "\n"


def watch(
    client: mqtt.Client,
    venue: str,
    out: TextIO = sys.stdout,
    stop: threading.Event | None = None,
    *,
    live: bool | None = None,
    refresh_s: float = 0.5,
    on_ruling: Callable[[str, dict[str, Any]], None] | None = None,
) -> VenueView:
    """Subscribe ``client`` (already configured, not yet connected) to the
    venue and show it until ``stop``. ``live`` redraws the screen (default:
    when ``out`` is a terminal); otherwise each new ruling is one line."""
    view = VenueView(venue)
    lock = threading.Lock()
    stop = stop or threading.Event()
    live = out.isatty() if live is None else live

    def on_connect(c: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if not reason.is_failure:
            c.subscribe(f"tableref/v1/{venue}/+/#", qos=1)

    def on_message(_c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with lock:
            doc = view.handle(msg.topic, bytes(msg.payload))
        if doc is not None:
            table = msg.topic.split("/")[3]
            if on_ruling is not None:
                on_ruling(table, doc)
            if not live:
                out.write(ruling_line(table, doc) + "\n")
                out.flush()

    client.on_connect = on_connect
    client.on_message = on_message
    client.loop_start()
    try:
        while not stop.wait(refresh_s):
            if live:
                with lock:
                    text = render(view)
                out.write("\x1b[H\x1b[2J" + text)
                out.flush()
    finally:
        client.disconnect()
        client.loop_stop()
    return view


def make_client(
    host: str, port: int, tls: bool, username: str | None, password: str | None
) -> mqtt.Client:
    """A read-only MQTT v5 client for watching (a unique client id)."""
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=username or f"tableref-watch-{int(time.time() * 1000) % 10**9}",
        protocol=MQTTProtocolVersion.MQTTv5,
    )
    if username:
        client.username_pw_set(username, password)
    if tls:
        client.tls_set()
    client.reconnect_delay_set(min_delay=1, max_delay=30)
    client.connect_async(host, port, keepalive=30)
    return client
