"""Scenario files (``contracts.md`` section 2): a whole match as inputs over time.

>>> s = parse_scenario({"game": "heads-and-tails",
...     "match": {"players": ["ann", "ben"], "plays": 1},
...     "input": [{"at": 0.0, "type": "go"}]}, "demo.toml")
>>> s.inputs[0].type, s.inputs[0].event.t_ns - ORIGIN_NS
('go', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import ScenarioError
from controller.expect import Expect, parse_expect
from controller.gamemodule import GameModule, InputParser
from controller.games.registry import SUPPORTED, module_for, supported_names
from controller.model import Event, Game
from controller.sensors.inputs import (
    SENSOR_INPUT_TYPES,
    SensorInput,
    SensorSetup,
    parse_sensor_input,
    parse_sensor_setup,
)
from controller.strict import Table, load_toml
from controller.timebase import NS_PER_S, seconds_to_ns

ORIGIN_NS = 1_000 * NS_PER_S
"""Simulated ``mono_ns`` at scenario time 0. Not zero, so that any place that
confuses monotonic time with match time shows up in the tests."""

MAX_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class ScenarioInput:
    """One ``[[input]]``: its 1-based index in the file, its type, the event."""

    index: int
    type: str
    event: Event


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario file, ready to simulate."""

    source: str
    game: Game
    settings: Any
    """The game's match settings, as its :meth:`GameModule.parse_match` reads them."""
    inputs: tuple[ScenarioInput, ...]
    expects: tuple[Expect, ...]
    until_s: float | None
    table: str
    description: str
    sensor_inputs: tuple[SensorInput, ...] = ()
    """Gate edges, call-pad presses and simulated tosses, through the fusion."""
    sensors: SensorSetup | None = None
    """The ``[sensors]`` table (defaults when absent); None when the file has
    no sensor-level input at all."""
    twin: str | None = None
    """The semantic scenario this sensor-level file mirrors, if it says."""

    @property
    def module(self) -> GameModule[Any, Any]:
        """The game's module: its engine, inputs and record."""
        return module_for(self.game)


def load_scenario(path: Path) -> Scenario:
    """Read and validate a scenario file; raises :class:`ScenarioError`."""
    return parse_scenario(load_toml(path, ScenarioError), str(path))


def _input(
    entry: Mapping[str, Any],
    index: int,
    source: str,
    module: GameModule[Any, Any],
    parse: InputParser,
    setup: SensorSetup,
    camera: Any = None,
) -> Event | SensorInput:
    kind = entry.get("type")
    where = f"input {index}" + (f" ({kind})" if isinstance(kind, str) else "")
    table = Table(dict(entry), source, where, ScenarioError)
    kind = table.string("type")
    # A camera image is Heads & Tails' landed coin (vision); other games read
    # their own frames through their inputs.
    frames = ("frame",) if module.game is Game.HEADS_AND_TAILS else ()
    known = (*module.input_types, *SENSOR_INPUT_TYPES, *frames)
    if kind not in known:
        raise table.fail("type", f"{kind!r} is not an input type ({', '.join(known)})")
    at = table.number("at", minimum=0.0, maximum=MAX_SECONDS)
    t_ns = ORIGIN_NS + seconds_to_ns(at)
    if kind in SENSOR_INPUT_TYPES:
        return parse_sensor_input(kind, table, index, t_ns, setup)
    if kind == "frame":  # a camera image through the vision pipeline: a landed input
        from vision.scenario import parse_frame

        return parse_frame(table, t_ns, camera, Path(source).parent)
    return parse(kind, table, t_ns)


def _inputs(
    top: Table,
    source: str,
    module: GameModule[Any, Any],
    settings: Any,
    setup: SensorSetup,
    camera: Any = None,
) -> tuple[list[ScenarioInput], list[SensorInput]]:
    inputs: list[ScenarioInput] = []
    sensor_inputs: list[SensorInput] = []
    parse = module.input_parser(settings)  # in file order, before the sort by time
    for index, entry in top.tables("input"):
        parsed = _input(entry, index, source, module, parse, setup, camera)
        if isinstance(parsed, SensorInput):
            sensor_inputs.append(parsed)
        else:
            inputs.append(ScenarioInput(index, entry.get("type", "?"), parsed))
    # Inputs run in time order; equal times keep the file's order.
    inputs.sort(key=lambda i: i.event.t_ns)
    sensor_inputs.sort(key=lambda i: i.t_ns)
    return inputs, sensor_inputs


def _camera(table: Table | None, source: str) -> Any:
    """The optional ``[camera]`` table (for ``frame`` inputs); paths relative to the file."""
    if table is None:
        return None
    from vision.settings import parse_camera

    return parse_camera(table, Path(source).parent)


def parse_scenario(data: dict[str, Any], source: str) -> Scenario:
    """Validate a parsed TOML document as a scenario."""
    top = Table(data, source, "", ScenarioError)
    game = top.choice("game", Game)
    if game not in SUPPORTED:
        raise top.fail(
            "game", f"the harness does not run {game.value!r} yet (it runs {supported_names()})"
        )
    module = module_for(game)
    description = top.string("description", "")
    table_id = top.string("table", "sim")
    if not table_id or ":" in table_id or "/" in table_id:
        raise top.fail("table", "a table id is non-empty with no ':' or '/'")
    until = top.number("until", None, minimum=0.0, maximum=MAX_SECONDS)
    match = top.table("match")
    assert match is not None
    settings = module.parse_match(match)
    twin = top.string("twin", None)
    sensors_table = top.table("sensors", optional=True)
    # Every game but Heads & Tails is played on a clock, with no light gates.
    setup = parse_sensor_setup(sensors_table, clock=game is not Game.HEADS_AND_TAILS)
    camera = _camera(top.table("camera", optional=True), source)
    inputs, sensor_inputs = _inputs(top, source, module, settings, setup, camera)
    expects = tuple(
        parse_expect(Table(dict(entry), source, f"expect {index}", ScenarioError), index)
        for index, entry in top.tables("expect")
    )
    top.finish()
    return Scenario(
        source=source,
        game=game,
        settings=settings,
        inputs=tuple(inputs),
        expects=expects,
        until_s=until,
        table=table_id,
        description=description,
        sensor_inputs=tuple(sensor_inputs),
        sensors=setup if sensor_inputs or sensors_table is not None else None,
        twin=twin,
    )
