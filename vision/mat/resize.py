"""A still's partial fit given the other size where that fits its own edge
points better: used by :func:`~vision.mat.winks.find_winks` after the
votes (:func:`~vision.mat.voting.revote`)."""

from __future__ import annotations

import numpy as np

from vision.mat.camera import MatCalibration
from vision.mat.fit import RAYS, EdgeSet, fixed_all
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.voting import VOTED_MM, held
from vision.mat.wink_fit import Fit

LOOSER_MM = 0.15
"""Only a fit looser than this (RMS) is tried at the other size: that must
fit within :data:`CLOSER` of it, and a circle of the wrong size through a
long arc fits it loosely (the fits replaced on fresh tuning seeds
52000-52599 and on 46803: RMS 0.207-0.243). A cost bar: trying every
partial fit cost 1.2 ms of CPU a frame on tuning seeds 46000-46099, this
bar 0.65 (a :func:`~vision.mat.fit.fixed_all` call in about three crops in
four; 0.18 would leave 0.5)."""
CLOSER = 0.6
"""A fit is given the other size only where that fits its points within
this share of its RMS (as :data:`~vision.mat.hints.OTHER_SIZE` for a
hint refitted at the other size)."""


def resized(
    cal: MatCalibration, es: EdgeSet, fits: list[Fit], loose_mm: float
) -> tuple[EdgeSet, list[Fit]]:
    """``fits`` with each of a still's partial fits between :data:`LOOSER_MM`
    and ``loose_mm`` (RMS) that was not voted again (:attr:`Fit.voted`: a voted
    circle is the better of both sizes already) replaced by the circle of
    the other size started at its centre, where that holds more of its
    candidate's edge points and fits them within :data:`CLOSER` of its RMS;
    that row's points narrowed to the new circle's (so that the lift refits
    it alike).

    Both sizes of :func:`~vision.mat.winks.fit` start from the
    least-squares centre of all the candidate's points; where its rays ran
    into the winks over it, that lies off its arc, and the size that wins
    there may not be its own (tuning seed 46803: r3, 16 mm, under r6 on r2,
    all red: a 22 mm circle 3.5 mm off held 30 of its 39 points with RMS
    0.21 mm, within the still's 0.25, and, holding over
    :data:`~vision.mat.voting.REVOTE_HELD` of them, was not voted again; a
    16 mm circle started at its centre holds 32 with RMS 0.11, 0.5 mm off
    before the lift). On fresh tuning seeds 52000-52599 it replaced 5 fits,
    each 3.2-3.7 mm off (4 of them 22 mm circles through a 16 mm wink's arc),
    by circles 0.1-1.0 mm off. Every such fit's circle is fitted in one call."""
    at = [
        i
        for i, f in enumerate(fits)
        if not f.voted and f.row >= 0 and not f.whole and LOOSER_MM < f.rms <= loose_mm
    ]
    if not at:
        return es, fits
    rows = np.array([fits[i].row for i in at], np.int64)
    pts = cal.to_mat(es.points[rows].reshape(-1, 2), WINK_THICKNESS_MM).reshape(len(rows), RAYS, 2)
    ok = es.ok[rows]
    centre = np.array([[fits[i].x, fits[i].y] for i in at])
    size = np.array([fits[i].size for i in at], np.float64)
    r = np.where(size == 22, 8.0, 11.0)
    x, y, n, rms = fixed_all(pts, ok, centre, r)
    own = ok & (np.abs(np.hypot(pts[..., 0] - centre[:, None, 0], pts[..., 1] - centre[:, None, 1])
                       - size[:, None] / 2) < VOTED_MM)  # fmt: skip
    out = list(fits)
    keep = es.ok
    for k, i in enumerate(at):
        f = fits[i]
        if n[k] <= own[k].sum() or rms[k] > CLOSER * f.rms:
            continue
        out[i] = g = Fit(f.colour, int(2 * r[k]), float(x[k]), float(y[k]), float(rms[k]), False,
                         f.row, f.depth, f.blob)  # fmt: skip
        if keep is es.ok:
            keep = es.ok.copy()
        keep[f.row] &= held(cal.to_mat(es.points[f.row], WINK_THICKNESS_MM), g)
    return (es if keep is es.ok else EdgeSet(es.cands, es.points, keep)), out
