"""One fit per wink: fits of one colour on nearly one circle are one wink
(:func:`dedupe`, :func:`one_colour_each`), and so are two fits that land on
one circle once lifted to their levels in a pile (:func:`twins`). Used by
:func:`~vision.mat.winks.find_winks`."""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

import numpy as np

from controller.games.tiddlywinks.geometry import Colour
from vision.mat import relations
from vision.mat.camera import MatCalibration
from vision.mat.segment import Mask
from vision.mat.wink_fit import signed_rms

if TYPE_CHECKING:
    from vision.mat.winks import Fit

CLOSE_MM = 0.35
"""Edge points within this RMS of their circle fit it closely."""
SAME_MM = 2.0
"""Two circles of one size whose centres are this close are one wink (a
wink squopping another of its size must leave it 6 mm or more showing)."""


def backed(f: Fit, fits: list[Fit]) -> bool:
    """Another candidate's fit is the same circle (within a millimetre)."""
    return any(o.row != f.row and o.colour is f.colour and o.size == f.size
               and math.hypot(o.x - f.x, o.y - f.y) < 1.0 for o in fits)  # fmt: skip


def kept(f: Fit, fits: list[Fit], loose_mm: float) -> bool:
    """A fit the still keeps: whole, within ``loose_mm`` RMS, or
    :func:`backed` by another candidate's fit (what
    :func:`~vision.mat.winks.find_winks` keeps before :func:`dedupe`)."""
    return f.whole or f.rms <= loose_mm or backed(f, fits)


def dedupe(fits: list[Fit], apart_mm: tuple[float, float]) -> list[Fit]:
    """One fit per wink: two candidates of one colour fitted to nearly the
    same circle are one wink. A whole circle beats a partial one, a close
    fit (RMS under :data:`CLOSE_MM`) a loose one (a candidate between two
    winks of one colour fits neither); then the deeper candidate's (a sliver
    of colour at a wink's rim, left over from its blob, starts rays that can
    close round the wink's dark edge instead of its face), then the closer fit.

    A 22 mm second circle (no candidate of its own: ``row`` -1) within
    ``apart_mm`` and 3 mm, the two sizes' radii apart, of a 16 mm fit of its
    colour is that wink's arc (tuning seed 32756: 2.55 mm from y5's fit, a
    false wink under the pile). A 16 mm second circle near a 22 mm fit is
    not: it is a small wink reaching past the large one's rim."""
    out: list[Fit] = []
    for f in sorted(fits, key=lambda f: (not f.whole, not f.voted and f.rms > CLOSE_MM,
                                         -f.depth, signed_rms(f))):  # fmt: skip
        if any(o.colour is f.colour and (
                np.hypot(o.x - f.x, o.y - f.y) < apart_mm[o.size != f.size]
                or (f.row < 0 <= o.row and (f.size, o.size) == (22, 16)
                    and np.hypot(o.x - f.x, o.y - f.y) < apart_mm[1] + 3.0))
               for o in out):  # fmt: skip
            continue
        out.append(f)
    return out


def doubted(fits: list[Fit], kept: list[Fit], apart_mm: tuple[float, float]) -> set[int]:
    """The rows of the ``kept`` fits (:func:`dedupe`'s) that stood for a
    close fit (whole, or RMS within :data:`CLOSE_MM`) of their colour that
    may be another wink: one of their size a quarter of its diameter or more
    off, or a 16 mm one within :data:`SAME_MM` of a 22 mm fit's centre. Two
    winks of one colour, one partly under the other, make one blob, and in a
    video frame their fits can lie closer than ``apart_mm`` (tuning seed
    40652: y4's fit, RMS 0.21 mm, 7.6 mm from that of y6 lying on it, seen
    whole), or the pair's outline can pass for one large wink's (40069: a
    22 mm circle round y4 and the crescent of y6 under b5, RMS 0.22 mm, where
    y4's own candidate fitted a 16 mm one 0.1 mm off, RMS 0.12). A closer
    look may tell them apart (:func:`~vision.mat.closer.groups`).

    Not the other doubts of one wink's fits: of a lone wink's candidates at
    its rim, in video frames of fresh tuning seeds 46000-46059, 22 mm fits
    lay 2.1-3.2 mm from the 22 mm wink's (29), 22 mm ones nearly concentric
    on a 16 mm wink (27); 16 mm ones 4 mm or more from a 16 mm wink's (3)
    and nearly concentric on a 22 mm one (0) were rare."""
    out: set[int] = set()
    gone = {id(f) for f in fits} - {id(o) for o in kept}
    for f in fits:
        if id(f) not in gone or not (f.whole or f.voted or f.rms <= CLOSE_MM):
            continue
        for o in kept:
            d = math.hypot(o.x - f.x, o.y - f.y)
            if o.colour is not f.colour or o.row < 0 or d >= apart_mm[o.size != f.size]:
                continue
            if (o.size == f.size and d >= f.size / 4) or (
                    (o.size, f.size) == (22, 16) and d < SAME_MM):  # fmt: skip
                out.add(o.row)
    return out


