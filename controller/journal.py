"""The journal: every input and ruling of one table, in SQLite, before anything acts on it.

One file per table. The journal is the source of truth (``design.md``): an
input is written before the engine sees it, and it is on disk
(``synchronous=FULL``) together with its rulings and their outbox rows before
any of them is published, so a crash at any point loses nothing that was
reported as done. The MQTT side marks outbox rows sent on PUBACK over its own
connection (:class:`controller.outbox.Outbox`).

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "t1.sqlite"
>>> j = Journal(path, table="t1", venue="hall")
>>> j.boot, j.record_input(5, 1.7e9, "go", {"by": "spotter"}), j.last_seq()
(1, 1, 0)
>>> j.close()
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from controller.errors import TablerefError
from controller.model import JSON, Ruling

SCHEMA_VERSION = 1

# Append-only tables, except the two single-value places (meta's boot counter,
# the one heartbeat row) and outbox.sent, which only ever goes 0 -> 1.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, t_ns INTEGER NOT NULL,
    wall REAL NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rulings (
    seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, boot INTEGER NOT NULL,
    input_id INTEGER NOT NULL REFERENCES inputs(id), payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload TEXT NOT NULL,
    qos INTEGER NOT NULL, retain INTEGER NOT NULL, sent INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox(id) WHERE sent = 0;
CREATE TABLE IF NOT EXISTS heartbeat (
    one INTEGER PRIMARY KEY CHECK (one = 1), boot INTEGER NOT NULL,
    t_ns INTEGER NOT NULL, wall REAL NOT NULL);
"""

# How long a connection waits for the other one (Journal vs Outbox) to finish
# writing. WAL lets readers run alongside a writer, but writers take turns.
_BUSY_TIMEOUT_S = 10.0

# WAL pages after which a Journal commit checkpoints by itself (16 MiB).
_BACKSTOP_CHECKPOINT_PAGES = 4000


class JournalError(TablerefError):
    """A journal file that cannot be used as asked; the message names the file."""


@dataclass(frozen=True, slots=True)
class JournalInput:
    """One journaled input, as replay needs it."""

    id: int
    boot: int
    t_ns: int
    wall: float
    kind: str
    payload: dict[str, JSON]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The latest sign of life: which boot, its ``mono_ns`` time and wall time."""

    boot: int
    t_ns: int
    wall: float


@dataclass(frozen=True, slots=True)
class JournalMeta:
    """Whose journal this is."""

    table: str
    venue: str
    schema: int
    boot: int


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One message waiting to be published (or already published)."""

    id: int
    topic: str
    payload: str
    qos: int
    retain: bool


