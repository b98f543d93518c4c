"""Tantrix: Tournament Points, settings, the engine's edges, record and service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.clock import ClockPress, PauseSwitch, Seat, remaining_ms
from controller.config import load_config
from controller.errors import InputError
from controller.games.registry import module_for
from controller.games.tantrix.engine import TantrixEngine
from controller.games.tantrix.events import TileScore, TimeOut
from controller.games.tantrix.settings import MatchSettings, encode_match, parse_match
from controller.games.tantrix.state import Phase, State
from controller.games.tantrix.tp import TpTable, after_penalties, time_penalties
from controller.harness import simulate
from controller.model import EndMatch, Game, Resumed, RulingKind
from controller.outbox import Outbox
from controller.scenario import parse_scenario
from controller.sensors.health import HealthEvent
from controller.strict import Table
from tests.test_service import Table as ServiceTable

S = 1_000_000_000
ROOT = Path(__file__).resolve().parent.parent
MODULE = module_for(Game.TANTRIX)
ENGINE = TantrixEngine()


def settings(**match: Any) -> MatchSettings:
    return parse_match(Table({"players": ["ann", "ben"], **match}, "t.toml", "[match]"))


def playing(**match: Any) -> State:
    """ann v ben, ann's clock started by ben at 0 s."""
    state = ENGINE.at_origin(ENGINE.start(settings(first="ann", **match)), 0)
    state, _ = ENGINE.step(state, ClockPress(t_ns=0, seat=Seat.RIGHT))
    return state


# --- Tournament Points -------------------------------------------------------------


@pytest.mark.parametrize(
    ("taken_ms", "count"),
    [(0, 0), (1_199_900, 0), (1_199_999, 0), (1_200_000, 1), (1_259_999, 1),
     (1_260_000, 2), (1_350_000, 3), (1_380_000, 4), (1_860_000, 12)],
)  # fmt: skip
def test_time_penalties_at_the_limit_and_each_full_minute(taken_ms: int, count: int) -> None:
    assert time_penalties(taken_ms) == count


@given(
    st.integers(0, 200),
    st.integers(0, 30),
    st.integers(0, 30),
    st.integers(0, 50),
)
def test_penalties_conserve_20_tps_and_clamp_to_0_20(
    base_left: int, pen_left: int, pen_right: int, per: int
) -> None:
    left, right = after_penalties((base_left, 200 - base_left), (pen_left, pen_right), per)
    assert left + right == 200
    assert 0 <= left <= 200
    # The player with more penalties never gains from them.
    if pen_left >= pen_right:
        assert left <= base_left
    else:
        assert left >= base_left


def test_default_table_is_a_draw_at_0_and_monotone_up_to_20() -> None:
    table = TpTable.default()
    winners = [table.winner_tp10(m) for m in range(40)]
    assert winners[0] == 100 and winners[-1] == 200
    assert winners == sorted(winners)
    for left in range(40):
        for right in range(40):
            a, b = table.convert((left, right))
            assert a + b == 200 and (a > b) == (left > right) and (a == b) == (left == right)


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        ({"1": 11.0}, "must start with margin 0"),
        ({"0": 10.0, "3": 14.0, "5": 12.0}, "fewer TPs"),
        ({"0": 10.0, "3": 20.5}, "at most 20"),
        ({"0": 10.0, "x": 12.0}, "smallest tile margin"),
        ({"0": 10.0, "2": 12.25}, "one decimal place"),
    ],
)
def test_bad_tp_tables_are_refused_naming_the_key(rows: dict[str, float], problem: str) -> None:
    with pytest.raises(InputError, match=problem) as info:
        settings(tp_table=rows)
    assert "t.toml" in str(info.value)


# --- settings ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("match", "key", "problem"),
    [
        ({"first": "cy"}, "first", "not one of the players"),
        ({"clock_left": "cy"}, "clock_left", "not one of the players"),
        ({"alert_minutes": 15}, "alert_minutes", "after the time limit"),
        ({"default_tp": [15.0, 6.0]}, "default_tp", "add up to 20.0"),
        ({"default_tp": [5.0, 15.0]}, "default_tp", "the larger first"),
        ({"penalty_tp": 0.25}, "penalty_tp", "one decimal place"),
        ({"tp_table": {"0": 10.0}, "tp_table_file": "x.toml"}, "tp_table_file", "not both"),
        ({"tp_table_file": "missing.toml"}, "tp_table_file", "no such file"),
        ({"colour": "red"}, "colour", "unknown key"),
    ],
)
def test_bad_settings_name_the_key(match: dict[str, Any], key: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem) as info:
        settings(**match)
    assert info.value.field == key


