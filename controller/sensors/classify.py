"""One light gate: beam breaks grouped into passages and classified.

A *passage* is everything that happens at a gate from the first break until
both beams have been clear for ``merge_gap_ns``: a tumbling coin can break a
beam several times while it crosses, and those pulses are one passage.

Two facts make the pair robust (``docs/sensors.md``):

- The lowest point of a falling object is continuous, so it reaches the upper
  beam before the lower one however the coin tumbles: the beam broken first
  gives the direction.
- An object that goes *through* the gate leaves by the other beam than the one
  it came in by; a finger that dips in and withdraws leaves by the same beam.

The pair's speed tells a coin from a hand (speed x span fits a coin). A coin
tumbling as fast as it travels can make the pair time its rotation and read
far too slow; such a passage is still a coin if its timing fits a coin of at
least ``tumble_speed_min_mps`` whatever its spin (the *shape test*).

>>> cfg = FusionConfig()
>>> gate = GateClassifier(Gate.FAULT, cfg)
>>> for beam, broken, t in [(0, True, 0), (1, True, 1_250_000),
...                         (0, False, 6_000_000), (1, False, 7_250_000)]:
...     _ = gate.beam(beam, broken, t)
>>> [(c.kind.value, c.direction and c.direction.value, c.speed_mps)
...  for c in gate.tick(gate.deadline() or 0)]
[('coin', 'down', 4.0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from controller.sensors.geometry import FusionConfig


class Gate(StrEnum):
    """The two gates of a Heads & Tails table."""

    START = "start"
    FAULT = "fault"


class Kind(StrEnum):
    """What crossed a gate."""

    COIN = "coin"
    HAND = "hand"  # a hand, arm or body: long, slow, or dipping in and out
    UNKNOWN = "unknown"  # short but not a coin: reported nowhere but here


class Direction(StrEnum):
    """Which way an object went through a gate."""

    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True, kw_only=True)
class Crossing:
    """One classified passage at a gate. ``t_ns`` is its first break;
    ``direction`` is known for a coin through a pair, and ``speed_mps`` too
    unless the coin tumbled so fast that the pair timed its rotation."""

    gate: Gate
    kind: Kind
    t_ns: int
    end_ns: int
    direction: Direction | None = None
    speed_mps: float | None = None


@dataclass(slots=True)
class _Beam:
    broken_since: int | None = None
    pulses: list[tuple[int, int]] = field(default_factory=list)

    @property
    def first(self) -> int | None:
        starts = [p[0] for p in self.pulses[:1]]
        if self.broken_since is not None:
            starts.append(self.broken_since)
        return min(starts, default=None)


class GateClassifier:
    """Pulses of one gate's beam(s) in, :class:`Crossing` observations out.

    Feed :meth:`beam` with (beam index 0 = ``a``, 1 = ``b``; broken; time) in
    time order and call :meth:`tick` at :meth:`deadline`.
    """

    def __init__(self, gate: Gate, config: FusionConfig) -> None:
        self.gate = gate
        self.config = config
        geo = config.geometry
        self.pair = geo.start_pair if gate is Gate.START else geo.fault_pair
        self._beams = [_Beam(), _Beam()] if self.pair else [_Beam()]
        self._last_clear: int | None = None
        self._hand_reported = False

    def open_since(self) -> int | None:
        """The first break of the passage in progress, if any."""
        return min((f for b in self._beams if (f := b.first) is not None), default=None)

    def undecided_since(self) -> int | None:
        """The first break of a passage that may still produce a crossing."""
        return None if self._hand_reported else self.open_since()

    def deadline(self) -> int | None:
        """When :meth:`tick` must run next: a long break becomes a hand, or a
        quiet passage ends."""
        start = self.open_since()
        if start is None:
            return None
        broken = [b.broken_since for b in self._beams if b.broken_since is not None]
        if broken:
            if self._hand_reported:
                return None
            # A break younger than a glitch may still be one: not yet a hand.
            solid = min(broken) + self.config.glitch_max_ns
            return max(start + self.config.coin_span_max_ns, solid)
        assert self._last_clear is not None
        return self._last_clear + self.config.merge_gap_ns

    def beam(self, index: int, broken: bool, t_ns: int) -> list[Crossing]:
        """A beam changed state at ``t_ns``; repeated states are ignored."""
        out = self.tick(t_ns)
        beam = self._beams[index]
        if broken and beam.broken_since is None:
            beam.broken_since = t_ns
        elif not broken and beam.broken_since is not None:
            # Glitches are dropped here, before they can open a passage or
            # decide a direction.
            if t_ns - beam.broken_since >= self.config.glitch_max_ns:
                beam.pulses.append((beam.broken_since, t_ns))
                self._last_clear = t_ns
            beam.broken_since = None
            if self.open_since() is None:
                self._reset()
        return out

    def tick(self, t_ns: int) -> list[Crossing]:
        """Decide whatever is due at or before ``t_ns``."""
        due = self.deadline()
        if due is None or t_ns < due:
            return []
        start = self.open_since()
        assert start is not None
        if any(b.broken_since is not None for b in self._beams):
            self._hand_reported = True
            return [Crossing(gate=self.gate, kind=Kind.HAND, t_ns=start, end_ns=t_ns)]
        crossing = None if self._hand_reported else self._classify(start)
        self._reset()
        return [] if crossing is None else [crossing]

    def _reset(self) -> None:
        self._beams = [_Beam() for _ in self._beams]
        self._last_clear = None
        self._hand_reported = False

    def _classify(self, start: int) -> Crossing:
        end = max(p[1] for b in self._beams for p in b.pulses)
        kind = Kind.HAND if end - start >= self.config.touch_min_ns else Kind.UNKNOWN
        other = Crossing(gate=self.gate, kind=kind, t_ns=start, end_ns=end)
        if not self.pair:
            return self._classify_single(start, end, other)
        a, b = self._beams
        if not a.pulses or not b.pulses:
            return other  # one beam only: an object that never went through
        first_a, first_b = a.pulses[0][0], b.pulses[0][0]
        last_a, last_b = a.pulses[-1][1], b.pulses[-1][1]
        if first_a == first_b or (first_a < first_b) != (last_a < last_b):
            return other  # left by the beam it came in by: dipped in and out
        lead, trail = abs(first_b - first_a), abs(last_b - last_a)
        # Averaging the leading and trailing delays times the coin's middle,
        # which tumbling moves far less than its lowest point.
        speed = self.config.geometry.pair_spacing_m / ((lead + trail) / 2e9)
        spans = (last_a - first_a, last_b - first_b)
        measured: float | None = round(speed, 3)
        if not self._timed_coin(speed, max(spans)):
            if not self._tumbling_coin(speed, spans, lead, trail):
                return other
            measured = None  # the pair timed the coin's rotation, not its travel
        return Crossing(
            gate=self.gate,
            kind=Kind.COIN,
            t_ns=start,
            end_ns=end,
            direction=Direction.DOWN if first_a < first_b else Direction.UP,
            speed_mps=measured,
        )

    def _timed_coin(self, speed: float, span: int) -> bool:
        """The pair's speed is a coin's, and speed x span fits a coin."""
        cfg = self.config
        # A tumbling coin's lowest point can lag its middle by up to a radius,
        # so the pair can read a coin well below its speed: allow 30 % here;
        # a hand, which does not tumble, still fails the length test.
        if not cfg.coin_speed_min_mps * 0.7 <= speed <= cfg.coin_speed_max_mps:
            return False
        return speed * span / 1e9 <= cfg.coin_length_max_m

    def _tumbling_coin(self, speed: float, spans: tuple[int, int], lead: int, trail: int) -> bool:
        """The shape test, for a passage the pair reads too slow for a coin:
        does it fit a coin of at least ``tumble_speed_min_mps``, whatever its
        spin? Bounds from the coin's size alone (``docs/sensors.md``).

        A coin whose edges move as fast as it travels (flat at the line,
        25 rev/s, 2 m/s) holds an edge near a beam and the delays between the
        beams grow, but neither beam stays busy longer than the coin's size
        allows. A hand cannot do both: read that slow, it is a rigid object
        going through slowly (beams busy 100 ms and more), or one that dips in
        slowly (16 ms and more from beam to beam) and is pulled out sideways.
        """
        cfg = self.config
        if speed >= cfg.coin_speed_min_mps * 0.7:
            return False  # only where the speed test failed low: a fast hand reads fast
        return max(spans) <= cfg.tumble_span_max_ns and max(lead, trail) <= cfg.tumble_lag_max_ns

    def _classify_single(self, start: int, end: int, other: Crossing) -> Crossing:
        # One beam: duration is all there is. Direction and speed stay unknown.
        if end - start <= self.config.coin_span_max_ns:
            return Crossing(gate=self.gate, kind=Kind.COIN, t_ns=start, end_ns=end)
        return other
