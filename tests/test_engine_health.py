"""The engine on sensor health: a fault is a ``suspended`` ruling, recovery a notice."""

from __future__ import annotations

import pytest

from controller.commands import CommandError, parse_command
from controller.errors import InputError
from controller.games.heads_and_tails import HeadsAndTailsEngine, MatchSettings, State
from controller.games.heads_and_tails.codec import decode, encode
from controller.games.heads_and_tails.events import Go, Toss
from controller.games.registry import module_for
from controller.model import Decision, EndMatch, Event, Game, RulingKind
from controller.sensors.health import HealthEvent

S = 1_000_000_000
SETTINGS = MatchSettings(players=("ann", "ben"), first_tosser="ann", plays=1)
ENGINE = HeadsAndTailsEngine()


def _feed(*events: Event) -> tuple[State, list[Decision]]:
    state = ENGINE.start(SETTINGS)
    out: list[Decision] = []
    for event in events:
        state, decisions = ENGINE.step(state, event)
        out += decisions
    return state, out


def _bad(sensor: str, t: float) -> HealthEvent:
    return HealthEvent(t_ns=round(t * S), sensor=sensor, ok=False, detail=f"{sensor}: beam broken")


def _good(sensor: str, t: float) -> HealthEvent:
    return HealthEvent(t_ns=round(t * S), sensor=sensor, ok=True, detail=f"{sensor}: reads idle")


def test_a_fault_suspends_naming_the_sensor_and_the_state_remembers() -> None:
    state, decisions = _feed(_bad("fault_a", 2.0))
    (ruling,) = decisions
    assert (ruling.kind, ruling.rule, ruling.against, ruling.to) == (
        RulingKind.SUSPENDED, None, None, None,
    )  # fmt: skip
    assert ruling.detail.startswith("fault_a: beam broken") and "spotter decides" in ruling.detail
    assert state.suspended == frozenset({"fault_a"})
    assert ENGINE.snapshot(state)["suspended"] == ["fault_a"]


def test_recovery_is_a_notice_and_rulings_resume_only_when_all_recover() -> None:
    state, decisions = _feed(
        _bad("fault_a", 1), _bad("start_a", 2), _good("fault_a", 3), _good("start_a", 4)
    )
    kinds = [d.kind for d in decisions]
    assert kinds == [RulingKind.SUSPENDED] * 2 + [RulingKind.NOTICE] * 2
    assert "still suspended for start_a" in decisions[2].detail
    assert decisions[3].detail == "start_a: reads idle: recovered; automated rulings resume"
    assert state.suspended == frozenset()


def test_recovery_of_a_sensor_never_reported_changes_nothing() -> None:
    state, decisions = _feed(_good("fault_a", 1))
    assert [d.kind for d in decisions] == [RulingKind.NOTICE]
    assert "not reported faulty" in decisions[0].detail and state.suspended == frozenset()


def test_other_inputs_are_ruled_as_usual_while_suspended() -> None:
    suspended = _feed(Go(t_ns=0), _bad("fault_a", 1), Toss(t_ns=2 * S, below_fault_line=True))
    plain = _feed(Go(t_ns=0), Toss(t_ns=2 * S, below_fault_line=True))
    assert [d.rule for d in suspended[1] if d.kind is RulingKind.LET] == ["2.1.4"]
    assert suspended[0].phase == plain[0].phase and suspended[0].score == plain[0].score


def test_a_fault_is_still_reported_once_the_match_is_over() -> None:
    state, decisions = _feed(EndMatch(t_ns=0), _bad("fault_a", 1))
    assert decisions[-1].kind is RulingKind.SUSPENDED and state.suspended == {"fault_a"}


def test_health_round_trips_through_the_codec_and_is_no_command() -> None:
    event = _bad("call_heads", 3)
    kind, payload = encode(event)
    assert (kind, payload) == (
        "health", {"sensor": "call_heads", "ok": False, "detail": "call_heads: beam broken"},
    )  # fmt: skip
    assert decode(kind, payload, event.t_ns, SETTINGS) == event
    with pytest.raises(InputError, match="sensor"):
        decode("health", {"sensor": "", "ok": True}, 0, SETTINGS)
    with pytest.raises(InputError, match="extra"):
        decode("health", {"sensor": "x", "ok": True, "extra": 1}, 0, SETTINGS)
    with pytest.raises(CommandError, match="unknown verb"):
        parse_command(
            "health",
            b'{"cmd_id": "h", "sensor": "fault_a", "ok": true}',
            4096,
            module_for(Game.HEADS_AND_TAILS),
        )
