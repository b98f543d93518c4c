"""A Tantrix game's settings: the ``[match]`` table, read strictly.

Times are kept in integer milliseconds (the clock's unit), TPs in tenths
(see :mod:`controller.games.tantrix.tp`).

>>> s = parse_match(Table({"players": ["ann", "ben"], "first": "ben"}, "t.toml", "[match]"))
>>> s.limit_ms, s.clock_seat("ann"), s.opponent("ann"), s.first
(1200000, <Seat.LEFT: 'left'>, 'ben', 'ben')
>>> parse_match(Table(encode_match(s), "journal", "match")) == s
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from controller.clock import Seat, TimeControl
from controller.games.tantrix.tp import (
    DEFAULT_LIMIT_MS,
    MS_PER_MINUTE,
    TOTAL_TP10,
    TpTable,
    load_tp_table,
    parse_tp_table,
    tp,
    tp10_of,
)
from controller.model import JSON
from controller.strict import Table

MAX_MINUTES = 24 * 60


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """Who plays, where they sit, and the tournament's options.

    ``players`` are in fixture-list order: the left player first, as the score
    sheet writes them (1e). ``seats`` are who sits at the clock's left and
    right buttons. ``first`` is who moves first (1f), or None when the tile
    draw happens at the table: then the first press tells (1h).
    """

    players: tuple[str, str]
    seats: tuple[str, str]
    first: str | None = None
    limit_ms: int = DEFAULT_LIMIT_MS  # 3a
    alert_ms: int = 25 * MS_PER_MINUTE  # 3d
    penalty_tp10: int = 10  # 3b: 1 TP per penalty
    tp_table: TpTable = field(default_factory=TpTable.default)  # 4a
    scheduled_ms: int = 0  # 6a: the scheduled start, from the start of the match
    clock_start_ms: int = 5 * MS_PER_MINUTE  # 6a
    default_ms: int = 10 * MS_PER_MINUTE  # 6b: after the clock may be started
    default_tp10: tuple[int, int] = (150, 50)  # 6c: (present player, defaulter)

    def __post_init__(self) -> None:
        if len(set(self.players)) != 2 or set(self.seats) != set(self.players):
            raise ValueError("two distinct players, each at one side of the clock")
        if self.first is not None and self.first not in self.players:
            raise ValueError(f"first mover {self.first!r} is not a player")
        if sum(self.default_tp10) != TOTAL_TP10:
            raise ValueError("a default shares out 20.0 TPs")

    def opponent(self, player: str) -> str:
        """The other player."""
        return self.players[1] if player == self.players[0] else self.players[0]

    def clock_seat(self, player: str) -> Seat:
        """The side of the clock ``player`` presses."""
        return Seat.LEFT if self.seats[0] == player else Seat.RIGHT

    def at_seat(self, seat: Seat) -> str:
        """The player at ``seat`` of the clock."""
        return self.seats[0] if seat is Seat.LEFT else self.seats[1]

    @property
    def by_seat(self) -> dict[Seat, str]:
        """Which player sits at each side of the clock (for the clock's snapshot)."""
        return {Seat.LEFT: self.seats[0], Seat.RIGHT: self.seats[1]}

    def index(self, player: str) -> int:
        """0 for the fixture list's left player, 1 for the right."""
        return self.players.index(player)

    @property
    def control(self) -> TimeControl:
        """The clock: the time limit per player, counting on past zero (3a, 3b)."""
        return TimeControl.sudden_death(self.limit_ms, count_past_zero=True)


def _minutes(table: Table, key: str, default_ms: int, minimum: float = 0.0) -> int:
    value: float = table.number(
        key, default_ms / MS_PER_MINUTE, minimum=minimum, maximum=MAX_MINUTES
    )
    return round(value * MS_PER_MINUTE)


def _players(table: Table) -> tuple[str, str]:
    players = table.strings("players")
    if len(players) != 2 or len(set(players)) != 2 or not all(p.strip() for p in players):
        raise table.fail("players", f"expected two distinct non-empty ids, got {players!r}")
    return players[0], players[1]


def _player(table: Table, key: str, players: tuple[str, str], default: str | None) -> str | None:
    value: str | None = table.string(key, default)
    if value is not None and value not in players:
        raise table.fail(key, f"{value!r} is not one of the players {list(players)}")
    return value


def _default_tp(table: Table) -> tuple[int, int]:
    raw = table.raw("default_tp", [15.0, 5.0])
    numbers = raw if isinstance(raw, list) else []
    ok = len(numbers) == 2 and all(
        isinstance(n, int | float) and not isinstance(n, bool) for n in numbers
    )
    tenths = [tp10_of(float(n)) for n in numbers] if ok else []
    if not ok or None in tenths:
        want = "expected [winner, defaulter] TPs like [15.0, 5.0]"
        raise table.fail("default_tp", f"{want}, got {raw!r}")
    win, lose = (t or 0 for t in tenths)
    if win + lose != TOTAL_TP10 or not 0 <= lose <= win:
        want = "the two must add up to 20.0, the larger first"
        raise table.fail("default_tp", f"{want}, got {raw!r}")
    return win, lose


def _tp_table(table: Table) -> TpTable:
    inline = table.table("tp_table", optional=True)
    file: str | None = table.string("tp_table_file", None)
    if inline is not None and file is not None:
        raise table.fail("tp_table_file", "give tp_table or tp_table_file, not both")
    if inline is not None:
        return parse_tp_table(inline, "[match] tp_table")
    if file is None:
        return TpTable.default()
    path = Path(file)
    if not path.is_absolute():
        # Relative to the file that holds the [match] table, as config paths are.
        path = Path(table.source).parent / path
    return load_tp_table(path, table, "tp_table_file")


def parse_match(table: Table) -> MatchSettings:
    """The ``[match]`` table of a scenario or config file (see ``docs/tantrix.md``)."""
    players = _players(table)
    left = _player(table, "clock_left", players, players[0]) or players[0]
    first = _player(table, "first", players, None)
    limit = _minutes(table, "minutes", DEFAULT_LIMIT_MS, minimum=1.0)
    alert = _minutes(table, "alert_minutes", 25 * MS_PER_MINUTE, minimum=1.0)
    if alert < limit:
        raise table.fail("alert_minutes", "the alert comes after the time limit (3d)")
    penalty = table.number("penalty_tp", 1.0, minimum=0.0, maximum=20.0)
    if tp10_of(penalty) is None:
        raise table.fail("penalty_tp", f"TPs have one decimal place at most, got {penalty}")
    scheduled = table.number("scheduled_start", 0.0, minimum=0.0, maximum=MAX_MINUTES * 60.0)
    settings = MatchSettings(
        players=players,
        seats=(left, players[1] if left == players[0] else players[0]),
        first=first,
        limit_ms=limit,
        alert_ms=alert,
        penalty_tp10=tp10_of(penalty) or 0,
        scheduled_ms=round(scheduled * 1000),
        clock_start_ms=_minutes(table, "clock_start_minutes", 5 * MS_PER_MINUTE),
        default_ms=_minutes(table, "default_minutes", 10 * MS_PER_MINUTE),
        default_tp10=_default_tp(table),
        tp_table=_tp_table(table),
    )
    table.finish()
    return settings


def encode_match(settings: MatchSettings) -> dict[str, JSON]:
    """Settings as the ``[match]`` table :func:`parse_match` reads back; the
    margin table goes inline, so a journal replays without the file."""
    out: dict[str, JSON] = {
        "players": list(settings.players),
        "clock_left": settings.seats[0],
        "minutes": settings.limit_ms / MS_PER_MINUTE,
        "alert_minutes": settings.alert_ms / MS_PER_MINUTE,
        "penalty_tp": tp(settings.penalty_tp10),
        "scheduled_start": settings.scheduled_ms / 1000,
        "clock_start_minutes": settings.clock_start_ms / MS_PER_MINUTE,
        "default_minutes": settings.default_ms / MS_PER_MINUTE,
        "default_tp": [tp(t) for t in settings.default_tp10],
        "tp_table": settings.tp_table.to_toml(),
    }
    if settings.first is not None:
        out["first"] = settings.first
    return out


def describe_match(settings: MatchSettings) -> str:
    """One line for ``check-config``."""
    a, b = settings.players
    first = f", {settings.first} moves first" if settings.first else ""
    minutes = settings.limit_ms / MS_PER_MINUTE
    return (
        f"{a} v {b} (clock: {settings.seats[0]} left, {settings.seats[1]} right), "
        f"{minutes:g} min each{first}, TP table: {settings.tp_table.source}"
    )
