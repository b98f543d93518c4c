"""Reading tiddlywinks ``[match]`` tables and ``[[input]]`` tables.

Scenario files, commands and the journal share this one validator; see
``docs/tiddlywinks.md`` for the formats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.games.tiddlywinks.events import (
    Concede,
    Foul,
    FoulOption,
    FoulRule,
    Lineup,
    Pass,
    Replace,
    Shot,
    Sighting,
    Squidge,
    TimeIn,
    TimeOut,
    Umpire,
    UmpireAction,
)
from controller.games.tiddlywinks.geometry import COLOURS, WINK_IDS, Colour, Mat, MatSpec, new_mat
from controller.games.tiddlywinks.observe import place_winks
from controller.games.tiddlywinks.state import Format, Settings
from controller.model import Event
from controller.strict import Table
from controller.timebase import seconds_to_ns

INPUT_TYPES = (
    "squidge", "lineup", "shot", "pass", "place", "foul", "umpire", "concede", "pause", "resume",
)  # fmt: skip

_MAT_KEYS = (
    "length_mm", "width_mm", "baseline_mm", "pot_x_mm", "pot_y_mm", "pot_base_mm", "pot_rim_mm",
)  # fmt: skip


def _mat(table: Table | None) -> MatSpec:
    default = MatSpec()
    if table is None:
        return default
    values = {}
    for key in _MAT_KEYS:
        lowest = None if key.startswith("pot_") and key[4] in "xy" else 1.0
        values[key] = table.number(key, getattr(default, key), minimum=lowest)
    table.finish()
    spec = MatSpec(**values)
    if spec.baseline_mm * 2 > spec.length_mm + spec.width_mm:
        raise table.fail("baseline_mm", "the baselines would miss the corners of the mat")
    return spec


def _players(table: Table, fmt: Format) -> tuple[str, str, str, str]:
    players = table.strings("players")
    want = 4 if fmt is Format.PAIRS else 2
    order = "blue, green, red, yellow" if want == 4 else "blue and red, green and yellow"
    if len(players) != want or len(set(players)) != want or not all(p.strip() for p in players):
        raise table.fail("players", f"{fmt.value}: {want} distinct ids ({order}), got {players!r}")
    if fmt is Format.SINGLES:
        players = [players[0], players[1], players[0], players[1]]
    return (players[0], players[1], players[2], players[3])


def parse_match(table: Table) -> Settings:
    """The ``[match]`` table of a tiddlywinks game."""
    fmt = table.choice("format", Format)
    players = _players(table, fmt)
    minutes = table.number("time_limit_minutes", None, minimum=0.1, maximum=24 * 60.0)
    shot_limit = table.boolean("shot_limit", False)
    shot_seconds = table.number("shot_limit_seconds", 120.0, minimum=1.0, maximum=3600.0)
    rounds = table.integer("rounds_after", 5, minimum=1)
    tie = table.number("squidge_tie_mm", 0.0, minimum=0.0, maximum=50.0)
    spec = _mat(table.table("mat", optional=True))
    table.finish()
    return Settings(
        format=fmt,
        players=players,
        time_limit_ns=None if minutes is None else seconds_to_ns(minutes * 60),
        shot_limit=shot_limit,
        shot_limit_ns=seconds_to_ns(shot_seconds),
        rounds_after=rounds,
        squidge_tie_mm=tie,
        mat=spec,
    )


def _colour(table: Table, key: str, required: bool = False) -> Colour | None:
    value: Colour | None = (
        table.choice(key, Colour) if required else table.choice(key, Colour, None)
    )
    return value


def _wink_id(table: Table, key: str, squidge: bool) -> str:
    if squidge and not table.has("id"):
        colour = table.choice("colour", Colour)
        size = table.integer("size", 22)
        if size not in (16, 22):
            raise table.fail("size", f"a wink is 22 or 16 mm, got {size}")
        return f"{colour.value[0]}{1 if size == 22 else 3}"
    wid: str = table.string(key)
    if wid not in WINK_IDS:
        raise table.fail(key, f"{wid!r} is not a wink id (b1..b6, g1..g6, r1..r6, y1..y6)")
    return wid


def _sighting(entry: Mapping[str, Any], where: Table, index: int, squidge: bool) -> Sighting:
    table = Table(dict(entry), where.source, f"{where.where}: winks[{index}]", where._error)
    wid = _wink_id(table, "id", squidge)
    potted = table.boolean("potted", False)
    off = table.boolean("off", False)
    x = table.number("x", None, minimum=-5000.0, maximum=5000.0)
    y = table.number("y", None, minimum=-5000.0, maximum=5000.0)
    on = tuple(table.strings("on", []))
    if potted and (x is not None or y is not None or on or off):
        raise table.fail("potted", "a potted wink has no position, squop or 'off'")
    if not potted and (x is None or y is None) and not (squidge and off):
        raise table.fail("x" if x is None else "y", "a wink not potted needs x and y (mm)")
    for below in on:
        if below not in WINK_IDS or below == wid:
            raise table.fail("on", f"{below!r} is not another wink's id")
    table.finish()
    return Sighting(wid, x, y, potted, off, on)


def _sightings(
    table: Table, key: str, *, squidge: bool = False, required: bool = True
) -> tuple[Sighting, ...]:
    if required and not table.has(key):
        raise table.fail(key, "missing: a list of winks")
    out = tuple(_sighting(e, table, i, squidge) for i, e in table.tables(key))
    ids = [s.id for s in out]
    if len(set(ids)) != len(ids):
        raise table.fail(key, "a wink is listed twice")
    if squidge and len({i[0] for i in ids}) != len(ids):
        raise table.fail(key, "one wink of each colour in the squidge-off")
    return out


def _lineup(table: Table) -> tuple[Sighting, ...]:
    """The camera's squidge-off line-up: squidge-off ids, which may repeat."""
    if not table.has("winks"):
        raise table.fail("winks", "missing: a list of winks")
    return tuple(_sighting(e, table, i, True) for i, e in table.tables("winks"))


