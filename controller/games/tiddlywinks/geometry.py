"""The mat seen from above: pure functions on wink observations.

Coordinate frame (millimetres, the mat seen from the camera above):

- the origin is the centre of the mat; ``x`` runs along the 6 ft length
  (positive to the right), ``y`` along the 3 ft width (positive upwards);
- the colours sit clockwise in alphabetical order (1(b)): blue's baseline
  cuts the top-left corner (-x, +y), green's the top-right (+x, +y), red's
  the bottom-right (+x, -y), yellow's the bottom-left (-x, -y), so partners
  (blue and red, green and yellow) are diagonally opposite;
- a baseline is the line at right angles to its corner's diagonal, 3 ft
  (914.4 mm) from the centre (rule 3);
- the pot stands at ``(pot_x_mm, pot_y_mm)``, nominally the centre (rule 4).

A wink's distance to the pot is measured from its nearest edge (5(a)): the
gap between the wink's edge and the pot's base circle on the mat, negative
for a wink tucked under the overhanging rim. Every wink has an id: its
colour's initial and a number, 1-2 for the two 22 mm winks and 3-6 for the
four 16 mm winks of each colour (rule 2).

>>> spec = MatSpec()
>>> round(pot_distance(spec, Wink("b1", Place.FIELD, 100.0, 0.0)), 1)
70.0
>>> in_field(spec, Wink("g3", Place.FIELD, 0.0, 450.0))
False
>>> tiddlies((Wink("b1", Place.POTTED), Wink("b2", Place.FIELD, 50.0, 0.0)))[Colour.BLUE]
4
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

MM_PER_FOOT = 304.8
TOUCH_TOLERANCE_MM = 0.5
"""Two winks whose plan views overlap by less than this may merely touch, and
a squop needs the upper wink to overlap the lower by at least minus this:
the vision's centre error (goal: 0.5 mm p95) must not make a squop."""


class Colour(StrEnum):
    """The four colours, in playing order: clockwise, alphabetical (1(b))."""

    BLUE = "blue"
    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"

    @property
    def next(self) -> Colour:
        """The colour that plays after this one."""
        return COLOURS[(COLOURS.index(self) + 1) % 4]

    @property
    def partner(self) -> Colour:
        """The partner colour, diagonally opposite (1(b))."""
        return COLOURS[(COLOURS.index(self) + 2) % 4]

    @property
    def side(self) -> Side:
        """The partnership this colour belongs to."""
        return Side.BLUE_RED if self in (Colour.BLUE, Colour.RED) else Side.GREEN_YELLOW


COLOURS = (Colour.BLUE, Colour.GREEN, Colour.RED, Colour.YELLOW)
_INITIAL = {c.value[0]: c for c in COLOURS}


class Side(StrEnum):
    """A partnership: blue and red against green and yellow (1(b))."""

    BLUE_RED = "blue-red"
    GREEN_YELLOW = "green-yellow"

    @property
    def colours(self) -> tuple[Colour, Colour]:
        """The two colours of the partnership."""
        if self is Side.BLUE_RED:
            return (Colour.BLUE, Colour.RED)
        return (Colour.GREEN, Colour.YELLOW)

    @property
    def other(self) -> Side:
        """The opposing partnership."""
        return Side.GREEN_YELLOW if self is Side.BLUE_RED else Side.BLUE_RED


class Place(StrEnum):
    """Where a wink is: behind its baseline (unplayed), in play, or potted."""

    BASELINE = "baseline"
    FIELD = "field"
    POTTED = "potted"


WINK_IDS = tuple(f"{c.value[0]}{n}" for c in COLOURS for n in range(1, 7))
"""Every wink of a game, in colour order: ``b1`` ... ``y6``."""


def wink_colour(wink_id: str) -> Colour:
    """The colour of a wink id.

    >>> wink_colour("r4")
    <Colour.RED: 'red'>
    """
    return _INITIAL[wink_id[0]]


def wink_size(wink_id: str) -> int:
    """The diameter in mm of a wink id: 22 for numbers 1-2, else 16 (rule 2)."""
    return 22 if wink_id[1] in "12" else 16


@dataclass(frozen=True, slots=True)
class Wink:
    """One wink as seen: where it is, and which winks it lies on (squops)."""

    id: str
    place: Place
    x: float = 0.0
    y: float = 0.0
    on: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.id not in WINK_IDS:
            raise ValueError(f"{self.id!r} is not a wink id (b1..b6, g1..g6, r1..r6, y1..y6)")

    @property
    def colour(self) -> Colour:
        """The wink's colour."""
        return wink_colour(self.id)

    @property
    def radius(self) -> float:
        """Half the diameter, mm."""
        return wink_size(self.id) / 2


Mat = tuple[Wink, ...]
"""Every wink of the game, one entry per id, in :data:`WINK_IDS` order."""