def one_colour_each(cal: MatCalibration, fits: list[Fit], masks: dict[Colour, Mask]) -> list[Fit]:
    """Two fits of different colours on nearly one circle are one wink
    (where two colours meet, their blend can pass for a third colour and
    start rays that find the wink's edge): keep the colour filling more of
    the part of the disc that no other wink covers."""
    gone: set[int] = set()
    circ = [f.circle() for f in fits]
    for i, j in itertools.combinations(range(len(fits)), 2):
        a, b = fits[i], fits[j]
        if a.size != b.size or np.hypot(a.x - b.x, a.y - b.y) > SAME_MM:
            continue
        others = [c for k, c in enumerate(circ) if k not in (i, j)]
        fill_a, fill_b = (relations.fill(masks[f.colour], cal, circ[k], others)
                          for k, f in ((i, a), (j, b)))  # fmt: skip
        gone.add(j if fill_a >= fill_b else i)
    return [f for k, f in enumerate(fits) if k not in gone]


def two_colours(fits: list[Fit], kept: list[Fit]) -> set[int]:
    """The rows of the ``kept`` fits (:func:`one_colour_each`'s) that stood
    for a fit of another colour on nearly their circle (:data:`SAME_MM`):
    perhaps a wink of that colour partly under them, for a closer look
    (:func:`~vision.mat.closer.groups`, as :func:`doubted`). Session 16,
    fresh tuning seed 60838: b3 on g6 (16 mm each, 6.2 mm apart) at the far
    end of the mat, 0.53 px per mm; g6's crescent, 3 px wide, fitted a green
    circle 1.8 mm from b3's whole blue one, which filled more of it. b3,
    seen whole and alone, was not looked at again, and g6 was lost with its
    relation; in the still the pair is read right."""
    gone = [f for f in fits if f not in kept]
    return {o.row for o in kept for f in gone
            if o.row >= 0 and o.size == f.size
            and np.hypot(o.x - f.x, o.y - f.y) <= SAME_MM}  # fmt: skip


def twins(fits: list[Fit], lifted: list[Fit]) -> set[int]:
    """The fits that, ``lifted`` to their levels, land on nearly the circle
    of another of their colour and size (:data:`SAME_MM`): one wink fitted
    twice (tuning seed 32028: a 22 mm circle across two winks of one colour,
    RMS 0.247 mm, refitted as the 16 mm one beside it, which made a cycle of
    the pile and lifted all of it five levels). Of each two, the one whose
    first fit was looser goes."""
    out: set[int] = set()
    for i, j in itertools.combinations(range(len(fits)), 2):
        a, b = lifted[i], lifted[j]
        if (a.colour is b.colour and a.size == b.size and i not in out and j not in out
                and math.hypot(a.x - b.x, a.y - b.y) < SAME_MM):  # fmt: skip
            out.add(j if signed_rms(fits[i]) <= signed_rms(fits[j]) else i)  # a voted one stays
    return out


