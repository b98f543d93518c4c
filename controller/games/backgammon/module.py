"""Backgammon as a :class:`~controller.gamemodule.GameModule`.

>>> from controller.strict import Table
>>> settings = MODULE.parse_match(Table({"players": ["ann", "ben"], "length": 7}, "t", "match"))
>>> MODULE.describe_match(settings)  # doctest: +NORMALIZE_WHITESPACE
'ann v ben, match to 7 points, Crawford rule, clocks from the start: 14 min reserve,
 12 s delay, a flag loses the match'
>>> MODULE.command("drop", {"player": "ben"})
('drop', {'player': 'ben'})
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.clock import format_ms
from controller.gamemodule import ModuleDefaults
from controller.games.backgammon import codec, record, scenario
from controller.games.backgammon.engine import BackgammonEngine, clock_snapshot
from controller.games.backgammon.state import FlagPolicy, MatchSettings, State
from controller.model import JSON, Event, Game, Ruling
from controller.strict import Table


class BackgammonModule(ModuleDefaults):
    """What the harness, service and CLI need of Backgammon."""

    game = Game.BACKGAMMON
    input_types = scenario.INPUT_TYPES
    verbs = frozenset(scenario.INPUT_TYPES)

    def engine(self) -> BackgammonEngine:
        return BackgammonEngine()

    def parse_match(self, table: Table) -> MatchSettings:
        return scenario.parse_match(table)

    def encode_match(self, settings: MatchSettings) -> dict[str, JSON]:
        return codec.encode_match(settings)

    def describe_match(self, settings: MatchSettings) -> str:
        clock = settings.clock
        when = "from the start" if clock.from_start else "when brought in"
        reserve = format_ms(clock.reserve_ms(settings.length, 0))
        if clock.flag is FlagPolicy.LOSE_MATCH:
            flag = "a flag loses the match"
        else:
            flag = (
                f"overtime: {clock.overtime_penalty} point(s) per started "
                f"{format_ms(clock.overtime_period_ms)}"
            )
        crawford = "Crawford rule" if settings.crawford else "no Crawford rule"
        return (
            f"{settings.players[0]} v {settings.players[1]}, match to {settings.length} points, "
            f"{crawford}, clocks {when}: {reserve} reserve, {format_ms(clock.delay_ms)} delay, "
            f"{flag}"
        )

    def parse_input(self, kind: str, table: Table, t_ns: int, settings: MatchSettings) -> Event:
        return scenario.parse_input(kind, table, t_ns, settings)

    def encode(self, event: Event) -> tuple[str, dict[str, JSON]]:
        return codec.encode(event)

    def record_text(self, state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
        return record.record_text(state, rulings, origin_ns)

    def record_json(
        self, state: State, rulings: Sequence[Ruling], origin_ns: int
    ) -> dict[str, JSON]:
        return record.record_json(state, rulings, origin_ns)

    def clock(self, state: State, t_ns: int) -> dict[str, JSON] | None:
        return clock_snapshot(state, t_ns)


MODULE = BackgammonModule()
