"""Tantrix as a :class:`~controller.gamemodule.GameModule`.

>>> from controller.strict import Table
>>> settings = MODULE.parse_match(Table({"players": ["ann", "ben"]}, "t", "match"))
>>> MODULE.describe_match(settings)
'ann v ben (clock: ann left, ben right), 20 min each, TP table: default'
>>> MODULE.command("time_out", {"player": "ann"})
('time_out', {'player': 'ann'})
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.clock import snapshot
from controller.gamemodule import ModuleDefaults
from controller.games.tantrix import record, scenario, settings
from controller.games.tantrix.engine import TantrixEngine
from controller.games.tantrix.settings import MatchSettings
from controller.games.tantrix.state import State
from controller.model import JSON, Event, Game, Ruling
from controller.strict import Table


class TantrixModule(ModuleDefaults):
    """What the harness, service and CLI need of Tantrix."""

    game = Game.TANTRIX
    input_types = scenario.INPUT_TYPES
    verbs = frozenset(scenario.INPUT_TYPES)

    def engine(self) -> TantrixEngine:
        return TantrixEngine()

    def parse_match(self, table: Table) -> MatchSettings:
        return settings.parse_match(table)

    def encode_match(self, match: MatchSettings) -> dict[str, JSON]:
        return settings.encode_match(match)

    def describe_match(self, match: MatchSettings) -> str:
        return settings.describe_match(match)

    def parse_input(self, kind: str, table: Table, t_ns: int, match: MatchSettings) -> Event:
        return scenario.parse_input(kind, table, t_ns, match)

    def encode(self, event: Event) -> tuple[str, dict[str, JSON]]:
        return scenario.encode(event)

    def record_text(self, state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
        return record.record_text(state, rulings, origin_ns)

    def record_json(
        self, state: State, rulings: Sequence[Ruling], origin_ns: int
    ) -> dict[str, JSON]:
        return record.record_json(state, rulings, origin_ns)

    def clock(self, state: State, t_ns: int) -> dict[str, JSON] | None:
        return snapshot(state.clock, t_ns, state.settings.by_seat)


MODULE = TantrixModule()
