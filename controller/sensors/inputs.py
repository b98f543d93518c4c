"""Sensor-level scenario inputs: raw gate edges, call-pad presses, simulated
tosses and hands, and the optional ``[sensors]`` table (``docs/scenarios.md``).

They become :class:`EdgeEvent` objects that the harness feeds through the
same :class:`~controller.sensors.pipeline.SensorPipeline` (buttons, health,
fusion) a live table uses.

>>> from controller.strict import Table
>>> setup = parse_sensor_setup(None)
>>> item = parse_sensor_input("gate", Table({"line": "fault_a", "state": "broken"},
...     "demo.toml", "input 3"), 3, 5_500_000_000, setup)
>>> item.edges[0].line, item.edges[0].level
('fault_a', False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from controller.sensors.buttons import Press
from controller.sensors.classify import Gate
from controller.sensors.edges import EdgeEvent
from controller.sensors.fusion import CALL_WORDS
from controller.sensors.geometry import MS, US, FusionConfig, Geometry
from controller.sensors.health import DEFAULT_BEAM_BLOCKED_NS, DEFAULT_BUTTON_STUCK_NS
from controller.sensors.lines import (
    BEAM_BLOCKED_RANGE_S,
    BUTTON_STUCK_RANGE_S,
    DEFAULT_BEAM_BLOCKED_S,
    DEFAULT_BUTTON_STUCK_S,
    Active,
    LineConfig,
    LineKind,
    Pull,
    Role,
)
from controller.sensors.tossim import CoinToss, HandKind, HandMove, SensorNoise, TossSimulator
from controller.strict import Table
from controller.timebase import seconds_to_ns

SENSOR_INPUT_TYPES = ("gate", "button", "toss_physics", "hand")

SIM_PINS = {"start_a": 23, "start_b": 24, "fault_a": 17, "fault_b": 27}
SIM_PINS |= {"call_heads": 5, "call_tails": 6}
SIM_PINS |= {"clock_left": 20, "clock_right": 21, "clock_pause": 16}
CLOCK_BUTTONS = ("clock_left", "clock_right")
CLOCK_SWITCH = "clock_pause"
"""The pins a simulated table is wired to: health details name a pin."""

BUTTON_ACTIVE_LEVEL = False
"""The call pad of a simulated table: buttons to ground, pulled up (active low)."""

DEFAULT_TAP_NS = 100 * MS
"""How long a press without ``release_at`` holds the button down."""


@dataclass(frozen=True, slots=True)
class BridgeSim:
    """``[sensors] bridge = "sim"``: every edge reaches the pipeline through a
    simulated microcontroller link (``firmware_bridge.simlink``) with its
    clock drift, USB jitter and corrupted bytes, and the mapped time it gives."""

    drift_ppm: float = 100.0
    jitter_ns: int = 2 * MS
    corrupt: float = 0.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class SensorSetup:
    """What the ``[sensors]`` table of a scenario sets (all optional)."""

    config: FusionConfig = field(default_factory=FusionConfig)
    noise: SensorNoise = field(default_factory=SensorNoise)
    active: dict[str, bool] = field(default_factory=dict)
    beam_blocked_ns: int = DEFAULT_BEAM_BLOCKED_NS
    button_stuck_ns: int = DEFAULT_BUTTON_STUCK_NS
    bridge: BridgeSim | None = None
    """Edges through a simulated microcontroller link, or straight in (None)."""
    clock: bool = False
    """A clock table (Tantrix, Backgammon...): two clock buttons and a pause
    switch, no light gates and no call pad."""

    def lines(self) -> tuple[LineConfig, ...]:
        """The simulated table's lines: its beams with their polarity, and the
        call pad; or, on a clock table, the clock's buttons and pause switch."""
        if self.clock:
            return tuple(
                LineConfig(role=Role(r), pin=SIM_PINS[r],
                           kind=LineKind.SWITCH if r == CLOCK_SWITCH else LineKind.BUTTON,
                           active=Active.LOW, pull=Pull.UP)
                for r in (*CLOCK_BUTTONS, CLOCK_SWITCH)
            )  # fmt: skip
        beams = tuple(
            LineConfig(
                role=Role(role),
                pin=SIM_PINS[role],
                kind=LineKind.BEAM,
                active=Active.HIGH if level else Active.LOW,
                pull=Pull.UP,
            )
            for role, level in self.active.items()
        )
        pad = tuple(
            LineConfig(role=Role(r), pin=SIM_PINS[r], kind=LineKind.BUTTON, active=Active.LOW,
                       pull=Pull.UP)
            for r in CALL_WORDS
        )  # fmt: skip
        return beams + pad

    @property
    def beams(self) -> dict[str, float]:
        """Beam heights by role."""
        return self.config.geometry.beams()

    def simulator(self, seed: int) -> TossSimulator:
        """A simulator of this table."""
        return TossSimulator(
            geometry=self.config.geometry, noise=self.noise, active=self.active, seed=seed
        )


