"""What a picture shows of a wink or of two winks' overlap, clear of the
winks over them: the colour of an overlap's lens (:func:`lens_share`), its
area showing (:func:`shown_mm2`), a sliver's votes (:func:`clear_votes`), a
disc's colour (:func:`fill`), the grey along an edge (:func:`arc_darkness`).
:mod:`vision.mat.relations` orders the winks by them."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.camera import MatCalibration
from vision.mat.segment import Mask, sample

Circle = tuple[float, float, float, float]
"""x, y, radius, face height (mm)."""


def clear_of(cal: MatCalibration, pts: NDArray[np.float64], z: float, others: Sequence[Circle],
             margin: float) -> NDArray[np.bool_]:  # fmt: skip
    """Which of ``pts`` (mat points at height ``z``) show beyond ``margin`` mm
    of every one of ``others``, each of those read higher than ``z`` judged
    at its own face's height: the picture shows a point of a lower face where
    the ray to it passes beside the higher face, not where the point's plan
    position does. Seen from off the axis the two differ by the faces'
    height difference times the camera's slope there (session 15: tuning
    seed 50201, g1 read again one level up, 1.5 mm over the lens of r2 and
    y6: 0.65 mm, nearly all the margin for its dark edge and blur, and the
    strip of g1's green-red rim left in the lens read y6 on r2). One read
    lower than ``z`` cannot lie over the points as read (a wink of a pile
    whose order is not known yet) and is judged by its plan position, as
    before: judged at its height, tuning seed 50383's g1, under b4 and g3,
    left 1 point of their 12-point lens, and g3 on b4 was lost."""
    keep = np.ones(len(pts), bool)
    seen: NDArray[np.float64] | None = None
    for o in others:
        at = pts
        if o[3] > z:
            seen = cal.to_pixels(pts, z) if seen is None else seen
            at = cal.to_mat(seen, o[3])
        keep &= np.hypot(at[:, 0] - o[0], at[:, 1] - o[1]) > o[2] + margin
    return keep


@functools.lru_cache(maxsize=16)
def _lens_steps(r: float) -> NDArray[np.float64]:
    """:func:`lens_share`'s grid about a wink's centre along each axis: every
    half millimetre within its radius ``r`` (read-only, made once a radius)."""
    xs = np.arange(-r, r + 0.01, 0.5)
    xs.flags.writeable = False
    return xs


def lens_share(mask_a: Mask, mask_b: Mask, cal: MatCalibration, a: Circle, b: Circle,
               others: Sequence[Circle] = ()) -> tuple[float, int]:  # fmt: skip
    """The share of the overlap lens showing a's colour rather than b's (0-1),
    and how many points of the lens were looked at.

    Parts of the lens under any of ``others`` (a third wink of a pile, in a's
    or b's colour, may lie over both) are left out."""
    xs = _lens_steps(a[2])
    # only the columns and rows of a's grid that reach b's disc (a point
    # within b's radius less 0.5 is within it along each axis), each test's
    # differences once a column and once a row: the same points, in the same
    # order, as of the whole grid's (x, y) pairs (about 0.4 of them)
    gx, gy = xs + a[0], xs + a[1]
    gx, gy = gx[np.abs(gx - b[0]) < b[2]], gy[np.abs(gy - b[1]) < b[2]]
    keep = (np.hypot((gx - a[0])[None, :], (gy - a[1])[:, None]) < a[2] - 0.5) & (
        np.hypot((gx - b[0])[None, :], (gy - b[1])[:, None]) < b[2] - 0.5
    )
    rows, cols = np.nonzero(keep)
    z = max(a[3], b[3])
    lens = np.column_stack([gx[cols], gy[rows]])
    lens = lens[clear_of(cal, lens, z, others, 0.7)]
    if len(lens) == 0:
        return 0.5, 0
    px = cal.to_pixels(lens, z)
    na = float(sample(mask_a, px).sum())
    nb = float(sample(mask_b, px).sum())
    return (0.5 if na + nb == 0 else na / (na + nb)), len(lens)


def shown_mm2(a: Circle, b: Circle, over: Sequence[Circle], cal: MatCalibration,
              step: float = 0.1) -> float:  # fmt: skip
    """The area (mm²) of the overlap of a and b not under ``over`` (third
    winks lying on either, with their 0.5 mm dark edges, each judged at its
    own face's height: :func:`clear_of`)."""
    x0, x1 = max(a[0] - a[2], b[0] - b[2]), min(a[0] + a[2], b[0] + b[2])
    y0, y1 = max(a[1] - a[2], b[1] - b[2]), min(a[1] + a[2], b[1] + b[2])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    gx, gy = np.meshgrid(np.arange(x0, x1, step) + step / 2, np.arange(y0, y1, step) + step / 2)
    keep = (np.hypot(gx - a[0], gy - a[1]) < a[2]) & (np.hypot(gx - b[0], gy - b[1]) < b[2])
    pts = np.column_stack([gx[keep], gy[keep]])
    return float(clear_of(cal, pts, max(a[3], b[3]), over, 0.5).sum()) * step * step


CLEAR_VOTES_MIN = 4
"""The least points of an overlap (0.1 mm apart: 0.04 mm²) that must show
one of the pair's colours clear of the winks above them for that colour to
order them when nothing else does; fewer are a blend at the blurred rim of
the wink above. Set on tuning seeds 32000-33399: slivers read right gave
4-23 points, a blend read wrong 2."""


CLEAR_MASK_MIN = 127
"""A point of such a sliver votes for a colour only where the colour's mask,
sampled bilinearly between the still's pixels, is over this (of 255): the
pixels round it are mostly of that colour. Over 0 (until session 10) a point
within a pixel of any pixel of the colour voted for it, and at the tip of
an overlap, a pixel or two wide beside the wink above, the lower wink's face
next to the tip outvoted it: read upside down on tuning seeds 32330 and
32368. Tuning 32000-32999 and 40000-40499: 2 false squops fewer, 1 relation
lost (40310); 33000-33499 (the 35 frames whose piles ask for these votes):
1 gained (33403), none lost."""


def clear_votes(mask_a: Mask, mask_b: Mask, cal: MatCalibration, a: Circle, b: Circle,
                over: Sequence[Circle], like_a: Sequence[Circle] = (),
                like_b: Sequence[Circle] = (), step: float = 0.1, *,
                hide_a: Sequence[Circle] = (), hide_b: Sequence[Circle] = (),
                ) -> tuple[int, int]:  # fmt: skip
    """How many points of the overlap of a and b, clear of ``over`` (winks
    above either, with their dark edge and blur), show a's colour and how
    many b's. A fine grid close to the rims: all that shows of an overlap
    mostly under a third wink can be a sliver under a millimetre wide, which
    :func:`lens_share`'s half-millimetre grid, kept half a millimetre inside
    both rims, misses.

    a's colour has votes only where some point of the overlap lies more
    than a pixel of ``cal`` inside b's rim and beyond the dark edge of every
    wink of ``like_a`` (winks of ``over`` that can show a's colour), and b's likewise:
    a strip no wider than that is all blur, the colour beyond such a rim
    blended in (:data:`BLUR_PX`). Each point showing the colour then votes
    once (session 13: until then a slip of the array shapes counted a
    colour's points times its points clear of the rims, and counting only
    the points both showing the colour and clear, as meant, left right
    slivers of tuning seeds 42140, 42158, 42373 with no votes at all).

    Where a wink of ``like_a`` lies over the overlap, a's colour reaches the
    sliver by blur from two sides, that wink's rim and a's face beyond b's
    rim; where b's colour shows there too, if only faintly
    (:data:`FAINT_MASK`), a point votes for a's only where it lies itself
    more than a pixel inside b's rim and beyond that wink's dark edge
    (session 16: tuning seed 58218, g1 on y1 under y4, a strip of g1's face
    at most 1.2 mm wide between y4 and y1's face beyond g1's rim read 57
    points yellow to 1 green, all but a few of them within a pixel of g1's
    rim or of y4's edge: y1 on g1). ``like_a`` holds the winks of a's colour
    over the overlap and those whose colour blurs with b's face into a's
    (:func:`bleeds`); ``like_b`` likewise.

    A point inside a wink of ``hide_a`` (third winks of a's colour over the
    overlap whose order with the pair is not known) votes nothing for a's
    colour, which may be that wink's face; ``hide_b`` likewise (session 14:
    tuning seed 47432, b5 on g6 on b1, read again with each face at its
    level before b5's order was known, 8026 blue points of b5's face against
    183 green: b1 on g6; until then only winks known over either were left
    out)."""
    x0, x1 = max(a[0] - a[2], b[0] - b[2]), min(a[0] + a[2], b[0] + b[2])
    y0, y1 = max(a[1] - a[2], b[1] - b[2]), min(a[1] + a[2], b[1] + b[2])
    if x1 <= x0 or y1 <= y0:
        return 0, 0
    gx, gy = np.meshgrid(np.arange(x0, x1, step) + step / 2, np.arange(y0, y1, step) + step / 2)
    da, db = np.hypot(gx - a[0], gy - a[1]), np.hypot(gx - b[0], gy - b[1])
    keep = (da < a[2] - 0.2) & (db < b[2] - 0.2)
    z = max(a[3], b[3])
    pts = np.column_stack([gx[keep], gy[keep]])
    clear = clear_of(cal, pts, z, over, 0.7)
    if not clear.any():
        return 0, 0
    pts, da, db = pts[clear], da[keep][clear], db[keep][clear]
    px = cal.to_pixels(pts, z)
    pix = BLUR_PX / cal.px_per_mm((x0 + x1) / 2, (y0 + y1) / 2, z)
    sa, sb = sample(mask_a, px)[:, 0], sample(mask_b, px)[:, 0]  # (n, 1): one channel
    votes, blurred = [], []
    for mine, rival, dist, other, like, hide in ((sa, sb, db, b, like_a, hide_a),
                                                 (sb, sa, da, a, like_b, hide_b)):  # fmt: skip
        ok = dist < other[2] - pix  # a's colour counts only well inside b's rim
        ok &= clear_of(cal, pts, z, like, 0.5 + pix)
        shows = mine > CLEAR_MASK_MIN
        shows &= clear_of(cal, pts, z, hide, 0.5 + pix)  # there, that wink's face perhaps
        if like and (rival > FAINT_MASK).any():  # blurred in from both sides over the other's face
            shows &= ok
        votes.append(int(shows.sum()) if ok.any() else 0)
        # a like wink over it, every vote within a pixel of the other's rim or that wink's
        # edge, the other's colour there only faintly: its face a strip blurred away
        top = rival.max() if like else 0
        blurred.append(not (shows & ok).any() and FAINT_LEAST < top <= FAINT_MASK)
    lead = 0 if votes[0] > votes[1] else 1
    if votes[lead] > votes[1 - lead] and blurred[lead]:
        return 0, 0  # the sliver tells nothing (FAINT_LEAST)
    return votes[0], votes[1]


FAINT_MASK = 64
"""The least mask (of 255, sampled as for :data:`CLEAR_MASK_MIN`) at which the
other colour of a pair shows faintly in a sliver (:func:`clear_votes`): a
quarter of the pixels round a point of it. A strip of that colour between
two faces of the voting colour is blurred towards the voting colour but
leaves this much of its own (session 16: tuning seed 58218, g1's strip
between two yellows, green over 64 on 20 of its points, over 127 on 1);
where the other colour shows nowhere even so, the voting colour fills the
sliver and its blurred points count (tuning seeds 51265, b2 on y2 under b5,
and 53010, b3 on y3 under blue, yellow 0 on every point: 63 and 45 blue
votes, read right; counted only clear of both, 1 each, open)."""


FAINT_LEAST = 32
"""Where a wink over a sliver can put the colour with more of its votes
there by blur (:func:`clear_votes`' ``like_a``, ``like_b``: its own colour,
or the blend of its colour and the other's face) and that colour shows at
no point a pixel clear of the other wink's rim and of that wink's dark edge,
every vote of it may be blur; where the other colour then shows in the
sliver only faintly, over this mask (of 255, sampled as for
:data:`CLEAR_MASK_MIN`) somewhere but nowhere over :data:`FAINT_MASK`, it is
the upper wink's face squeezed to a strip under a pixel wide, and the
sliver orders neither (issue 8, session 26: fresh tuning 95160, r4 on g5 on
y5: a green strip between y5's yellow face and r4's red rim over green,
which blurs yellow; 51-52 yellow votes to 0, green at most 45-48, read y5 on
g5). Where the other colour shows nowhere (at most this), the voting colour
fills the sliver and its votes stand (51265, 53010: 0), as they stand where
it shows over :data:`FAINT_MASK` (:func:`clear_votes` counts only the clear
points then). Asked of every sliver, not only under such a wink, the same
test also opened 95930's second read (y3 read on b2 under g5: 4 yellow
points within 0.26 mm of b2's rim, blue at most 44; the first read's right
order was kept) but lost a right read on 60809 (y4 on r4: 13 yellow votes
within a pixel of r4's rim, red at most 44), and at a bar of 16 three more
(90053, 88637: red at most 30; 61237: 19): withdrawn. The bar of 32 was set
then; under a like wink, of the calls logged on 2,224 pile frames whose
leading colour showed no clear point, only 95160's had the other colour
between 0 and 64."""


BLUR_PX = 1.0
"""How far (pixels of the picture read) from the rim of a face of another
colour some point of an overlap must lie for the overlap's points to vote
for their own colour (:func:`clear_votes`; since session 13 asked of the
sliver, not of each point). Until session 12 any point clear of the winks above
voted: on tuning seed 40722 (g2 on b4 on g1) every point of g1/b4's overlap
clear of g2 showed b4's face 0.2-0.6 mm inside b4's rim, a strip under a
pixel of the still wide between g1's face beyond b4's rim and g2's over it;
the blur read it green (10 and 37 points to none): g1 on b4."""


BLENDS: dict[frozenset[Colour], Colour] = {
    frozenset({Colour.RED, Colour.GREEN}): Colour.YELLOW,
    frozenset({Colour.BLUE, Colour.YELLOW}): Colour.GREEN,
}
"""The colour two faces' colours blur into where they meet in a still: red
(hue 0) and green (60) average to a yellow hue, blue and yellow to a weak
green. Session 15 (b-margin) measured red over green and green over red
reading yellow on 9-39 % of the points 0.3-0.8 mm beyond the upper face, blue
under yellow green on up to 2 %; session 16 found a red wink's rim over a
green face reading yellow on nearly every point to 1.3 mm (tuning seed
53558, r4 on g5 on y2). Other pairs blur into one of their own colours or
into none of the four."""


def bleeds(over: Colour, face: Colour, colour: Colour) -> bool:
    """Whether a wink of colour ``over`` lying on a face of colour ``face``
    can show ``colour`` round its rim in a still: its own colour, or the
    blend of the two (:data:`BLENDS`).

    >>> bleeds(Colour.RED, Colour.GREEN, Colour.YELLOW)
    True
    >>> bleeds(Colour.RED, Colour.BLUE, Colour.YELLOW)
    False
    """
    return over is colour or BLENDS.get(frozenset({over, face})) is colour


def fill(mask: Mask, cal: MatCalibration, a: Circle, others: Sequence[Circle] = (),
         blocked: Mask | None = None) -> float:  # fmt: skip
    """The share of a's disc (less its rim, and less what ``others`` cover)
    that ``mask`` covers (0-1); with ``blocked`` (the picture's pixels hidden
    by the pot, where no colour is read), of the disc less those too."""
    xs = np.arange(-a[2], a[2] + 0.01, 1.0)
    gx, gy = np.meshgrid(xs + a[0], xs + a[1])
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    keep = np.hypot(grid[:, 0] - a[0], grid[:, 1] - a[1]) < a[2] - 1.0
    for o in others:
        keep &= np.hypot(grid[:, 0] - o[0], grid[:, 1] - o[1]) > o[2] + 0.5
    if not keep.any():
        return 0.0
    px = cal.to_pixels(grid[keep], a[3])
    if blocked is not None:
        seen = px[sample(blocked, px)[:, 0] == 0]
        if len(seen) < BLOCKED_SEEN_MIN * len(px):
            return 0.0  # too little of it clear of the pot to judge its colour
        px = seen
    return float(sample(mask, px).mean()) / 255


BLOCKED_SEEN_MIN = 0.25
"""The least part of a disc's samples, for :func:`fill` with ``blocked``,
that must lie clear of the pot for its colour to be judged at all (else
0.0, as :func:`fill` gives a disc wholly hidden by ``others``). Tuning
seed 95102: r5 (16 mm) against the pot's base, under its rim's overhang
and g3, 36 of its 114 samples clear of the pot, 95 % red there."""


def arc_darkness(grey: NDArray[np.uint8], cal: MatCalibration, a: Circle, b: Circle,
                 others: Sequence[Circle] = ()) -> NDArray[np.float64]:  # fmt: skip
    """The grey on a's edge where it runs inside b (darker: a's edge is
    seen), less where it runs under or along any of ``others`` (empty:
    nowhere)."""
    ang = np.linspace(0, 2 * math.pi, 96, endpoint=False)
    ring = np.column_stack([a[0] + (a[2] + 0.1) * np.cos(ang), a[1] + (a[2] + 0.1) * np.sin(ang)])
    inside = np.hypot(ring[:, 0] - b[0], ring[:, 1] - b[1]) < b[2] - 1.0
    # under a third wink, or by its dark edge and shadow, judged by its plan disc: the shadow
    # falls on the faces below it (session 15: judged at its face's height, as clear_of
    # judges a face, fresh tuning 54274's r3 on r1 under b6 was left open)
    for o in others:
        inside &= np.hypot(ring[:, 0] - o[0], ring[:, 1] - o[1]) > o[2] + 0.7
    if not inside.any():
        return np.zeros(0)
    return np.asarray(sample(grey, cal.to_pixels(ring[inside], a[3])), np.float64)
