"""Where the painted boundary tape's edges lie in a look's crop.

The tape is the landing square's boundary line, ``line_mm`` wide, inside the
square's edge (:class:`~vision.floor.FloorLayout`); calibration maps the floor
plane to the image, and a look's crop is that floor plane rectified, so the
tape's two edges (the square's outer edge and the line's inner edge) are
known straight lines in it. On the tape a grey coin is darker than the tape
by one factor, as a shadow is, and its outline there is lost, while the
tape's edge is a stronger step than the coin's rim: the outline of a flat
coin lying across it reads oval. Points of an outline that lie on the
tape's edge are the tape's, not the coin's (:func:`off_tape`).

>>> from vision.floor import FloorLayout
>>> lay = FloorLayout(1500.0, 50.0)
>>> [round(float(d), 1) for d in edge_distance(lay, np.array([[49.0, 700.0], [-3.0, 700.0]]))]
[1.0, 3.0]
>>> round(float(edge_distance(lay, np.array([[700.0, 700.0]]))[0]), 1)
650.0
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.coinface import Ellipse
from vision.floor import FloorLayout

Points = NDArray[np.float64]


def edges(layout: FloorLayout) -> list[tuple[float, float, float, float]]:
    """The tape's edges as segments (x0, y0, x1, y1) in floor mm: the
    square's outer edge and the line's inner edge, four sides each."""
    out: list[tuple[float, float, float, float]] = []
    for lo, hi in ((0.0, layout.side_mm), (layout.line_mm, layout.side_mm - layout.line_mm)):
        out += [(lo, lo, hi, lo), (hi, lo, hi, hi), (hi, hi, lo, hi), (lo, hi, lo, lo)]
    return out


def edge_distance(layout: FloorLayout, points: Points) -> NDArray[np.float64]:
    """Each floor point's (an (n, 2) array, mm) distance to the nearest tape
    edge, mm."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    best = np.full(len(p), np.inf)
    for x0, y0, x1, y1 in edges(layout):
        d = np.array([x1 - x0, y1 - y0])
        t = np.clip(((p - [x0, y0]) @ d) / float(d @ d), 0.0, 1.0)
        near = np.array([x0, y0]) + t[:, None] * d
        best = np.minimum(best, np.hypot(*(p - near).T))
    return best


def distance_at(layout: FloorLayout, x: float, y: float) -> float:
    """:func:`edge_distance` of one floor point (mm), without NumPy (a few
    microseconds: it is asked of every leaning view).

    >>> distance_at(FloorLayout(1500.0, 50.0), 49.0, 700.0)
    1.0
    """
    best = math.inf
    for x0, y0, x1, y1 in edges(layout):
        dx, dy = x1 - x0, y1 - y0
        t = min(max(((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy), 0.0), 1.0)
        best = min(best, math.hypot(x - x0 - t * dx, y - y0 - t * dy))
    return best


def on_tape(layout: FloorLayout, points: Points) -> NDArray[np.bool_]:
    """Which floor points ((n, 2), mm) lie on the tape."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    s, w = layout.side_mm, layout.line_mm
    square = np.all((p >= 0) & (p <= s), axis=1)
    inner = np.all((p > w) & (p < s - w), axis=1)
    return np.asarray(square & ~inner)


def off_tape(layout: FloorLayout, points: Points, reach_mm: float, band: bool) -> NDArray[np.bool_]:
    """Which floor points ((n, 2), mm) lie farther than ``reach_mm`` from
    every tape edge (``band``: and off the tape)."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    off = edge_distance(layout, p) > reach_mm
    return np.asarray(off & ~on_tape(layout, p) if band else off)


NEAR = 0.65
"""An outline is asked whether the tape made it oval when its centre lies
within this share of its length of a tape edge (a coin's outline reaches
half its length; the rest is its blur and where it was located)."""
REACH_MM = 1.5
"""An outline's point this near a tape edge (mm) is the tape's: the
silhouette is traced at half the crop's resolution (0.5 mm a pixel) and
closed by a 3 x 3 square, the stills are blurred up to 0.6 mm."""
MIN_SPAN = 200.0
"""The points left must run round this many degrees of the refitted
ellipse's centre: fewer leave an arc that many ellipses fit."""


def span_deg(points: Points, x: float, y: float) -> float:
    """How many degrees round (x, y) ``points`` cover (360 less the widest gap)."""
    a = np.sort(np.degrees(np.arctan2(points[:, 1] - y, points[:, 0] - x)) % 360.0)
    if len(a) < 2:
        return 0.0
    gaps = np.diff(np.concatenate([a, [a[0] + 360.0]]))
    return float(360.0 - gaps.max())


def ellipse(points: Points) -> Ellipse | None:
    """The ellipse fitted to (n, 2) crop points, five or more (major >=
    minor); None when they are collinear."""
    (x, y), (a, b), angle = cv2.fitEllipse(np.asarray(points, np.float32))
    if not np.isfinite([x, y, a, b, angle]).all():
        return None
    return Ellipse(x, y, max(a, b), max(min(a, b), 1.0), angle if a >= b else angle + 90)


def refit(
    layout: FloorLayout, points: Points, origin: tuple[float, float], ppm: float, band: bool
) -> Ellipse | None:
    """The ellipse fitted to an outline's crop ``points`` ((n, 2) pixels, the
    crop's corner at floor ``origin`` mm, ``ppm`` pixels a mm) left when
    those within :data:`REACH_MM` of a tape edge (``band``: or on the tape)
    are dropped; None when none or all of them were, fewer than 12 are
    left, or what is left runs round less than :data:`MIN_SPAN` degrees."""
    off = off_tape(layout, points / ppm + origin, REACH_MM, band)
    kept = points[off]
    if len(kept) < 12 or off.all():
        return None
    fit = ellipse(kept)
    if fit is None or span_deg(kept, fit.x, fit.y) < MIN_SPAN:
        return None
    return fit
