"""Tantrix inputs in scenario files, commands and the journal: one format.

The clock's inputs (``press``, ``pause_switch``, ``pause``, ``resume``,
``adjust``) are the clock's own (:mod:`controller.clock.scenario`); the game
adds ``score``, ``time_out``, ``time_adjustment``, ``arrived`` and ``default``.
A payload is its ``[[input]]`` table without ``at`` and ``type``.

>>> from controller.games.tantrix.settings import MatchSettings
>>> s = MatchSettings(("ann", "ben"), ("ann", "ben"))
>>> event = parse_input("score", Table({"tiles": {"ann": 25, "ben": 18}}, "t", "input 9"), 5, s)
>>> event.tiles, encode(event)
((25, 18), ('score', {'tiles': {'ann': 25, 'ben': 18}, 'adjudicated': False}))
"""

from __future__ import annotations

from controller.clock.scenario import CLOCK_INPUT_TYPES, encode_clock, parse_clock_input
from controller.games.tantrix.events import Arrived, DefaultCall, TileScore, TimeAdjustment, TimeOut
from controller.games.tantrix.settings import MatchSettings
from controller.model import JSON, Event
from controller.strict import Table

GAME_INPUT_TYPES = ("score", "time_out", "time_adjustment", "arrived", "default")
INPUT_TYPES = (*CLOCK_INPUT_TYPES, *GAME_INPUT_TYPES)
MAX_TILES = 1_000
MAX_ADJUSTMENT_S = 600.0


def _player(table: Table, key: str, settings: MatchSettings) -> str:
    player: str = table.string(key)
    if player not in settings.players:
        raise table.fail(key, f"{player!r} is not one of the players {list(settings.players)}")
    return player


def _tiles(table: Table, settings: MatchSettings) -> tuple[int, int]:
    tiles = table.table("tiles")
    assert tiles is not None  # table() raises when it is missing
    for name in tiles.names():
        if name not in settings.players:
            raise tiles.fail(name, f"not one of the players {list(settings.players)}")
    left, right = (tiles.integer(p, minimum=0) for p in settings.players)
    for player, value in zip(settings.players, (left, right), strict=True):
        if value > MAX_TILES:
            raise tiles.fail(player, f"a tile score is at most {MAX_TILES}, got {value}")
    tiles.finish()
    return left, right


def _game_input(kind: str, table: Table, t_ns: int, settings: MatchSettings) -> Event:
    if kind == "score":
        tiles = _tiles(table, settings)
        adjudicated = table.boolean("adjudicated", False)
        return TileScore(t_ns=t_ns, tiles=tiles, players=settings.players, adjudicated=adjudicated)
    if kind == "time_out":
        return TimeOut(t_ns=t_ns, player=_player(table, "player", settings))
    if kind == "time_adjustment":
        against = _player(table, "against", settings)
        seconds = table.number("seconds", 30.0, minimum=0.001, maximum=MAX_ADJUSTMENT_S)
        return TimeAdjustment(t_ns=t_ns, against=against, ms=round(seconds * 1000))
    if kind == "arrived":
        return Arrived(t_ns=t_ns, player=_player(table, "player", settings))
    if kind == "default":
        return DefaultCall(t_ns=t_ns, against=_player(table, "against", settings))
    raise table.fail("type", f"{kind!r} is not an input type ({', '.join(INPUT_TYPES)})")


def parse_input(kind: str, table: Table, t_ns: int, settings: MatchSettings) -> Event:
    """One ``[[input]]`` whose ``type`` and ``at`` have been read already."""
    if kind in CLOCK_INPUT_TYPES:
        return parse_clock_input(kind, table, t_ns)  # finishes the table
    event = _game_input(kind, table, t_ns, settings)
    table.finish()
    return event


def encode(event: Event) -> tuple[str, dict[str, JSON]]:
    """(type, payload) of a Tantrix or clock input."""
    match event:
        case TileScore():
            tiles: dict[str, JSON] = dict(event.by_player)
            return "score", {"tiles": tiles, "adjudicated": event.adjudicated}
        case TimeOut():
            return "time_out", {"player": event.player}
        case TimeAdjustment():
            return "time_adjustment", {"against": event.against, "seconds": event.ms / 1000}
        case Arrived():
            return "arrived", {"player": event.player}
        case DefaultCall():
            return "default", {"against": event.against}
    return encode_clock(event)
