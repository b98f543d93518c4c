"""The SQLite journal: what returned is on disk, in order, and whole."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from controller.errors import TablerefError
from controller.journal import (
    Heartbeat,
    Journal,
    JournalError,
    JournalInput,
    open_readonly,
)
from controller.model import Game, Ruling, RulingKind
from controller.outbox import Outbox

TOPIC = "tableref/v1/hall/t1/ruling"
ROOT = Path(__file__).resolve().parent.parent


def ruling(seq: int, boot: int = 1) -> Ruling:
    return Ruling(
        id=f"t1:{boot}:{seq}",
        seq=seq,
        kind=RulingKind.POINT,
        rule="2.3.1",
        game=Game.HEADS_AND_TAILS,
        at=seq / 10,
        against=None,
        to="ann",
        score=(("ann", seq), ("ben", 0)),
        detail=f"point {seq}",
    )


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "t1.sqlite"


def test_inputs_and_rulings_round_trip(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    first = j.record_input(100, 1.7e9, "go", {"by": "spotter"})
    second = j.record_input(200, 1.7e9 + 1, "call", {"player": "ben", "face": "tails"})
    j.record_rulings(second, [ruling(1), ruling(2)], TOPIC)
    assert list(j.inputs()) == [
        JournalInput(first, 1, 100, 1.7e9, "go", {"by": "spotter"}),
        JournalInput(second, 1, 200, 1.7e9 + 1, "call", {"player": "ben", "face": "tails"}),
    ]
    assert j.rulings() == [ruling(1).to_json_dict(), ruling(2).to_json_dict()]
    assert j.last_seq() == 2
    j.close()


def test_boot_counts_opens_and_heartbeat_survives(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    assert (j.boot, j.last_seq(), j.last_heartbeat()) == (1, 0, None)
    j.heartbeat(5_000, 1.7e9)
    j.heartbeat(6_000, 1.7e9 + 1)  # overwrites
    j.close()
    j = Journal(path, table="t1", venue="hall")
    assert j.boot == 2
    assert j.last_heartbeat() == Heartbeat(1, 6_000, 1.7e9 + 1)
    j.close()
    assert Journal(path, table="t1", venue="hall").boot == 3


def test_readonly_open_does_not_start_a_boot(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    j.record_rulings(j.record_input(1, 0.0, "go", {}), [ruling(1)], TOPIC)
    reader = open_readonly(path)
    assert (reader.meta.table, reader.meta.venue, reader.meta.boot) == ("t1", "hall", 1)
    assert [i.kind for i in reader.inputs()] == ["go"]
    assert reader.rulings() == [ruling(1).to_json_dict()]
    reader.close()
    j.close()
    assert Journal(path, table="t1", venue="hall").boot == 2


def test_a_failed_batch_leaves_nothing_behind(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    input_id = j.record_input(1, 0.0, "toss", {})
    j.record_rulings(input_id, [ruling(1)], TOPIC)
    with pytest.raises(JournalError, match=r"t1\.sqlite"):
        j.record_rulings(input_id, [ruling(2), ruling(1)], TOPIC)  # seq 1 again
    assert [r["seq"] for r in j.rulings()] == [1]
    box = Outbox(path)
    assert box.pending() == 1  # no outbox row for the refused ruling 2 either
    box.close()
    j.close()


CRASHER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from controller.journal import Journal
    from tests.test_journal import TOPIC, ruling

    j = Journal(Path(sys.argv[1]), table="t1", venue="hall")
    seq = 0
    while True:
        input_id = j.record_input(seq, 0.0, "toss", {"n": seq})
        j.record_rulings(input_id, [ruling(seq + 1), ruling(seq + 2), ruling(seq + 3)], TOPIC)
        seq += 3
        print(seq, flush=True)
    """
)


def test_everything_that_returned_survives_sigkill(path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CRASHER, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    reported = [int(child.stdout.readline()) for _ in range(20)]
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    reported += [int(line) for line in child.stdout.read().split()]
    child.stdout.close()

    j = Journal(path, table="t1", venue="hall")
    # Every batch that returned is there, and batches are whole: never a
    # ruling without its outbox row, never part of a batch.
    count = len(j.rulings())
    seqs = range(1, count + 1)
    assert j.rulings() == [ruling(s).to_json_dict() for s in seqs]
    assert count >= reported[-1]
    assert count % 3 == 0
    box = Outbox(path)
    assert [row.payload for row in box.unsent(limit=10_000)] == [ruling(s).to_json() for s in seqs]
    box.close()
    assert j.boot == 2
    j.close()


def test_a_journal_for_another_table_is_refused(path: Path) -> None:
    Journal(path, table="t1", venue="hall").close()
    with pytest.raises(JournalError, match=r"t1\.sqlite.*table 't1'.*not table 't2'"):
        Journal(path, table="t2", venue="hall")
    with pytest.raises(TablerefError, match=r"venue 'hall'.*venue 'annex'"):
        Journal(path, table="t1", venue="annex")
    assert Journal(path, table="t1", venue="hall").boot == 2  # refusals did not count


def test_a_newer_schema_is_refused(path: Path) -> None:
    Journal(path, table="t1", venue="hall").close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match=r"t1\.sqlite.*schema 99 is newer"):
        Journal(path, table="t1", venue="hall")


def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "notes.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(JournalError, match=r"notes\.sqlite"):
        Journal(junk, table="t1", venue="hall")
    with pytest.raises(JournalError, match="no such journal"):
        Outbox(tmp_path / "missing.sqlite")