def _squidge(table: Table, settings: Settings, required: bool = True) -> tuple[Sighting, ...]:
    if not table.has("frame"):
        return _sightings(table, "winks", squidge=True, required=required)
    from vision.mat.scenario import squidge_sightings  # frame level: 5(a) from the picture

    if table.has("winks"):
        raise table.fail("frame", "a squidge has 'winks' or a 'frame', not both")
    names = table.strings("colours", [c.value for c in COLOURS])
    try:
        colours = [Colour(n) for n in names]
    except ValueError:
        raise table.fail("colours", f"colours are {', '.join(c.value for c in COLOURS)}") from None
    if not colours or len(set(colours)) != len(colours):
        raise table.fail("colours", "the colours in contention, each once")
    return squidge_sightings(table, settings.mat, sorted(colours, key=COLOURS.index))


def _shot(table: Table, t_ns: int, settings: Settings, mat: Mat | None) -> Shot:
    if table.has("frame"):  # frame level: the winks come from the mat analysis
        from vision.mat.scenario import frame_sightings

        if table.has("winks"):
            raise table.fail("frame", "a shot has 'winks' or a 'frame', not both")
        winks = frame_sightings(table, new_mat() if mat is None else mat, settings.mat)
    else:
        winks = _sightings(table, "winks")
    wink = table.string("wink", None)
    if wink is not None and wink not in WINK_IDS:
        raise table.fail("wink", f"{wink!r} is not a wink id")
    complete = table.boolean("complete", False)
    if complete and len(winks) != len(WINK_IDS):
        raise table.fail("winks", f"a complete observation lists all 24 winks, got {len(winks)}")
    return Shot(
        t_ns=t_ns,
        winks=winks,
        wink=wink,
        colour=_colour(table, "colour"),
        complete=complete,
        evidence=table.string("evidence", ""),
        notes=tuple(table.strings("notes", [])),
    )


