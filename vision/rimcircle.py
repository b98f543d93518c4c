"""Whether a coin's rim is a circle of the coin's size in the rectified
floor plane: the cue that tells a flat coin on the painted line from a
leaning one when its outline reads oval.

On the white tape a grey coin is darker than the tape by one factor, as a
shadow is, so its silhouette against the empty still loses the part on the
tape (a half disc, dented; 0.36-0.8 round on tuning seed 330), and the edge
fit's rays (:func:`~vision.coinface.refine`, first reaching 1.3 radii) take
the tape's edge, a stronger step than the coin's rim, as the outermost edge
(an oval 1.1-1.25 diameters long). The coin's own rim is still there: a
Hough circle of the coin's size finds it, and rays that reach only a little
either side of that circle (``SPAN``) find the rim on every side, on a
circle. A coin leaning enough to read as leaning (30 degrees or more: its
outline is at most 0.87 of its length across) has no rim along much of
such a circle: there the rays find the floor's grain, the shadow or the
face's relief, which lie on no circle.

>>> import cv2
>>> crop = np.full((300, 300, 3), 220, np.uint8)
>>> _ = cv2.circle(crop, (150, 150), 48, (120, 120, 120), -1, cv2.LINE_AA)
>>> rim = rim_circle(crop, 96.0)
>>> round(rim.diameter), rim.residual < 1  # (the outermost step: a blurred edge's outer side)
(99, True)
>>> leaning = np.full((300, 300, 3), 220, np.uint8)
>>> _ = cv2.ellipse(leaning, ((150, 150), (96, 80), 0), (120, 120, 120), -1, cv2.LINE_AA)
>>> rim = rim_circle(leaning, 96.0)
>>> rim is None or (rim.spread > 3 and rim.strong < 0.8)
True
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.coinface import Ellipse, hough_circle
from vision.model import Image
from vision.ranks import median
from vision.smooth import Soft, sampled

RAYS = 120
SPAN = np.linspace(0.88, 1.12, 31)
"""The radii the rays sample, as fractions of the Hough circle's: as
:data:`~vision.coinface.SPANS`' second round (the tape's edge just outside a
flat coin's rim is out of reach; a coin leaning 30 degrees has its rim at
0.87 of the circle across its tilt, just out of reach too)."""


class Rim(NamedTuple):
    """The circle fitted to the rim the rays found: its centre and diameter
    (crop pixels) and the median distance of the rim points from it."""

    x: float
    y: float
    diameter: float
    residual: float
    spread: float
    """The 90th percentile of those distances."""
    strong: float
    """The share of rays whose step is at least 0.4 of the rays' median
    strongest (as :func:`~vision.coinface.refine` keeps a ray's point)."""

    @property
    def outline(self) -> Ellipse:
        """The circle as an outline."""
        return Ellipse(self.x, self.y, self.diameter, self.diameter, 0.0)


def _fit(px: NDArray[np.float64], py: NDArray[np.float64]) -> tuple[float, float, float]:
    """The circle through points (``px``, ``py``) by least squares:
    x^2 + y^2 + a x + b y + c = 0 (Kasa's fit); its centre and radius."""
    a = np.column_stack([px, py, np.ones(len(px))])
    sol = np.linalg.lstsq(a, -(px * px + py * py), rcond=None)[0]
    cx, cy = -sol[0] / 2, -sol[1] / 2
    return float(cx), float(cy), math.sqrt(max(cx * cx + cy * cy - sol[2], 1.0))


def rim_circle(crop: Image, diameter: float) -> Rim | None:
    """The coin's rim as a circle (:class:`Rim`) around the Hough circle of
    about ``diameter`` (crop pixels) nearest the crop's middle, found at
    half resolution; None when there is none within 3/4 of a diameter of
    the middle. On each of :data:`RAYS` rays from the circle's centre, the
    outermost strong step within :data:`SPAN` of its radius (as
    :func:`~vision.coinface.refine` finds an edge), every ray's kept; the
    circle fitted to them by least squares."""
    circle = hough_circle(crop, diameter, 2)
    h, w = crop.shape[:2]
    if circle is None or math.hypot(circle.x - w / 2, circle.y - h / 2) > 0.75 * diameter:
        return None
    angles = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    cos, sin = np.cos(angles), np.sin(angles)
    radii = np.outer(np.full(RAYS, circle.major / 2), SPAN)
    x32 = (circle.x + cos[:, None] * radii).astype(np.float32)
    y32 = (circle.y + sin[:, None] * radii).astype(np.float32)
    g = Soft(crop)
    samples = cv2.remap(
        sampled(g, x32, y32), x32, y32, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    step = np.abs(np.diff(samples, axis=1))
    strong = step >= 0.6 * step.max(axis=1)[:, None]
    best = step.shape[1] - 1 - np.argmax(strong[:, ::-1], axis=1)
    every = np.arange(RAYS)
    r = (radii[every, best] + radii[every, best + 1]) / 2
    px, py = circle.x + r * cos, circle.y + r * sin
    cx, cy, radius = _fit(px, py)
    off = np.abs(np.hypot(px - cx, py - cy) - radius)
    top = step.max(axis=1)
    kept = float(np.mean(step[every, best] > 0.4 * median(top)))
    spread = float(np.percentile(off, 90))
    return Rim(float(cx), float(cy), 2 * radius, float(median(off)), spread, kept)