def test_outbox_unsent_mark_sent_pending(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    j.record_rulings(j.record_input(1, 0.0, "toss", {}), [ruling(1), ruling(2)], TOPIC)
    state = j.enqueue("tableref/v1/hall/t1/state", '{"score":{}}', retain=True)
    box = Outbox(path)
    rows = box.unsent()
    assert [(r.topic, r.qos, r.retain) for r in rows] == [
        (TOPIC, 1, False),
        (TOPIC, 1, False),
        ("tableref/v1/hall/t1/state", 1, True),
    ]
    assert rows[2].id == state
    assert [r.id for r in box.unsent(after_id=rows[0].id, limit=1)] == [rows[1].id]
    box.mark_sent(rows[1].id)
    assert [r.id for r in box.unsent()] == [rows[0].id, state]
    box.mark_sent_many([rows[0].id, state])
    assert (box.pending(), box.unsent()) == (0, [])
    box.close()
    j.close()


def test_requeue_recent_marks_the_newest_sent_rulings_unsent_not_retained_rows(
    path: Path,
) -> None:
    j = Journal(path, table="t1", venue="hall")
    j.record_rulings(j.record_input(1, 0.0, "toss", {}), [ruling(s) for s in range(1, 7)], TOPIC)
    j.enqueue("tableref/v1/hall/t1/state", '{"score":{}}', retain=True)
    box = Outbox(path)
    rows = box.unsent()
    box.mark_sent_many(r.id for r in rows)
    assert box.requeue_recent(3) == 3
    again = box.unsent()
    assert [r.id for r in again] == [r.id for r in rows[3:6]]  # rulings 4-6, not the state
    assert all(not r.retain for r in again)
    box.close()
    j.close()


def test_writer_and_outbox_reader_in_two_threads(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    total = 300
    seen: list[int] = []
    errors: list[BaseException] = []
    written = threading.Event()

    def drain() -> None:
        # The MQTT side's pattern: its own connection, reading and marking
        # while the service keeps writing.
        try:
            box = Outbox(path)
            while not (written.is_set() and box.pending() == 0):
                rows = box.unsent(after_id=seen[-1] if seen else 0, limit=50)
                for row in rows:
                    seen.append(row.id)
                    box.mark_sent(row.id)
                if not rows:
                    # The worker blocks when idle; spinning here would hold the
                    # interpreter lock for 5 ms each time the writer fsyncs.
                    time.sleep(0.0005)
            box.close()
        except BaseException as exc:
            errors.append(exc)

    reader = threading.Thread(target=drain)
    reader.start()
    for seq in range(1, total + 1):
        with j.transaction():  # as the service writes
            j.record_rulings(j.record_input(seq, 0.0, "toss", {}), [ruling(seq)], TOPIC)
    written.set()
    reader.join(timeout=20)
    assert not reader.is_alive()
    assert errors == []
    assert seen == list(range(1, total + 1))
    assert j.last_seq() == total
    j.close()


def test_a_transaction_commits_input_and_rulings_together(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    state = ("tableref/v1/hall/t1/state", '{"score":{}}', True)
    with j.transaction():
        input_id = j.record_input(1, 0.0, "toss", {})
        rows = j.record_rulings(input_id, [ruling(1), ruling(2)], TOPIC, [state])
        # Not committed yet: another connection does not see it.
        other = open_readonly(path)
        assert (list(other.inputs()), other.rulings()) == ([], [])
        other.close()
    # Rulings first, then the input's other rows, in id order: what offer() publishes.
    assert [(r.topic, r.payload, r.retain) for r in rows] == [
        (TOPIC, ruling(1).to_json(), False),
        (TOPIC, ruling(2).to_json(), False),
        state,
    ]
    box = Outbox(path)
    assert box.unsent() == rows
    box.close()
    assert [i.id for i in j.inputs()] == [input_id]
    j.close()


def test_a_failed_transaction_leaves_neither_input_nor_rulings(path: Path) -> None:
    j = Journal(path, table="t1", venue="hall")
    j.record_rulings(j.record_input(1, 0.0, "toss", {}), [ruling(1)], TOPIC)
    with pytest.raises(JournalError, match=r"t1\.sqlite.*nothing recorded"), j.transaction():
        input_id = j.record_input(2, 0.0, "toss", {})
        j.record_rulings(input_id, [ruling(2)], TOPIC)
        j.record_rulings(input_id, [ruling(1)], TOPIC)  # seq 1 again
    with pytest.raises(RuntimeError, match="engine"), j.transaction():
        j.record_input(3, 0.0, "toss", {})
        raise RuntimeError("engine bug")
    with j.transaction(), pytest.raises(JournalError, match="do not nest"), j.transaction():
        pass
    assert [i.t_ns for i in j.inputs()] == [1]
    assert [r["seq"] for r in j.rulings()] == [1]
    box = Outbox(path)
    assert box.pending() == 1
    box.close()
    j.close()


TX_CRASHER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from controller.journal import Journal
    from tests.test_journal import TOPIC, ruling

    j = Journal(Path(sys.argv[1]), table="t1", venue="hall")
    seq = 0
    while True:
        with j.transaction():  # the live service's pattern: one commit per input
            input_id = j.record_input(seq, 0.0, "toss", {"n": seq})
            j.record_rulings(input_id, [ruling(seq + 1), ruling(seq + 2)], TOPIC)
        seq += 2
        print(seq, flush=True)
    """
)


def test_a_transaction_survives_sigkill_whole(path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", TX_CRASHER, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    reported = [int(child.stdout.readline()) for _ in range(20)]
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    reported += [int(line) for line in child.stdout.read().split()]
    child.stdout.close()
    j = Journal(path, table="t1", venue="hall")
    count = len(j.rulings())
    assert count >= reported[-1]
    # Never an input without its rulings, nor rulings without their input.
    assert [i.payload["n"] for i in j.inputs()] == list(range(0, count, 2))
    assert j.rulings() == [ruling(s).to_json_dict() for s in range(1, count + 1)]
    j.close()
