"""The headless harness: a scenario through the live runtime on simulated time.

>>> from controller.scenario import parse_scenario
>>> s = parse_scenario({"game": "heads-and-tails",
...     "match": {"players": ["ann", "ben"], "plays": 1},
...     "input": [{"at": 0.0, "type": "go"}]}, "demo.toml")
>>> [(r.kind.value, r.rule, r.at) for r in simulate(s).rulings]
[('notice', '2.1.2', 0.0), ('fault', '2.1.2', 30.0), ('match_over', '2.3.4', 30.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.errors import RejectedInput, ScenarioError
from controller.expect import check
from controller.model import Event, Ruling
from controller.runtime import Runtime, Wait
from controller.scenario import ORIGIN_NS, Scenario, ScenarioInput
from controller.sensors.buttons import Press
from controller.sensors.edges import EdgeEvent
from controller.sensors.inputs import SensorInput, SensorSetup
from controller.sensors.pipeline import SensorPipeline
from controller.timebase import NS_PER_S, SimClock, seconds_to_ns


class ScenarioSource:
    """Feeds a scenario's inputs, moving a :class:`SimClock` instead of waiting."""

    def __init__(self, inputs: Sequence[ScenarioInput], clock: SimClock) -> None:
        self._inputs = list(inputs)
        self._next = 0
        self.clock = clock
        self.current: ScenarioInput | None = None

    def wait(self, deadline_ns: int | None) -> Event | Wait:
        if self._next < len(self._inputs):
            upcoming = self._inputs[self._next]
            if deadline_ns is None or upcoming.event.t_ns <= deadline_ns:
                self._next += 1
                self.current = upcoming
                self.clock.advance_to(upcoming.event.t_ns)
                return upcoming.event
        if deadline_ns is None:
            return Wait.END
        self.clock.advance_to(deadline_ns)
        return Wait.DEADLINE


class FusedSource(ScenarioSource):
    """A scenario with sensor-level inputs: edges go through the live sensor
    pipeline (buttons, health, fusion), whose events join the semantic inputs
    in time order.

    The pipeline dates an event when it happened but may only hand it on up to
    ``pipeline.max_latency_ns`` later (a toss is seen when the coin comes down
    past the start line). So before handing on anything at time T, the
    pipeline is run up to T plus that bound: every sensor event at or before T
    is known. A live service holds its deadline ticks back by the same bound.
    """

    def __init__(
        self,
        inputs: Sequence[ScenarioInput],
        sensor_inputs: Sequence[SensorInput],
        pipeline: SensorPipeline,
        clock: SimClock,
    ) -> None:
        super().__init__(inputs, clock)
        items: list[tuple[int, int, EdgeEvent | Press]] = []
        for si in sensor_inputs:
            items += [(e.t_ns, si.index, e) for e in si.edges]
            items += [(p.t_ns, si.index, p) for p in si.presses]
        items.sort(key=lambda x: (x[0], x[1]))
        self._items = [(t, item) for t, _, item in items]
        self._fed = 0
        self._pipeline = pipeline
        self._fused: list[Event] = []

    def _feed_next(self) -> None:
        item = self._items[self._fed][1]
        self._fed += 1
        if isinstance(item, EdgeEvent):
            # Numbered as a source numbers its edges: in delivery order.
            item = EdgeEvent(line=item.line, level=item.level, t_ns=item.t_ns, seq=self._fed)
            self._fused += self._pipeline.edge(item)
        else:
            self._fused += self._pipeline.press(item)

    def _pump(self, until_ns: int | None) -> None:
        pipeline = self._pipeline
        while True:
            due = pipeline.deadline()
            upcoming = self._items[self._fed][0] if self._fed < len(self._items) else None
            if upcoming is not None and (due is None or upcoming <= due):
                if until_ns is not None and upcoming > until_ns:
                    return
                self._feed_next()
            elif due is not None and (until_ns is None or due <= until_ns):
                self._fused += pipeline.tick(due)
            else:
                return

    def wait(self, deadline_ns: int | None) -> Event | Wait:
        # The runtime has applied everything up to now: a toss may have ended.
        self._pipeline.sync(self.clock.mono_ns())
        semantic = self._inputs[self._next].event.t_ns if self._next < len(self._inputs) else None
        horizon = min((t for t in (semantic, deadline_ns) if t is not None), default=None)
        latency = self._pipeline.max_latency_ns
        self._pump(None if horizon is None else horizon + latency)
        fused = self._fused[0].t_ns if self._fused else None
        # Equal times: the semantic input (a Go, a spotter's word) goes first.
        first = fused is not None and (semantic is None or fused < semantic)
        if first and fused is not None and (deadline_ns is None or fused <= deadline_ns):
            self.current = None
            self.clock.advance_to(fused)
            return self._fused.pop(0)
        return super().wait(deadline_ns)


