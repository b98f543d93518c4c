"""A physical toss simulator: coins and hands in, gate edges out.

The coin flies ballistically (optionally with linear drag) from its release,
tumbling about an axis through its diameter, so the height it presents to a
horizontal beam swings between its thickness (flat: "edge-on" to the beam, a
short pulse) and its diameter (upright: "face-on", a long pulse). Each beam
sees the coin's vertical extent, widened by the beam's own height; the
receiver adds its response time and timestamp jitter, swallows pulses shorter
than it can resolve, and may add glitches. Times are rounded to the
microsecond, like a kernel or microcontroller timestamp.

Deterministic for a seed: every random draw comes from the simulator's own
:class:`random.Random`.

>>> sim = TossSimulator(seed=1)
>>> shot = sim.coin(CoinToss(t_ns=0, height_m=0.85, speed_mps=2.5, spin_hz=20.0))
>>> [(c.gate.value, c.direction.value) for c in shot.truth]
[('start', 'down'), ('fault', 'down')]
>>> shot.edges[0].line, shot.edges[0].level   # the upper start beam breaks first
('start_a', False)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from controller.sensors.classify import Direction, Gate
from controller.sensors.edges import EdgeEvent
from controller.sensors.geometry import US, G, Geometry

Pulse = tuple[int, int]
_FLOOR_M = -0.75  # the floor below the fault line: where a simulation ends


@dataclass(frozen=True, slots=True, kw_only=True)
class SensorNoise:
    """The receiver and timestamping: delays, jitter, resolution, glitches.

    Defaults are a fast phototransistor receiver read with kernel timestamps;
    a hobby break-beam module is ``response_ns=2_000_000`` and misses coins.
    """

    response_on_ns: int = 20 * US
    response_off_ns: int = 30 * US
    jitter_ns: float = 5 * US  # standard deviation of each edge's timestamp
    min_pulse_ns: int = 40 * US  # shorter occlusions never reach the pin
    glitches_per_s: float = 0.0  # sub-100-us electrical spikes, per beam
    resolution_ns: int = US

    @staticmethod
    def none() -> SensorNoise:
        """An ideal receiver, for tests that want exact times."""
        return SensorNoise(response_on_ns=0, response_off_ns=0, jitter_ns=0.0, min_pulse_ns=0)


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinToss:
    """One toss. ``height_m`` is the release height above the fault line;
    ``speed_mps`` is upward (0 drops the coin); the coin tumbles at
    ``spin_hz`` about an axis tilted ``tilt_rad`` from horizontal, starting
    ``phase_rad`` from flat."""

    t_ns: int
    height_m: float
    speed_mps: float
    spin_hz: float = 20.0
    tilt_rad: float = 0.0
    phase_rad: float = 0.0
    drag_per_s: float = 0.0


class HandKind(StrEnum):
    """How a hand moves at a gate."""

    DOWN = "down"  # down through the gate (hand, then wrist and forearm)
    UP = "up"  # up through it
    POKE = "poke"  # dips in from above and withdraws
    HOVER = "hover"  # hovers just above, trembling into the upper beam now and then


@dataclass(frozen=True, slots=True, kw_only=True)
class HandMove:
    """A hand at a gate from ``t_ns``: ``extent_m`` of hand and arm moving at
    ``speed_mps``; a poke goes ``depth_m`` below the line and stays
    ``dwell_ns``; a hover trembles ``depth_m`` around ``gap_m`` above the gate."""

    gate: Gate
    kind: HandKind
    t_ns: int
    speed_mps: float = 1.0
    extent_m: float = 0.15
    depth_m: float = 0.01
    dwell_ns: int = 50_000_000
    gap_m: float = 0.004


@dataclass(frozen=True, slots=True, kw_only=True)
class TrueCrossing:
    """What really happened: the coin's centre passed a gate's line at
    ``t_ns``; ``longest_pulse_ns`` is the shorter of the two beams' longest
    raw occlusions (before the receiver), the figure the 0.3 ms goal is about."""

    gate: Gate
    direction: Direction
    t_ns: int
    speed_mps: float
    longest_pulse_ns: int


@dataclass(frozen=True, slots=True)
class Shot:
    """The edges a simulation produced, in time order, and the truth."""

    edges: tuple[EdgeEvent, ...]
    truth: tuple[TrueCrossing, ...] = field(default=())


class _Flight:
    """The coin's centre height and speed over time since release."""

    def __init__(self, toss: CoinToss) -> None:
        self.z0, self.v0, self.k = toss.height_m, toss.speed_mps, toss.drag_per_s
        if self.v0 <= 0:
            self.apex = 0.0
        elif self.k == 0:
            self.apex = self.v0 / G
        else:
            self.apex = math.log(1 + self.k * self.v0 / G) / self.k
        self.end = _solve(lambda t: self.z(t) - _FLOOR_M, self.apex, self.apex + 5.0)

    def z(self, t: float) -> float:
        if self.k == 0:
            return self.z0 + self.v0 * t - G * t * t / 2
        vt = G / self.k
        return self.z0 - vt * t + (self.v0 + vt) * (1 - math.exp(-self.k * t)) / self.k

    def v(self, t: float) -> float:
        if self.k == 0:
            return self.v0 - G * t
        vt = G / self.k
        return -vt + (self.v0 + vt) * math.exp(-self.k * t)

    def time_at(self, height: float, lo: float, hi: float) -> float:
        """When, within the monotonic stretch [lo, hi], the centre is at ``height``."""
        return _solve(lambda t: self.z(t) - height, lo, hi)

    def segments(self) -> list[tuple[float, float]]:
        """Stretches over which the height is monotonic."""
        rising = [(0.0, self.apex)] if self.apex > 0 else []
        return [*rising, (self.apex, self.end)]


