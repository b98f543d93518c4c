"""Sensor-level twins give the same rulings as their semantic scenarios."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from controller.errors import ScenarioError
from controller.harness import simulate
from controller.model import RulingKind
from controller.scenario import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parent.parent
SENSOR_FILES = sorted((ROOT / "tests" / "scenarios_sensor").glob("*.toml"))
# health-*.toml show sensor faults: no semantic file can have a twin of them.
HEALTH = [p for p in SENSOR_FILES if p.name.startswith("health-")]
TWINS = [p for p in SENSOR_FILES if p not in HEALTH]


def _rulings(path: Path) -> tuple[list[tuple[str, str | None, str | None, str | None]], object]:
    result = simulate(load_scenario(path))
    assert result.failures == [], f"{path.name}: {result.failures}"
    shown = [
        (r.kind.value, r.rule, r.against, r.to)
        for r in result.rulings
        if r.kind is not RulingKind.NOTICE
    ]
    return shown, dict(result.rulings[-1].score)


def test_there_are_enough_twins() -> None:
    assert len(TWINS) >= 12 and len(HEALTH) >= 2


@pytest.mark.parametrize("path", HEALTH, ids=lambda p: p.name)
def test_health_scenario_suspends_and_recovers(path: Path) -> None:
    result = simulate(load_scenario(path))
    assert result.failures == [], f"{path.name}: {result.failures}"
    kinds = [r.kind for r in result.rulings]
    suspended = kinds.index(RulingKind.SUSPENDED)
    recovered = [r for r in result.rulings[suspended:] if "recovered" in r.detail]
    assert recovered and recovered[0].kind is RulingKind.NOTICE
    assert result.state.suspended == frozenset()


@pytest.mark.parametrize("path", TWINS, ids=lambda p: p.name)
def test_twin_rules_like_its_semantic_scenario(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.twin is not None and scenario.sensor_inputs
    semantic = ROOT / scenario.twin
    assert semantic.name == path.name
    assert _rulings(path) == _rulings(semantic)


@pytest.mark.parametrize("path", TWINS, ids=lambda p: p.name)
def test_twin_has_the_same_expects(path: Path) -> None:
    twin = load_scenario(path)
    semantic = load_scenario(ROOT / str(twin.twin))
    assert [e.want for e in twin.expects] == [e.want for e in semantic.expects]


def _doc(*inputs: dict[str, object], sensors: Mapping[str, object] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "game": "heads-and-tails",
        "match": {"players": ["ann", "ben"], "plays": 1},
        "input": [{"at": 0.0, "type": "go"}, *inputs],
    }
    if sensors is not None:
        doc["sensors"] = sensors
    return doc


def test_gate_input_with_microsecond_time_and_polarity() -> None:
    s = parse_scenario(
        _doc(
            {"at": 4.500123, "type": "gate", "line": "fault_a", "state": "broken"},
            {"at": 4.500200, "type": "gate", "line": "fault_b", "level": False},
            sensors={"beams_active": "high"},
        ),
        "t.toml",
    )
    first, second = (si.edges[0] for si in s.sensor_inputs)
    assert first.level is True and first.t_ns - s.inputs[0].event.t_ns == 4_500_123_000
    assert second.level is False


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"type": "gate", "line": "start_b", "state": "broken"}, "line"),
        ({"type": "gate", "line": "fault_a", "state": "dark"}, "state"),
        ({"type": "gate", "line": "fault_a"}, "state"),
        ({"type": "button", "button": "clock_left"}, "button"),
        ({"type": "button", "button": "call_heads", "release_at": 1.0}, "release_at"),
        ({"type": "toss_physics", "spin": -1}, "spin"),
    ],
)
def test_malformed_sensor_inputs_name_the_field(entry: dict[str, object], field: str) -> None:
    sensors = {"start_gate": "single"}
    with pytest.raises(ScenarioError, match=field):
        parse_scenario(_doc({"at": 2.0, **entry}, sensors=sensors), "bad.toml")


def test_unknown_sensors_key_is_an_error() -> None:
    with pytest.raises(ScenarioError, match="pair_gap_mm"):
        parse_scenario(_doc(sensors={"pair_gap_mm": 5}), "bad.toml")


def test_toss_physics_expands_deterministically() -> None:
    entry = {"at": 5.0, "type": "toss_physics", "speed": 3.0, "seed": 7}
    one = parse_scenario(_doc(entry), "a.toml").sensor_inputs[0].edges
    two = parse_scenario(_doc(entry), "a.toml").sensor_inputs[0].edges
    assert one == two and len(one) >= 8


def test_the_shape_test_is_tunable_from_a_scenario() -> None:
    s = parse_scenario(_doc(sensors={"tumble_speed_min": 2.5, "tumble_slack_mm": 3}), "t.toml")
    assert s.sensors is not None
    assert s.sensors.config.tumble_speed_min_mps == 2.5
    assert s.sensors.config.tumble_slack_m == 0.003
    with pytest.raises(ScenarioError, match="tumble"):
        parse_scenario(_doc(sensors={"tumble_speed_min": 31.0}), "t.toml")
