"""A 16 mm wink fitted as a 22 mm circle internally tangent to its arc.

A partial fit's size is chosen from its edge points (how many each size
holds, or how closely it fits them), and where the points cover only part
of a 16 mm wink's rim a 22 mm circle through them, about 3 mm off (11 - 8),
can win: the wink is read at the wrong size and place, or a second,
false wink of its colour is added beside it (session 18's class B).

What tells them apart is the picture, not the points: a real wink shows
its own dark edge (its side wall and the shadow line under its rim) all
along the part of its rim that nothing lies over; a 22 mm circle that is
really a 16 mm wink's arc seen at the wrong radius shows it only where it
runs along that arc, and where it leaves the small wink's disc it runs over
mat or a lower wink's face, with no edge. :func:`edge_share` measures this
with :mod:`vision.mat.rings`' samplers: a rim point shows an edge where the
wink's colour lies inside it and not outside (a face on the mat, or on a
wink of another colour), or where the band just past it is darker than the
faces sampled either side clear of the blur (a face on a wink of its
colour, as a ring). The band alone does not do: over the felt, brighter
than a face in grey and in the face's channel, the blurred edge lies
between the two (tuning seed 64887: bands darker than the darker side on
none of the rim points of real winks over the mat).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat import onefit, rings
from vision.mat.camera import MatCalibration
from vision.mat.fit import EdgeSet, fixed_all
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.segment import Mask
from vision.mat.shows import Circle
from vision.mat.voting import VOTED_MM, held
from vision.mat.wink_fit import Fit

N_ANGLES = 96
"""Points round a rim (about one every 0.7 mm of a 22 mm wink's)."""
NEAR_RIM_MM = 1.0
"""A rim point any of whose samples lies within this of another wink's dark
edge is not looked at (that edge would show as this circle's)."""
DARK = 0.15
"""A rim point shows a dark band where it is darker than the darker of the
faces either side by this share of their grey (a real wink's edge on a face
of its colour in the face channel: 0.03-0.24 at p10-p90 on tuning seeds
72367, 73966, 64887)."""
OFF_MM = (2.0, 4.5)
"""How far the 16 mm circle through a 22 mm fit's points may lie from it:
internally tangent circles lie 11 - 8 = 3 mm apart; session 18 found the
misfits 2.4-3.9 mm off."""
SIZES = (22,)
"""The sizes of fits checked: a 16 mm fit can be a 22 mm wink's arc too (6
of the 12 false winks of tuning seeds 69000-70999), but there the shares
do not part: of 2792 partial fits of real 16 mm winks on seeds
69000-69399, 295 showed their edge round 0.6 of their rim or less (a 16 mm
rim runs more of its length near other winks' edges), and the misfits
0.33-0.56."""
MIN_POINTS = 12
"""Each circle's share is taken only over this many rim points or more."""
NO_EDGE = 0.35
"""A 22 mm fit whose rim shows its edge round no more than this share of
the points looked at may be a misfit (tuning seeds 69000-69399: 4 of 1607
partial 22 mm fits of real winks showed so little, each where the 16 mm
circle through its points showed no more; the misfits kept as winks
showed 0.00-0.33)."""
MARGIN = 0.3
"""It is one where the 16 mm circle shows its edge round this much more of
its rim (a share). The misfits cured on tuning seeds 69000-70999 and
72000-74999 (and 64887) showed 0.31-0.54 more round it; partial fits of
real 22 mm winks under :data:`NO_EDGE` at most 0.04 more on 69000-69399,
but 0.21-0.23 more on 73538 (g2, most of its rim under other winks; at
0.15 it was read as a false 16 mm wink)."""


def retake(cal: MatCalibration, image: NDArray[np.uint8], grey: NDArray[np.uint8],
           masks: dict[Colour, Mask], es: EdgeSet, fits: list[Fit],
           loose_mm: float, looked: Sequence[Fit] | None = None,
           ) -> tuple[EdgeSet, list[Fit]]:  # fmt: skip
    """``fits`` with each partial 22 mm fit replaced by the 16 mm circle
    through its edge points (those of its colour's candidates that lie on it),
    where that lies :data:`OFF_MM` from it and shows its edge round
    :data:`MARGIN` more of its rim (:func:`edge_share`): a 16 mm wink's arc
    fitted at the wrong size. Where it shows no more edge there (or lies
    elsewhere), the 16 mm circle started where it would touch the fit's
    circle, if that lies :data:`OFF_MM` from it, is taken when its edge
    shows as a ring on a 22 mm fit of its colour (:func:`ringed`: the top of
    a pile of one colour, whose rim over the faces under it passes
    :func:`edge_share`'s bars round little of it; session 21, tuning seeds
    76387 and 80139). The edge set's row narrowed to the new
    circle's points (so that the lift refits it alike). A 22 mm second
    circle beside the 16 mm fit of that wink becomes a copy of it, which
    :func:`~vision.mat.onefit.dedupe` drops.

    Made on tuning seeds 73966 (b3 under r3 on b4: a 22 mm second circle
    2.9 mm off, a false squop), 64887 (g6 on g5 on g1: 3.1 mm off, the top
    wink read at the wrong size) and the partial fits of 69000-69399; on
    69000-70999 and 72000-74999 it also dropped four false 22 mm winks
    (69300, 69924, 73153, 74259). Not 72367 (b5 under b1 on b6, all blue:
    the 22 mm circle leaves b5 under b1, where neither circle can show
    an edge).

    Only fits the still keeps are looked at (within ``loose_mm`` RMS, or
    another candidate's fit of the same circle: :func:`~vision.mat.onefit.backed`):
    a loose one's row is fitted again without the other winks' rims
    (:func:`~vision.mat.winks._unexplained`), unless its points were
    narrowed to the 16 mm circle here (tuning seed 72693: y5 under b1 and
    y6; a 22 mm fit through both, RMS 0.38, became y6's circle, and y5,
    found before from that row, was lost with two relations).

    ``looked``: only those of ``fits`` are looked at, whatever their RMS
    (the fits :func:`~vision.mat.hints.rescue` made from the video's hints,
    which runs after this and keeps a fit up to its
    :data:`~vision.mat.hints.RESCUE_MM`; ``fits`` holds them with the fits
    kept, the faces of :func:`ringed`). A hint refitted at the other size
    is the same misfit as a candidate's own: the video saw the top of a
    one-colour pile as a 22 mm circle, or the crop's own 16 mm fit was
    too loose and the hint's refit at 22 mm, tangent to its arc, fitted
    closer (session 21, tuning seeds 81655: g5 on r2 and g6, 3.9 mm off,
    RMS 0.200; 82478: y3 on y1 and y4, 3.3 mm off, RMS 0.392, two false
    squops). A rescued fit's candidate is any of its colour inside the
    hint, and may be another kept fit's own: that row is not narrowed to
    the new circle, which would take the other fit's points from its refit
    a level up (82478: y3 was refitted from y1's candidate; narrowed, y1's
    lift lost its arc and y4 was read on y1, a false squop)."""
    at = [i for i, f in enumerate(fits) if f.size in SIZES and not f.whole
          and (any(f is g for g in looked) if looked is not None
               else onefit.kept(f, fits, loose_mm))]  # fmt: skip
    if not at:
        return es, fits
    pts = cal.to_mat(es.points.reshape(-1, 2), WINK_THICKNESS_MM).reshape(es.points.shape)
    colour = np.array([c.colour.value for c in es.cands])
    ons = []  # each fit's points: its colour's edge points on its circle
    for i in at:
        f = fits[i]
        mine = es.ok & (colour == f.colour.value)[:, None]
        ons.append(pts[mine & (np.abs(np.hypot(pts[..., 0] - f.x, pts[..., 1] - f.y) - f.size / 2)
                               < VOTED_MM)])  # fmt: skip
    most = max(len(p) for p in ons)
    padded = np.zeros((len(at), most, 2))
    ok = np.zeros((len(at), most), bool)
    for k, p in enumerate(ons):
        padded[k, : len(p)] = p
        ok[k, : len(p)] = True
    sizes = np.array([38 - fits[i].size for i in at])  # the other size
    centre = np.array([[fits[i].x, fits[i].y] for i in at])
    mid = np.array([p.mean(axis=0) if len(p) else c for p, c in zip(ons, centre, strict=True)])
    way = mid - centre  # towards the middle of its points: where a small wink's arc touches it
    way /= np.maximum(np.hypot(way[:, 0], way[:, 1]), 1e-6)[:, None]
    touch = centre + way * (np.array([fits[i].size for i in at]) - sizes)[:, None] / 2
    # one call: each circle started at the fit's centre, then where it would touch the
    # fit's circle (started concentric, 76387's lost every point: each lies 3 mm off it)
    x, y, n, rms = fixed_all(np.concatenate([padded, padded]), np.concatenate([ok, ok]),
                             np.concatenate([centre, touch]), np.tile(sizes, 2) / 2)  # fmt: skip
    out = list(fits)
    faces: dict[Colour, NDArray[np.uint8]] = {}  # each colour's channel, copied once a still
    keep = es.ok
    for k, i in enumerate(at):
        f = fits[i]
        m = k + len(at)  # the circle started where it would touch the fit's
        first = _alt(f, int(sizes[k]), len(ons[k]), x[k], y[k], n[k], rms[k])
        touching = _alt(f, int(sizes[k]), len(ons[k]), x[m], y[m], n[m], rms[m])
        alt = first or touching
        if alt is None:
            continue
        rest = [o.circle() for o in fits if not _same(o, f) and not _same(o, alt)]
        if f.colour not in faces:
            faces[f.colour] = rings.face_channel(image, grey, f.colour)
        face = faces[f.colour]
        own, n_own = edge_share(face, masks[f.colour], cal, f.circle(), rest)
        if n_own < MIN_POINTS or own > NO_EDGE:  # the fit shows its edge: most do
            continue
        if first is not None:
            other, n_other = edge_share(face, masks[f.colour], cal, first.circle(), rest)
            if n_other < MIN_POINTS or other - own < MARGIN:
                alt = None
        if alt is None or alt is touching:  # its rim shows no more edge: a ring, then?
            alt = touching if touching and ringed(face, cal, touching, f, fits, loose_mm) else None
            if alt is None:
                continue
        out[i] = alt
        narrow = looked is None or not any(o.row == f.row for o in fits if o is not f)
        if f.row >= 0 and narrow:  # a rescued fit's row may be another fit's own: left whole
            if keep is es.ok:
                keep = es.ok.copy()
            keep[f.row] &= held(pts[f.row], alt)
    return (es if keep is es.ok else EdgeSet(es.cands, es.points, keep)), out


def _alt(f: Fit, size: int, points: int, x: float, y: float, n: int, rms: float) -> Fit | None:
    """The circle of ``size`` fitted through ``f``'s ``points`` edge points
    on it (centre ``x``, ``y``, holding ``n``), if it holds 8 or more and
    lies :data:`OFF_MM` from ``f``."""
    if (
        points < 8
        or n < 8
        or not OFF_MM[0] <= math.hypot(float(x) - f.x, float(y) - f.y) <= OFF_MM[1]
    ):
        return None
    return Fit(f.colour, size, float(x), float(y), float(rms), False, f.row, f.depth, f.blob)


def ringed(face: NDArray[np.uint8], cal: MatCalibration, alt: Fit, f: Fit, fits: list[Fit],
           loose_mm: float) -> bool:  # fmt: skip
    """Whether ``alt``, the 16 mm circle through a 22 mm fit ``f``'s points,
    shows its dark edge as a ring on the face of a 22 mm fit of its colour
    that it overlaps (:func:`vision.mat.rings.score` at its centre, clear of
    the other fits but ``f``, which holds it, scoring
    :data:`~vision.mat.rings.RING_MIN`, or
    :data:`~vision.mat.rings.RING_MIN_COVERED` where others lie over part of
    that face: the bars of :func:`~vision.mat.winks._ringed`, which finds a
    small wink on a large one of its colour by that ring).

    A 16 mm wink at the top of a pile of its colour shows its edge over the
    faces under it only as that faint ring: its rays run on over it and
    find it only where it borders the mat, and :func:`edge_share`'s bars
    (its colour inside and not outside, or a band :data:`DARK` under the
    faces) pass round little of its rim (0.12-0.38 for the true circles of
    tuning seeds 76387 and 80139 at any level, against 0.11-0.16 for their
    22 mm misfits). The 22 mm circle tangent to that arc holds as many of
    its points or one more, where it crosses a lower wink's rim (76387: 24
    of 33 against 23; 80139: 21 of 39 against 20), and the top wink is read
    at the wrong size 3 mm off. The ring of the 16 mm circle scored 11.7 on
    r2 (76387) and 5.6 on r1 (80139); rings of no wink score 2.7 at most
    (:data:`~vision.mat.rings.RING_MIN`'s search of 22 mm fits).

    Only a fit the still keeps is such a face (whole, within ``loose_mm``
    RMS, or backed: :func:`~vision.mat.onefit.kept`, as the fits
    :func:`~vision.mat.winks._ringed` searches are): fresh tuning seed
    82235's y2, a real 22 mm crescent under b2 and g6, gave way to the
    16 mm circle along its arc, whose ring scored 5.4 on a loose yellow
    22 mm circle (RMS 0.268) across that arc and the mat beside it: y2's
    own edge read as the ring."""
    for lower in fits:
        if lower.colour is not f.colour or lower.size != 22 or _same(lower, f) or _same(lower, alt):
            continue
        if not onefit.kept(lower, fits, loose_mm):
            continue  # a circle across two winks: its "face" holds their edges
        if math.hypot(lower.x - alt.x, lower.y - alt.y) >= (lower.size + alt.size) / 2:
            continue
        others = [o.circle() for o in fits
                  if not _same(o, f) and not _same(o, lower) and not _same(o, alt)]  # fmt: skip
        got = rings.score(face, cal, lower.circle(), np.array([[alt.x, alt.y]]), others)[0]
        if got >= (rings.RING_MIN_COVERED if others else rings.RING_MIN):
            return True
    return False


SAME_MM = 2.0
"""A fit of ``f``'s colour and size this close to it is a fit of the same
wink: its rim, within :data:`NEAR_RIM_MM` of ``f``'s nearly all round,
would hide it (at 1.5 mm, tuning seed 69924: r5 fitted twice 0.6 mm apart,
and its 16 mm circle through the false 22 mm fit's points between them,
left with no rim to look at)."""


def _same(o: Fit, f: Fit) -> bool:
    """Whether ``o`` is ``f`` or another fit of its wink (:data:`SAME_MM`)."""
    return o.colour is f.colour and o.size == f.size and math.hypot(o.x - f.x, o.y - f.y) < SAME_MM


def edge_share(face: NDArray[np.uint8], mask: NDArray[np.uint8], cal: MatCalibration,
               c: Circle, others: Sequence[Circle] = ()) -> tuple[float, int]:  # fmt: skip
    """Of the points round ``c``'s rim whose samples lie clear of the
    edges of ``others``, the share that shows an edge, and how many were clear. A
    point shows one where its colour (``mask``) is inside the rim and not
    outside (a face on mat or on a wink of another colour), or where the
    band just past the rim is darker than the faces either side by
    :data:`DARK` of their level in ``face`` (the wink's face channel: a
    face on a wink of its colour)."""
    radii, ends = rings.ring_radii(c[2])
    offs = rings.offsets(N_ANGLES, radii)
    centre = np.array([[c[0], c[1]]])
    ok = np.ones(N_ANGLES, bool)
    if others:  # every sample against every other rim at once
        rims = np.array([o[:3] for o in others])[:, :, None, None]  # (others, 3, 1, 1)
        at = offs + centre[0]  # (radii, angles, 2)
        d = np.hypot(at[..., 0] - rims[:, 0], at[..., 1] - rims[:, 1]) - rims[:, 2]
        ok = (np.abs(d - rings.EDGE_MM) >= NEAR_RIM_MM).all(axis=(0, 1))
    lower = (c[0], c[1], c[2], c[3] - WINK_THICKNESS_MM)  # sampled at c's face height
    g = rings.sample(face, cal, lower, centre, offs)[:, 0, :]
    m = rings.sample(mask, cal, lower, centre, offs)[:, 0, :]
    face_in, ring, face_out = (g[i:j].mean(axis=0) for i, j in itertools.pairwise(ends))
    side = np.minimum(face_in, face_out)
    dark = (side - ring) / np.maximum(side, 1.0)
    step = (m[: ends[1]].min(axis=0) > 127) & (m[ends[2] :].max(axis=0) < 128)
    shown = step | (dark >= DARK)
    n = int(ok.sum())
    return (float(shown[ok].mean()) if n else 0.0), n


def arcs(cal: MatCalibration, es: EdgeSet, fits: list[Fit], loose_mm: float) -> list[Fit]:
    """``fits`` less each partial fit that is the arc of a kept fit
    (:func:`~vision.mat.onefit.kept`) of its colour and the other size: its
    edge points on its circle (:data:`~vision.mat.voting.VOTED_MM`) all lie
    on that fit's rim too, while that fit's own do not all lie on its circle.
    Circles of the two sizes 3 mm apart touch inside, and an arc near where
    they touch fits either; points off that common arc tell which wink it
    is, and only the other fit has them (tuning seed 81516: y5, 16 mm, under
    b2, fitted whole at 16 mm, RMS 0.19; two candidates' 22 mm circles
    3.6-3.7 mm off through 24 and 27 of its points, RMS 0.28, all on y5's
    rim, where 9-11 of y5's 33 lie on theirs: one was kept as a false wink;
    70978, r5 under g2, alike, found by the check of tuning 70000-70999).
    Fits with no candidate of their own (row -1) have no points to weigh."""
    rows = {f.row for f in fits if f.row >= 0}
    on: dict[int, NDArray[np.float64]] = {}  # each fit's edge points on its circle, by id
    for row in rows:
        p = cal.to_mat(es.points[row][es.ok[row]], WINK_THICKNESS_MM)
        for f in fits:
            if f.row == row:
                on[id(f)] = p[held(p, f)]
    return [f for f in fits if f.whole or f.row < 0 or not arc_of(f, fits, on, loose_mm)]


def arc_of(f: Fit, fits: list[Fit], on: dict[int, NDArray[np.float64]], loose_mm: float) -> bool:
    """Whether :func:`arcs` drops ``f`` (``on``: each fit's points on its circle, by ``id``)."""
    return any(o.colour is f.colour and o.size != f.size and o.row >= 0
               and onefit.kept(o, fits, loose_mm)
               and bool(held(on[id(f)], o).all()) and not bool(held(on[id(o)], f).all())
               for o in fits)  # fmt: skip
