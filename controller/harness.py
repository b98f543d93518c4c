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

from controller.errors import RejectedInput, ScenarioError
from controller.expect import check
from controller.games.heads_and_tails import HeadsAndTailsEngine, State
from controller.model import Event, Ruling
from controller.runtime import Runtime, Wait
from controller.scenario import ORIGIN_NS, Scenario, ScenarioInput
from controller.timebase import SimClock, seconds_to_ns


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


@dataclass
class Simulation:
    """What a simulated match produced."""

    scenario: Scenario
    state: State
    rulings: list[Ruling] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def simulate(scenario: Scenario, on_ruling: Callable[[Ruling], None] | None = None) -> Simulation:
    """Run ``scenario`` to its end; ``on_ruling`` sees each ruling as it is made.

    Raises :class:`ScenarioError` for an input that refers to something that
    does not exist (an overrule of an unknown ruling id).
    """
    engine = HeadsAndTailsEngine()
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
    source = ScenarioSource(scenario.inputs, SimClock(start_ns=ORIGIN_NS))
    until_ns = None if scenario.until_s is None else ORIGIN_NS + seconds_to_ns(scenario.until_s)
    try:
        runtime.run(source, until_ns)
    except RejectedInput as exc:
        current = source.current
        where = "" if current is None else f"input {current.index} ({current.type})"
        raise ScenarioError(scenario.source, where, "ruling", str(exc)) from None
    failures = check(scenario.expects, [r.to_json_dict() for r in rulings])
    return Simulation(scenario, runtime.state, rulings, failures)
