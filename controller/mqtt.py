"""Durable MQTT delivery: publish the journal's outbox, mark rows sent on PUBACK.

paho keeps unacknowledged messages only in memory and mosquitto acknowledges
before it writes to disk, so the outbox in the journal is what makes delivery
at-least-once: a row stays unsent until a broker has PUBACKed it, and every
unsent row is published again, in id order, after any reconnect or restart.
Subscribers drop the duplicates this causes by ruling id.

Threads: paho's network thread only runs callbacks, which put events on a
queue (PUBACKs on a deque of their own). One worker thread owns the
:class:`~controller.journal.Outbox` connection: it marks rows sent (in
batches, once PUBACKs pause), reads and publishes any backlog, and resends
after a reconnect. It keeps at most ``WINDOW`` rows in flight so a burst of
thousands of rows never overruns the broker's inflight limit or paho's memory.

The fast path: rows the service has just committed are handed to
:meth:`MqttLink.offer`, which publishes them from the caller's thread when
they are next in line (nothing older is unsent or waiting) and the window has
room. That saves a thread hand-off and a read of the outbox per ruling; the
order on the wire and the marking on PUBACK are the same either way, because
both paths publish under one lock and advance one cursor.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from controller.config import DEFAULT_RESEND_ON_RECONNECT, topic_base
from controller.journal import OutboxRow
from controller.outbox import Outbox
from controller.publisher import WINDOW, Publisher
from controller.publisher import LinkStats as LinkStats  # re-exported: part of the link API

log = logging.getLogger(__name__)

_CHECKPOINT_EVERY = 200  # outbox rows marked sent between WAL checkpoints
_MARK_DELAY_S = 0.005  # acked rows are marked sent once PUBACKs pause this long...
_MARK_BATCH = 100  # ...or this many are waiting
OFFLINE = "offline"
ONLINE = "online"


@dataclass(frozen=True, slots=True)
class BrokerTarget:
    """Where and how to connect.

    >>> BrokerTarget("broker.local", 8883, tls=True, ca="/etc/tableref/ca.pem").keepalive
    30
    """

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    keepalive: int = 30
    client_id: str = ""
    # Acked rulings published again after a reconnect: mosquitto PUBACKs
    # before it forwards, so a broker that crashed may have lost some.
    resend_on_reconnect: int = DEFAULT_RESEND_ON_RECONNECT
    # paho's reconnect backoff, seconds: the first retry, doubling up to the last.
    reconnect_delay: tuple[int, int] = (1, 30)


# Events for the worker thread. paho callbacks only create these.
@dataclass(frozen=True, slots=True)
class _Kick:
    pass


@dataclass(frozen=True, slots=True)
class _Connected:
    receive_maximum: int
    reconnect: bool


@dataclass(frozen=True, slots=True)
class _Disconnected:
    pass


@dataclass(frozen=True, slots=True)
class _Acked:
    """PUBACKs are waiting in ``Publisher.pubacks``."""


@dataclass(frozen=True, slots=True)
class _Stop:
    pass


_Event = _Kick | _Connected | _Disconnected | _Acked | _Stop


class MqttLink:
    """Publishes one table's outbox to a broker and receives its commands.

    >>> link = MqttLink(BrokerTarget("127.0.0.1", 1883), Path("t1.sqlite"),
    ...                 venue="hall", table="t1")   # doctest: +SKIP
    >>> link.start(); link.kick(); link.wait_drained(5.0)  # doctest: +SKIP
    True
    >>> link.stop()  # doctest: +SKIP
    """

    def __init__(
        self,
        target: BrokerTarget,
        outbox_path: Path,
        *,
        venue: str,
        table: str,
        on_command: Callable[[str, bytes], None] | None = None,
    ) -> None:
        self.target = target
        self.outbox_path = outbox_path
        self.base = topic_base(venue, table)
        self.on_command = on_command
        self._events: queue.SimpleQueue[_Event] = queue.SimpleQueue()
        self._cond = threading.Condition()
        self._pending: int | None = None  # unsent rows at the last check
        self._checks = 0  # how many checks the worker has made
        self._waiters = 0  # threads in wait_drained: the worker counts for them
        self._connects = 0
        self._unreachable_said = False  # one log line per outage, not one per retry
        self._marked = 0  # rows marked sent since the last WAL checkpoint
        self._publisher: Publisher | None = None
        self._worker: threading.Thread | None = None
        self._client = self._make_client()

    def _make_client(self) -> mqtt.Client:
        t = self.target
        client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            protocol=MQTTProtocolVersion.MQTTv5,
            client_id=t.client_id,
        )
        if t.username is not None:
            client.username_pw_set(t.username, t.password)
        if t.tls:
            client.tls_set(ca_certs=t.ca, certfile=t.cert, keyfile=t.key)
        # The broker announces our death for us: a lost link is visible at once.
        client.will_set(self.base + "status", OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(*t.reconnect_delay)
        client.max_inflight_messages_set(WINDOW)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    @property
    def connected(self) -> bool:
        """True while the broker connection is up."""
        return self._client.is_connected()

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the counters."""
        publisher = self._publisher
        stats = publisher.stats if publisher is not None else LinkStats()
        return replace(stats, reconnects=max(0, self._connects - 1))

    def start(self) -> None:
        """Open the outbox and connect in the background; never blocks on the broker."""
        self._publisher = Publisher(
            self._client, Outbox(self.outbox_path), self.target.resend_on_reconnect
        )
        self._worker = threading.Thread(target=self._work, name="mqtt-outbox", daemon=True)
        self._worker.start()
        self._client.connect_async(
            self.target.host,
            self.target.port,
            keepalive=self.target.keepalive,
            clean_start=True,  # stale commands must not run after a restart
        )
        self._client.loop_start()

    def kick(self) -> None:
        """New outbox rows exist: publish them. Safe from any thread."""
        self._events.put(_Kick())

    def offer(self, rows: Sequence[OutboxRow]) -> None:
        """Rows just committed to the outbox (in id order): publish them from
        this thread if they are next in line and the window has room, else
        leave them to the worker. Safe from any thread, but call it only
        after the rows' transaction has committed: a row is published only
        once it is on disk.
        """
        publisher = self._publisher
        if publisher is not None and rows:
            with publisher.lock:
                if publisher.take(rows):
                    return
        self.kick()

    def wait_drained(self, timeout: float) -> bool:
        """Wait until every outbox row is acknowledged; False on timeout."""
        with self._cond:
            checks = self._checks
            self._waiters += 1
        try:
            self.kick()  # a check made after this kick sees every row written before it
            with self._cond:
                return self._cond.wait_for(
                    lambda: self._checks > checks and self._pending == 0, timeout
                )
        finally:
            with self._cond:
                self._waiters -= 1

    def stop(self, timeout: float = 5.0) -> None:
        """Say "offline" (retained), disconnect cleanly and stop both threads.

        A clean disconnect suppresses the last will, hence the explicit status.
        """
        if self._client.is_connected():
            info = self._client.publish(self.base + "status", OFFLINE, qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                log.warning("offline status not acknowledged before disconnect")
        self._client.disconnect()
        self._client.loop_stop()
        if self._worker is not None:
            self._events.put(_Stop())
            self._worker.join(timeout)
            self._worker = None

    # paho's thread: callbacks only enqueue (and answer the broker).

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.ConnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason_code.is_failure:
            log.warning("broker %s refused the connection: %s", self.target.host, reason_code)
            return
        self._connects += 1
        self._unreachable_said = False
        log.info(
            "broker %s:%d %s",
            self.target.host,
            self.target.port,
            "connected again: unsent rulings follow, in order"
            if self._connects > 1
            else "connected",
        )
        # paho ignores the broker's Receive Maximum (and its own inflight limit
        # cannot change while connected): our window honours it instead.
        receive_maximum = getattr(properties, "ReceiveMaximum", WINDOW)
        # noLocal: our own cmd/result messages are not echoed back to us.
        client.subscribe(self.base + "cmd/+", options=SubscribeOptions(qos=1, noLocal=True))
        # After the SUBSCRIBE: whoever sees "online" can send commands at once.
        client.publish(self.base + "status", ONLINE, qos=1, retain=True)
        self._events.put(_Connected(receive_maximum, reconnect=self._connects > 1))

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if not self._unreachable_said:
            self._unreachable_said = True
            log.warning(
                "broker %s:%d unreachable: still refereeing and journaling; retrying",
                self.target.host,
                self.target.port,
            )

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.DisconnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if flags.is_disconnect_packet_from_server or reason_code.is_failure:
            self._unreachable_said = True  # the retries that follow say nothing new
            log.warning(
                "broker %s:%d lost (%s): still refereeing and journaling; reconnecting",
                self.target.host,
                self.target.port,
                reason_code,
            )
        self._events.put(_Disconnected())

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason_code: ReasonCode,
        properties: Properties,
    ) -> None:
        publisher = self._publisher
        assert publisher is not None  # set before paho's thread starts
        publisher.pubacks.append((mid, reason_code.is_failure))
        # Appended first, then armed read: see _rearm. A backlog or a
        # wait_drained caller wants the worker at once.
        if not publisher.armed or publisher.buffer or publisher.dirty or self._waiters:
            self._events.put(_Acked())

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        verb = message.topic.removeprefix(self.base + "cmd/")
        if verb == "result" or verb == message.topic or self.on_command is None:
            return
        try:
            self.on_command(verb, bytes(message.payload))
        except Exception:
            # A faulty handler must not kill paho's network thread.
            log.exception("command handler failed for %r", verb)

    # The worker thread: the only user of the Outbox.

    def _work(self) -> None:
        publisher = self._publisher
        assert publisher is not None
        try:
            while self._handle_batch(publisher):
                pass
        except Exception:
            # Nothing is lost (the rows stay unsent in the journal), but the
            # table must not look healthy while nothing is being published.
            log.exception("MQTT outbox worker failed; publishing stopped")
            # 0x04 asks the broker to publish our last will: status "offline".
            will = ReasonCode(PacketTypes.DISCONNECT, "Disconnect with will message")
            self._client.disconnect(reasoncode=will)
        finally:
            publisher.outbox.close()

    def _handle_batch(self, publisher: Publisher) -> bool:
        """Handle every queued event, publish what is due; False on stop.

        Acknowledged rows are marked sent in one commit once PUBACKs pause
        (or pile up), and a PUBACK wakes this thread only when it is not
        already due to look: a write and a thread switch per PUBACK would
        compete with the service for the journal's write lock and the
        interpreter just as the next input comes in. A mark lost in a crash
        only means a resend, which subscribers drop by id.
        """
        running = True
        events = self._next_events(publisher)
        for event in events:
            if isinstance(event, _Stop):
                running = False
            elif isinstance(event, _Kick):
                with publisher.lock:
                    publisher.dirty = True
            elif not isinstance(event, _Acked):
                # A new connection resends every row not marked sent: mark first.
                self._flush(publisher)
                with publisher.lock:
                    if isinstance(event, _Connected):
                        publisher.on_connected(event.receive_maximum, event.reconnect)
                    else:
                        publisher.connected = False
        with self._cond:
            waiting = self._waiters > 0
        with publisher.lock:
            publisher.apply_pubacks()
            due = not events or not running or waiting or len(publisher.acked) >= _MARK_BATCH
        if due:
            self._flush(publisher)
        if running:
            with publisher.lock:
                publisher.fill()
        self._rearm(publisher)
        if waiting:
            self._report(publisher.outbox.pending())
        return running

    def _next_events(self, publisher: Publisher) -> list[_Event]:
        """The queued events, waiting for the first; none when it is time to
        mark acknowledged rows sent."""
        try:
            events = [self._events.get(timeout=_MARK_DELAY_S if publisher.armed else None)]
        except queue.Empty:
            return []
        while not self._events.empty():
            events.append(self._events.get())
        return events

    @staticmethod
    def _rearm(publisher: Publisher) -> None:
        """Wait with a timeout while rows wait to be marked sent.

        ``armed`` is cleared before the PUBACKs are looked at, and paho's
        thread appends before it reads ``armed``: whatever the interleaving,
        a PUBACK is either seen here or wakes the worker.
        """
        with publisher.lock:
            publisher.armed = False
            publisher.armed = bool(publisher.acked or publisher.pubacks)

    def _flush(self, publisher: Publisher) -> None:
        """Mark the acknowledged rows sent; checkpoint the WAL now and then."""
        with publisher.lock:
            publisher.apply_pubacks()
            done, publisher.acked = publisher.acked, []
        if not done:
            return
        publisher.outbox.mark_sent_many(done)
        self._marked += len(done)
        if self._marked >= _CHECKPOINT_EVERY:
            # Here rather than in the service's commits (see Journal).
            publisher.outbox.checkpoint()
            self._marked = 0

    def _report(self, pending: int) -> None:
        with self._cond:
            self._pending = pending
            self._checks += 1
            self._cond.notify_all()
