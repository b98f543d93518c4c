"""Backgammon unit tests: parsing, the codec, refusals, the restart path,
sensor health, the TD ending a match, the record and the clock payload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.clock import ClockPress, PauseReason, Seat
from controller.commands import parse_command
from controller.errors import InputError
from controller.gamemodule import decode, encode
from controller.games.backgammon.engine import BackgammonEngine
from controller.games.backgammon.events import (
    ClockIn,
    Double,
    Drop,
    GameResult,
    OpeningRoll,
    Penalty,
    ResultType,
    Take,
)
from controller.games.backgammon.module import MODULE
from controller.games.backgammon.state import MatchSettings, State
from controller.harness import simulate
from controller.model import Decision, EndMatch, Event, Game, Resumed, RulingKind
from controller.scenario import load_scenario, parse_scenario
from controller.sensors.health import HealthEvent
from controller.strict import Table

ROOT = Path(__file__).resolve().parent.parent
S = 1_000_000_000


def settings(**match: Any) -> MatchSettings:
    doc: dict[str, Any] = {"players": ["ann", "ben"], "length": 5}
    doc.update(match)
    result: MatchSettings = MODULE.parse_match(Table(doc, "t.toml", "[match]", InputError))
    return result


def run(events: list[Event], **match: Any) -> tuple[BackgammonEngine, State, list[Decision]]:
    engine = BackgammonEngine()
    state = engine.start(settings(**match))
    out: list[Decision] = []
    for event in events:
        state, made = engine.step(state, event)
        out += made
    return engine, state, out


NO_CLOCK = {"clock": {"from_start": False}}


def roll(t: float, ann: int, ben: int) -> OpeningRoll:
    return OpeningRoll(t_ns=round(t * S), dice=(("ann", ann), ("ben", ben)))


@pytest.mark.parametrize(
    ("match", "field", "reason"),
    [
        ({"length": 0}, "length", "at least 1"),
        ({"length": 100}, "length", "at most 99"),
        ({"players": ["ann", "ann"]}, "players", "two distinct"),
        ({"clock": {"delay": 12}}, "delay", "unknown key"),
        ({"clock": {"flag": "forfeit"}}, "flag", "'forfeit' is not one of"),
        ({"clock": {"overtime_penalty": 0}}, "overtime_penalty", "at least 1"),
        ({"crawford": "yes"}, "crawford", "expected a boolean"),
    ],
)
def test_a_bad_match_table_names_the_field(match: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(InputError, match=reason) as caught:
        settings(**match)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("kind", "payload", "field", "reason"),
    [
        ("opening_roll", {"dice": {"ann": 7, "ben": 1}}, "ann", "1 to 6"),
        ("opening_roll", {"dice": {"ann": 3}}, "ben", "missing"),
        ("opening_roll", {"dice": {"ann": 3, "ben": 2, "cat": 1}}, "cat", "unknown key"),
        ("double", {"player": "cat"}, "player", "not one of the players"),
        ("game_result", {"winner": "ann", "result": "triple"}, "result", "not one of"),
        ("penalty", {"against": "ben", "rule": "9.9"}, "rule", "not a clause"),
        ("press", {"seat": "middle"}, "seat", "not one of"),
        ("take", {"player": "ben", "extra": 1}, "extra", "unknown key"),
    ],
)
def test_a_bad_input_names_the_field(
    kind: str, payload: dict[str, Any], field: str, reason: str
) -> None:
    with pytest.raises(InputError, match=reason) as caught:
        decode(MODULE, kind, payload, 0, settings())
    assert caught.value.field == field


@pytest.mark.parametrize(
    "event",
    [
        roll(1, 5, 3),
        Double(t_ns=1, player="ann"),
        Take(t_ns=1, player="ben"),
        Drop(t_ns=1, player="ben"),
        GameResult(t_ns=1, winner="ben", result=ResultType.BACKGAMMON),
        ClockIn(t_ns=1),
        Penalty(t_ns=1, against="ann", points=2, rule="2.2.6", reason="late"),
        ClockPress(t_ns=1, seat=Seat.RIGHT),
        EndMatch(t_ns=1, reason="TD"),
        Resumed(t_ns=1, down_ns=5),
    ],
)
def test_every_input_round_trips_through_its_payload(event: Event) -> None:
    kind, payload = encode(MODULE, event)
    assert decode(MODULE, kind, payload, event.t_ns, settings()) == event


def test_every_input_type_is_a_command_verb() -> None:
    command = parse_command("drop", b'{"cmd_id": "c1", "player": "ben"}', 4096, MODULE)
    assert (command.kind, command.fields) == ("drop", {"player": "ben"})
    assert set(MODULE.input_types) == MODULE.verbs


def test_refusal_explains_a_crawford_double_and_a_match_ending_drop() -> None:
    engine, state, _ = run(
        [GameResult(t_ns=1, winner="ann", result=ResultType.GAMMON)], length=3, **NO_CLOCK
    )
    reason = engine.refusal(state, Double(t_ns=2, player="ben"))
    assert reason is not None and "5.11" in reason
    engine, state, _ = run(
        [
            GameResult(t_ns=1, winner="ann", result=ResultType.GAMMON),
            GameResult(t_ns=2, winner="ben"),
            Double(t_ns=3, player="ann"),
        ],
        length=3,
        **NO_CLOCK,
    )
    reason = engine.refusal(state, Drop(t_ns=4, player="ben"))
    assert reason is not None and "may not end on a dropped cube" in reason
    assert engine.refusal(state, Take(t_ns=4, player="ben")) is None


def test_refusal_of_a_press_by_the_waiting_player_but_not_the_runner() -> None:
    engine, state, _ = run([roll(0, 6, 1), ClockPress(t_ns=S, seat=Seat.RIGHT)])
    assert engine.refusal(state, ClockPress(t_ns=2 * S, seat=Seat.RIGHT)) is not None
    assert engine.refusal(state, ClockPress(t_ns=2 * S, seat=Seat.LEFT)) is None


def test_a_restart_is_recorded_and_the_clock_keeps_its_time() -> None:
    engine, state, _ = run([roll(0, 6, 1), ClockPress(t_ns=S, seat=Seat.RIGHT)], length=1)
    due = engine.deadline(state)
    state, made = engine.step(state, Resumed(t_ns=5 * S, down_ns=30 * S))
    assert [d.kind for d in made] == [RulingKind.NOTICE]
    assert "30.0 s down" in made[0].detail and "ann's running" in made[0].detail
    assert engine.deadline(state) == due  # match time excludes the downtime


def test_a_faulty_clock_button_suspends_and_its_recovery_is_a_notice() -> None:
    _, state, made = run(
        [
            HealthEvent(t_ns=1, sensor="clock_left", ok=False, detail="stuck"),
            HealthEvent(t_ns=2, sensor="clock_left", ok=True, detail="ok"),
        ]
    )
    assert [d.kind for d in made] == [RulingKind.SUSPENDED, RulingKind.NOTICE]
    assert MODULE.suspended(state) == frozenset()


@pytest.mark.parametrize(("results", "winner"), [(["ann"], "ann"), ([], None)])
def test_the_td_ends_the_match_for_the_leader_or_no_one(
    results: list[str], winner: str | None
) -> None:
    events: list[Event] = [GameResult(t_ns=1, winner=w) for w in results]
    engine, state, made = run([*events, EndMatch(t_ns=5, reason="venue closing")], **NO_CLOCK)
    assert made[-1].kind is RulingKind.MATCH_OVER and made[-1].rule == "2.1.1"
    assert dict(made[-1].extra)["winner"] == winner
    assert engine.is_over(state) and engine.deadline(state) is None


def test_the_record_keeps_games_reserves_and_pauses() -> None:
    doc = {
        "game": "backgammon",
        "match": {"players": ["ann", "ben"], "length": 3},
        "input": [
            {"at": 0.0, "type": "opening_roll", "dice": {"ann": 6, "ben": 2}},
            {"at": 1.0, "type": "press", "seat": "right"},
            {"at": 31.0, "type": "game_result", "winner": "ann", "result": "gammon"},
            {"at": 40.0, "type": "pause", "reason": "break"},
            {"at": 100.0, "type": "resume"},
        ],
    }
    result = simulate(parse_scenario(doc, "r.toml"))
    record = MODULE.record_json(result.state, result.rulings, 1000 * S)
    assert record["games"] == [
        {
            "game": 1, "first": "ann", "crawford": False, "winner": "ann", "result": "gammon",
            "cube": 1, "cube_owner": None, "points": 2, "score_after": {"ann": 2, "ben": 0},
            "ended_at": 31.0, "reserves_start_ms": {"ann": 360_000, "ben": 360_000},
            "reserves_end_ms": {"ann": 342_000, "ben": 360_000},
        }
    ]  # fmt: skip
    assert record["pauses"] == [
        {"reason": "break", "game": 2, "from": 40.0, "to": 100.0,
         "reserves_ms": {"ann": 342_000, "ben": 360_000}},
    ]  # fmt: skip
    text = MODULE.record_text(result.state, result.rulings, 1000 * S)
    assert "Game 1: ann first; ann wins, gammon, cube 1: 2 pt -> 2-0" in text
    assert "Pause (break) in game 2" in text


def test_the_clock_payload_names_players_and_is_none_without_a_clock() -> None:
    _, state, _ = run([roll(0, 6, 1), ClockPress(t_ns=S, seat=Seat.RIGHT)], length=1)
    payload = MODULE.clock(state, 21 * S)
    assert payload is not None
    assert payload["running"] == "ann"
    assert payload["remaining_ms"] == {"ann": 112_000, "ben": 120_000}  # 20 s, 12 s delay
    _, state, _ = run([], **NO_CLOCK)
    assert MODULE.clock(state, 0) is None
    assert MODULE.engine().snapshot(state)["clock"] is None


def test_a_pause_without_a_clock_changes_nothing() -> None:
    engine, state, _ = run([], **NO_CLOCK)
    from controller.clock import ClockPause

    assert engine.refusal(state, ClockPause(t_ns=1, reason=PauseReason.TD_CALL)) is not None


BG_FILES = sorted((ROOT / "tests" / "scenarios").glob("backgammon-*.toml")) + sorted(
    (ROOT / "examples").glob("backgammon-*.toml")
)
ENGINE_CLAUSES = {
    "2.1.1", "2.2.1", "2.2.5", "2.2.6", "5.1", "5.6", "5.9", "5.10", "5.11", "5.12", "5.14",
}  # fmt: skip


def test_backgammon_scenarios_cover_every_clause_the_engine_cites() -> None:
    cited: set[str] = set()
    for path in BG_FILES:
        scenario = load_scenario(path)
        assert scenario.game is Game.BACKGAMMON
        cited |= {r.rule for r in simulate(scenario).rulings if r.rule}
    assert ENGINE_CLAUSES - cited == set()
    assert cited - ENGINE_CLAUSES == set(), "a clause the engine cites is not listed here"


def test_the_example_config_loads() -> None:
    from controller.config import Backend, load_config

    config = load_config(ROOT / "config" / "backgammon.toml")
    assert config.game is Game.BACKGAMMON and config.backend is Backend.SIM
    assert config.match == settings(length=7)