def _solve(f: Callable[[float], float], lo: float, hi: float, tol: float = 1e-8) -> float:
    """A root of ``f`` in [lo, hi] by bisection (``f`` changes sign there)."""
    f_lo = f(lo)
    while hi - lo > tol:
        mid = (lo + hi) / 2
        f_mid = f(mid)
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return (lo + hi) / 2


def _intervals(f: Callable[[float], float], lo: float, hi: float, step: float) -> list[Pulse]:
    """Where ``f >= 0`` on [lo, hi], sampled every ``step`` seconds and each
    boundary refined by bisection; returned in integer nanoseconds."""
    out: list[Pulse] = []
    n = max(2, math.ceil((hi - lo) / step) + 1)
    prev_t, prev_on = lo, f(lo) >= 0
    start = lo if prev_on else None
    for i in range(1, n + 1):
        t = min(hi, lo + i * step)
        on = f(t) >= 0
        if on != prev_on:
            edge = _solve(f, prev_t, t, 1e-8)
            if on:
                start = edge
            elif start is not None:
                out.append((round(start * 1e9), round(edge * 1e9)))
                start = None
        prev_t, prev_on = t, on
    if start is not None:
        out.append((round(start * 1e9), round(hi * 1e9)))
    return out


class TossSimulator:
    """Makes gate edges from coins and hands.

    ``active`` maps each beam role to its "broken" level (default: low).
    """

    def __init__(
        self,
        *,
        geometry: Geometry | None = None,
        noise: SensorNoise | None = None,
        active: Mapping[str, bool] | None = None,
        seed: int = 0,
    ) -> None:
        self.geometry = geometry or Geometry()
        self.noise = noise or SensorNoise()
        self.beams = self.geometry.beams()
        self.active = dict(active) if active is not None else dict.fromkeys(self.beams, False)
        self.rng = random.Random(seed)

    def coin(self, toss: CoinToss) -> Shot:
        """The edges and true crossings of one toss."""
        flight = _Flight(toss)
        pulses = {role: self._coin_pulses(flight, toss, z) for role, z in self.beams.items()}
        truth = self._truth(flight, toss, pulses)
        t0 = toss.t_ns
        shifted = {r: [(a + t0, b + t0) for a, b in p] for r, p in pulses.items()}
        return Shot(self.edges(shifted), truth)

    def hand(self, move: HandMove) -> Shot:
        """The edges of one hand movement."""
        return Shot(self.edges(self.hand_pulses(move)))

    def _coin_pulses(self, flight: _Flight, toss: CoinToss, z_beam: float) -> list[Pulse]:
        geo = self.geometry
        radius, half_t, half_w = (
            geo.coin_diameter_m / 2,
            geo.coin_thickness_m / 2,
            geo.beam_width_m / 2,
        )
        omega, tilt = 2 * math.pi * toss.spin_hz, math.cos(toss.tilt_rad)
        reach = radius + half_w

        def overlap(t: float) -> float:
            nz = tilt * math.cos(toss.phase_rad + omega * t)
            extent = radius * math.sqrt(max(0.0, 1 - nz * nz)) + half_t * abs(nz)
            return extent + half_w - abs(flight.z(t) - z_beam)

        out: list[Pulse] = []
        for lo, hi in flight.segments():
            window = self._window(flight, lo, hi, z_beam, reach)
            if window is not None:
                out += _intervals(overlap, window[0], window[1], 25e-6)
        return out

    @staticmethod
    def _window(
        flight: _Flight, lo: float, hi: float, z: float, reach: float
    ) -> tuple[float, float] | None:
        """Where, within a monotonic stretch, the coin's centre is within
        ``reach`` of height ``z``."""
        z_lo, z_hi = flight.z(lo), flight.z(hi)
        bottom, top = min(z_lo, z_hi), max(z_lo, z_hi)
        if top < z - reach or bottom > z + reach:
            return None
        times = [
            flight.time_at(target, lo, hi)
            for target in (z - reach, z + reach)
            if bottom < target < top
        ]
        ends = [t for t, zz in ((lo, z_lo), (hi, z_hi)) if abs(zz - z) <= reach]
        span = times + ends
        return min(span), max(span)

    def _truth(
        self, flight: _Flight, toss: CoinToss, pulses: Mapping[str, list[Pulse]]
    ) -> tuple[TrueCrossing, ...]:
        out: list[TrueCrossing] = []
        geo = self.geometry
        margin = geo.coin_diameter_m / 2 + geo.beam_width_m + geo.pair_spacing_m
        for gate, line in ((Gate.START, geo.start_above_fault_m), (Gate.FAULT, 0.0)):
            for lo, hi in flight.segments():
                z_lo, z_hi = flight.z(lo), flight.z(hi)
                if min(z_lo, z_hi) > line - margin or max(z_lo, z_hi) < line + margin:
                    continue  # not all the way through: no crossing to count
                t = flight.time_at(line, lo, hi)
                window = (round(t * 1e9) - 50_000_000, round(t * 1e9) + 50_000_000)
                longest = [
                    max((b - a for a, b in p if window[0] <= a <= window[1]), default=0)
                    for role, p in pulses.items()
                    if role.startswith(gate.value)
                ]
                out.append(
                    TrueCrossing(
                        gate=gate,
                        direction=Direction.UP if z_hi > z_lo else Direction.DOWN,
                        t_ns=toss.t_ns + round(t * 1e9),
                        speed_mps=abs(flight.v(t)),
                        longest_pulse_ns=min(longest),
                    )
                )
        out.sort(key=lambda c: c.t_ns)
        return tuple(out)

    def hand_pulses(self, move: HandMove) -> dict[str, list[Pulse]]:
        """Raw occlusions of each beam of the hand's gate."""
        geo = self.geometry
        line = geo.start_above_fault_m if move.gate is Gate.START else 0.0
        top_beam = line + (geo.pair_spacing_m / 2 if _is_pair(geo, move.gate) else 0.0)
        bottom, duration = _hand_path(move, line, top_beam + geo.beam_width_m / 2)
        half_w = geo.beam_width_m / 2
        out: dict[str, list[Pulse]] = {}
        for role, z in self.beams.items():
            if not role.startswith(move.gate.value):
                continue

            def overlap(t: float, z: float = z) -> float:
                low = bottom(t)
                return min(z + half_w - low, low + move.extent_m - (z - half_w))

            found = _intervals(overlap, 0.0, duration, 100e-6)
            out[role] = [(a + move.t_ns, b + move.t_ns) for a, b in found]
        return out

    def edges(self, pulses: Mapping[str, Iterable[Pulse]]) -> tuple[EdgeEvent, ...]:
        """Raw occlusions through the receiver model, as edges in time order
        (``seq`` from 1)."""
        timed: list[tuple[int, str, bool]] = []
        for role, raw in pulses.items():
            seen = self._receive(list(raw))
            broken = self.active[role]
            for a, b in seen:
                timed += [(a, role, broken), (b, role, not broken)]
        timed.sort(key=lambda x: (x[0], x[1]))
        return tuple(
            EdgeEvent(line=role, level=level, t_ns=t, seq=i)
            for i, (t, role, level) in enumerate(timed, start=1)
        )

    def _receive(self, raw: list[Pulse]) -> list[Pulse]:
        noise, rng = self.noise, self.rng
        out: list[Pulse] = []
        for a, b in raw:
            a2 = a + noise.response_on_ns + round(rng.gauss(0.0, noise.jitter_ns))
            b2 = b + noise.response_off_ns + round(rng.gauss(0.0, noise.jitter_ns))
            if b2 - a2 >= max(noise.min_pulse_ns, 1):
                out.append((a2, b2))
        if raw and noise.glitches_per_s > 0:
            span = raw[-1][1] - raw[0][0] + 200_000_000
            for _ in range(_poisson(rng, noise.glitches_per_s * span / 1e9)):
                at = raw[0][0] - 100_000_000 + rng.randrange(span)
                out.append((at, at + rng.randrange(1_000, 50_000)))
        step = noise.resolution_ns
        quantised = sorted((round(a / step) * step, round(b / step) * step) for a, b in out)
        return _merge(p for p in quantised if p[1] > p[0])