def test_settings_round_trip_through_the_journal_form() -> None:
    path = ROOT / "tests" / "scenarios" / "tantrix-tables" / "two-tiles-per-tp.toml"
    original = settings(first="ben", clock_left="ben", scheduled_start=90.5,
                        default_tp=[16.0, 4.0], tp_table_file=str(path))  # fmt: skip
    again = parse_match(Table(encode_match(original), "journal", "match"))
    assert again == original and again.tp_table.winner_tp10(1) == 105


def test_the_example_config_loads() -> None:
    config = load_config(ROOT / "config" / "tantrix.toml")
    assert config.game is Game.TANTRIX and config.match.players == ("ann", "ben")


# --- engine edges ------------------------------------------------------------------


def test_commands_that_change_nothing_are_refused_with_the_reason() -> None:
    state = playing()
    assert ENGINE.refusal(state, ClockPress(t_ns=5 * S, seat=Seat.RIGHT)) == (
        "press by ben ignored: ben's clock is not running"
    )
    assert ENGINE.refusal(state, ClockPress(t_ns=5 * S, seat=Seat.LEFT)) is None
    fresh = ENGINE.at_origin(ENGINE.start(settings()), 0)
    score = TileScore(t_ns=S, tiles=(1, 2), players=("ann", "ben"))
    assert "no game has been started" in (ENGINE.refusal(fresh, score) or "")


def test_a_time_out_while_paused_is_still_recorded_for_its_caller() -> None:
    state, _ = ENGINE.step(playing(), PauseSwitch(t_ns=10 * S, engaged=True))
    assert ENGINE.refusal(state, TimeOut(t_ns=11 * S, player="ben")) is None
    state, _ = ENGINE.step(state, TimeOut(t_ns=11 * S, player="ben"))
    assert [t.player for t in state.time_outs] == ["ben"]


def test_the_td_ending_the_game_cites_11_and_awards_nothing() -> None:
    state, decisions = ENGINE.step(playing(), EndMatch(t_ns=60 * S, reason="fire alarm"))
    (over,) = decisions
    assert (over.kind, over.rule, dict(over.score)) == (
        RulingKind.GAME_OVER, "11", {"ann": 0.0, "ben": 0.0},
    )  # fmt: skip
    assert state.phase is Phase.OVER and ENGINE.deadline(state) is None
    after, (notice,) = ENGINE.step(state, ClockPress(t_ns=61 * S, seat=Seat.LEFT))
    assert notice.kind is RulingKind.NOTICE and after.clock == state.clock


def test_restart_gap_is_a_notice_naming_the_running_clock() -> None:
    _, (notice,) = ENGINE.step(playing(), Resumed(t_ns=30 * S, down_ns=12 * S))
    assert notice.kind is RulingKind.NOTICE
    assert "12.0 s down" in notice.detail and "ann's clock was running" in notice.detail


def test_a_faulty_clock_button_suspends_and_recovers() -> None:
    state, (out,) = ENGINE.step(playing(), HealthEvent(t_ns=S, sensor="clock_left", ok=False,
                                                       detail="stuck"))  # fmt: skip
    assert out.kind is RulingKind.SUSPENDED and state.suspended == frozenset({"clock_left"})
    state, (back,) = ENGINE.step(state, HealthEvent(t_ns=2 * S, sensor="clock_left", ok=True,
                                                    detail="idle"))  # fmt: skip
    assert back.kind is RulingKind.NOTICE and not state.suspended


def test_the_alert_deadline_is_the_first_ms_past_25_minutes() -> None:
    state = playing()
    assert ENGINE.deadline(state) == 1200 * S  # the time limit first
    state, _ = ENGINE.step(state, PauseSwitch(t_ns=1300 * S, engaged=True))
    assert ENGINE.deadline(state) is None  # paused: no time passes
    state, _ = ENGINE.step(state, PauseSwitch(t_ns=1400 * S, engaged=False))
    assert ENGINE.deadline(state) == 1600 * S + 1_000_000  # 25:00.001 of ann's time


