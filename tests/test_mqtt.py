"""MqttLink against a real mosquitto: nothing journaled is ever lost on the way out."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.config import topic_base
from controller.journal import Journal, OutboxRow
from controller.mqtt import BrokerTarget, LinkStats, MqttLink
from controller.outbox import Outbox
from tests.mosquitto import Mosquitto
from tests.test_journal import ruling

VENUE, TABLE = "hall", "t1"
BASE = topic_base(VENUE, TABLE)
RULINGS = BASE + "ruling"
ROOT = Path(__file__).resolve().parent.parent

Cleanup = list[Callable[[], object]]


@dataclass(frozen=True, slots=True)
class Received:
    topic: str
    payload: bytes
    retain: bool


class Subscriber:
    """An MQTT v5 QoS 1 subscriber that records everything it receives."""

    def __init__(
        self, broker: Mosquitto, topic: str, client_id: str = "", *, reconnect: bool = False
    ) -> None:
        self.broker = broker
        self.topic = topic
        self.messages: list[Received] = []
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self.disconnected = threading.Event()
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            protocol=MQTTProtocolVersion.MQTTv5,
            client_id=client_id,
            # Without reconnecting, close() after a lost connection is immediate
            # (paho would otherwise be asleep in its reconnect backoff).
            reconnect_on_failure=reconnect,
        )
        self.client.reconnect_delay_set(min_delay=1, max_delay=1)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.on_disconnect = lambda *_: self.disconnected.set()

    def connect(self, *, persistent: bool = False) -> Subscriber:
        """Connect and return once subscribed. ``persistent`` keeps the session
        (and messages queued for it) on the broker while disconnected."""
        # paho's Properties constructor is the one part of its API without annotations.
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = 300 if persistent else 0
        self.client.connect(
            self.broker.host, self.broker.port, clean_start=not persistent, properties=props
        )
        self.client.loop_start()
        assert self._subscribed.wait(5), "subscriber got no SUBACK"
        return self

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, *_: Any) -> None:
        self.disconnected.clear()
        client.subscribe(self.topic, qos=1)

    def _on_subscribe(
        self, client: mqtt.Client, userdata: Any, mid: int, codes: list[ReasonCode], *_: Any
    ) -> None:
        self._subscribed.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.messages.append(Received(msg.topic, bytes(msg.payload), msg.retain))
            self._cond.notify_all()

    def wait_for(self, done: Callable[[list[Received]], bool], timeout: float = 10.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: done(self.messages), timeout)

    def payloads(self) -> list[bytes]:
        with self._cond:
            return [m.payload for m in self.messages]


def first_arrivals(*subscribers: Subscriber) -> list[int]:
    """Ruling seqs in order of first arrival, duplicates dropped by id (as subscribers do)."""
    seen: set[str] = set()
    seqs: list[int] = []
    for sub in subscribers:
        for payload in sub.payloads():
            r = json.loads(payload)
            if r["id"] not in seen:
                seen.add(r["id"])
                seqs.append(r["seq"])
    return seqs


def at_least(n: int) -> Callable[[list[Received]], bool]:
    """A cheap predicate: it runs under the subscriber's lock on every message."""
    return lambda messages: len(messages) >= n


@pytest.fixture
def cleanup() -> Iterator[Cleanup]:
    """Things to stop after the test, in reverse order (before the broker goes)."""
    steps: Cleanup = []
    yield steps
    for step in reversed(steps):
        step()


@pytest.fixture
def journal(tmp_path: Path, cleanup: Cleanup) -> Journal:
    j = Journal(tmp_path / "t1.sqlite", table=TABLE, venue=VENUE)
    cleanup.append(j.close)
    return j


def subscribe(broker: Mosquitto, cleanup: Cleanup, topic: str = RULINGS, **kw: Any) -> Subscriber:
    client_id = kw.pop("client_id", "")
    reconnect = kw.pop("reconnect", False)
    sub = Subscriber(broker, topic, client_id, reconnect=reconnect).connect(**kw)
    cleanup.append(sub.close)
    return sub


