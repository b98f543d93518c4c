"""Second circles: another wink of a fit's colour lying on it and reaching
past its rim makes one blob with it, so the fit's own rays run on beyond
its circle to the other wink's edge; the circle of either size through
those edge points is that wink (:func:`second_circles`), unless they are
only the arc of a wink found already (:func:`_rim_of`) or too short an arc
to place a circle (:data:`BEYOND_ARC_DEG`). Part of
:func:`vision.mat.winks.find_winks`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from vision.mat import onefit
from vision.mat.camera import MatCalibration
from vision.mat.fit import RAYS, EdgeSet, fixed_all
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.voting import VOTED_MM
from vision.mat.voting import held as _held
from vision.mat.wink_fit import Fit

BEYOND_MM = 0.6
"""Edge points this far outside a fit are another wink's."""


def second_circles(cal: MatCalibration, es: EdgeSet, fits: list[Fit], loose_mm: float,
            apart_mm: tuple[float, float]) -> list[Fit]:  # fmt: skip
    """Second circles: where a fit's own rays ran well beyond it (another
    wink of its colour, lying on it and reaching past its rim, makes one
    blob with it), the circle of either size through those edge points,
    unless they are the arc of a wink found (:func:`_rim_of`: of the fits
    kept within ``loose_mm``, :func:`~vision.mat.onefit.dedupe`'s with
    ``apart_mm``).

    Every fit's points are mapped, and every circle fitted, in one call each
    (a crop has a handful of fits: a call per fit was most of the time)."""
    if not fits:
        return []
    rows = np.array([f.row for f in fits], np.int64)
    pts = cal.to_mat(es.points[rows].reshape(-1, 2), WINK_THICKNESS_MM).reshape(len(rows), RAYS, 2)
    centre = np.array([[f.x, f.y] for f in fits])
    rim = np.array([f.size / 2 + BEYOND_MM for f in fits])
    far = es.ok[rows] & (np.hypot(pts[..., 0] - centre[:, None, 0],
                                  pts[..., 1] - centre[:, None, 1]) > rim[:, None])  # fmt: skip
    seen = np.flatnonzero(far.sum(axis=1) >= 6)
    if not len(seen):
        return []
    starts = []
    for k in seen:
        mid = pts[k][far[k]].mean(axis=0)
        way = (mid - centre[k]) / max(float(np.hypot(*(mid - centre[k]))), 1e-6)
        starts += [mid - way * size / 2 for size in (16, 22)]
    both = np.repeat(seen, 2)
    sizes = np.tile([16, 22], len(seen))
    got = fixed_all(pts[both], far[both], np.array(starts), sizes / 2)
    found = onefit.dedupe([o for o in fits if onefit.kept(o, fits, loose_mm)], apart_mm)
    out = []
    for n, k in enumerate(seen):
        tries = [(float(got[3][m]), int(sizes[m]), float(got[0][m]), float(got[1][m]))
                 for m in (2 * n, 2 * n + 1) if got[2][m] >= 6]  # fmt: skip
        if tries:
            rms, size, x, y = min(tries)  # the size that fits them closer (an arc's bend)
            arc = pts[k][far[k]]
            # no candidate of its own (row -1): not refitted one level up
            f = Fit(fits[k].colour, size, x, y, rms, False, -1, 0.0)
            on = arc[_held(arc, f)]
            if (rms <= 0.15 and arc_deg(arc, x, y, size / 2) >= BEYOND_ARC_DEG
                    and not _rim_of(on, f, found)):  # fmt: skip
                out.append(f)
    return out


def _rim_of(arc: NDArray[np.float64], f: Fit, found: list[Fit]) -> bool:
    """Whether the edge points ``arc`` of a second circle ``f`` all lie on
    the rim (:data:`~vision.mat.voting.VOTED_MM`) of a wink ``found`` of its
    colour and the other size: that wink's arc. Circles of the two sizes
    3 mm apart, the radii's difference, touch inside, and a short arc near
    where they touch fits either (tuning seed 80431: b1's arc beyond a loose
    16 mm fit of another candidate, 6 points, made a 16 mm circle 3.1 mm
    inside b1's 22 mm fit, RMS 0.10, kept as a false wink lying on b1; 80921,
    80960 alike). A small wink reaching past a large one's rim, the circle
    this looks for, leaves it outside that rim. Only a fit that stands for a
    wink counts, not one that gives way to another of its wink
    (:func:`~vision.mat.onefit.dedupe`): 80961's g3, 16 mm, had its second
    circle's points on a 22 mm circle 3.1 mm off through its own arc, kept
    (RMS 0.247, within the loose 0.25) but a copy of g2's fit 1.8 mm away."""
    return any(o.colour is f.colour and o.size != f.size and bool(_held(arc, o).all())
               for o in found)  # fmt: skip


BEYOND_ARC_DEG = 40.0
"""A second circle (:func:`second_circles`) is kept only if the edge points on it
span this much of it, seen from its centre. A circle of a given size
through a short arc can turn about the arc: its centre is fixed only by
the arc's bend, which over a millimetre or two is lost in the points'
scatter (tuning seeds 40947, r3 on r1 under y1, and 40371, r4 on r3 under
b5: 6 points over 10-12 degrees, a 1.5 mm chord, RMS 0.10 mm, each circle
4.0-4.5 mm off the middle wink's centre, towards the lower wink's; it
stood for the wink, so its ring (:func:`~vision.mat.winks._ringed`) and its refit clear of
the others' rims (:func:`~vision.mat.winks._unexplained`) were turned away as found
already). On tuning seeds 50800-51999 the second circles within 1 mm of a
wink of their size spanned 47 degrees or more (916); those under 40 (2)
lay 2.8 and 3.2 mm off."""


def arc_deg(pts: NDArray[np.float64], x: float, y: float, r: float) -> float:
    """How many degrees of the circle (``x``, ``y``, ``r``) its points among
    ``pts`` (within :data:`~vision.mat.voting.VOTED_MM` of it) span: the
    whole turn less the widest gap between them."""
    d = pts - (x, y)
    on = np.abs(np.hypot(d[:, 0], d[:, 1]) - r) < VOTED_MM
    if on.sum() < 2:
        return 0.0
    ang = np.sort(np.arctan2(d[on, 1], d[on, 0]))
    gaps = np.diff(ang, append=ang[0] + 2 * math.pi)
    return float(np.degrees(2 * math.pi - gaps.max()))
