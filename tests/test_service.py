"""The live service in-process, on a simulated clock: commands, journal, resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config import load_config
from controller.errors import TablerefError
from controller.journal import open_readonly
from controller.outbox import Outbox
from controller.service import TableService
from controller.timebase import SimClock

S = 1_000_000_000

CONFIG = """
[table]
venue = "hall"
id = "t1"
game = "heads-and-tails"
journal = "journal.sqlite"

[match]
players = ["ann", "ben"]
plays = 2
first_tosser = "ann"
"""


class Table:
    """A service with its clock, driven one queued item at a time."""

    def __init__(self, folder: Path, mono: int = 50 * S, wall: float = 1_000_000.0) -> None:
        path = folder / "table.toml"
        if not path.exists():
            path.write_text(CONFIG, encoding="utf-8")
        self.clock = SimClock(start_ns=mono, wall_at_start=wall)
        self.service = TableService(load_config(path), clock=self.clock)
        self.journal_path = folder / "journal.sqlite"

    def cmd(self, verb: str, **fields: Any) -> dict[str, Any]:
        before = len(self.results())
        self.service.submit_command(verb, json.dumps({"cmd_id": f"c-{verb}", **fields}).encode())
        self.service.step_once(0)
        results = self.results()
        assert len(results) == before + 1, "every command gets exactly one result"
        return results[-1]

    def raw(self, verb: str, payload: bytes) -> dict[str, Any]:
        self.service.submit_command(verb, payload)
        self.service.step_once(0)
        return self.results()[-1]

    def at(self, seconds_from_start: float) -> None:
        self.clock.advance_to(self.clock._start + round(seconds_from_start * S))

    def results(self) -> list[dict[str, Any]]:
        outbox = Outbox(self.journal_path)
        try:
            rows = outbox.unsent(limit=100_000)
        finally:
            outbox.close()
        return [json.loads(r.payload) for r in rows if r.topic.endswith("/cmd/result")]

    def rulings(self) -> list[dict[str, Any]]:
        reader = open_readonly(self.journal_path)
        try:
            return reader.rulings()
        finally:
            reader.close()


def test_commands_referee_a_play_and_are_journaled(tmp_path: Path) -> None:
    table = Table(tmp_path)
    assert table.cmd("go")["ok"]
    table.at(2)
    assert table.cmd("toss")["ok"]
    table.at(2.2)
    assert table.cmd("call", player="ben", call="heads")["ok"]
    table.at(2.5)
    table.cmd("fault_line")
    table.at(3)
    landed = table.cmd("landed", face="heads")
    assert landed["ok"] and landed["rulings"] == ["t1:1:2"]
    kinds = [(r["id"], r["kind"], r["rule"], r["to"]) for r in table.rulings()]
    assert kinds == [("t1:1:1", "notice", "2.1.2", None), ("t1:1:2", "point", "2.3.1", "ben")]


def test_bad_commands_get_a_reason_and_change_nothing(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.cmd("go")
    before = (table.rulings(), table.service.runtime.state)
    cases = [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"player": "ben"}', "cmd_id"),
        (json.dumps({"cmd_id": "x", "call": 5, "player": "ben"}).encode(), "'call'"),
        (json.dumps({"cmd_id": "x", "call": "heads"}).encode(), "'player'"),
        (json.dumps({"cmd_id": "x", "player": "zed", "call": "heads"}).encode(), "'zed'"),
        (json.dumps({"cmd_id": "x", "player": "ben", "call": "heads", "y": 1}).encode(), "'y'"),
        (b'{"cmd_id": "x", "pad": "' + b"a" * 5000 + b'"}', "byte limit"),
    ]
    for payload, needle in cases:
        got = table.raw("call", payload)
        assert got["ok"] is False and needle in got["error"], (payload[:40], got)
    unknown = table.raw("jump", b'{"cmd_id": "j"}')
    assert unknown == {"cmd_id": "j", "ok": False, "error": unknown["error"], "rulings": []}
    assert "unknown verb" in unknown["error"]
    nonsense = table.cmd("landed", face="heads")  # no coin in flight
    assert nonsense["ok"] is False and "nothing changed" in nonsense["error"]
    ghost = table.cmd("overrule", ruling="t1:1:99", replace_with="let")
    assert ghost["ok"] is False and "t1:1:99" in ghost["error"]
    early = table.cmd("new_match", match={"players": ["a", "b"], "plays": 1})
    assert early["ok"] is False and "end_match" in early["error"]
    assert (table.rulings(), table.service.runtime.state) == before


def test_restart_resumes_the_toss_window_and_records_the_gap(tmp_path: Path) -> None:
    first = Table(tmp_path, mono=50 * S, wall=1_000_000.0)
    first.cmd("go")
    first.at(10)
    first.service.journal.heartbeat(first.service.now(), first.clock.wall())
    first.service.journal.close()  # the process dies here
    # The host rebooted: a new monotonic clock, and 60 s of wall time gone.
    second = Table(tmp_path, mono=7 * S, wall=1_000_070.0)
    resumed = second.rulings()[-1]
    assert resumed["id"] == "t1:2:2" and "60.0 s down" in resumed["detail"]
    assert "20.0 s of the pending deadline remain" in resumed["detail"]
    second.at(19.9)
    second.service.step_once(0)
    assert second.rulings()[-1]["kind"] == "notice"
    second.at(20)
    second.service.step_once(0)
    fault = second.rulings()[-1]
    assert (fault["kind"], fault["rule"], fault["at"], fault["id"]) == (
        "fault", "2.1.2", 30.0, "t1:2:3",
    )  # fmt: skip


def test_new_match_after_end_match_keeps_numbering(tmp_path: Path) -> None:
    table = Table(tmp_path)
    ended = table.cmd("end_match", reason="players left")
    assert ended["ok"] and table.rulings()[-1]["kind"] == "match_over"
    again = table.cmd("end_match")
    assert again["ok"] is False
    started = table.cmd("new_match", match={"players": ["cy", "di"], "plays": 1})
    assert started["ok"], started
    go = table.cmd("go")
    assert go["rulings"] == ["t1:1:2"]
    assert "cy to toss" in table.rulings()[-1]["detail"]


VERBS = st.sampled_from(
    ["go", "toss", "call", "fault_line", "touch", "coin_touched", "landed", "coin_change",
     "invalid", "let", "fault", "overrule", "new_match", "end_match", "nope"]
)  # fmt: skip
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=8),
    st.sampled_from(["ann", "ben", "heads", "tails", "last", "point", "table", "edge"]),
)  # fmt: skip
KEYS = st.sampled_from(
    ["player", "call", "face", "in_area", "what", "who", "against", "to", "ruling",
     "replace_with", "rule", "upward", "match", "x"]
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(VERBS, st.dictionaries(KEYS, VALUES, max_size=4)), max_size=12))
def test_command_fuzz_never_crashes_and_always_answers(
    tmp_path_factory: Any, commands: list[tuple[str, dict[str, Any]]]
) -> None:
    table = Table(tmp_path_factory.mktemp("fuzz"))
    for index, (verb, fields) in enumerate(commands):
        payload = json.dumps({"cmd_id": f"f{index}", **fields}).encode()
        got = table.raw(verb, payload)
        assert got["cmd_id"] == f"f{index}"
        assert isinstance(got["ok"], bool) and (got["ok"] or got["error"])
    seqs = [r["seq"] for r in table.rulings()]
    assert seqs == list(range(1, len(seqs) + 1))


class TickingClock(SimClock):
    """Like a real clock, never reads the same time twice."""

    def mono_ns(self) -> int:
        self.advance_to(super().mono_ns() + 1_000)
        return super().mono_ns()


def test_restart_replays_exactly_even_when_every_clock_read_differs(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG, encoding="utf-8")
    first = TableService(load_config(path), clock=TickingClock(start_ns=5 * S))
    for verb, fields in [("go", {}), ("end_match", {}), ("new_match", {"match": {
            "players": ["cy", "di"], "plays": 1}}), ("go", {})]:  # fmt: skip
        first.submit_command(verb, json.dumps({"cmd_id": verb, **fields}).encode())
        first.step_once(0)
    first.journal.close()
    # Reopening replays the journal and refuses to start if any ruling differs.
    second = TableService(load_config(path), clock=TickingClock(start_ns=9 * S))
    assert second.runtime.state.settings.players == ("cy", "di")
    second.journal.close()


def test_a_bridge_whose_port_is_missing_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    hardware = '\n[hardware]\nbackend = "bridge"\nbridge = "no-such-port"\n'
    wiring = '[[sensors.line]]\nrole = "start_a"\npin = 2\nactive = "low"\n'
    wiring += '[[sensors.line]]\nrole = "fault_a"\npin = 3\nactive = "low"\n'
    path.write_text(CONFIG + hardware + wiring, encoding="utf-8")
    with pytest.raises(TablerefError, match=r"cannot open the bridge's port .*no-such-port"):
        TableService(load_config(path), clock=SimClock())
    assert not (tmp_path / "journal.sqlite").exists()  # refused before anything is written


def test_gpio_off_a_pi_is_refused_before_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("controller.sensors.gpio.pi_model", lambda path: None)  # a laptop
    path = tmp_path / "table.toml"
    wiring = '[[sensors.line]]\nrole = "start_a"\npin = 23\nactive = "low"\n'
    wiring += '[[sensors.line]]\nrole = "fault_a"\npin = 17\nactive = "low"\n'
    path.write_text(CONFIG + '\n[hardware]\nbackend = "gpio"\n' + wiring, encoding="utf-8")
    with pytest.raises(TablerefError, match="needs a Raspberry Pi"):
        TableService(load_config(path), clock=SimClock())
    assert not (tmp_path / "journal.sqlite").exists()


def test_a_journal_of_another_game_is_refused_at_start_up(tmp_path: Path) -> None:
    table = Table(tmp_path)
    assert table.cmd("go")["ok"]
    table.service.close()
    tantrix = CONFIG.replace('game = "heads-and-tails"', 'game = "tantrix"').replace(
        'plays = 2\nfirst_tosser = "ann"\n', ""
    )
    (tmp_path / "table.toml").write_text(tantrix, encoding="utf-8")
    with pytest.raises(TablerefError, match="holds a 'heads-and-tails' match"):
        TableService(load_config(tmp_path / "table.toml"), clock=SimClock(start_ns=0))
