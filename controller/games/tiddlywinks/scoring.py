"""Game points (10): seven a game, by pot-out order or by tiddlies.

Points are exact fractions (shares of 4 + 2 + 1 + 0 can be thirds) and leave
this module as floats.

>>> pot_out_points([(Colour.BLUE,), (Colour.GREEN,), (Colour.RED,), (Colour.YELLOW,)])
{<Side.BLUE_RED: 'blue-red'>: Fraction(6, 1), <Side.GREEN_YELLOW: 'green-yellow'>: Fraction(1, 1)}
>>> tiddly_points({Colour.BLUE: 10, Colour.GREEN: 4, Colour.RED: 4, Colour.YELLOW: 1})[Colour.RED]
Fraction(3, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from controller.games.tiddlywinks.geometry import COLOURS, Colour, Side

PLACE_POINTS = (4, 2, 1, 0)
"""Points for the first to fourth place (10(a), 10(b))."""


def place_points(groups: Sequence[Sequence[Colour]]) -> dict[Colour, Fraction]:
    """Points by place, best group first; a group of colours level with each
    other shares the points of the places it spans equally."""
    out: dict[Colour, Fraction] = {}
    position = 0
    for group in groups:
        span = PLACE_POINTS[position : position + len(group)]
        share = Fraction(sum(span), len(group))
        for colour in group:
            out[colour] = share
        position += len(group)
    if sorted(out, key=COLOURS.index) != list(COLOURS):
        raise ValueError(f"places must name every colour once, got {groups!r}")
    return out


def side_totals(points: Mapping[Colour, Fraction]) -> dict[Side, Fraction]:
    """Partners' points added together."""
    return {side: sum((points[c] for c in side.colours), Fraction(0)) for side in Side}


def pot_out_colour_points(order: Sequence[Sequence[Colour]]) -> dict[Colour, Fraction]:
    """10(a): colours in pot-out order (a group potted out in one shot
    shares); the colours never potted out share the places left."""
    seen = {c for group in order for c in group}
    rest = tuple(c for c in COLOURS if c not in seen)
    return place_points([*order, rest] if rest else list(order))


def pot_out_points(order: Sequence[Sequence[Colour]]) -> dict[Side, Fraction]:
    """10(a): partners added, then one point from the losing partnership to the
    winning one (none when they are level)."""
    totals = side_totals(pot_out_colour_points(order))
    a, b = totals[Side.BLUE_RED], totals[Side.GREEN_YELLOW]
    if a != b:
        winner = Side.BLUE_RED if a > b else Side.GREEN_YELLOW
        totals[winner] += 1
        totals[winner.other] -= 1
    return totals


def tiddly_places(tiddlies: Mapping[Colour, int]) -> list[tuple[Colour, ...]]:
    """Colours grouped by equal tiddlies, most first (10(b))."""
    counts = sorted(set(tiddlies.values()), reverse=True)
    return [tuple(c for c in COLOURS if tiddlies[c] == n) for n in counts]


def tiddly_points(tiddlies: Mapping[Colour, int]) -> dict[Colour, Fraction]:
    """10(b): 4/2/1/0 by tiddlies, ties shared; no point is transferred."""
    return place_points(tiddly_places(tiddlies))


def as_number(value: Fraction) -> int | float:
    """An int when whole, else a float, for JSON."""
    return int(value) if value.denominator == 1 else float(value)