def _dumps(payload: dict[str, JSON]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def _loads(text: str, path: Path) -> dict[str, JSON]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise JournalError(f"{path}: a payload is not a JSON object: {text[:60]!r}")
    return value


def _connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode: transactions are explicit (``_write``)."""
    try:
        if read_only:
            return sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro",
                uri=True,
                timeout=_BUSY_TIMEOUT_S,
                isolation_level=None,
            )
        # check_same_thread=False: the MQTT link opens its Outbox in start() and
        # hands it to its worker thread; each object is still used by one thread.
        return sqlite3.connect(
            path, timeout=_BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise JournalError(f"{path}: cannot open journal: {exc}") from exc


_WRITERS: dict[str, threading.Lock] = {}
_WRITERS_GUARD = threading.Lock()


def _writer_lock(path: Path) -> threading.Lock:
    """The lock every writing connection to ``path`` in this process takes.

    SQLite lets one writer in at a time and makes the others wait in its busy
    handler, which sleeps 1 ms, then 2, 5, 10... between tries. The Journal
    (the service's loop) and the Outbox (the MQTT worker marking PUBACKs) take
    turns many times a second, so the loop would often sleep a whole
    millisecond for a write that takes 20 us. Queueing on a Python lock first
    wakes it as soon as the other write is done. Other processes (a second
    service refused by the boot check, ``sqlite3`` by hand) still meet the
    busy timeout.
    """
    key = str(path.resolve())
    with _WRITERS_GUARD:
        return _WRITERS.setdefault(key, threading.Lock())


@contextmanager
def _write(
    db: sqlite3.Connection, path: Path, lock: threading.Lock
) -> Iterator[sqlite3.Connection]:
    """One write transaction: all of it is committed, or none of it.

    IMMEDIATE takes the write lock up front, so a busy database is waited for
    here (busy timeout) rather than failing half-way through.
    """
    with lock:
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"{path}: cannot write: {exc}") from exc
        try:
            yield db
            db.execute("COMMIT")
        except BaseException as exc:
            db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"{path}: write failed, nothing recorded: {exc}") from exc
            raise


class _Reading:
    """Queries shared by the writer (:class:`Journal`) and :class:`JournalReader`."""

    _db: sqlite3.Connection
    path: Path

    def inputs(self) -> Iterator[JournalInput]:
        """Every journaled input in id order (the order they happened), for replay."""
        rows = self._db.execute(
            "SELECT id, boot, t_ns, wall, kind, payload FROM inputs ORDER BY id"
        )
        for id_, boot, t_ns, wall, kind, payload in rows:
            yield JournalInput(id_, boot, t_ns, wall, kind, _loads(payload, self.path))

    def rulings(self) -> list[dict[str, JSON]]:
        """Every journaled ruling payload (``Ruling.to_json_dict``) in seq order."""
        rows = self._db.execute("SELECT payload FROM rulings ORDER BY seq")
        return [_loads(payload, self.path) for (payload,) in rows]

    def last_seq(self) -> int:
        """The seq of the latest ruling, 0 when there is none."""
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM rulings").fetchone()
        return int(row[0])

    def last_heartbeat(self) -> Heartbeat | None:
        """The latest heartbeat of any boot, or None before the first one."""
        row = self._db.execute("SELECT boot, t_ns, wall FROM heartbeat WHERE one = 1").fetchone()
        return None if row is None else Heartbeat(int(row[0]), int(row[1]), float(row[2]))

    def _meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta").fetchall())

    def close(self) -> None:
        """Close the connection; the object cannot be used afterwards."""
        self._db.close()


class Journal(_Reading):
    """The writing side of a table's journal; one per running service.

    Opening it starts a new boot: ``boot`` counts the opens of this file from 1
    and is part of every ruling id. A journal written for another table or
    venue, or by a newer tableref, is refused with :class:`JournalError`.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "t1.sqlite"
    >>> Journal(path, table="t1", venue="hall").close()
    >>> j = Journal(path, table="t1", venue="hall")
    >>> j.boot
    2
    >>> j.close()
    """

    def __init__(self, path: Path, *, table: str, venue: str) -> None:
        self.path = path
        self._lock = _writer_lock(path)
        self._open: sqlite3.Connection | None = None  # set inside transaction()
        self._db = _connect(path)
        try:
            self._prepare()
            self.boot = self._start_boot(table, venue)
        except BaseException:
            self._db.close()
            raise

    def _prepare(self) -> None:
        try:
            # WAL: the MQTT thread reads the outbox while this connection writes.
            # FULL: a commit is on disk before record_* returns (the journal
            # promises to survive a power cut, not only a crash of the process).
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            # SQLite checkpoints inside the COMMIT that crosses the threshold:
            # with the default (1000 pages, about every 125 inputs) that one
            # input waits for the database file to be written and fsynced.
            # The Outbox's owner checkpoints off this thread (Outbox.checkpoint);
            # this is only the backstop for a table that publishes nothing.
            self._db.execute(f"PRAGMA wal_autocheckpoint={_BACKSTOP_CHECKPOINT_PAGES}")
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: not a usable journal: {exc}") from exc
        with self._tx() as db:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)

    def _start_boot(self, table: str, venue: str) -> int:
        with self._tx() as db:
            meta = self._meta()
            if not meta:
                meta = {"table": table, "venue": venue, "schema": str(SCHEMA_VERSION)}
                db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            _check_owner(self.path, meta, table, venue)
            boot = int(meta.get("boot", "0")) + 1
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('boot', ?)", (str(boot),))
        return boot

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group ``record_*`` and ``enqueue`` calls into one transaction: one
        ``synchronous=FULL`` commit (one fsync) when the block ends, or nothing
        at all if it raises. Nothing in the block may act on what it records
        (publish, print, answer) before the block ends.

        The live service journals an input, steps the (pure) engine and
        journals the rulings in one block: the input is written before the
        engine sees it and on disk before any ruling is published. A crash
        inside the block loses the input together with its rulings, exactly
        as if it had crashed while the input still sat in the service's
        queue, and nothing had been said about either.

        >>> import tempfile
        >>> j = Journal(Path(tempfile.mkdtemp()) / "t1.sqlite", table="t1", venue="hall")
        >>> with j.transaction():
        ...     first = j.record_input(1, 0.0, "go", {})
        ...     second = j.record_input(2, 0.0, "go", {})
        >>> (first, second), [i.id for i in j.inputs()]
        ((1, 2), [1, 2])
        >>> j.close()
        """
        if self._open is not None:
            raise JournalError(f"{self.path}: transactions do not nest")
        with _write(self._db, self.path, self._lock) as db:
            self._open = db
            try:
                yield
            finally:
                self._open = None

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        """A write transaction of its own, or the open :meth:`transaction`."""
        if self._open is not None:
            return nullcontext(self._open)
        return _write(self._db, self.path, self._lock)

    def _sync(self, full: bool) -> None:
        self._db.execute(f"PRAGMA synchronous={'FULL' if full else 'NORMAL'}")

    def record_input(
        self,
        t_ns: int,
        wall: float,
        kind: str,
        payload: dict[str, JSON],
        *,
        durable: bool = True,
    ) -> int:
        """Append one input; it is committed when this returns (or when the
        enclosing :meth:`transaction` ends). Returns its id.

        ``durable=False`` commits without an fsync: the input is in the WAL
        (it survives the process dying) and the next durable commit, such as
        :meth:`record_rulings`, puts it on disk too, since the WAL is written
        in order. Inside a :meth:`transaction` it makes no difference.
        """
        if self._open is not None:
            return self._insert_input(self._open, t_ns, wall, kind, payload)
        self._sync(durable)
        try:
            with self._tx() as db:
                return self._insert_input(db, t_ns, wall, kind, payload)
        finally:
            self._sync(True)

    def _insert_input(
        self, db: sqlite3.Connection, t_ns: int, wall: float, kind: str, payload: dict[str, JSON]
    ) -> int:
        cur = db.execute(
            "INSERT INTO inputs (boot, t_ns, wall, kind, payload) VALUES (?, ?, ?, ?, ?)",
            (self.boot, t_ns, wall, kind, _dumps(payload)),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def record_rulings(
        self,
        input_id: int,
        rulings: Sequence[Ruling],
        topic: str,
        also: Sequence[tuple[str, str, bool]] = (),
    ) -> list[OutboxRow]:
        """Append the rulings one input produced, each with its outbox row on
        ``topic``, then the outbox rows ``also`` (topic, payload, retain).
        Returns the outbox rows written, in id order, for
        :meth:`~controller.mqtt.MqttLink.offer`.

        One transaction (synchronous=FULL): after a crash either all of them
        are in the journal or none is. A seq or id already journaled is
        refused with :class:`JournalError` and nothing is written.
        """
        rows: list[OutboxRow] = []
        with self._tx() as db:
            for ruling in rulings:
                payload = ruling.to_json()
                db.execute(
                    "INSERT INTO rulings (seq, id, boot, input_id, payload) VALUES (?, ?, ?, ?, ?)",
                    (ruling.seq, ruling.id, self.boot, input_id, payload),
                )
                rows.append(_insert_row(db, topic, payload, 1, False))
            for out_topic, out_payload, retain in also:
                rows.append(_insert_row(db, out_topic, out_payload, 1, retain))
        return rows

    def enqueue(self, topic: str, payload: str, *, qos: int = 1, retain: bool = False) -> int:
        """Queue any other message (retained state, a command result); returns its outbox id."""
        with self._tx() as db:
            return _insert_row(db, topic, payload, qos, retain).id

    def heartbeat(self, t_ns: int, wall: float) -> None:
        """Overwrite the one heartbeat row: the journal does not grow with uptime.

        Still a FULL commit: after a power cut a clock may only lose the time
        since the last heartbeat, so the heartbeat itself must be on disk.
        """
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO heartbeat (one, boot, t_ns, wall) VALUES (1, ?, ?, ?)",
                (self.boot, t_ns, wall),
            )


def _insert_row(
    db: sqlite3.Connection, topic: str, payload: str, qos: int, retain: bool
) -> OutboxRow:
    cur = db.execute(
        "INSERT INTO outbox (topic, payload, qos, retain) VALUES (?, ?, ?, ?)",
        (topic, payload, qos, int(retain)),
    )
    assert cur.lastrowid is not None
    return OutboxRow(cur.lastrowid, topic, payload, qos, retain)


def _check_owner(path: Path, meta: dict[str, str], table: str, venue: str) -> None:
    schema = int(meta.get("schema", "0"))
    if schema > SCHEMA_VERSION:
        raise JournalError(
            f"{path}: journal schema {schema} is newer than this tableref ({SCHEMA_VERSION})"
        )
    if (meta.get("table"), meta.get("venue")) != (table, venue):
        raise JournalError(
            f"{path}: journal belongs to table {meta.get('table')!r} at venue "
            f"{meta.get('venue')!r}, not table {table!r} at venue {venue!r}"
        )


class JournalReader(_Reading):
    """A read-only view of a journal (``tableref replay``); does not start a boot.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "t1.sqlite"
    >>> Journal(path, table="t1", venue="hall").close()
    >>> r = open_readonly(path)
    >>> r.meta.table, r.meta.boot, list(r.inputs())
    ('t1', 1, [])
    >>> r.close()
    """

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise JournalError(f"{path}: no such journal")
        self.path = path
        self._db = _connect(path, read_only=True)
        try:
            meta = self._meta()
        except sqlite3.Error as exc:
            self._db.close()
            raise JournalError(f"{path}: not a journal: {exc}") from exc
        if "table" not in meta:
            self._db.close()
            raise JournalError(f"{path}: not a journal (no table recorded)")
        self.meta = JournalMeta(
            table=meta["table"],
            venue=meta.get("venue", ""),
            schema=int(meta.get("schema", "0")),
            boot=int(meta.get("boot", "0")),
        )


def open_readonly(path: Path) -> JournalReader:
    """Open a journal to read it without starting a boot (see :class:`JournalReader`)."""
    return JournalReader(path)