@dataclass(frozen=True, slots=True)
class MatSpec:
    """The regulation mat (rule 3) and pot (rule 4), in mm; see the module doc."""

    length_mm: float = 6 * MM_PER_FOOT
    width_mm: float = 3 * MM_PER_FOOT
    baseline_mm: float = 3 * MM_PER_FOOT
    pot_x_mm: float = 0.0
    pot_y_mm: float = 0.0
    pot_base_mm: float = 38.0
    pot_rim_mm: float = 48.0

    def corner(self, colour: Colour) -> tuple[float, float]:
        """The mat corner behind ``colour``'s baseline."""
        sx = -1.0 if colour in (Colour.BLUE, Colour.YELLOW) else 1.0
        sy = 1.0 if colour in (Colour.BLUE, Colour.GREEN) else -1.0
        return (sx * self.length_mm / 2, sy * self.width_mm / 2)


def new_mat() -> Mat:
    """Every wink behind its baseline, before play begins."""
    return tuple(Wink(i, Place.BASELINE) for i in WINK_IDS)


def baseline_depth(spec: MatSpec, colour: Colour, x: float, y: float) -> float:
    """How far the point (x, y) lies behind ``colour``'s baseline (negative: in front)."""
    cx, cy = spec.corner(colour)
    norm = math.hypot(cx, cy)
    return (x * cx + y * cy) / norm - spec.baseline_mm


def over_baseline(spec: MatSpec, wink: Wink) -> bool:
    """True when the wink lies wholly in front of its own colour's baseline (5(a))."""
    return baseline_depth(spec, wink.colour, wink.x, wink.y) <= -wink.radius


def on_mat(spec: MatSpec, wink: Wink) -> bool:
    """True when the wink's centre is on the mat (for the squidge-off, 5(a))."""
    return abs(wink.x) <= spec.length_mm / 2 and abs(wink.y) <= spec.width_mm / 2


def in_field(spec: MatSpec, wink: Wink) -> bool:
    """True when no part of the wink is beyond a mat edge or any baseline (3, 7(a))."""
    r = wink.radius
    if abs(wink.x) + r > spec.length_mm / 2 or abs(wink.y) + r > spec.width_mm / 2:
        return False
    return all(baseline_depth(spec, c, wink.x, wink.y) <= -r for c in COLOURS)


def pot_distance(spec: MatSpec, wink: Wink) -> float:
    """Gap in mm from the wink's nearest edge to the pot's base (5(a))."""
    centre = math.hypot(wink.x - spec.pot_x_mm, wink.y - spec.pot_y_mm)
    return centre - wink.radius - spec.pot_base_mm / 2


def overlap_mm(a: Wink, b: Wink) -> float:
    """How far the plan views of two winks overlap (negative: the gap between them)."""
    return a.radius + b.radius - math.hypot(a.x - b.x, a.y - b.y)


def in_play(mat: Iterable[Wink]) -> list[Wink]:
    """The winks on the field of play (neither potted nor behind a baseline)."""
    return [w for w in mat if w.place is Place.FIELD]


def squopped_ids(mat: Iterable[Wink]) -> frozenset[str]:
    """Ids of the winks some other wink lies on (6(a))."""
    return frozenset(i for w in mat if w.place is Place.FIELD for i in w.on)


def squopping_ids(mat: Iterable[Wink]) -> frozenset[str]:
    """Ids of the winks that lie on another wink."""
    return frozenset(w.id for w in mat if w.place is Place.FIELD and w.on)


def playable(mat: Iterable[Wink], colour: Colour) -> list[Wink]:
    """The winks of ``colour`` that may be played first in a shot: unsquopped and
    unpotted, behind the baseline or in play (5(b), 6(a))."""
    winks = list(mat)
    under = squopped_ids(winks)
    return [
        w for w in winks if w.colour is colour and w.place is not Place.POTTED and w.id not in under
    ]


def free_winks(mat: Iterable[Wink]) -> list[Wink]:
    """Winks on the field neither squopping nor squopped (11(a))."""
    winks = list(mat)
    busy = squopped_ids(winks) | squopping_ids(winks)
    return [w for w in in_play(winks) if w.id not in busy]


def piles(mat: Iterable[Wink]) -> list[tuple[str, ...]]:
    """The piles: winks connected directly or indirectly by squops (1(a)(vi)),
    each sorted, in order of their first wink.

    >>> piles((Wink("b1", Place.FIELD, 0, 0, ("g1",)), Wink("g1", Place.FIELD, 5, 0),
    ...        Wink("r1", Place.FIELD, 100, 0)))
    [('b1', 'g1')]
    """
    links: dict[str, set[str]] = {}
    for w in in_play(mat):
        for below in w.on:
            links.setdefault(w.id, set()).add(below)
            links.setdefault(below, set()).add(w.id)
    seen: set[str] = set()
    out: list[tuple[str, ...]] = []
    for start in sorted(links, key=WINK_IDS.index):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            wid = todo.pop()
            if wid not in group:
                group.add(wid)
                todo += links[wid]
        seen |= group
        out.append(tuple(sorted(group, key=WINK_IDS.index)))
    return out


