"""The game registry and the shared codec: what lets several games share the
harness, the service and replay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from controller.errors import InputError
from controller.gamemodule import decode, encode
from controller.games.heads_and_tails.events import Go
from controller.games.registry import SUPPORTED, module_for
from controller.model import EndMatch, Game, Resumed, Tick
from controller.replay import NEW_MATCH, ReplayError, new_match_payload, rebuild
from controller.sensors.health import HealthEvent
from controller.strict import Table

HAT = module_for(Game.HEADS_AND_TAILS)
SETTINGS = HAT.parse_match(Table({"players": ["ann", "ben"], "plays": 1}, "t", "match"))


@dataclass
class Row:
    id: int
    boot: int
    t_ns: int
    kind: str
    payload: dict[str, Any]


def test_every_supported_game_has_a_module_that_names_itself() -> None:
    for game in SUPPORTED:
        assert module_for(game).game is game


@pytest.mark.parametrize(
    "event",
    [
        Tick(t_ns=3),
        Resumed(t_ns=3, down_ns=9),
        EndMatch(t_ns=3, reason="TD"),
        HealthEvent(t_ns=3, sensor="fault_a", ok=False, detail="x"),
    ],
)
def test_shared_inputs_round_trip_for_any_game(event: Any) -> None:
    kind, payload = encode(HAT, event)
    assert decode(HAT, kind, payload, 3, SETTINGS) == event


def test_an_input_of_another_game_is_refused_naming_the_game() -> None:
    with pytest.raises(InputError, match="'press' is not an input of heads-and-tails"):
        decode(HAT, "press", {"seat": "left"}, 0, SETTINGS)


def test_a_journal_from_before_games_were_named_replays_as_heads_and_tails() -> None:
    old = {"match": HAT.encode_match(SETTINGS)}  # no "game" field
    rows = [Row(1, 0, 10, NEW_MATCH, old), Row(2, 0, 20, "go", {})]
    runtime = rebuild(rows, "t1", "j.sqlite")
    assert runtime is not None
    assert runtime.engine.game is Game.HEADS_AND_TAILS
    assert HAT.settings(runtime.state) == SETTINGS


def test_a_new_match_row_names_its_game() -> None:
    payload = new_match_payload(HAT, SETTINGS)
    assert payload["game"] == "heads-and-tails"
    runtime = rebuild([Row(1, 0, 10, NEW_MATCH, payload)], "t1", "j")
    assert runtime is not None
    runtime.feed(Go(t_ns=11))
    assert runtime.next_seq == 2


def test_a_journal_of_an_unknown_game_is_refused_clearly() -> None:
    rows = [Row(1, 0, 10, NEW_MATCH, {"game": "chess", "match": {}})]
    with pytest.raises(ReplayError, match="game 'chess' cannot be replayed"):
        rebuild(rows, "t1", "j.sqlite")
