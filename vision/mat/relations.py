"""Which wink lies on which.

Two fitted winks whose plan views overlap by more than
:data:`SQUOP_OVERLAP_MM` are stacked (winks merely touching overlap by
about nothing, give or take the centre error); which is on top is read
from the picture:

- different colours: the colour that fills the lens where the two discs
  overlap is the upper wink's;
- one colour: the upper wink's dark edge runs across the lower one's face,
  while the lower one's edge is hidden under the upper face; the darker of
  the two arcs inside the other disc is the upper wink's edge.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence, Set

import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.camera import MatCalibration
from vision.mat.segment import Mask
from vision.mat.shows import BLUR_PX as BLUR_PX
from vision.mat.shows import CLEAR_MASK_MIN as CLEAR_MASK_MIN
from vision.mat.shows import CLEAR_VOTES_MIN as CLEAR_VOTES_MIN
from vision.mat.shows import Circle as Circle
from vision.mat.shows import arc_darkness as arc_darkness
from vision.mat.shows import bleeds
from vision.mat.shows import clear_votes as clear_votes
from vision.mat.shows import fill as fill
from vision.mat.shows import lens_share as lens_share
from vision.mat.shows import shown_mm2 as shown_mm2

SQUOP_OVERLAP_MM = 1.0
"""Overlap beyond which two winks are stacked. The engine's tolerance is
0.5 mm (touching winks may be measured overlapping that much); real squops
overlap far more."""

LENS_MARGIN = 0.3
"""A pair of colours is ordered by its overlap's colour (:func:`lens_share`)
only where the share of one colour is this far from a half (over 80 %);
else the pair is decided as one whose overlap is hidden. Until session 11
0.25 (75 %): tuning seed 32300 read 75.1 % green, a third wink of that
colour the still did not find lying over the overlap, and ruled the pile
upside down; in 2000 tuning frames (32000-32999, 40000-40999) every pair
read right by its overlap showed 84.8 % or more of one colour."""

SHOWN_MM2 = 0.3
"""The least part of an overlap that must show (mm²) for its colour to say
which wink is on top; an overlap wholly under third winks is reported with
neither on top (the engine's consistency check then asks the umpire, 14)."""


def overlap(a: Circle, b: Circle) -> float:
    """How far the plan views overlap, mm."""
    return a[2] + b[2] - math.hypot(a[0] - b[0], a[1] - b[1])


def stack(circ: list[Circle], colours: list[Colour], masks: dict[Colour, Mask],
          grey: NDArray[np.uint8], cal: MatCalibration,
          known: Sequence[tuple[int, int]] = ()) -> dict[int, set[int]]:  # fmt: skip
    """For each wink, the winks it lies on.

    ``known`` pairs (upper, lower) are taken as they are (a small wink found
    by its dark edge on a large one's face lies on it).

    Pairs whose picture is clear are decided first (a pair of colours by
    its overlap's colour clear of any third wink over both: where a third
    wink's blurred rim meets them, two colours blend and can pass for
    either); a pair of colours whose overlap is mostly under a third wink
    (a pile of three) is then decided by the overlap less only those third
    winks that the clear pairs do not put under either, else by the pile's
    levels from the clear pairs where they put one above the other through
    the winks between them (:func:`_above`; where they differ for want of a
    wink under the lower one, the pair is left open), and where the levels
    are one, by the colour of what
    shows clear of the winks lying on either (:func:`clear_votes`), if at
    least :data:`SHOWN_MM2` of it shows and :data:`CLEAR_VOTES_MIN` points
    of it show one colour clearly, over 80 % of them one colour as for a
    lens (:data:`LENS_MARGIN`; until session 13 over 75 %, which let tuning
    seed 32300's overlap, 76 % green under a green wink not found, read
    upside down once each point voted once) (else neither is on the other, unless the
    pairs decided after it leave the two at different levels of the pile:
    the upper one then lies on the lower, as a wink lies on every wink below
    it that it overlaps, through the winks between them). A pair
    of one colour that a wink of another colour overlaps both of is ordered
    by it when it lies on one and under the other, else by the edges
    (:func:`_one_colour`)."""
    on: dict[int, set[int]] = {i: set() for i in range(len(circ))}
    unsure: list[tuple[int, int, list[int]]] = []
    same: list[tuple[int, int, list[int]]] = []
    for upper, lower in known:
        on[upper].add(lower)
    told = {frozenset(p) for p in known}
    for i, j in itertools.combinations(range(len(circ)), 2):
        if overlap(circ[i], circ[j]) <= SQUOP_OVERLAP_MM or {i, j} in told:
            continue
        ci, cj = colours[i], colours[j]
        if ci is cj:
            between = [k for k, c in enumerate(circ) if colours[k] is not ci
                       and overlap(c, circ[i]) > SQUOP_OVERLAP_MM
                       and overlap(c, circ[j]) > SQUOP_OVERLAP_MM]  # fmt: skip
            same.append((i, j, between))  # after the pairs of colours, which may order them
            continue
        others = [k for k, c in enumerate(circ) if k not in (i, j)
                  and overlap(c, circ[i]) > 0 and overlap(c, circ[j]) > 0]  # fmt: skip
        share, n = lens_share(masks[ci], masks[cj], cal, circ[i], circ[j],
                              [circ[k] for k in others])  # fmt: skip
        if n < 6 or abs(share - 0.5) < LENS_MARGIN:
            unsure.append((i, j, others))
            continue
        i_on_top = share > 0.5
        on[i if i_on_top else j].add(j if i_on_top else i)
    _one_colour(same, on, grey, cal, circ, colours)
    while True:  # again while a pair left undecided may be decided by the others' levels
        levels = pile_levels(len(circ), on)
        left = []
        for i, j, others in unsure:
            ci, cj = colours[i], colours[j]
            i_on_top = levels[i] > levels[j]
            # a third wink the clear pairs put under either one does not hide their overlap
            over = [circ[k] for k in others if k not in on[i] | on[j]]
            share, n = lens_share(masks[ci], masks[cj], cal, circ[i], circ[j], over)
            if len(over) < len(others) and n >= 6 and abs(share - 0.5) >= LENS_MARGIN:
                i_on_top = share > 0.5
            elif levels[i] != levels[j] and not _above(i if i_on_top else j,
                                                       j if i_on_top else i, on):  # fmt: skip
                # higher only for want of a wink under the lower one: not on it. Ordering these
                # by the overlap's colour (session 14, b-showing: cured 45610, 47128, 45463)
                # made a false squop on fresh tuning 48768 (b5 apart from r4, r4 misfitted
                # 22 mm 2.6 mm off: 203 to 0 votes, as the cures' 109-553 to 0), 1 right gained
                # in 1,200 fresh frames: reverted
                left.append((i, j, others))
                continue
            elif levels[i] == levels[j]:
                tops = [k for k in range(len(circ)) if k not in (i, j) and on[k] & {i, j}]
                above = [circ[k] for k in tops]
                # third winks over the lens in no known order: their faces vote for neither
                loose = [k for k in others if k not in tops and k not in on[i] | on[j]]
                hide_a, hide_b = ([circ[k] for k in loose if colours[k] is c] for c in (ci, cj))
                na, nb = clear_votes(masks[ci], masks[cj], cal, circ[i], circ[j], above,
                                     [circ[k] for k in tops if bleeds(colours[k], cj, ci)],
                                     [circ[k] for k in tops if bleeds(colours[k], ci, cj)],
                                     hide_a=hide_a, hide_b=hide_b)  # fmt: skip
                if (shown_mm2(circ[i], circ[j], above, cal) < SHOWN_MM2
                        or na + nb < CLEAR_VOTES_MIN
                        or abs(na - nb) < 2 * LENS_MARGIN * (na + nb)):  # fmt: skip
                    left.append((i, j, others))
                    continue  # nothing of the overlap shows: neither is said to be on top
                i_on_top = na > nb
            on[i if i_on_top else j].add(j if i_on_top else i)
        ordered = len(left) < len(unsure)
        unsure = left
        if not (_through(same, on) or ordered):
            break
    return on


def kept(first: dict[int, set[int]], again: dict[int, set[int]],
         circ: list[Circle]) -> dict[int, set[int]]:  # fmt: skip
    """``again`` (a pile read again with each face at its level: ``circ``)
    with each pair that the first read ordered and it left open ordered as
    the first read did, where the two still overlap as stacked and ``again``
    puts neither above the other through the winks between them.

    The second read sees the same picture; only the faces' heights move
    the circles (parallax, a millimetre or less). Where it orders a pair it
    is believed, but where it leaves one open it has found no evidence
    against the first read: the evidence moved under a third wink's margin
    or below a count (tuning seed 88977: r4, 16 mm, on r2 and g2; read at
    level 0, r2's edge inside r4 kept 1 sample clear of g2 against 52 of
    r4's, 57.0 and 47.2 grey, r4 on r2; at r4's level none, and r4 on r2
    was lost). On tuning frames 88000-91999 this ordered a pair in 14
    frames: 11 relations found that were missed, nothing else changed, no
    false squop.

    >>> kept({0: {1}, 1: set()}, {0: set(), 1: set()}, [(0, 0, 8, 0), (4, 0, 8, 0)])
    {0: {1}, 1: set()}
    >>> kept({0: {1}, 1: set()}, {0: set(), 1: {0}}, [(0, 0, 8, 0), (4, 0, 8, 0)])
    {0: set(), 1: {0}}
    """
    on = {i: set(below) for i, below in again.items()}
    for i in sorted(first):
        for j in sorted(first[i]):
            if (j not in on[i] and i not in on[j] and overlap(circ[i], circ[j]) > SQUOP_OVERLAP_MM
                    and i not in _reached(j, on)):  # fmt: skip
                on[i].add(j)
    return on


def _through(pairs: list[tuple[int, int, list[int]]], on: dict[int, set[int]]) -> bool:
    """Order each pair of one colour left open by the winks between them:
    i on k ... on j (:func:`_above`), and not j above i (a loop is a misread);
    whether any was. A wink above another that it overlaps lies on it
    (session 13: tuning seed 41086, b1 on g6 on b2, all three overlapping,
    b1 on b2 left open: b1/g6 was ordered only after the pairs of one colour
    were)."""
    ordered = False
    for i, j, _ in pairs:
        if j in on[i] or i in on[j]:
            continue
        up, down = _above(i, j, on), _above(j, i, on)
        if up != down:
            on[i if up else j].add(j if up else i)
            ordered = True
    return ordered


def _above(i: int, j: int, on: dict[int, set[int]]) -> bool:
    """Whether i lies above j through the winks between them (i on k ... on
    j). A pile's levels alone do not say so: a wink on nothing known is at
    level 0 whether it lies on the mat or on the other wink of the pair.
    Until session 12 a higher level ordered the pair, and a small overlap
    too thin to read put the lower wink of a pile on the wink over it
    (tuning seeds 41667 and 41738: b5 on y2, r5 on g6, each of them on a
    third wink and y2, g6 on nothing read)."""
    return j in _reached(i, on)


def _one_colour(pairs: list[tuple[int, int, list[int]]], on: dict[int, set[int]],
                grey: NDArray[np.uint8], cal: MatCalibration, circ: list[Circle],
                colours: list[Colour]) -> None:  # fmt: skip
    """Order the pairs of one colour into ``on`` (after the pairs of colours
    that are clear): by a wink of another colour (``between``) on one and
    under the other (its edges and shadow on the two make the edges'
    darkness unreliable), else by their edges (:func:`_edge_over`)."""
    for i, j, between in pairs:
        if any(k in on[i] and j in on[k] for k in between):
            i_on_top: bool | None = True
        elif any(k in on[j] and i in on[k] for k in between):
            i_on_top = False
        else:
            foreign = [k for k, c in enumerate(colours) if c is not colours[i]
                       and not (k in on[i] and k in on[j])]  # fmt: skip
            under_i, under_j = _reached(i, on), _reached(j, on)
            # winks under both hide neither edge, unless one of the pair is above the other
            # already (tuning seed 32323: a phantom of the crop above g4 through g3 was read
            # under it so, and the loop cost the real g3)
            below = set() if i in under_j or j in under_i else under_i & under_j
            i_on_top = _edge_over(grey, cal, circ, i, j, foreign, under_i | under_j, below)
        if i_on_top is not None:
            on[i if i_on_top else j].add(j if i_on_top else i)


def _edge_over(grey: NDArray[np.uint8], cal: MatCalibration, circ: list[Circle], i: int,
               j: int, foreign: list[int], under: Set[int] = frozenset(),
               below: Set[int] = frozenset()) -> bool | None:  # fmt: skip
    """One colour: i lies on j (i's edge on j's face is the darker), judged
    clear of third winks over both (their dark edges and shadows fall on
    the two edges). Where an edge runs wholly under or along them, judged
    clear of only those of another colour that may lie over the pair
    (``foreign``: not known to lie under both), else on the whole edges;
    and where those hide an edge wholly, None: neither is said to be on the
    other. (Until session 9 the whole edges were compared then too, the
    third wink's edge and shadow and all, and read upside down on tuning
    seeds 32402, 32508, 32614, 33085, 33351: false squops, where leaving
    the pair undecided costs only the miss.) Edges whose greys differ by
    less than :data:`EDGE_T_MIN` standard errors: None too; and where
    winks of the pair's colour hide both edges wholly, whole edges whose
    greys differ by less than :data:`EDGE_GAP_HIDDEN` of the lighter's.

    Where those hide an edge, it is read again clear of only the third
    winks not known to lie under either of the pair (``under``): a wink
    under j shows nowhere in j's disc, where i's edge would run, nor can it
    lie over i where j's edge would (j over it, it over i, i over j is a
    loop); likewise under i (session 13: tuning seeds 40151, r4 on r5 on y2,
    and 40241, y2 on y6 on g2, left open). One of another colour so known
    (``foreign``) is left out from the start, not only where the others
    hide an edge wholly: its order with the pair was read from a lens's
    colour, which a misfit does not fake as it fakes edges (session 20:
    tuning seed 76965, r6 on r4 on y2, read again at its levels clear of
    y2, under r4, kept 1 sample of r6's edge against 27, 94.0 and 92.4
    grey, and left r6 on nothing, r6 on r4 and on y2 lost; clear of
    nothing, 83.4 against 92.3 over 29 each). Leaving out those of the
    pair's colour too cured the same but read 77106 upside down: y1 on y2,
    under a false yellow 16 mm circle 4 mm off y2 read under one of them.

    A wink known to lie under both (``below``) is no third wink at all: it
    shows nowhere in either disc, where the edges run (session 14: tuning
    seed 45803, b5 on b4, both on g6; clear of g6 one sample of each edge was
    left, 61 against 62 grey, and the pair stayed open; all 17 of each read
    59.6 against 65.5, b5 on b4)."""
    a, b = circ[i], circ[j]
    part = 0.0  # the least gap of the edges' greys, as a part of the lighter's
    sure = under & set(foreign)  # of another colour, known under either: hides neither edge
    third = [k for k, c in enumerate(circ) if k not in (i, j) and k not in below | sure
             and overlap(c, a) > 0 and overlap(c, b) > 0]  # fmt: skip
    da, db = _arcs(grey, cal, a, b, [circ[k] for k in third])
    if not (len(da) and len(db)):
        wa, wb = _arcs(grey, cal, a, b, [])
        fa, fb = _arcs(grey, cal, a, b, [circ[k] for k in third if k in foreign])
        if (not len(fa) and len(wa)) or (not len(fb) and len(wb)):
            # hidden by a wink of another colour, not merely too short to read;
            # but a wink known to lie under either of the pair hides neither edge
            da, db = _arcs(grey, cal, a, b, [circ[k] for k in third if k not in under])
            if not (len(da) and len(db)):
                return None
        else:
            if not (len(da) or len(db)) and len(wa) and len(wb):
                part = EDGE_GAP_HIDDEN  # both edges hidden by winks of the pair's colour
            da, db = (fa, fb) if len(fa) and len(fb) else (wa, wb)
    if not (len(da) and len(db)):
        return len(da) > 0  # an edge seen nowhere counts as the lighter
    va = da.var() if len(da) >= EDGE_SAMPLES_MIN else db.var()  # one edge's spread for both
    vb = db.var() if len(db) >= EDGE_SAMPLES_MIN else da.var()
    if max(len(da), len(db)) < EDGE_SAMPLES_MIN:  # neither has a spread: the whole edges'
        wa, wb = _arcs(grey, cal, a, b, [])
        if min(len(wa), len(wb)) < EDGE_SAMPLES_MIN:
            return None
        va, vb = wa.var(), wb.var()
    gap = float(db.mean() - da.mean())
    if abs(gap) <= EDGE_T_MIN * math.sqrt(va / len(da) + vb / len(db)):
        return None
    if abs(gap) < part * max(da.mean(), db.mean()):
        return None
    return gap > 0


EDGE_SAMPLES_MIN = 2
"""The fewest samples (0.4-0.7 mm apart) an edge of one colour must have for
its own spread of grey to weigh it (session 13). An edge of fewer is
weighed by the other's spread, and two such edges by the spreads of the
whole edges (third winks and all): one sample has no spread, and until
then its standard error of nought let any difference order the pair
(tuning seed 42190: r5 and r2 under y2, one sample each clear of it, 70.0
and 71.0 grey: r5 on r2, upside down; seeds 42072, 42077, 42131 read right
with one sample against 22, 2 and 7 still do, at 1.2-6.9 standard
errors; 40333, one sample each, and 41033, one against 35 at 0.4, are
now open, read right before)."""

EDGE_T_MIN = 1.0
"""Two edges of one colour order the pair only where their mean greys differ
by more than this many standard errors (each edge's spread of grey over
the square root of its samples); closer, the pair is left with neither on
the other (session 11; until then any difference ordered it). Tuning
32000-32599 and 40000-40999: under 1.0, 2 pairs read upside down (40784
at 0.3, 40371 at 0.5; 32756 too, 0.4 grey apart) and 3 read right (at
0.02, 0.4, 0.7); from 1.0 to 2.4, 4 upside down (piles of three of one
colour, the lower wink's still fit 3-4 mm off or of the wrong size) and 13
right, so the bar stops at 1."""


EDGE_GAP_HIDDEN = 0.04
"""Where winks of the pair's colour over both hide both edges wholly (none
of either is left clear of them) and the whole edges are compared, the
least difference of their mean greys, as a part of the lighter's grey
(issue 8, session 25). What is left of the edges there lies under the
third wink's face or along its edge and shadow: where neither edge shows,
both read as the face and differ by shading, while a seen edge is tens of
grey darker than the face beside it. Tuning frames, piles of three of one
colour read upside down: 92384 (y5 on y2 under y3, 179.8 against 180.4
grey, 0.3 %), 92438 (y1 on y4 under y3, 158.5 against 160.9, 1.5 %), 60296
(b6 on b1, 76.0 against 77.2, 1.6 %), 42512 (r2 on r3, 83.8 against 86.4,
2.8 % and 3.0 % in the two reads: 3 % would leave the second ordered);
64887 (g1 on g5, 2.8-3.5 %); read right: 92839 (4.9 %); 88688 (4.3 %) and
61317 (10 %) as the final reading; 64951 at 2.0 % (now open).
A bar of 3 standard errors instead (the false reads were at 1.2 to 2.1,
the right ones at 1.2 to 2.5) also lost 92839's right order."""


def _arcs(grey: NDArray[np.uint8], cal: MatCalibration, a: Circle, b: Circle,
          others: Sequence[Circle]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:  # fmt: skip
    """:func:`arc_darkness` of a's edge inside b and of b's inside a."""
    return arc_darkness(grey, cal, a, b, others), arc_darkness(grey, cal, b, a, others)


MAX_LEVEL = 5
"""The highest pile the analysis reports (a cycle of misread pairs must not
send faces metres up)."""


def pile_levels(n: int, on: dict[int, set[int]]) -> list[int]:
    """Each wink's height in its pile (0 on the mat).

    The winks of a loop in ``on`` (each on the next, the last on the first:
    no pile is so, some pair of it is misread) share one level, one above
    the highest wink below any of them, as if the pairs within the loop were
    open; until session 11 each climbed the loop to :data:`MAX_LEVEL`,
    lifting the whole pile's faces by 2-3 mm of parallax before it was read
    again.

    >>> pile_levels(3, {0: {1}, 1: {0}, 2: {0}})
    [0, 0, 1]
    >>> pile_levels(4, {0: {1}, 1: {2}, 2: set(), 3: {0}})
    [2, 1, 0, 3]
    """
    levels = [0] * n
    for _ in range(n + 1):  # a few passes settle a pile without a loop, below MAX_LEVEL
        changed = False
        for i in range(n):
            want = min(max((levels[j] + 1 for j in on[i]), default=0), MAX_LEVEL)
            if want != levels[i]:
                levels[i], changed = want, True
        if not changed:
            break
    if not changed and max(levels, default=0) < MAX_LEVEL:
        return levels  # a loop climbs to MAX_LEVEL or never settles
    comp = _loops(n, on)
    below = {c: {comp[j] for i in range(n) if comp[i] == c for j in on[i]} - {c}
             for c in set(comp)}  # fmt: skip
    height: dict[int, int] = {}
    for _ in range(n + 1):  # the loops condensed, the pile is settled in as many passes
        for c, under in below.items():
            height[c] = min(max((height.get(d, 0) + 1 for d in under), default=0), MAX_LEVEL)
    return [height[comp[i]] for i in range(n)]


def _loops(n: int, on: dict[int, set[int]]) -> list[int]:
    """For each wink, the least wink of its loop in ``on`` (itself if none):
    the winks each of which ``on`` leads to from the other."""
    reach = [_reached(i, on) for i in range(n)]
    return [min(j for j in range(n) if j == i or (j in reach[i] and i in reach[j]))
            for i in range(n)]  # fmt: skip


def _reached(i: int, on: dict[int, set[int]]) -> set[int]:
    """The winks that ``on`` leads to from i (i among them only by a loop)."""
    seen: set[int] = set()
    todo = list(on[i])
    while todo:
        j = todo.pop()
        if j not in seen:
            seen.add(j)
            todo += on.get(j, ())
    return seen