def _is_pair(geo: Geometry, gate: Gate) -> bool:
    return geo.start_pair if gate is Gate.START else geo.fault_pair


def _hand_path(move: HandMove, line: float, above: float) -> tuple[Callable[[float], float], float]:
    """The height of the hand's lowest point over time, and how long it lasts."""
    v, start = move.speed_mps, above + 0.02
    if move.kind is HandKind.DOWN:
        travel = start - (line - 0.03 - move.extent_m)
        return (lambda t: start - v * t), travel / v
    if move.kind is HandKind.UP:
        low = line - 0.03 - move.extent_m
        travel = start - low
        return (lambda t: low + v * t), travel / v
    if move.kind is HandKind.POKE:
        down = (start - (line - move.depth_m)) / v
        dwell = move.dwell_ns / 1e9

        def poke(t: float) -> float:
            if t <= down:
                return start - v * t
            if t <= down + dwell:
                return line - move.depth_m
            return line - move.depth_m + v * (t - down - dwell)

        return poke, 2 * down + dwell
    hover = move.dwell_ns / 1e9
    rest = above + move.gap_m
    return (lambda t: rest + move.depth_m * math.sin(2 * math.pi * 5.0 * t)), hover


def _merge(pulses: Iterable[Pulse]) -> list[Pulse]:
    out: list[Pulse] = []
    for a, b in pulses:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _poisson(rng: random.Random, mean: float) -> int:
    count, p, limit = 0, 1.0, math.exp(-mean)
    while True:
        p *= rng.random()
        if p <= limit:
            return count
        count += 1


def toss_for_fault_speed(
    t_ns: int, fault_speed_mps: float, height_m: float, **kwargs: float
) -> CoinToss:
    """A ballistic toss from ``height_m`` above the fault line that passes it
    at ``fault_speed_mps`` (the release speed follows; a lower release when
    even a drop would be faster).

    >>> toss_for_fault_speed(0, 4.0, 0.5).speed_mps > 0
    True
    """
    height = min(height_m, fault_speed_mps**2 / (2 * G))
    up = math.sqrt(max(0.0, fault_speed_mps**2 - 2 * G * height))
    return CoinToss(t_ns=t_ns, height_m=height, speed_mps=up, **kwargs)