@dataclass(frozen=True, slots=True)
class SensorInput:
    """One sensor-level ``[[input]]``: what it expands to."""

    index: int
    type: str
    t_ns: int
    edges: tuple[EdgeEvent, ...] = ()
    presses: tuple[Press, ...] = ()


def _gate_kind(table: Table, key: str) -> bool:
    kind = table.string(key, "pair")
    if kind not in ("pair", "single"):
        raise table.fail(key, f"{kind!r} is not 'pair' or 'single'")
    return bool(kind == "pair")


def _mm(table: Table, key: str, default_m: float, low: float = 0.01) -> float:
    return float(table.number(key, default_m * 1000, minimum=low, maximum=5000.0)) / 1000


def _geometry(table: Table) -> Geometry:
    base = Geometry()
    try:
        return Geometry(
            start_pair=_gate_kind(table, "start_gate"),
            fault_pair=_gate_kind(table, "fault_gate"),
            pair_spacing_m=_mm(table, "pair_spacing_mm", base.pair_spacing_m),
            beam_width_m=_mm(table, "beam_width_mm", base.beam_width_m),
            coin_diameter_m=_mm(table, "coin_diameter_mm", base.coin_diameter_m),
            coin_thickness_m=_mm(table, "coin_thickness_mm", base.coin_thickness_m),
            start_above_fault_m=_mm(table, "start_above_fault_mm", base.start_above_fault_m),
        )
    except ValueError as exc:
        raise table.fail(None, str(exc)) from None


def _config(table: Table, geometry: Geometry) -> FusionConfig:
    base = FusionConfig()
    rise = table.number("rise_min_mm", (base.rise_min_m or 0) * 1000, minimum=0.0)
    try:
        return FusionConfig(
            geometry=geometry,
            glitch_max_ns=round(table.number("glitch_max_us", 100.0, minimum=0.0) * US),
            touch_min_ns=round(table.number("touch_min_ms", 5.0, minimum=0.0) * MS),
            coin_speed_min_mps=table.number("coin_speed_min", base.coin_speed_min_mps, minimum=0.1),
            coin_speed_max_mps=table.number("coin_speed_max", base.coin_speed_max_mps, minimum=0.1),
            tumble_speed_min_mps=table.number(
                "tumble_speed_min", base.tumble_speed_min_mps, minimum=0.1
            ),
            tumble_slack_m=_mm(table, "tumble_slack_mm", base.tumble_slack_m, 0.0),
            hand_above_line_m=_mm(table, "hand_above_line_mm", base.hand_above_line_m, 0.0),
            rise_min_m=rise / 1000 if rise > 0 else None,
            apex_max_m=_mm(table, "apex_max_mm", base.apex_max_m, 10.0),
        )
    except ValueError as exc:
        raise table.fail(None, str(exc)) from None


