"""The MQTT link's publishing state: which outbox rows are in flight under
which message id, and the rule that keeps them in id order.

Used by :class:`~controller.mqtt.MqttLink` from two threads (its worker and
the service's loop, through ``offer``), always under :attr:`Publisher.lock`.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

import paho.mqtt.client as mqtt

from controller.journal import OutboxRow
from controller.outbox import Outbox

log = logging.getLogger(__name__)

WINDOW = 20
"""Most outbox rows in flight at once: mosquitto's default ``max_inflight_messages``."""

_BATCH = 500  # outbox rows read per query


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Counters since start: outbox rows published (including resends), rows
    acknowledged, PUBACKs with a failure reason code, reconnects, and acked
    rows queued again after a reconnect."""

    published: int = 0
    acked: int = 0
    refused: int = 0
    reconnects: int = 0
    requeued: int = 0


class Publisher:
    """Which rows are in flight under which message id, and what comes next.

    ``rows_by_mid`` outlives a connection: paho resends its own unacked
    messages after a reconnect, and their PUBACKs still mark rows sent.
    ``window`` holds only the mids published on the current connection.
    """

    def __init__(self, client: mqtt.Client, outbox: Outbox, resend_on_reconnect: int) -> None:
        # Held by whichever thread publishes (the worker, or the service's
        # loop in offer()) from choosing a row to recording its mid: a PUBACK
        # handled in between would find no row for its mid.
        self.lock = threading.Lock()
        self.client = client
        self.outbox = outbox
        self.resend_on_reconnect = resend_on_reconnect
        self.rows_by_mid: dict[int, int] = {}
        self.window: set[int] = set()
        self.limit = WINDOW
        self.connected = False
        self.cursor = 0  # highest row id published on this connection
        self.buffer: deque[OutboxRow] = deque()
        # Unsent rows may exist past the cursor that are not in the buffer:
        # set by a kick or a connect, cleared by a read that reached the end.
        self.dirty = True
        # PUBACKs as paho's thread received them: (mid, refused). Applied
        # (apply_pubacks) by whichever thread next holds the lock; paho's
        # thread cannot take it, since paho calls on_publish holding a lock
        # of its own that client.publish needs.
        self.pubacks: deque[tuple[int, bool]] = deque()
        self.acked: list[int] = []  # rows acknowledged, not yet marked sent
        # The worker will look at PUBACKs within _MARK_DELAY_S unasked: paho's
        # thread need not wake it. Written by the worker under the lock.
        self.armed = False
        self.stats = LinkStats()

    def on_connected(self, receive_maximum: int, reconnect: bool) -> None:
        # Start again from the first unsent row: anything in flight on the old
        # connection may be lost, and a resend is only a duplicate.
        if reconnect and self.resend_on_reconnect:
            # mosquitto PUBACKs before it forwards: if it crashed, rulings it
            # acknowledged may never have reached a subscriber.
            again = self.outbox.requeue_recent(self.resend_on_reconnect)
            self.stats = replace(self.stats, requeued=self.stats.requeued + again)
        self.connected = True
        self.limit = max(1, min(WINDOW, receive_maximum))
        self.window.clear()
        self.buffer.clear()
        self.cursor = 0
        self.dirty = True

    def apply_pubacks(self) -> None:
        """Free the window slots of the PUBACKs received so far and note their rows."""
        while self.pubacks:
            mid, refused = self.pubacks.popleft()
            self.on_acked(mid, refused, self.acked)

    def on_acked(self, mid: int, refused: bool, done: list[int]) -> None:
        self.window.discard(mid)
        row_id = self.rows_by_mid.pop(mid, None)
        if row_id is None:
            return  # not an outbox row (the status message)
        if refused:
            # The broker will refuse a resend just the same (an ACL, a bad
            # topic); retrying forever would block the table's whole outbox.
            log.error("broker refused outbox row %d; it is not retried", row_id)
            self.stats = replace(self.stats, refused=self.stats.refused + 1)
        self.stats = replace(self.stats, acked=self.stats.acked + 1)
        done.append(row_id)

    def fill(self) -> None:
        """Publish unsent rows in id order until the window is full."""
        while self.connected and len(self.window) < self.limit:
            row = self._peek_row()
            if row is None or not self._publish(row):
                return
            self.buffer.popleft()
            self.cursor = row.id

    def take(self, rows: Sequence[OutboxRow]) -> bool:
        """Publish just-committed ``rows`` now if they are next in line; True
        if all of them went, False if the worker must see to (the rest of) them.

        Next in line: connected, nothing read from the outbox still waiting in
        the buffer, and the first row directly follows the last one published
        on this connection (outbox ids have no gaps, so a row in between
        would be one that is unsent and unseen). Anything else, including a
        fresh connection still catching up, falls back to the worker.
        """
        self.apply_pubacks()  # slots freed since the worker last looked
        for row in rows:
            if not (
                self.connected
                and not self.buffer
                and row.id == self.cursor + 1
                and row.qos > 0
                and len(self.window) < self.limit
            ):
                return False
            if not self._publish(row, worker=False):
                return False
            self.cursor = row.id
        return True

    def _publish(self, row: OutboxRow, *, worker: bool = True) -> bool:
        """Hand one row to paho; False if paho cannot take it now (try later).
        Only the worker (``worker=True``) may write to the outbox."""
        try:
            info = self.client.publish(row.topic, row.payload, qos=row.qos, retain=row.retain)
        except ValueError:
            if not worker:
                return False  # the worker meets it next and gives up on it
            # A topic or QoS paho rejects never becomes publishable.
            log.error("outbox row %d cannot be published; it is not retried", row.id)
            self.outbox.mark_sent(row.id)
            return True
        if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
            # paho still holds a message under this mid: mapping it to the row
            # would let that message's PUBACK mark this row sent.
            log.warning("paho's queue is full; outbox row %d waits", row.id)
            return False
        self.stats = replace(self.stats, published=self.stats.published + 1)
        if row.qos == 0:
            # No PUBACK will come: handed to paho is as sent as it gets.
            self.outbox.mark_sent(row.id)
        else:
            self.rows_by_mid[info.mid] = row.id
            self.window.add(info.mid)
        return True

    def _peek_row(self) -> OutboxRow | None:
        if not self.buffer and self.dirty:
            rows = self.outbox.unsent(after_id=self.cursor, limit=_BATCH)
            self.buffer.extend(rows)
            # A row committed after this read comes with a kick or an offer.
            self.dirty = len(rows) == _BATCH
        return self.buffer[0] if self.buffer else None
