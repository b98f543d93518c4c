"""The physical layout of a Heads & Tails table and the thresholds it implies.

Every timing threshold of the fusion is derived here from a few lengths and
speeds, so a table with a bigger coin or wider beam spacing changes one number
and the thresholds follow. Heights are in metres above the fault line (z = 0
at the fault line, z = ``start_above_fault_m`` at the start line, 1.2.1).

>>> cfg = FusionConfig()
>>> round(cfg.coin_length_max_m * 1000), cfg.coin_span_max_ns // 1000
(45, 45000)
>>> round(cfg.rise_speed_min_mps, 2)
1.4
>>> cfg.tumble_span_max_ns // 1000, cfg.tumble_lag_max_ns // 1000
(13500, 9000)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

G = 9.81
"""Standard gravity, m/s^2."""

MS = 1_000_000
US = 1_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Geometry:
    """Coin, beams and lines.

    A gate is one beam (``*_a`` only) or a pair: ``*_a`` above ``*_b``,
    ``pair_spacing_m`` apart centre to centre, the pair centred on its line.
    ``beam_width_m`` is the effective height of a beam: how far an edge must
    move to go from "just clear" to "just broken" at the receiver.
    """

    coin_diameter_m: float = 0.024
    coin_thickness_m: float = 0.002
    beam_width_m: float = 0.001
    pair_spacing_m: float = 0.005
    start_above_fault_m: float = 0.80  # 1.2.1: the fault line is 80 cm below
    start_pair: bool = True
    fault_pair: bool = True

    def __post_init__(self) -> None:
        if not 0 < self.coin_thickness_m < self.coin_diameter_m:
            raise ValueError("a coin is thinner than it is wide")
        if self.pair_spacing_m <= 0 or self.beam_width_m <= 0 or self.start_above_fault_m <= 0:
            raise ValueError("spacing, beam width and line distance must be positive")

    def beams(self) -> dict[str, float]:
        """The height of every beam by role.

        >>> Geometry(start_pair=False).beams()["start_a"]
        0.8
        """
        out: dict[str, float] = {}
        for prefix, height, pair in (
            ("start", self.start_above_fault_m, self.start_pair),
            ("fault", 0.0, self.fault_pair),
        ):
            if pair:
                out[f"{prefix}_a"] = height + self.pair_spacing_m / 2
                out[f"{prefix}_b"] = height - self.pair_spacing_m / 2
            else:
                out[f"{prefix}_a"] = height
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class FusionConfig:
    """Thresholds of the fusion, overridable one by one.

    - ``glitch_max_ns``: a pulse shorter than this is electrical noise. An
      edge-on 2 mm coin at 6 m/s with a 1 mm beam blocks for (2 + 1) / 6 =
      0.5 ms; the design floor is 0.3 ms; 0.1 ms leaves a factor of three.
    - ``coin_speed_min_mps`` / ``coin_speed_max_mps``: what a coin can do at a
      line. 1 m/s is a coin dropped from 5 cm above the start line (2.1.5);
      faster than 9 m/s means the coin fell from 4 m: not a toss, a sideways
      swipe that breaks both beams at once.
    - ``length_slack_m``: added to diameter + beam width for timing noise and
      the coin tumbling while it crosses.
    - ``touch_min_ns``: a non-coin break at least this long is a touch (2.1.6).
    - ``hand_above_line_m``: where the hand is assumed to release a coin above
      the start line, to date the toss from the speed at the start line.
    - ``rise_min_m``: a coin seen first going down the start line whose apex
      was less than this above the line is taken as failing to move upwards
      (2.1.5); ``None`` leaves 2.1.5 to the spotter.
    - ``apex_max_m``: the highest a toss goes above the start line; bounds how
      long a coin can be in the air before any gate sees it.
    - ``single_beam_speed_mps``: the speed assumed where a gate measures none
      (a single-beam gate, or a tumbling coin the pair could not time) to
      date the toss.
    - ``tumble_speed_min_mps``: the slowest coin the *shape test* accepts.
      A coin tumbling so fast that its edges move as fast as it travels
      (r x omega = 1.9 m/s at 25 rev/s) makes the pair time its rotation, not
      its travel, and read far too slow; the shape test then asks instead
      whether the passage fits a coin of at least this speed (derived bounds
      below). 2 m/s is the slowest fall the design must catch; slower coins
      only occur near the apex.
    - ``tumble_slack_m``: added to the coin's lengths in the shape test for
      its change of speed while it crosses (g x 13 ms = 0.13 m/s, about
      1 mm at 2 m/s) and the receiver's delays and jitter.
    """

    geometry: Geometry = field(default_factory=Geometry)
    glitch_max_ns: int = 100 * US
    coin_speed_min_mps: float = 1.0
    coin_speed_max_mps: float = 30.0
    length_slack_m: float = 0.020
    touch_min_ns: int = 5 * MS
    hand_above_line_m: float = 0.05
    rise_min_m: float | None = 0.10
    apex_max_m: float = 1.5
    single_beam_speed_mps: float = 3.0
    tumble_speed_min_mps: float = 2.0
    tumble_slack_m: float = 0.002

    def __post_init__(self) -> None:
        if not 0 < self.coin_speed_min_mps < self.coin_speed_max_mps:
            raise ValueError("coin speeds: 0 < min < max")
        if not 0 < self.tumble_speed_min_mps < self.coin_speed_max_mps:
            raise ValueError("tumbling coin speed: 0 < tumble_speed_min < coin_speed_max")
        if self.tumble_slack_m < 0:
            raise ValueError("tumble_slack_m must not be negative")
        if self.glitch_max_ns < 0 or self.touch_min_ns < 0 or self.apex_max_m <= 0:
            raise ValueError("durations and heights must not be negative")

    @property
    def coin_length_max_m(self) -> float:
        """The longest stretch a coin can block a beam over: diameter + beam + slack."""
        geo = self.geometry
        return geo.coin_diameter_m + geo.beam_width_m + self.length_slack_m

    @property
    def coin_span_max_ns(self) -> int:
        """The longest a coin keeps a beam busy (at the slowest coin speed);
        a break still open after this is a hand."""
        return round(self.coin_length_max_m / self.coin_speed_min_mps * 1e9)

    @property
    def merge_gap_ns(self) -> int:
        """Clear time that ends a passage. A tumbling coin can break a beam
        several times while its 24 mm envelope is over it, so pulses closer
        than one coin span are one passage."""
        return self.coin_span_max_ns

    @property
    def tumble_span_max_ns(self) -> int:
        """Shape test: the longest a coin at ``tumble_speed_min_mps`` keeps one
        beam busy, first break to last clear, however it tumbles: the beam is
        broken only while the centre is within a radius (+ half the beam) of
        it, and the centre moves on at the coin's speed."""
        geo = self.geometry
        reach = geo.coin_diameter_m + geo.beam_width_m + self.tumble_slack_m
        return round(reach / self.tumble_speed_min_mps * 1e9)

    @property
    def tumble_lag_max_ns(self) -> int:
        """Shape test: the longest delay between the two beams' first breaks
        (or last clears) for a coin at ``tumble_speed_min_mps``. Meanwhile the
        centre moves the spacing less what the coin's half-extent can change
        (radius - half thickness), so at most spacing + radius - half
        thickness."""
        geo = self.geometry
        reach = geo.pair_spacing_m + (geo.coin_diameter_m - geo.coin_thickness_m) / 2
        return round((reach + self.tumble_slack_m) / self.tumble_speed_min_mps * 1e9)

    @property
    def rise_speed_min_mps(self) -> float:
        """Start-line speed below which a coin did not rise ``rise_min_m``."""
        rise = self.rise_min_m if self.rise_min_m is not None else 0.0
        return math.sqrt(2 * G * rise)

    @property
    def flight_to_start_max_ns(self) -> int:
        """The longest a tossed coin can fly before it comes down the start line."""
        return round(2 * math.sqrt(2 * self.apex_max_m / G) * 1e9)

    @property
    def flight_max_ns(self) -> int:
        """The longest from the release to the fault line (apex to fault line)."""
        up = math.sqrt(2 * self.apex_max_m / G)
        down = math.sqrt(2 * (self.apex_max_m + self.geometry.start_above_fault_m) / G)
        return round((up + down) * 1e9)

    @property
    def fall_max_ns(self) -> int:
        """The longest a coin takes from the start line down to the fault line
        (passing the start line at the slowest coin speed), with 20 % margin."""
        v, h = self.coin_speed_min_mps, self.geometry.start_above_fault_m
        return round((-v + math.sqrt(v * v + 2 * G * h)) / G * 1.2e9)

    @property
    def classify_latency_ns(self) -> int:
        """How long after a passage starts it is classified, at the latest."""
        return 2 * self.coin_span_max_ns + self.merge_gap_ns

    @property
    def max_latency_ns(self) -> int:
        """The fusion emits every event at most this long after its ``t_ns``:
        a toss is dated at the release but recognised once the coin has come
        down past both lines."""
        return self.flight_to_start_max_ns + self.fall_max_ns + 2 * self.classify_latency_ns
