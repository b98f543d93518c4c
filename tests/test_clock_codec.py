"""Clock inputs in scenario files and the journal; the ``[clock]`` table; apply_event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.clock import (
    ClockAdjust,
    ClockPause,
    ClockPress,
    ClockResume,
    Mode,
    PauseReason,
    PauseSwitch,
    PressOutcome,
    Seat,
    Stage,
    TimeControl,
    apply_event,
    new_clock,
    press,
    remaining_ms,
    snapshot,
    start,
)
from controller.clock.scenario import (
    CLOCK_INPUT_TYPES,
    decode_clock,
    encode_clock,
    parse_clock_input,
)
from controller.errors import InputError, ScenarioError
from controller.model import Event, Tick
from controller.strict import Table

S = 1_000_000_000

EVENTS: list[Event] = [
    ClockPress(t_ns=5, seat=Seat.LEFT),
    ClockPress(t_ns=5, seat=Seat.RIGHT),
    PauseSwitch(t_ns=6, engaged=True),
    PauseSwitch(t_ns=6, engaged=False),
    ClockPause(t_ns=7, reason=PauseReason.DIE_OFF_TABLE),
    ClockResume(t_ns=8),
    ClockAdjust(t_ns=9, seat=Seat.RIGHT, delta_ms=30_000, reason="rule 5"),
]


@pytest.mark.parametrize("event", EVENTS)
def test_every_clock_event_round_trips_through_its_payload(event: Event) -> None:
    kind, payload = encode_clock(event)
    assert kind in CLOCK_INPUT_TYPES
    assert decode_clock(kind, payload, event.t_ns, "journal", "row 1") == event


def test_a_non_clock_event_is_not_encoded() -> None:
    with pytest.raises(TypeError, match="Tick"):
        encode_clock(Tick(t_ns=1))


@pytest.mark.parametrize(
    ("kind", "fields", "field", "reason"),
    [
        ("press", {}, "seat", "missing"),
        ("press", {"seat": "left", "player": "ann"}, "player", "unknown key"),
        ("pause_switch", {"engaged": "yes"}, "engaged", "expected a boolean"),
        ("pause", {"reason": "lunch"}, "reason", "'lunch' is not one of"),
        ("adjust", {"seat": "left", "delta_ms": 0}, "delta_ms", "changes nothing"),
        ("adjust", {"seat": "left", "delta_ms": 1.5}, "delta_ms", "expected an integer"),
        ("adjust", {"seat": "left", "delta_ms": 10**12}, "delta_ms", "at most"),
        ("resign", {}, "type", "not a clock input"),
    ],
)
def test_bad_inputs_name_the_file_input_and_field(
    kind: str, fields: dict[str, object], field: str, reason: str
) -> None:
    table = Table(fields, "match.toml", f"input 3 ({kind})", ScenarioError)
    with pytest.raises(ScenarioError) as info:
        parse_clock_input(kind, table, 0)
    assert info.value.field == field and reason in info.value.reason
    assert str(info.value).startswith(f"match.toml: input 3 ({kind}): field '{field}'")


def test_a_journal_payload_error_is_an_input_error() -> None:
    with pytest.raises(InputError, match="journal: row 4: field 'seat'"):
        decode_clock("press", {"seat": 1}, 0, "journal", "row 4")


# --- the [clock] table -------------------------------------------------------


def parse(data: dict[str, object]) -> TimeControl:
    return TimeControl.parse(Table(data, "table.toml", "[clock]", ScenarioError))


def test_inline_and_staged_time_controls() -> None:
    assert parse({"mode": "sudden_death", "base_s": 1200, "count_past_zero": True}) == (
        TimeControl.sudden_death(1_200_000, count_past_zero=True)
    )
    staged = parse(
        {
            "stage": [
                {"mode": "fischer", "base_s": 5400, "moves": 40, "increment_s": 30},
                {"mode": "fischer", "base_s": 1800, "increment_s": 30},
            ]
        }
    )
    assert staged.stages[0] == Stage(Mode.FISCHER, 5_400_000, 40, increment_ms=30_000)
    assert staged.describe() == (
        "90 min for 40 moves + 30 s Fischer increment per move, "
        "then 30 min + 30 s Fischer increment per move"
    )
    byo = parse({"mode": "byo_yomi", "base_s": 0, "periods": 5, "period_s": 30.5})
    assert byo.stages[0].period_ms == 30_500


@pytest.mark.parametrize(
    ("data", "where", "field", "reason"),
    [
        ({"mode": "blitz", "base_s": 1}, "[clock]", "mode", "not one of"),
        ({"mode": "fischer", "base_s": 60}, "[clock]", "increment_s", "missing"),
        ({"mode": "sudden_death", "base_s": 60, "delay_s": 2}, "[clock]", "delay_s", "not used"),
        ({"mode": "sudden_death", "base_s": -1}, "[clock]", "base_s", "at least"),
        ({"mode": "sudden_death", "base_s": 60, "moves": 40}, "[clock]", None, "last stage"),
        ({"stage": [], "count_past_zero": True}, "[clock]", "stage", "at least one"),
        (
            {"stage": [{"mode": "sudden_death", "base_s": 1}], "mode": "fischer"},
            "[clock]",
            "mode",
            "[[clock.stage]]",
        ),
        (
            {"stage": [{"mode": "sudden_death", "base_s": 1, "colour": "red"}]},
            "[clock] stage 1",
            "colour",
            "unknown key",
        ),
        (
            {"stage": [{"mode": "sudden_death", "base_s": 1}, {"mode": "fischer", "base_s": 1}]},
            "[clock] stage 2",
            "increment_s",
            "missing",
        ),
        (
            {"stage": [{"mode": "sudden_death", "base_s": 1}, {"mode": "hourglass", "base_s": 1}]},
            "[clock]",
            "stage",
            "needs a number of moves",
        ),
    ],
)
def test_bad_clock_tables_name_the_place_and_key(
    data: dict[str, object], where: str, field: str | None, reason: str
) -> None:
    with pytest.raises(ScenarioError) as info:
        parse(data)
    assert (info.value.where, info.value.field) == (where, field)
    assert reason in info.value.reason


# --- apply_event ---------------------------------------------------------------


def test_apply_event_reports_a_flag_before_the_event_acts() -> None:
    state = start(new_clock(TimeControl.sudden_death(10_000)), Seat.LEFT, 0)
    state, step = apply_event(state, ClockPress(t_ns=12 * S, seat=Seat.LEFT))
    assert step.flag is Seat.LEFT and step.press is PressOutcome.STOPPED
    assert state.left.flag_ms == 10_000 and not step.changed


def test_the_switch_does_not_lift_a_pause_the_td_made() -> None:
    state = start(new_clock(TimeControl.sudden_death(60_000)), Seat.LEFT, 0)
    state, _ = apply_event(state, ClockPause(t_ns=1 * S, reason=PauseReason.TD_CALL))
    state, step = apply_event(state, PauseSwitch(t_ns=2 * S, engaged=False))
    assert not step.changed and state.pause is not None
    state, step = apply_event(state, ClockResume(t_ns=3 * S))
    assert step.changed and state.pause is None
    state, _ = apply_event(state, PauseSwitch(t_ns=4 * S, engaged=True))
    state, step = apply_event(state, PauseSwitch(t_ns=9 * S, engaged=False))
    assert step.changed and remaining_ms(state, Seat.LEFT, 10 * S) == 60_000 - 3_000


def test_the_documented_clock_payload_is_what_the_engine_publishes() -> None:
    """docs/clocks.md's example: Tantrix, 3 minutes in, Ann to move."""
    doc = (Path(__file__).parent.parent / "docs" / "clocks.md").read_text()
    example = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    state = start(new_clock(TimeControl.sudden_death(1_200_000, count_past_zero=True)),
                  Seat.LEFT, 1000 * S)  # fmt: skip
    for t in (40, 60, 100, 120, 160, 180):
        state, _ = press(state, state.running or Seat.LEFT, (1000 + t) * S)
    payload = snapshot(state, 1180 * S, {Seat.LEFT: "ann", Seat.RIGHT: "ben"})
    assert payload == {k: v for k, v in example.items() if k != "wall"}
