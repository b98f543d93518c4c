"""The harness with ``[sensors] bridge = "sim"``: a scenario's edges reach the
pipeline through the simulated microcontroller link (drift, USB jitter,
corrupted bytes) and the rulings are those of the same edges taken directly."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from controller.errors import ScenarioError
from controller.harness import simulate, through_bridge
from controller.model import RulingKind
from controller.scenario import load_scenario, parse_scenario
from controller.sensors.inputs import BridgeSim

ROOT = Path(__file__).resolve().parent.parent
TWINS = sorted(
    p for p in (ROOT / "tests" / "scenarios_sensor").glob("*.toml")
    if not p.name.startswith("health-")
)  # fmt: skip


def _decided(path: Path, bridge: BridgeSim | None) -> list[tuple[Any, ...]]:
    scenario = load_scenario(path)
    assert scenario.sensors is not None
    sensors = dataclasses.replace(scenario.sensors, bridge=bridge)
    # The expects' exact times do not hold through a link that maps each edge
    # to within microseconds; the rulings are compared below instead.
    result = simulate(dataclasses.replace(scenario, sensors=sensors, expects=()))
    return [
        (r.kind.value, r.rule, r.against, r.to, dict(r.score), r.at)
        for r in result.rulings
        if r.kind is not RulingKind.NOTICE
    ]


@pytest.mark.parametrize("path", TWINS[::2], ids=lambda p: p.name)
def test_a_match_through_the_bridge_rules_as_through_direct_edges(path: Path) -> None:
    noisy = BridgeSim(drift_ppm=150.0, jitter_ns=2_000_000, corrupt=0.01, seed=7)
    bridged, direct = _decided(path, noisy), _decided(path, None)
    assert [r[:5] for r in bridged] == [r[:5] for r in direct]
    for b, d in zip(bridged, direct, strict=True):
        assert abs(b[5] - d[5]) <= 0.001  # s: the ms a clock rounds to


def test_mapped_edges_are_the_edges_within_the_clock_error() -> None:
    scenario = load_scenario(TWINS[0])
    assert scenario.sensors is not None
    setup = dataclasses.replace(scenario.sensors, bridge=BridgeSim(corrupt=0.01, seed=3))
    (mapped,) = through_bridge(scenario.sensor_inputs, setup)
    direct = sorted((e for si in scenario.sensor_inputs for e in si.edges), key=lambda e: e.t_ns)
    assert [(e.line, e.level) for e in mapped.edges] == [(e.line, e.level) for e in direct]
    errors = [abs(m.t_ns - d.t_ns) for m, d in zip(mapped.edges, direct, strict=True)]
    assert max(errors) < 200_000  # ns: the bridge's own goal


def test_bridge_keys_are_checked() -> None:
    doc = {
        "game": "heads-and-tails",
        "match": {"players": ["ann", "ben"], "plays": 1},
        "input": [{"at": 0.0, "type": "go"}],
    }
    with pytest.raises(ScenarioError, match=r"bridge_corrupt.*needs bridge"):
        parse_scenario({**doc, "sensors": {"bridge_corrupt": 0.01}}, "t.toml")
    with pytest.raises(ScenarioError, match="'/dev/ttyACM0'"):
        parse_scenario({**doc, "sensors": {"bridge": "/dev/ttyACM0"}}, "t.toml")
    with pytest.raises(ScenarioError, match="bridge_drift_ppm"):
        parse_scenario({**doc, "sensors": {"bridge": "sim", "bridge_drift_ppm": 500}}, "t.toml")
