"""Reading Backgammon's ``[match]`` table and its scenario inputs.

The payload of an input is its ``[[input]]`` table without ``at`` and
``type``, so scenario files, commands and the journal share this one
validator. Clock inputs (``press``, ``pause_switch``, ``pause``, ``resume``,
``adjust``) are the clock's own (:mod:`controller.clock.scenario`).
"""

from __future__ import annotations

from controller.clock.control import MAX_MS
from controller.clock.scenario import CLOCK_INPUT_TYPES, parse_clock_input
from controller.games.backgammon.events import (
    ClockIn,
    Double,
    Drop,
    GameResult,
    OpeningRoll,
    Penalty,
    ResultType,
    Take,
)
from controller.games.backgammon.state import ClockSettings, FlagPolicy, MatchSettings
from controller.model import Event
from controller.strict import Table

MAX_LENGTH = 99
"""No match on a draw sheet is longer; a larger length is a typo."""

# Every numbered clause of the rule text, so a TD's citation can be checked.
_SECTIONS = {"1.1": 4, "1.2": 5, "1.3": 5, "2.1": 2, "2.2": 6, "3": 7, "5": 14, "6": 5}
CLAUSES = frozenset(
    {"1", "2", "3", "4", "5", "6", "2.1", "2.2", "1.1", "1.2", "1.3"}
    | {f"{s}.{n}" for s, count in _SECTIONS.items() for n in range(1, count + 1)}
)

GAME_INPUT_TYPES = (
    "opening_roll", "double", "take", "drop", "game_result", "clock_in", "penalty",
)  # fmt: skip
INPUT_TYPES = GAME_INPUT_TYPES + CLOCK_INPUT_TYPES


def _ms(table: Table, key: str, default_ms: int, minimum_s: float) -> int:
    seconds: float = table.number(key, default_ms / 1000, minimum=minimum_s, maximum=MAX_MS / 1000)
    return round(seconds * 1000)


def parse_clock(table: Table | None, length: int) -> ClockSettings:
    """The ``[match.clock]`` table (all optional; absent: the defaults)."""
    d = ClockSettings()
    if table is None:
        return d
    settings = ClockSettings(
        from_start=table.boolean("from_start", d.from_start),
        reserve_per_point_ms=_ms(table, "reserve_per_point_s", d.reserve_per_point_ms, 1.0),
        delay_ms=_ms(table, "delay_s", d.delay_ms, 0.0),
        deduction_per_point_ms=_ms(table, "deduction_per_point_s", d.deduction_per_point_ms, 0.0),
        flag=table.choice("flag", FlagPolicy, d.flag),
        overtime_period_ms=_ms(table, "overtime_period_s", d.overtime_period_ms, 1.0),
        overtime_penalty=table.integer("overtime_penalty", d.overtime_penalty, minimum=1),
        break_limit_ms=_ms(table, "break_limit_s", d.break_limit_ms, 0.0),
    )
    if settings.reserve_ms(length, 0) > MAX_MS:
        raise table.fail("reserve_per_point_s", f"a reserve over 24 hours for {length} points")
    table.finish()
    return settings


def parse_match(table: Table) -> MatchSettings:
    """The ``[match]`` table."""
    players = table.strings("players")
    if len(players) != 2 or len(set(players)) != 2 or not all(p.strip() for p in players):
        raise table.fail("players", f"expected two distinct non-empty ids, got {players!r}")
    length = table.integer("length", minimum=1)
    if length > MAX_LENGTH:
        raise table.fail("length", f"must be at most {MAX_LENGTH} points, got {length}")
    crawford = table.boolean("crawford", True)
    clock = parse_clock(table.table("clock", optional=True), length)
    table.finish()
    return MatchSettings((players[0], players[1]), length, crawford, clock)


def _player(table: Table, key: str, settings: MatchSettings) -> str:
    player: str = table.string(key)
    if player not in settings.players:
        raise table.fail(key, f"{player!r} is not one of the players {list(settings.players)}")
    return player


def _dice(table: Table, settings: MatchSettings) -> tuple[tuple[str, int], ...]:
    dice = table.table("dice")
    assert dice is not None
    values = []
    for player in settings.players:
        value: int = dice.integer(player)
        if not 1 <= value <= 6:
            raise dice.fail(player, f"a die shows 1 to 6, got {value}")
        values.append((player, value))
    dice.finish()
    return tuple(values)


def _penalty(table: Table, t_ns: int, settings: MatchSettings) -> Penalty:
    against = _player(table, "against", settings)
    points: int = table.integer("points", 1, minimum=1)
    rule: str = table.string("rule", "2.2.5")
    if rule not in CLAUSES:
        raise table.fail("rule", f"{rule!r} is not a clause of the backgammon rules")
    reason: str = table.string("reason", "")
    return Penalty(t_ns=t_ns, against=against, points=points, rule=rule, reason=reason)


def parse_input(kind: str, table: Table, t_ns: int, settings: MatchSettings) -> Event:
    """One ``[[input]]`` whose ``type`` and ``at`` have been read already."""
    if kind in CLOCK_INPUT_TYPES:
        return parse_clock_input(kind, table, t_ns)
    event: Event
    if kind == "opening_roll":
        event = OpeningRoll(t_ns=t_ns, dice=_dice(table, settings))
    elif kind in ("double", "take", "drop"):
        cls = {"double": Double, "take": Take, "drop": Drop}[kind]
        event = cls(t_ns=t_ns, player=_player(table, "player", settings))
    elif kind == "game_result":
        winner = _player(table, "winner", settings)
        result = table.choice("result", ResultType, ResultType.SINGLE)
        event = GameResult(t_ns=t_ns, winner=winner, result=result)
    elif kind == "clock_in":
        event = ClockIn(t_ns=t_ns)
    elif kind == "penalty":
        event = _penalty(table, t_ns, settings)
    else:
        raise table.fail("type", f"{kind!r} is not an input type ({', '.join(INPUT_TYPES)})")
    table.finish()
    return event