def _noise(table: Table) -> SensorNoise:
    base = SensorNoise()
    return SensorNoise(
        response_on_ns=round(
            table.number("response_us", base.response_on_ns / US, minimum=0.0) * US
        ),
        response_off_ns=round(
            table.number("response_off_us", base.response_off_ns / US, minimum=0.0) * US
        ),
        jitter_ns=table.number("jitter_us", base.jitter_ns / US, minimum=0.0) * US,
        min_pulse_ns=round(table.number("min_pulse_us", base.min_pulse_ns / US, minimum=0.0) * US),
    )


def parse_sensor_setup(table: Table | None, *, clock: bool = False) -> SensorSetup:
    """The ``[sensors]`` table, or the defaults when there is none; ``clock``
    for a game played on a clock (no gates: its beams are left out)."""
    if table is None:
        beams = {} if clock else dict.fromkeys(Geometry().beams(), False)
        return SensorSetup(active=beams, clock=clock)
    geometry = _geometry(table)
    config = _config(table, geometry)
    noise = _noise(table)
    level = table.string("beams_active", "low")
    if level not in ("low", "high"):
        raise table.fail("beams_active", f"{level!r} is not 'low' or 'high'")
    blocked = table.number(
        "beam_blocked_s",
        DEFAULT_BEAM_BLOCKED_S,
        minimum=BEAM_BLOCKED_RANGE_S[0],
        maximum=BEAM_BLOCKED_RANGE_S[1],
    )
    stuck = table.number(
        "button_stuck_s",
        DEFAULT_BUTTON_STUCK_S,
        minimum=BUTTON_STUCK_RANGE_S[0],
        maximum=BUTTON_STUCK_RANGE_S[1],
    )
    bridge = _bridge(table)
    table.finish()
    active = {} if clock else dict.fromkeys(geometry.beams(), level == "high")
    return SensorSetup(
        bridge=bridge,
        clock=clock,
        config=config,
        noise=noise,
        active=active,
        beam_blocked_ns=seconds_to_ns(blocked),
        button_stuck_ns=seconds_to_ns(stuck),
    )


def _bridge(table: Table) -> BridgeSim | None:
    """The ``bridge*`` keys of ``[sensors]``: only ``"sim"`` in a scenario."""
    kind = table.string("bridge", "")
    keys = ("bridge_drift_ppm", "bridge_jitter_ms", "bridge_corrupt", "bridge_seed")
    if not kind:
        for key in keys:
            if table.has(key):
                raise table.fail(key, 'needs bridge = "sim"')
        return None
    if kind != "sim":
        raise table.fail("bridge", f'{kind!r}: a scenario\'s bridge can only be "sim"')
    return BridgeSim(
        drift_ppm=table.number("bridge_drift_ppm", 100.0, minimum=-200.0, maximum=200.0),
        jitter_ns=round(table.number("bridge_jitter_ms", 2.0, minimum=0.0, maximum=2.0) * MS),
        corrupt=table.number("bridge_corrupt", 0.0, minimum=0.0, maximum=0.05),
        seed=table.integer("bridge_seed", 0),
    )


def _gate(table: Table, index: int, t_ns: int, setup: SensorSetup) -> SensorInput:
    line = table.string("line")
    if line not in setup.active:
        raise table.fail(
            "line", f"{line!r} is not a beam of this table ({', '.join(setup.active)})"
        )
    if table.has("state") == table.has("level"):
        raise table.fail("state", "give exactly one of 'state' (broken/clear) or 'level'")
    if table.has("state"):
        state = table.string("state")
        if state not in ("broken", "clear"):
            raise table.fail("state", f"{state!r} is not 'broken' or 'clear'")
        level = setup.active[line] == (state == "broken")
    else:
        level = table.boolean("level")
    return SensorInput(
        index, "gate", t_ns, edges=(EdgeEvent(line=line, level=level, t_ns=t_ns, seq=0),)
    )