HINTED_MM = 3.0
"""A fit of a still's crop with a video fit of its colour this close is a
wink the video saw too (of either size: the video can take a 16 mm
crescent for a 22 mm circle, test_mat_piles' pile g4, g3, b2 with rig 2)."""


def unhinted(fits: list[Fit], on: dict[int, set[int]], hints: tuple[Fit, ...],
             rings: set[int]) -> set[int]:  # fmt: skip
    """The fits of a pile read round in a circle (each on the next, the last
    on the first: no pile is so) that no video fit (``hints``) stands for and
    that are not ``rings``: a circle fitted across the edges of other winks
    (tuning seed 32508: a 22 mm circle through 14 of its candidate's 48 edge
    points, RMS 0.035 mm, 6.6 mm from the 22 mm wink of its colour; the pile
    was lifted five levels, and b3 and y4 fitted 1.1 and 1.8 mm off).

    One at a time, a 22 mm fit first, then the looser (the pile is read
    again after each): tuning seed 40068's cycle held two unhinted fits, a
    22 mm circle across b2 and b3 and b3's own 16 mm fit, which the video
    took for part of that circle; dropping both lost b3."""
    if not hints:  # a video frame: no other picture to go by
        return set()
    out = [i for i in _in_cycles(on) - rings
           if not any(h.colour is fits[i].colour
                      and math.hypot(h.x - fits[i].x, h.y - fits[i].y) < HINTED_MM
                      for h in hints)]  # fmt: skip
    return {min(out, key=lambda i: (fits[i].size != 22, -signed_rms(fits[i])))} if out else set()


def _in_cycles(on: dict[int, set[int]]) -> set[int]:
    """The winks from which ``on`` leads back to themselves."""
    out = set()
    for i in on:
        seen, todo = set(), list(on[i])
        while todo:
            j = todo.pop()
            if j == i:
                out.add(i)
                break
            if j not in seen:
                seen.add(j)
                todo += on.get(j, ())
    return out


def mis_sized(cal: MatCalibration, fits: list[Fit], masks: dict[Colour, Mask],
              hints: tuple[Fit, ...], apart_mm: tuple[float, float]) -> list[Fit]:  # fmt: skip
    """``fits`` less the partial 22 mm fits that no video fit (``hints``) of
    their colour stands for (:data:`HINTED_MM`), lying within ``apart_mm``
    and 3 mm (the radii's difference) of a 16 mm fit of their colour that a
    16 mm video fit stands for: the same wink given the other size (tuning
    seed 32915: a 22 mm circle through r4's arc, RMS 0.224 mm, 3.8 mm from
    r4's 16 mm fit, a false wink in the pile), unless its disc clear of the
    small one shows its colour (:data:`SHOWS_BESIDE`). Only this way round,
    as in :func:`dedupe`: a 16 mm fit beside a 22 mm one may be a small wink
    nearly concentric on it, which the video sees as one."""

    def hinted(f: Fit, size: int | None = None) -> bool:
        return any(h.colour is f.colour and (size is None or h.size == size)
                   and math.hypot(h.x - f.x, h.y - f.y) < HINTED_MM for h in hints)  # fmt: skip

    out = []
    for f in fits:  # the small winks' circles beside it, of its colour, that the video saw
        small = [g.circle() for g in fits if g.colour is f.colour and g.size == 16
                 and hinted(g, 16)
                 and math.hypot(g.x - f.x, g.y - f.y) < apart_mm[1] + 3.0]  # fmt: skip
        if (f.size == 22 and not f.whole and f.row >= 0 and not hinted(f) and small
                and relations.fill(masks[f.colour], cal, f.circle(), small)
                < SHOWS_BESIDE):  # fmt: skip
            continue
        out.append(f)
    return out


SHOWS_BESIDE = 0.5
"""A 22 mm fit beside a small wink of its colour is a wink of its own if at
least this share of its disc clear of the small one shows its colour (as
:data:`~vision.mat.winks.SHOWS`): a circle through the small wink's arc
lies mostly on the mat (0.0 on tuning seed 32915), a large wink under a
small one shows (tuning seed 32183: g5 4.8 mm off g2's centre, which the
video did not see; 0.97)."""