def start_link(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup, first_retry_s: int = 1, **kw: Any
) -> MqttLink:
    target = BrokerTarget(
        broker.host,
        broker.port,
        client_id="t1-link",
        keepalive=5,
        reconnect_delay=(first_retry_s, 30),
    )
    link = MqttLink(target, journal.path, venue=VENUE, table=TABLE, **kw)
    link.start()
    cleanup.append(link.stop)
    return link


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def journal_rulings(journal: Journal, first: int, count: int, per_input: int = 10) -> None:
    for start in range(first, first + count, per_input):
        input_id = journal.record_input(start, 0.0, "toss", {})
        batch = [ruling(s) for s in range(start, min(start + per_input, first + count))]
        journal.record_rulings(input_id, batch, RULINGS)


def test_publishes_journaled_rulings_once_each_in_order(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    sub = subscribe(broker, cleanup)
    link = start_link(broker, journal, cleanup)
    journal_rulings(journal, 1, 50, per_input=3)
    link.kick()
    assert link.wait_drained(5)
    assert sub.wait_for(at_least(50), 5)
    assert first_arrivals(sub) == list(range(1, 51))
    box = Outbox(journal.path)
    assert box.pending() == 0
    box.close()
    assert link.stats.acked == 50
    assert link.connected


def test_a_burst_of_thousands_is_published_within_the_window(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    journal_rulings(journal, 1, 3000, per_input=100)
    link = start_link(broker, journal, cleanup)
    assert link.wait_drained(20)
    # Never more in flight than the broker's Receive Maximum (20): had the
    # link overrun it, mosquitto would have disconnected it.
    assert link.stats == LinkStats(published=3000, acked=3000, refused=0, reconnects=0)
    box = Outbox(journal.path)
    assert box.pending() == 0
    box.close()


def test_retained_state_reaches_a_late_subscriber(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    journal.enqueue(BASE + "state", '{"score":{"ann":1}}', retain=True)
    link = start_link(broker, journal, cleanup)
    assert link.wait_drained(5)
    late = subscribe(broker, cleanup, BASE + "state")
    assert late.wait_for(lambda m: len(m) == 1, 5)
    assert late.messages == [Received(BASE + "state", b'{"score":{"ann":1}}', True)]


def link_log(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the link said about its broker, in order, first words only."""
    return [
        r.getMessage().split(": ")[0].split(" (")[0]
        for r in caplog.records
        if r.name == "controller.mqtt"
    ]


def test_rulings_journaled_while_the_broker_is_down_arrive_in_order(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="controller.mqtt")
    # A persistent session: the broker queues rulings for this subscriber even
    # if the link gets back before the subscriber does.
    sub = subscribe(broker, cleanup, client_id="control-room", persistent=True, reconnect=True)
    broker.stop()
    link = start_link(broker, journal, cleanup)  # must not block on the missing broker
    journal_rulings(journal, 1, 200)
    link.kick()
    assert not link.wait_drained(0.2)
    assert not link.connected
    broker.start()
    assert link.wait_drained(10)
    assert sub.wait_for(at_least(200), 10)
    assert first_arrivals(sub) == list(range(1, 201))
    # An operator reads one line per outage, not one per retry.
    port = broker.port
    assert link_log(caplog) == [
        f"broker 127.0.0.1:{port} unreachable",
        f"broker 127.0.0.1:{port} connected",
    ]


def test_a_broker_crash_mid_stream_loses_nothing(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="controller.mqtt")
    total, delivered, in_flight = 1000, 250, 10
    before = subscribe(broker, cleanup)
    # A 3 s first retry: the subscriber below is in before the link is back,
    # even on a loaded machine (it missed the resends once at 1 s).
    link = start_link(broker, journal, cleanup, first_retry_s=3)
    assert wait_until(lambda: link.connected)
    journal_in_step(journal, link, before, delivered)
    # Frozen, the broker reads nothing: these rows are published but can be
    # neither acknowledged nor forwarded when it dies.
    broker.pause()
    journal_rulings(journal, delivered + 1, in_flight)
    link.kick()
    assert wait_until(lambda: link.stats.published == delivered + in_flight)
    broker.kill()
    journal_rulings(journal, delivered + in_flight + 1, total - delivered - in_flight)
    link.kick()
    # What reached the subscriber's socket before the crash is read, not dropped.
    assert before.disconnected.wait(5)
    before.close()
    broker.start()
    # Subscribed again before the link's first reconnect (3 s after the crash).
    after = subscribe(broker, cleanup)
    assert link.wait_drained(15)
    assert wait_until(lambda: len(first_arrivals(before, after)) >= total, 5)
    assert first_arrivals(before) == list(range(1, delivered + 1))
    assert first_arrivals(before, after) == list(range(1, total + 1))
    assert link.stats.reconnects == 1
    where = f"broker 127.0.0.1:{broker.port}"
    assert link_log(caplog) == [f"{where} connected", f"{where} lost", f"{where} connected again"]
    # The frozen broker's rows came again (from paho's memory or the outbox).
    resent = range(delivered + 1, delivered + in_flight + 1)
    assert set(resent) <= set(first_arrivals(after))


def test_a_burst_across_a_broker_kill_arrives_whole_after_dedupe(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    """The case journal_in_step avoids: mosquitto acked rows it then lost.
    The link publishes recent acked rulings again after a reconnect."""
    total = 1000
    before = subscribe(broker, cleanup)
    link = start_link(broker, journal, cleanup, first_retry_s=3)  # see the test above
    assert wait_until(lambda: link.connected)
    journal_rulings(journal, 1, total, per_input=total)
    link.kick()
    assert before.wait_for(at_least(50), 5)  # mid-stream
    broker.kill()
    assert before.disconnected.wait(5)
    before.close()
    broker.start()
    after = subscribe(broker, cleanup)
    assert link.wait_drained(15)
    assert wait_until(lambda: len(first_arrivals(before, after)) >= total, 5)
    # Every ruling, once after dedupe. Not necessarily in first-arrival order:
    # paho resends its own in-flight messages first on a reconnect.
    assert sorted(first_arrivals(before, after)) == list(range(1, total + 1))
    assert first_arrivals(before) == list(range(1, len(first_arrivals(before)) + 1))
    assert link.stats.requeued > 0


def journal_in_step(journal: Journal, link: MqttLink, sub: Subscriber, count: int) -> None:
    """Journal rulings ten at a time, each ten once the subscriber has the last.

    Why not a burst: mosquitto PUBACKs a message before it has forwarded it,
    and a SIGKILLed mosquitto forgets whatever it still queued for a slower
    subscriber. The outbox cannot bring those back (they were acknowledged),
    so a burst would test mosquitto, not the link.
    """
    for first in range(1, count + 1, 10):
        journal_rulings(journal, first, 10)
        link.kick()
        assert sub.wait_for(at_least(first + 9), 5)


LINK_PROCESS = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from controller.journal import Journal
    from controller.mqtt import BrokerTarget, MqttLink

    journal = Journal(Path(sys.argv[1]), table="t1", venue="hall")
    target = BrokerTarget("127.0.0.1", int(sys.argv[2]), client_id="t1-link")
    link = MqttLink(target, journal.path, venue="hall", table="t1")
    link.start()
    print("started", flush=True)
    time.sleep(60)
    """
)


def test_last_will_marks_a_dead_link_offline(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    status = subscribe(broker, cleanup, BASE + "status")
    child = subprocess.Popen(
        [sys.executable, "-c", LINK_PROCESS, str(journal.path), str(broker.port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    cleanup.append(child.kill)
    assert status.wait_for(lambda m: [x.payload for x in m] == [b"online"], 10)
    child.kill()  # no DISCONNECT: the broker publishes the will
    child.wait()
    assert status.wait_for(lambda m: m[-1].payload == b"offline", 5)
    late = subscribe(broker, cleanup, BASE + "status")
    assert late.wait_for(lambda m: len(m) == 1, 5)
    assert late.messages == [Received(BASE + "status", b"offline", True)]

    link = start_link(broker, journal, cleanup)
    assert status.wait_for(lambda m: m[-1].payload == b"online", 5)
    link.stop()  # a clean stop says offline itself (no will on a clean disconnect)
    assert status.wait_for(lambda m: m[-1].payload == b"offline", 5)
    assert status.payloads() == [b"online", b"offline", b"online", b"offline"]


def test_commands_reach_the_handler_but_results_do_not(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    calls: list[tuple[str, bytes]] = []
    got_go = threading.Event()

    def on_command(verb: str, payload: bytes) -> None:
        calls.append((verb, payload))
        if verb == "go":
            got_go.set()

    status = subscribe(broker, cleanup, BASE + "status")
    start_link(broker, journal, cleanup, on_command=on_command)
    # The link subscribes to cmd/+ before it says online.
    assert status.wait_for(lambda m: any(x.payload == b"online" for x in m), 5)
    spotter = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5
    )
    spotter.connect(broker.host, broker.port)
    spotter.loop_start()
    cleanup.append(spotter.loop_stop)
    cleanup.append(spotter.disconnect)
    # In order on one connection: if result were delivered, it would come first.
    spotter.publish(BASE + "cmd/result", b'{"cmd_id":"x","ok":true}', qos=1)
    spotter.publish(BASE + "cmd/go", b'{"cmd_id":"c1"}', qos=1).wait_for_publish(5)
    assert got_go.wait(5)
    assert calls == [("go", b'{"cmd_id":"c1"}')]


def journal_step(journal: Journal, seqs: range) -> list[OutboxRow]:
    """Journal one input and its rulings the way the service does; the rows written."""
    with journal.transaction():
        input_id = journal.record_input(seqs[0], 0.0, "toss", {})
        return journal.record_rulings(input_id, [ruling(s) for s in seqs], RULINGS)


def test_offered_rows_go_out_from_the_callers_thread_and_are_marked_sent(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    sub = subscribe(broker, cleanup)
    link = start_link(broker, journal, cleanup)
    link.offer(journal_step(journal, range(1, 2)))  # connecting: the worker takes it
    assert sub.wait_for(at_least(1), 5)
    for first in range(2, 12, 2):
        before = link.stats.published
        link.offer(journal_step(journal, range(first, first + 2)))
        # Next in line with room in the window: handed to paho before offer returned.
        assert link.stats.published == before + 2
    assert sub.wait_for(at_least(11), 5)
    assert first_arrivals(sub) == list(range(1, 12))
    # Marked sent once the PUBACKs pause, with nobody waiting in wait_drained.
    box = Outbox(journal.path)
    cleanup.append(box.close)
    assert wait_until(lambda: box.pending() == 0)
    assert link.stats.acked == 11


def test_an_offer_never_overtakes_older_unsent_rows(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    sub = subscribe(broker, cleanup)
    link = start_link(broker, journal, cleanup)
    link.offer(journal_step(journal, range(1, 3)))
    assert sub.wait_for(at_least(2), 5)
    journal_rulings(journal, 3, 5)  # journaled, never kicked nor offered
    link.offer(journal_step(journal, range(8, 10)))
    assert link.wait_drained(5)
    assert sub.wait_for(at_least(9), 5)
    assert first_arrivals(sub) == list(range(1, 10))


def test_resend_on_reconnect_requeues_that_many_acked_rulings(
    broker: Mosquitto, journal: Journal, cleanup: Cleanup
) -> None:
    target = BrokerTarget(broker.host, broker.port, client_id="t1-link", resend_on_reconnect=4)
    link = MqttLink(target, journal.path, venue=VENUE, table=TABLE)
    link.start()
    cleanup.append(link.stop)
    # A persistent session, kept over a clean restart, so the subscriber
    # cannot miss a resend by subscribing after the link is back (a race the
    # link's 1 s backoff used to win only on a quiet machine). The broker may
    # also redeliver from that session: subscribers drop duplicates by id.
    sub = subscribe(broker, cleanup, client_id="control-room", persistent=True, reconnect=True)
    journal_rulings(journal, 1, 10)
    assert link.wait_drained(5)
    assert sub.wait_for(at_least(10), 5)
    published = link.stats.published
    broker.stop()
    broker.start()
    assert wait_until(lambda: link.stats.reconnects == 1, 10)
    assert link.wait_drained(5)
    assert link.stats.requeued == 4
    assert link.stats.published - published == 4
    assert sub.wait_for(at_least(14), 5)
    assert first_arrivals(sub) == list(range(1, 11))
    resent = {json.loads(p)["seq"] for p in sub.payloads()[10:]}
    assert {7, 8, 9, 10} <= resent
