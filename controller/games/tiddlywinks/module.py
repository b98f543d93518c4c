"""Tiddlywinks as a :class:`~controller.gamemodule.GameModule`.

>>> from controller.strict import Table

if TYPE_CHECKING:
    from controller.games.tiddlywinks.camera import MatCamera
    from vision.settings import CameraSettings
>>> doc = {"format": "singles", "players": ["ann", "ben"]}
>>> settings = MODULE.parse_match(Table(doc, "t", "match"))
>>> MODULE.describe_match(settings)
'singles: blue ann, green ben, red ann, yellow ben; time limit 20 min'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from controller.gamemodule import ModuleDefaults
from controller.games.tiddlywinks import codec, gametime, record, scenario
from controller.games.tiddlywinks.engine import TiddlywinksEngine, shot_limit_applies
from controller.games.tiddlywinks.geometry import COLOURS
from controller.games.tiddlywinks.state import Settings, State
from controller.model import JSON, Event, Game, Ruling
from controller.strict import Table

if TYPE_CHECKING:
    from controller.games.tiddlywinks.camera import MatCamera
    from vision.settings import CameraSettings


class TiddlywinksModule(ModuleDefaults):
    """What the harness, service and CLI need of tiddlywinks."""

    game = Game.TIDDLYWINKS
    input_types = scenario.INPUT_TYPES
    verbs = frozenset(scenario.INPUT_TYPES)

    def engine(self) -> TiddlywinksEngine:
        return TiddlywinksEngine()

    def parse_match(self, table: Table) -> Settings:
        return scenario.parse_match(table)

    def encode_match(self, settings: Settings) -> dict[str, JSON]:
        return codec.encode_match(settings)

    def describe_match(self, settings: Settings) -> str:
        who = ", ".join(f"{c.value} {settings.player(c)}" for c in COLOURS)
        minutes = settings.limit_ns / 60e9
        extra = "; 2-minute shot limit after time" if settings.shot_limit else ""
        return f"{settings.format.value}: {who}; time limit {minutes:g} min{extra}"

    def parse_input(self, kind: str, table: Table, t_ns: int, settings: Settings) -> Event:
        return scenario.parse_input(kind, table, t_ns, settings)

    def input_parser(self, settings: Settings) -> scenario.FileParser:
        return scenario.FileParser(settings)

    def encode(self, event: Event) -> tuple[str, dict[str, JSON]]:
        return codec.encode(event)

    def record_text(self, state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
        return record.record_text(state, rulings, origin_ns)

    def record_json(
        self, state: State, rulings: Sequence[Ruling], origin_ns: int
    ) -> dict[str, JSON]:
        return record.record_json(state, rulings, origin_ns)

    def clock(self, state: State, t_ns: int) -> dict[str, JSON] | None:
        """Game time (9(a)) as the shared clock snapshot, player ``"game"``,
        with the 9(c) shot limit as ``shot`` while it applies."""
        return gametime.payload(state.time, t_ns, shot_limit_applies(state))

    def live_camera(self, settings: CameraSettings, journal: Path) -> MatCamera:
        """The overhead mat camera: shots end when the mat settles or the
        shot button is pressed (``camera.py`` here)."""
        from controller.games.tiddlywinks.camera import MatCamera

        return MatCamera(settings, journal=journal)


MODULE = TiddlywinksModule()