def tiddlies(mat: Iterable[Wink]) -> dict[Colour, int]:
    """10(b): three tiddlies per potted wink, one per unsquopped wink in play;
    unplayed winks behind the baselines do not count."""
    winks = list(mat)
    under = squopped_ids(winks)
    count = dict.fromkeys(COLOURS, 0)
    for w in winks:
        if w.place is Place.POTTED:
            count[w.colour] += 3
        elif w.place is Place.FIELD and w.id not in under:
            count[w.colour] += 1
    return count


def all_squopped(mat: Iterable[Wink], colours: Sequence[Colour]) -> bool:
    """True when every unpotted wink of ``colours`` is squopped (6(b), 11(a)).

    An unplayed wink behind its baseline is not squopped; colours with no
    unpotted wink at all do not make this true on their own.
    """
    every = list(mat)
    under = squopped_ids(every)
    winks = [w for w in every if w.colour in colours and w.place is not Place.POTTED]
    return bool(winks) and all(w.place is Place.FIELD and w.id in under for w in winks)


def potted_out(mat: Iterable[Wink]) -> frozenset[Colour]:
    """The colours whose six winks are all potted (8)."""
    winks = list(mat)
    return frozenset(
        c for c in COLOURS if all(w.place is Place.POTTED for w in winks if w.colour is c)
    )


def inconsistencies(mat: Sequence[Wink]) -> list[str]:
    """What cannot be so on a real mat: a squop between winks that do not
    overlap, a squop of a wink not in play, or winks overlapping in plan with
    neither on the other. Each entry is one phrase for a notice."""
    by_id = {w.id: w for w in mat}
    out: list[str] = []
    field = in_play(mat)
    for w in field:
        for below in w.on:
            other = by_id[below]
            if other.place is not Place.FIELD:
                out.append(f"{w.id} is on {below}, which is not in play")
            elif overlap_mm(w, other) < -TOUCH_TOLERANCE_MM:
                out.append(f"{w.id} is on {below}, but they do not overlap")
    for i, a in enumerate(field):
        for b in field[i + 1 :]:
            stacked = b.id in a.on or a.id in b.on
            if not stacked and overlap_mm(a, b) > TOUCH_TOLERANCE_MM:
                out.append(f"{a.id} and {b.id} overlap but neither is on the other")
    return out


def too_close(mat: Sequence[Wink], gap_mm: float = 2.0) -> list[tuple[str, str]]:
    """Pairs of winks in play on or less than ``gap_mm`` from each other (8)."""
    field = in_play(mat)
    return [
        (a.id, b.id)
        for i, a in enumerate(field)
        for b in field[i + 1 :]
        if -overlap_mm(a, b) <= gap_mm or b.id in a.on or a.id in b.on
    ]


def squidge_key(spec: MatSpec, wink: Wink, off: bool) -> tuple[int, float]:
    """How near the pot a squidge-off wink is, smaller is nearer (5(a)):
    potted winks all equal and nearest, winks off the mat all equal and
    furthest, the rest by :func:`pot_distance`."""
    if wink.place is Place.POTTED:
        return (0, 0.0)
    if off or not on_mat(spec, wink):
        return (2, 0.0)
    return (1, pot_distance(spec, wink))


def squidge_nearest(
    spec: MatSpec, entries: Sequence[tuple[Wink, bool]], tie_mm: float = 0.0
) -> tuple[Colour, ...]:
    """The colours whose squidge-off winks are nearest the pot: one colour is
    the winner, more are a tie to be resquidged (5(a)). ``entries`` pairs each
    wink with whether it went off the mat; distances within ``tie_mm`` (plus
    float noise) are equal.

    >>> spec = MatSpec()
    >>> near = (Wink("b1", Place.FIELD, 100.0, 0.0), False)
    >>> far = (Wink("g1", Place.FIELD, 0.0, 200.0), False)
    >>> squidge_nearest(spec, [near, far])
    (<Colour.BLUE: 'blue'>,)
    >>> squidge_nearest(spec, [near, (Wink("r3", Place.POTTED), False)])
    (<Colour.RED: 'red'>,)
    """
    keys = [(squidge_key(spec, w, off), w.colour) for w, off in entries]
    best = min(k for k, _ in keys)
    tolerance = tie_mm + 1e-9
    return tuple(
        sorted(
            (c for (band, dist), c in keys if band == best[0] and dist - best[1] <= tolerance),
            key=COLOURS.index,
        )
    )