# --- record and clock topic ----------------------------------------------------------


def _run(inputs: list[dict[str, Any]], until: float | None = None, **match: Any) -> Any:
    doc: dict[str, Any] = {
        "game": "tantrix",
        "match": {"players": ["ann", "ben"], **match},
        "input": inputs,
    }
    if until is not None:
        doc["until"] = until
    return simulate(parse_scenario(doc, "t.toml"))


def test_record_has_fixture_sides_and_what_the_tiebreaks_need() -> None:
    sim = _run(
        [{"at": 0.0, "type": "press", "seat": "left"},  # ben's clock: ann is at the right
         {"at": 1230.0, "type": "pause_switch", "engaged": True},
         {"at": 1240.0, "type": "time_out", "player": "ann"},
         {"at": 1250.0, "type": "score", "tiles": {"ann": 19, "ben": 26}}],
        players=["ben", "ann"], clock_left="ann",
    )  # fmt: skip
    doc: dict[str, Any] = MODULE.record_json(sim.state, sim.rulings, 1000 * S)
    left, right = doc["left"], doc["right"]
    assert (left["player"], right["player"]) == ("ben", "ann")
    assert (left["clock_side"], right["clock_side"]) == ("right", "left")
    assert (left["tiles"], left["margin"], left["wins"], left["tp"]) == (26, 7, 1.0, 13.0)
    assert (right["tiles"], right["margin"], right["wins"], right["tp"]) == (19, -7, 0.0, 7.0)
    assert (left["penalties"], left["time_taken"], left["tp_by_margin"]) == (1, "20:30.0", 14.0)
    assert right["time_outs"] == 1 and doc["result"] == "tiles"
    text = MODULE.record_text(sim.state, sim.rulings, 1000 * S)
    assert "Left: ben   Right: ann" in text


def test_clock_payload_names_players_and_counts_past_zero() -> None:
    sim = _run([{"at": 0.0, "type": "press", "seat": "right"}], until=1260.0)
    payload = MODULE.clock(sim.state, (1000 + 1260) * S)
    assert payload is not None
    assert payload["running"] == "ann" and payload["count_past_zero"] is True
    assert payload["remaining_ms"] == {"ann": -60_000, "ben": 1_200_000}


# --- the live service ------------------------------------------------------------------

CONFIG = """
[table]
venue = "hall"
id = "t1"
game = "tantrix"
journal = "journal.sqlite"

[match]
players = ["ann", "ben"]
first = "ann"
"""


def test_service_runs_tantrix_commands_and_resumes_the_clock(tmp_path: Path) -> None:
    (tmp_path / "table.toml").write_text(CONFIG, encoding="utf-8")
    first = ServiceTable(tmp_path, mono=50 * S, wall=1_000_000.0)
    assert first.cmd("press", seat="right")["ok"]
    assert not first.cmd("press", seat="right")["ok"]  # refused: ben's clock is not running
    outbox = Outbox(first.journal_path)
    clocks = [r for r in outbox.unsent(limit=1000) if r.topic.endswith("/clock")]
    outbox.close()
    last = json.loads(clocks[-1].payload)
    assert (last["running"], last["remaining_ms"]) == ("ann", {"ann": 1_200_000, "ben": 1_200_000})
    first.at(100)
    first.service.journal.heartbeat(first.service.now(), first.clock.wall())
    first.service.journal.close()  # the process dies with ann's clock running at 100 s
    second = ServiceTable(tmp_path, mono=7 * S, wall=1_000_300.0)
    resumed = second.rulings()[-1]
    assert "200.0 s down" in resumed["detail"] and "ann's clock was running" in resumed["detail"]
    state = second.service.runtime.state
    assert remaining_ms(state.clock, Seat.LEFT, second.service.now()) == 1_100_000
    second.at(50)
    assert second.cmd("pause_switch", engaged=True)["ok"]
    assert second.cmd("score", tiles={"ann": 30, "ben": 10})["ok"]
    over = second.rulings()[-1]
    assert (over["kind"], over["score"]) == ("game_over", {"ann": 20.0, "ben": 0.0})
    assert over["time_taken_ms"] == {"ann": 150_000, "ben": 0}