def _button(table: Table, index: int, t_ns: int, setup: SensorSetup) -> SensorInput:
    role = table.string("button")
    roles = (*CLOCK_BUTTONS, CLOCK_SWITCH) if setup.clock else CALL_WORDS
    if role not in roles:
        what = "a clock button or switch" if setup.clock else "a call-pad button"
        raise table.fail("button", f"{role!r} is not {what} ({', '.join(roles)})")
    release = table.number("release_at", None, minimum=0.0)
    if role == CLOCK_SWITCH and release is None:
        raise table.fail("release_at", "the pause switch is on from 'at' to 'release_at': give it")
    if release is not None and release <= table.number("at"):
        raise table.fail("release_at", "must come after 'at'")
    # Two edges through the live debouncer and health monitor: a press held
    # past button_stuck_s is a stuck pad, as on a real table.
    up_ns = (
        t_ns + DEFAULT_TAP_NS
        if release is None
        else t_ns + seconds_to_ns(release - table.number("at"))
    )
    edges = (
        EdgeEvent(line=role, level=BUTTON_ACTIVE_LEVEL, t_ns=t_ns, seq=0),
        EdgeEvent(line=role, level=not BUTTON_ACTIVE_LEVEL, t_ns=up_ns, seq=0),
    )
    return SensorInput(index, "button", t_ns, edges=edges)


def _toss(table: Table, index: int, t_ns: int, setup: SensorSetup) -> SensorInput:
    geo = setup.config.geometry
    seed = table.integer("seed", index)
    sim = setup.simulator(seed)
    if not table.boolean("noise", True):
        sim = TossSimulator(geometry=geo, noise=SensorNoise.none(), active=setup.active, seed=seed)
    phase = table.number("phase_deg", None)
    toss = CoinToss(
        t_ns=t_ns,
        height_m=geo.start_above_fault_m + table.number("height_mm", 50.0, minimum=-2000.0) / 1000,
        speed_mps=table.number("speed", 2.5, minimum=-5.0, maximum=10.0),
        spin_hz=table.number("spin", 20.0, minimum=0.0, maximum=100.0),
        tilt_rad=math.radians(table.number("tilt_deg", 0.0, minimum=-90.0, maximum=90.0)),
        phase_rad=sim.rng.uniform(0, 2 * math.pi) if phase is None else math.radians(phase),
        drag_per_s=table.number("drag", 0.0, minimum=0.0, maximum=5.0),
    )
    return SensorInput(index, "toss_physics", t_ns, edges=sim.coin(toss).edges)


def _hand(table: Table, index: int, t_ns: int, setup: SensorSetup) -> SensorInput:
    move = HandMove(
        gate=table.choice("gate", Gate),
        kind=table.choice("move", HandKind),
        t_ns=t_ns,
        speed_mps=table.number("speed", 1.0, minimum=0.05, maximum=10.0),
        extent_m=table.number("extent_mm", 150.0, minimum=1.0) / 1000,
        depth_m=table.number("depth_mm", 10.0, minimum=0.0) / 1000,
        dwell_ns=round(table.number("dwell_ms", 50.0, minimum=0.0) * MS),
    )
    sim = TossSimulator(
        geometry=setup.config.geometry, noise=SensorNoise.none(), active=setup.active, seed=index
    )
    return SensorInput(index, "hand", t_ns, edges=sim.hand(move).edges)


def parse_sensor_input(
    kind: str, table: Table, index: int, t_ns: int, setup: SensorSetup
) -> SensorInput:
    """One sensor-level ``[[input]]`` whose ``type`` and ``at`` were read."""
    parsed: Any
    if setup.clock and kind != "button":
        raise table.fail("type", f"a clock table has no light gates: {kind!r} cannot be used here")
    if kind == "gate":
        parsed = _gate(table, index, t_ns, setup)
    elif kind == "button":
        parsed = _button(table, index, t_ns, setup)
    elif kind == "toss_physics":
        parsed = _toss(table, index, t_ns, setup)
    else:
        parsed = _hand(table, index, t_ns, setup)
    table.finish()
    assert isinstance(parsed, SensorInput)
    return parsed
