"""The MQTT side's own connection to a journal's outbox (see :mod:`controller.journal`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from controller.journal import (
    JournalError,
    OutboxRow,
    _connect,
    _write,
    _writer_lock,
)


class Outbox:
    """The MQTT thread's own connection to a journal's outbox.

    sqlite connections must not be shared between threads, and the MQTT side
    needs only these few queries. Marking a row sent is not fsynced: losing
    that mark in a power cut only means the row is published again, and
    subscribers drop duplicates by id.

    >>> import tempfile
    >>> from controller.journal import Journal
    >>> path = Path(tempfile.mkdtemp()) / "t1.sqlite"
    >>> j = Journal(path, table="t1", venue="hall")
    >>> row_id = j.enqueue("tableref/v1/hall/t1/state", "{}", retain=True)
    >>> box = Outbox(path)
    >>> [(r.id, r.retain) for r in box.unsent()], box.pending()
    ([(1, True)], 1)
    >>> box.mark_sent(row_id); box.pending()
    0
    >>> box.close(); j.close()
    """

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise JournalError(f"{path}: no such journal (the Journal creates it)")
        self.path = path
        self._lock = _writer_lock(path)
        self._db = _connect(path)
        try:
            self._db.execute("PRAGMA synchronous=NORMAL")
            # Checkpoints run in checkpoint(), outside the writer lock.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("SELECT 1 FROM outbox LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            self._db.close()
            raise JournalError(f"{path}: not a journal: {exc}") from exc

    def unsent(self, after_id: int = 0, limit: int = 500) -> list[OutboxRow]:
        """Up to ``limit`` unsent rows with id > ``after_id``, in id order."""
        rows = self._db.execute(
            "SELECT id, topic, payload, qos, retain FROM outbox"
            " WHERE sent = 0 AND id > ? ORDER BY id LIMIT ?",
            (after_id, limit),
        )
        return [OutboxRow(i, t, p, q, bool(r)) for i, t, p, q, r in rows]

    def mark_sent(self, outbox_id: int) -> None:
        """The broker acknowledged this row."""
        self.mark_sent_many((outbox_id,))

    def mark_sent_many(self, outbox_ids: Iterable[int]) -> None:
        """Mark several rows sent in one commit (a burst of PUBACKs)."""
        with _write(self._db, self.path, self._lock) as db:
            db.executemany("UPDATE outbox SET sent = 1 WHERE id = ?", ((i,) for i in outbox_ids))

    def requeue_recent(self, count: int, topic_suffix: str = "/ruling") -> int:
        """Mark the last ``count`` acknowledged rows on ``...topic_suffix`` unsent
        again; returns how many. A broker acknowledges a message before it has
        passed it on, so a broker that crashed may have lost rows we hold as
        sent: republishing them is safe, subscribers drop duplicates by id."""
        with _write(self._db, self.path, self._lock) as db:
            cursor = db.execute(
                "UPDATE outbox SET sent = 0 WHERE id IN (SELECT id FROM outbox"
                " WHERE sent = 1 AND retain = 0 AND topic LIKE ? ORDER BY id DESC LIMIT ?)",
                ("%" + topic_suffix, count),
            )
            return cursor.rowcount

    def checkpoint(self) -> None:
        """Copy committed pages from the WAL into the database file (PASSIVE:
        never waits for, nor blocks, the Journal's writes), so that the WAL
        is reused from its start instead of growing. Called by the MQTT
        worker, off the service's loop."""
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def pending(self) -> int:
        """How many rows are not yet acknowledged by a broker."""
        row = self._db.execute("SELECT COUNT(*) FROM outbox WHERE sent = 0").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection."""
        self._db.close()
