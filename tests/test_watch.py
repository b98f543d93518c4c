"""``tableref watch``: the venue model and its rendering (no broker needed)."""

from __future__ import annotations

import io
import json

from controller.watch import VenueView, render, ruling_line

BASE = "tableref/v1/hall"


def _ruling(seq: int, kind: str = "point", table: str = "t1") -> bytes:
    return json.dumps(
        {"id": f"{table}:1:{seq}", "seq": seq, "kind": kind, "rule": "2.3.1", "at": 5.0,
         "to": "ben", "against": "ann", "detail": "ben called heads"}
    ).encode()  # fmt: skip


def test_rulings_are_deduplicated_by_id() -> None:
    view = VenueView("hall")
    assert view.handle(f"{BASE}/t1/ruling", _ruling(1)) is not None
    assert view.handle(f"{BASE}/t1/ruling", _ruling(1)) is None  # a resend
    assert view.handle(f"{BASE}/t1/ruling", _ruling(2)) is not None
    table = view.tables["t1"]
    assert (table.rulings, table.duplicates) == (2, 1)


def test_offline_tables_are_flagged_and_state_shown() -> None:
    view = VenueView("hall")
    view.handle(f"{BASE}/t1/status", b"online")
    view.handle(f"{BASE}/t2/status", b"offline")
    state = {"game": "heads-and-tails", "score": {"ann": 1, "ben": 2}, "phase": "window"}
    view.handle(f"{BASE}/t1/state", json.dumps(state).encode())
    text = render(view)
    assert "[t1] online  heads-and-tails  score: ann 1 ben 2  phase: window" in text
    assert "[t2] OFFLINE" in text


def test_other_venues_and_garbage_are_ignored() -> None:
    view = VenueView("hall")
    assert view.handle("tableref/v1/other/t1/ruling", _ruling(1)) is None
    assert view.handle(f"{BASE}/t1/ruling", b"{not json") is None
    assert view.handle(f"{BASE}/t1/ruling", b"[1]") is None
    assert view.handle(f"{BASE}/t1/ruling", b'{"kind": "point"}') is None  # no id
    assert view.malformed == 3
    assert "other" not in view.tables


def test_recent_rulings_are_bounded_and_rendered_as_lines() -> None:
    view = VenueView("hall")
    for seq in range(1, 9):
        view.handle(f"{BASE}/t1/ruling", _ruling(seq))
    assert [r["seq"] for r in view.tables["t1"].recent] == [4, 5, 6, 7, 8]
    line = ruling_line("t1", json.loads(_ruling(3)))
    assert line.split()[:4] == ["t1", "5.0s", "point", "2.3.1"]
    assert "to ben against ann: ben called heads" in line
    buffer = io.StringIO()
    buffer.write(render(view))
    assert buffer.getvalue().count("point") == 5
