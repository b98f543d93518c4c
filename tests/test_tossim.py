"""The toss simulator: deterministic, and physically sane."""

from __future__ import annotations

import math

from controller.sensors.classify import Direction, Gate
from controller.sensors.geometry import G, Geometry
from controller.sensors.tossim import (
    CoinToss,
    HandKind,
    HandMove,
    SensorNoise,
    TossSimulator,
    toss_for_fault_speed,
)

TOSS = CoinToss(t_ns=0, height_m=0.85, speed_mps=2.5, spin_hz=25.0, phase_rad=1.0)


def test_same_seed_same_edges_other_seed_other_jitter() -> None:
    one = TossSimulator(seed=3).coin(TOSS).edges
    two = TossSimulator(seed=3).coin(TOSS).edges
    three = TossSimulator(seed=4).coin(TOSS).edges
    assert one == two and one != three


def test_times_are_whole_microseconds_and_ordered() -> None:
    edges = TossSimulator(seed=1).coin(TOSS).edges
    assert all(e.t_ns % 1_000 == 0 for e in edges)
    assert [e.t_ns for e in edges] == sorted(e.t_ns for e in edges)
    assert [e.seq for e in edges] == list(range(1, len(edges) + 1))


def test_drop_from_80cm_above_the_fault_line_takes_the_free_fall_time() -> None:
    sim = TossSimulator(noise=SensorNoise.none())
    shot = sim.coin(CoinToss(t_ns=0, height_m=0.80 + 0.05, speed_mps=0.0))
    fault = next(c for c in shot.truth if c.gate is Gate.FAULT)
    assert math.isclose(fault.t_ns / 1e9, math.sqrt(2 * 0.85 / G), rel_tol=1e-6)
    assert math.isclose(fault.speed_mps, math.sqrt(2 * G * 0.85), rel_tol=1e-6)
    assert fault.direction is Direction.DOWN


def test_edge_on_is_short_face_on_is_long() -> None:
    sim = TossSimulator(noise=SensorNoise.none())
    flat = sim.coin(toss_for_fault_speed(0, 4.0, 0.5, spin_hz=0.0, phase_rad=0.0))
    upright = sim.coin(toss_for_fault_speed(0, 4.0, 0.5, spin_hz=0.0, phase_rad=math.pi / 2))
    (f,) = flat.truth
    (u,) = upright.truth
    # (2 mm + 1 mm beam) / 4 m/s = 0.75 ms; (24 + 1) / 4 = 6.25 ms
    assert math.isclose(f.longest_pulse_ns / 1e6, 0.75, rel_tol=0.02)
    assert math.isclose(u.longest_pulse_ns / 1e6, 6.25, rel_tol=0.02)


def test_toss_below_the_fault_line_crosses_it_up_then_down() -> None:
    shot = TossSimulator().coin(toss_for_fault_speed(0, 3.0, -0.1))
    assert [(c.gate, c.direction) for c in shot.truth] == [
        (Gate.FAULT, Direction.UP),
        (Gate.FAULT, Direction.DOWN),
    ]


def test_slow_receiver_swallows_short_pulses() -> None:
    slow = SensorNoise(response_on_ns=0, response_off_ns=0, jitter_ns=0.0, min_pulse_ns=2_000_000)
    shot = TossSimulator(noise=slow).coin(
        toss_for_fault_speed(0, 5.0, 0.5, spin_hz=0.0, phase_rad=0.0)
    )
    assert not any(e.line.startswith("fault") for e in shot.edges)


def test_hand_poke_breaks_upper_beam_first_and_leaves_it_last() -> None:
    sim = TossSimulator(noise=SensorNoise.none(), geometry=Geometry())
    move = HandMove(gate=Gate.START, kind=HandKind.POKE, t_ns=0, speed_mps=0.5, depth_m=0.01)
    edges = sim.hand(move).edges
    assert [e.line for e in edges] == ["start_a", "start_b", "start_b", "start_a"]
    assert edges[-1].t_ns - edges[0].t_ns > 50_000_000


def test_coin_flat_at_the_line_spinning_25_rev_s_lies_between_the_beams() -> None:
    # Why a pair can time a coin's rotation: at 25 rev/s the edges of a 24 mm
    # coin move at 1.9 m/s, as fast as the coin travels at 2 m/s. Flat at the
    # fault line on its way up, it clears the lower beam before it breaks the
    # upper one: for a moment it lies between the beams, 5 mm apart.
    sim = TossSimulator(noise=SensorNoise.none())
    shot = sim.coin(toss_for_fault_speed(0, 2.0, -0.25, spin_hz=25.0, phase_rad=0.0))
    up = [(e.line, e.level) for e in shot.edges if e.line.startswith("fault")][:4]
    assert up == [("fault_b", False), ("fault_b", True), ("fault_a", False), ("fault_a", True)]