def _foul(table: Table, t_ns: int) -> Foul:
    rule = table.choice("rule", FoulRule, None)
    option = table.choice("option", FoulOption, None)
    colour = _colour(table, "colour")
    if rule is FoulRule.DISRUPT and colour is None:
        raise table.fail("colour", "12(d) needs the offending colour")
    return Foul(
        t_ns=t_ns, rule=rule, option=option, colour=colour, reason=table.string("reason", "")
    )


def _umpire(table: Table, t_ns: int) -> Umpire:
    action = table.choice("action", UmpireAction)
    minutes = 0.0
    if action is UmpireAction.EXTEND:
        minutes = table.number("minutes", minimum=0.1, maximum=600.0)
    winks = _sightings(table, "winks", required=False) if action is UmpireAction.DECISION else ()
    return Umpire(
        t_ns=t_ns, action=action, detail=table.string("detail", ""), winks=winks, minutes=minutes
    )


def _concede(table: Table, t_ns: int) -> Concede:
    names = table.strings("order")
    try:
        order = tuple(Colour(n) for n in names)
    except ValueError:
        raise table.fail("order", f"colours are {', '.join(c.value for c in COLOURS)}") from None
    if len(set(order)) != len(order):
        raise table.fail("order", "a colour is named twice")
    return Concede(t_ns=t_ns, order=order)


def parse_input(
    kind: str, table: Table, t_ns: int, settings: Settings, mat: Mat | None = None
) -> Event:
    """One ``[[input]]`` whose ``type`` and ``at`` have been read already.

    ``mat`` is the mat as the inputs before this one leave it: a frame-level
    shot names the winks it sees from it (None: a new mat, every wink behind
    its baseline). :class:`FileParser` keeps it through a whole file.
    """
    event: Event
    if kind == "squidge":
        pending = tuple(table.strings("pending", []))
        winks = _squidge(table, settings, required=not pending)
        evidence = table.string("evidence", "")
        event = Squidge(t_ns=t_ns, winks=winks, pending=pending, evidence=evidence)
    elif kind == "lineup":
        event = Lineup(t_ns=t_ns, winks=_lineup(table), evidence=table.string("evidence", ""))
    elif kind == "shot":
        event = _shot(table, t_ns, settings, mat)
    elif kind == "pass":
        event = Pass(t_ns=t_ns, colour=_colour(table, "colour"))
    elif kind == "place":
        event = Replace(
            t_ns=t_ns, winks=_sightings(table, "winks"), reason=table.string("reason", "")
        )
    elif kind == "foul":
        event = _foul(table, t_ns)
    elif kind == "umpire":
        event = _umpire(table, t_ns)
    elif kind == "concede":
        event = _concede(table, t_ns)
    elif kind == "pause":
        event = TimeOut(t_ns=t_ns, reason=table.string("reason", ""))
    elif kind == "resume":
        event = TimeIn(t_ns=t_ns)
    else:
        raise table.fail("type", f"{kind!r} is not an input type ({', '.join(INPUT_TYPES)})")
    table.finish()
    return event


@dataclass(slots=True)
class FileParser:
    """One file's inputs, parsed in file order: carries the mat as the inputs
    so far leave it (shots, placings, an umpire's corrections), so that
    frame-level shots name the winks they see from it. One per parse; nothing
    outlives it. It follows the file, not the engine's rulings: a foul shot
    later retracted (12) has still moved the winks here.

    >>> parse = FileParser(Settings(Format.SINGLES, ("ann", "ben", "ann", "ben")))
    >>> doc = {"winks": [{"id": "b1", "x": 10.0, "y": 0.0}]}
    >>> _ = parse("place", Table(doc, "f.toml", "input 1"), 0)
    >>> [(w.id, w.x) for w in parse.mat[:1]]
    [('b1', 10.0)]
    """

    settings: Settings
    mat: Mat = field(default_factory=new_mat)

    def __call__(self, kind: str, table: Table, t_ns: int) -> Event:
        event = parse_input(kind, table, t_ns, self.settings, self.mat)
        if isinstance(event, Shot | Replace | Umpire):
            self.mat = place_winks(self.settings.mat, self.mat, event.winks)
        return event