BRIDGE_WARM_UP_NS = 10 * NS_PER_S
"""A simulated board boots this long before scenario time 0: identified and
its clock synchronised before the first input, as on a table set up early."""


def through_bridge(
    sensor_inputs: Sequence[SensorInput], setup: SensorSetup
) -> tuple[SensorInput, ...]:
    """The scenario's edges as the host sees them through a simulated
    microcontroller link: the same edges, each with its mapped time.

    Run ahead of the match (the link only moves edges; it decides nothing),
    so the pipeline then gets them in delivery order like any source's.
    """
    from firmware_bridge.simlink import SimBridge
    from firmware_bridge.simmcu import LinkNoise

    sim = setup.bridge
    assert sim is not None
    lines = setup.lines()
    bridge = SimBridge(
        {line.pin: line.role.value for line in lines},
        seed=sim.seed,
        drift_ppm=sim.drift_ppm,
        noise=LinkNoise(jitter_ns=sim.jitter_ns, corrupt=sim.corrupt),
        origin_ns=ORIGIN_NS - BRIDGE_WARM_UP_NS,
        levels={line.role.value: line.idle_level for line in lines},
    )
    mapped: list[EdgeEvent] = []
    bridge.start(mapped.append)
    edges = sorted((e for si in sensor_inputs for e in si.edges), key=lambda e: e.t_ns)
    for edge in edges:
        bridge.advance_to(edge.t_ns)
        bridge.push(edge.line, edge.level, edge.t_ns)
    bridge.advance_to((edges[-1].t_ns if edges else ORIGIN_NS) + NS_PER_S)
    bridge.close()
    presses = tuple(p for si in sensor_inputs for p in si.presses)
    first = min((si.index for si in sensor_inputs), default=0)
    return (SensorInput(first, "bridge", ORIGIN_NS, edges=tuple(mapped), presses=presses),)


@dataclass
class Simulation:
    """What a simulated match produced."""

    scenario: Scenario
    state: Any
    rulings: list[Ruling] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def simulate(scenario: Scenario, on_ruling: Callable[[Ruling], None] | None = None) -> Simulation:
    """Run ``scenario`` to its end; ``on_ruling`` sees each ruling as it is made.

    Raises :class:`ScenarioError` for an input that refers to something that
    does not exist (an overrule of an unknown ruling id).
    """
    module = scenario.module
    engine = module.engine()
    rulings: list[Ruling] = []
    sinks: list[Callable[[Ruling], None]] = [rulings.append]
    if on_ruling is not None:
        sinks.append(on_ruling)
    runtime = Runtime(
        engine,
        engine.start(scenario.settings),
        table=scenario.table,
        boot=0,
        origin_ns=ORIGIN_NS,
        ruling_sinks=sinks,
    )
    clock = SimClock(start_ns=ORIGIN_NS)
    source: ScenarioSource
    if scenario.sensors is None:
        source = ScenarioSource(scenario.inputs, clock)
    else:
        setup = scenario.sensors
        pipeline = SensorPipeline.for_lines(
            setup.lines(),
            caller=lambda: module.caller(runtime.state) or "",
            toss_in_flight=lambda: module.toss_in_flight(runtime.state),
            config=setup.config,
            beam_blocked_ns=setup.beam_blocked_ns,
            button_stuck_ns=setup.button_stuck_ns,
        )
        # Every simulated line starts idle: a scenario breaks a beam with an edge.
        pipeline.start({line.role.value: line.idle_level for line in setup.lines()}, ORIGIN_NS)
        sensor_inputs = scenario.sensor_inputs
        if setup.bridge is not None:
            sensor_inputs = through_bridge(sensor_inputs, setup)
        source = FusedSource(scenario.inputs, sensor_inputs, pipeline, clock)
    until_ns = None if scenario.until_s is None else ORIGIN_NS + seconds_to_ns(scenario.until_s)
    try:
        runtime.run(source, until_ns)
    except RejectedInput as exc:
        current = source.current
        where = "" if current is None else f"input {current.index} ({current.type})"
        raise ScenarioError(scenario.source, where, "ruling", str(exc)) from None
    failures = check(scenario.expects, [r.to_json_dict() for r in rulings])
    return Simulation(scenario, runtime.state, rulings, failures)
