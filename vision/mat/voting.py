"""Circles voted by part of a candidate's edge points: where rays ran on
into the winks joined to a wink, a least-squares circle is dragged off it,
and the circle that most of the points vote for (:func:`vision.mat.fit.voted`)
is the wink's own. :mod:`vision.mat.winks` votes the candidates no close fit
came from, a second wink among the points a voted circle leaves, and a
still's partial fits again (:func:`revote`)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from vision.mat.camera import MatCalibration
from vision.mat.fit import EdgeSet, fixed_all, voted
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.wink_fit import Fit

VOTED_MM = 0.7
"""The edge points within this of a circle from :func:`vote` are its own
(:func:`~vision.mat.fit.fixed_all`'s last inlier band)."""


VOTED_SLACK = 2
"""Of the circles :func:`vote` tries, those holding all but this many of
the most points any holds are weighed by their RMS (tuning seed 40728: of
r2's crescent, a 22 mm wink under b6 and b1, a 16 mm circle held 24 of 29
points with RMS 0.17, r2's own 22 points with RMS 0.08)."""
VOTED_RMS_GAIN = 0.8
"""Of those circles, one holding fewer points than the most wins only with
an RMS under this share of the best RMS among those holding the most
(session 16; until then the lowest RMS won outright). The points a circle
does not hold are left out of its RMS, so a circle through fewer of them
fits them closer for that alone, and over a short arc both sizes fit alike
(tuning seed 54227: y5, 16 mm, the middle of a one-colour pile: a 22 mm
circle 3.1 mm off through 17 of 18 points, RMS 0.179, against the 16 mm one
through all 18, RMS 0.221: 0.81). Every vote of tuning seeds 53000-54199
and 40000-40599 logged: of those where the lowest RMS held fewer than the
most and one of the two circles was the wink's own (its size, within
1.5 mm), the lowest RMS was right 16 times at shares 0.23-0.82 (40728's
0.47) and the most held 26 times at 0.47-0.96; from 0.8 up, 1 against 9."""
VOTED_APART_MM = 5.5
"""A circle :func:`vote` chose over the least-squares start's lying this
close to a fit of its colour of the other size is that wink's arc (the
still's 2.5 mm for fits of unlike sizes and the radii's 3 mm difference, as
for a second circle in :func:`~vision.mat.onefit.dedupe`)."""


def held(points: NDArray[np.float64], f: Fit) -> NDArray[np.bool_]:
    """Which of ``points`` (mm on the mat) lie on ``f``'s circle, within
    :data:`VOTED_MM`."""
    return np.abs(np.hypot(points[:, 0] - f.x, points[:, 1] - f.y) - f.size / 2) < VOTED_MM


def vote(cal: MatCalibration, es: EdgeSet, row: int, g: Fit | None,
         pts: NDArray[np.float64] | None = None) -> Fit | None:  # fmt: skip
    """``g``, the partial fit of candidate ``row``, or the circle of either
    size started where most of its points vote for (:func:`~vision.mat.fit.voted`)
    if that holds more of them (of those holding nearly as many,
    :data:`VOTED_SLACK`, the closest, but one holding fewer than the most
    only if clearly closer, :data:`VOTED_RMS_GAIN`; tuning seed 40720: b6, 16 mm, the top of a
    one-colour pile, whose rays crossed its dark edge over the faces below
    and ended on their rims; of the 16 edge points left, 13 lie on its arc,
    but the least-squares start lay 4.8 mm off, a 16 mm circle from there
    held none of them, and a 22 mm one held 9, 2.7 mm off). ``pts``: the
    row's edge points on the mat, when the caller has them."""
    if g is not None and g.whole:
        return g
    if pts is None:
        pts = cal.to_mat(es.points[row][es.ok[row]], WINK_THICKNESS_MM)
    if g is not None and held(pts, g).sum() >= len(pts) - 2:
        return g  # it holds nearly all of them: no circle could hold many more
    starts = [(s, size, False) for size in (22, 16) for s in (voted(pts, size / 2),)
              if s is not None]  # fmt: skip
    if g is not None:
        starts.append(((g.x, g.y), g.size, True))
    if not starts:
        return g
    x, y, n, e = fixed_all(np.repeat(pts[None], len(starts), axis=0),
                           np.ones((len(starts), len(pts)), bool),
                           np.array([s for s, _, _ in starts]),
                           np.array([size / 2 for _, size, _ in starts]))  # fmt: skip
    most = int(n.max())
    near = [(float(e[k]), not starts[k][2], starts[k][1], float(x[k]), float(y[k]), int(n[k]))
            for k in range(len(starts)) if n[k] >= most - VOTED_SLACK]  # fmt: skip
    best, top = min(near), min(c for c in near if c[5] == most)
    rms, voted_start, size, cx, cy, _ = best if best[0] < VOTED_RMS_GAIN * top[0] else top
    if most < 8 or not voted_start:  # as fitted (a tie goes to it)
        return g
    c = es.cands[row]
    return Fit(c.colour, size, cx, cy, rms, False, row, c.depth_px, c.blob, voted=True)


REVOTE_HELD = 0.75
"""A still's partial fit holding this share of its candidate's edge points
(within :data:`VOTED_MM`) is not voted again by :func:`revote`. Voting
every partial fit, loose ones too, on fresh tuning seeds 45200-45219: of
338 fits, 272 held as much, and a vote moved 2 of them (0.3 mm or more, or
to the other size: 27 of 33 and 27 of 35 points held) against 7 of the
other 66; voting them all cost about 13 ms of CPU a frame (loaded host).
The misfits of tuning seeds 42066, 44172 and 47431 held 0.22-0.68 of
their points."""


def revote(cal: MatCalibration, es: EdgeSet, fits: list[Fit],
             loose_mm: float) -> tuple[EdgeSet, list[Fit]]:  # fmt: skip
    """A still's partial ``fits`` within ``loose_mm`` (RMS), each replaced by
    :func:`vote`'s circle where that holds more of its candidate's edge
    points, with that row's points narrowed to the circle's (so that the
    lift refits it alike). Looser fits are voted in :func:`~vision.mat.winks._unexplained`,
    clear of the points on the rims of the fits kept (voted here, tuning
    seed 40720's loose 22 mm circle through b6's arc became b2's, and b6,
    whose arc its row had held, was lost).

    The fixed-size fits of :func:`~vision.mat.winks.fit` start from the least-squares centre
    of all the candidate's points; where its rays crossed into winks joined
    to it, that lies between them, and a circle from there can hold more
    points at the wrong size than at the right one (session 14, tuning seed
    42066: b4, 16 mm, whose rays ran on into b1 and g6 over it, held 16 of
    45 points on a 22 mm circle 3.2 mm off, RMS 0.248, within the still's
    0.25, and 13 on a 16 mm one 2.6 mm off; 29 lie on its own arc, which
    the voted 16 mm circle holds, 0.1 mm off). Until then only candidates
    with no close fit were voted (:func:`~vision.mat.winks._unexplained`). A fit holding
    :data:`REVOTE_HELD` of its points is kept as it is, and so is one the
    voted circle holds fewer points than (by :func:`held`; fresh tuning
    seed 49052: b4, 16 mm, holding 22 of 41, was replaced by a 22 mm circle
    2.9 mm off holding 21, which vote's own count preferred, and read
    under b2: a false squop). One holding as many is taken: :func:`vote`
    chose it over the fit's own start by its RMS among circles holding
    nearly as many (session 15, tuning seed 51641: y6, 16 mm, under y2 on
    y4, all yellow, fitted as a 22 mm circle 3.4 mm off through 25 of 40
    points, RMS 0.167; the voted 16 mm circle, 0.4 mm off, held the same 25
    with RMS 0.118, was turned away, and y4 read on y6: a false squop),
    unless it is the fit's own circle again (:func:`_same`: on tuning seeds
    53000-53599, 92 of the votes tied in points held, nearly all the fit's
    own circle; taken, it would only be marked voted)."""
    ok = es.ok
    out = []
    for f in fits:
        g: Fit | None = f
        if f.row >= 0 and not f.whole and (f.voted or f.rms <= loose_mm):
            pts = cal.to_mat(es.points[f.row][es.ok[f.row]], WINK_THICKNESS_MM)
            kept = int(held(pts, f).sum())
            if kept < REVOTE_HELD * len(pts):
                g = vote(cal, es, f.row, f, pts)
                n = int(held(pts, g).sum()) if g is not None else 0
                if g is not None and (n < kept or (n == kept and _same(f, g))):
                    g = f  # vote's count is fixed_all's, not held's: a circle holding fewer
        if g is not None and g is not f:
            if ok is es.ok:
                ok = es.ok.copy()
            ok[f.row] &= held(cal.to_mat(es.points[f.row], WINK_THICKNESS_MM), g)
            f = g
        out.append(f)
    return (es if ok is es.ok else EdgeSet(es.cands, es.points, ok)), out


SAME_MM = 0.1
"""A voted circle of the fit's size whose centre lies this close to the
fit's is the fit's own circle (:func:`revote`)."""


def _same(f: Fit, g: Fit) -> bool:
    """Whether ``g`` is ``f``'s own circle (:data:`SAME_MM`)."""
    return f.size == g.size and math.hypot(f.x - g.x, f.y - g.y) < SAME_MM
