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

import math

import numpy as np
from numpy.typing import NDArray

from vision.mat.camera import MatCalibration
from vision.mat.segment import Mask, sample

SQUOP_OVERLAP_MM = 1.0
"""Overlap beyond which two winks are stacked. The engine's tolerance is
0.5 mm (touching winks may be measured overlapping that much); real squops
overlap far more."""

Circle = tuple[float, float, float, float]
"""x, y, radius, face height (mm)."""


def lens_share(mask_a: Mask, mask_b: Mask, cal: MatCalibration, a: Circle, b: Circle) -> float:
    """The share of the overlap lens showing a's colour rather than b's (0-1)."""
    xs = np.arange(-a[2], a[2] + 0.01, 0.5)
    grid = np.array([[a[0] + dx, a[1] + dy] for dx in xs for dy in xs])
    inside_a = np.hypot(grid[:, 0] - a[0], grid[:, 1] - a[1]) < a[2] - 0.5
    inside_b = np.hypot(grid[:, 0] - b[0], grid[:, 1] - b[1]) < b[2] - 0.5
    lens = grid[inside_a & inside_b]
    if len(lens) == 0:
        return 0.5
    px = cal.to_pixels(lens, max(a[3], b[3]))
    na = float(sample(mask_a, px).sum())
    nb = float(sample(mask_b, px).sum())
    return 0.5 if na + nb == 0 else na / (na + nb)


def arc_darkness(grey: NDArray[np.uint8], cal: MatCalibration, a: Circle, b: Circle) -> float:
    """Mean grey on a's edge where it runs inside b (lower: a's edge is seen)."""
    ang = np.linspace(0, 2 * math.pi, 96, endpoint=False)
    ring = np.column_stack([a[0] + (a[2] + 0.1) * np.cos(ang), a[1] + (a[2] + 0.1) * np.sin(ang)])
    inside = np.hypot(ring[:, 0] - b[0], ring[:, 1] - b[1]) < b[2] - 1.0
    if not inside.any():
        return math.inf
    return float(sample(grey, cal.to_pixels(ring[inside], a[3])).mean())


def overlap(a: Circle, b: Circle) -> float:
    """How far the plan views overlap, mm."""
    return a[2] + b[2] - math.hypot(a[0] - b[0], a[1] - b[1])
