"""Heads & Tails as a :class:`~controller.gamemodule.GameModule`.

>>> from controller.strict import Table
>>> settings = MODULE.parse_match(Table({"players": ["ann", "ben"], "plays": 4}, "t", "match"))
>>> MODULE.describe_match(settings)
'ann v ben, standard, 4 plays, ann tosses first'
>>> MODULE.command("let", {"reason": "wind"})
('spotter', {'action': 'let', 'reason': 'wind'})
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.errors import InputError
from controller.gamemodule import ModuleDefaults
from controller.games.heads_and_tails import codec, record, scenario
from controller.games.heads_and_tails.engine import HeadsAndTailsEngine
from controller.games.heads_and_tails.state import MatchSettings, State
from controller.model import JSON, Event, Game, Ruling
from controller.strict import Table

if TYPE_CHECKING:
    from controller.camera import LiveCamera
    from vision.settings import CameraSettings

SPOTTER_VERBS = frozenset({"invalid", "let", "fault", "overrule"})
INPUT_VERBS = frozenset(
    {"go", "toss", "call", "fault_line", "touch", "coin_touched", "landed", "coin_change"}
)


class HeadsAndTailsModule(ModuleDefaults):
    """What the harness, service and CLI need of Heads & Tails."""

    game = Game.HEADS_AND_TAILS
    input_types = scenario.INPUT_TYPES
    verbs = INPUT_VERBS | SPOTTER_VERBS

    def engine(self) -> HeadsAndTailsEngine:
        return HeadsAndTailsEngine()

    def parse_match(self, table: Table) -> MatchSettings:
        return scenario.parse_match(table)

    def encode_match(self, settings: MatchSettings) -> dict[str, JSON]:
        return codec.encode_match(settings)

    def describe_match(self, settings: MatchSettings) -> str:
        plays = "1 play" if settings.plays == 1 else f"{settings.plays} plays"
        impaired = "".join(f", {p} visually impaired" for p in sorted(settings.visually_impaired))
        return (
            f"{settings.players[0]} v {settings.players[1]}, {settings.format.value}, "
            f"{plays}, {settings.first_tosser} tosses first{impaired}"
        )

    def parse_input(self, kind: str, table: Table, t_ns: int, settings: MatchSettings) -> Event:
        return scenario.parse_input(kind, table, t_ns, settings)

    def command(self, verb: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        # The spotter's decisions have verbs of their own: the verb is the action.
        if verb in SPOTTER_VERBS:
            if "action" in fields:
                raise InputError(f"cmd/{verb}", "", "action", "not allowed, the verb is the action")
            return "spotter", {"action": verb, **fields}
        return verb, fields

    def encode(self, event: Event) -> tuple[str, dict[str, JSON]]:
        return codec.encode(event)

    def record_text(self, state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
        return record.record_text(state, rulings, origin_ns)

    def record_json(
        self, state: State, rulings: Sequence[Ruling], origin_ns: int
    ) -> dict[str, JSON]:
        return record.record_json(state, rulings, origin_ns)

    def caller(self, state: State) -> str | None:
        return state.caller

    def toss_in_flight(self, state: State) -> bool:
        return HeadsAndTailsEngine.toss_in_flight(state)

    def clock(self, state: State, t_ns: int) -> dict[str, JSON] | None:
        return None

    def live_camera(self, settings: CameraSettings, journal: Path) -> LiveCamera:
        """The floor camera over the landing square (``docs/vision.md``)."""
        from controller.camera import LiveCamera

        return LiveCamera(settings, journal, self.toss_in_flight)


MODULE = HeadsAndTailsModule()
