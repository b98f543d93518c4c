"""A tilted coin as a camera sees it on the floor plane, and whether one
tilted coin explains two cameras' outlines.

The analysis maps each camera's still onto the floor plane, so a coin that
is not flat is its disc projected along the camera's rays onto the floor:
for a small coin an ellipse, whose axis ratio and major axis direction
follow from the tilt, the direction the coin leans, and where the camera
is. On the rendered landings of ``bench.vision --cameras 2`` the predicted
ratio is within about 0.1 of the measured one (``bench.placement``; the
measured a little rounder: the coin's thickness).

Why: a coin tilted towards one camera by about twice that camera's view
angle looks round to it (and its face may read), while a second camera
sees it oval. A flat coin small in a blurred still can read oval to one
camera too (its dented silhouette) while the other reads its face. The
oval's ratio and direction say the tilt and which way it leans (up to the
sign); from them the geometry says what the other camera must see.

>>> ratio, axis = ellipse(60.0, 0.0, (0.0, 0.0, 2000.0), 0.0, 0.0)
>>> round(float(ratio), 3), round(float(axis), 1)   # straight down: cos t, level axis along y
(0.5, 90.0)
>>> round(float(ellipse(0.0, 0.0, (0.0, 0.0, 2000.0), 300.0, 0.0)[0]), 3)
1.0
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
Place = tuple[float, float, float]
"""A camera's floor point and height, mm (``Calibration.camera()``)."""


def ellipse(
    tilt_deg: Floats | float,
    toward_deg: Floats | float,
    camera: Place,
    x: Floats | float,
    y: Floats | float,
) -> tuple[Floats, Floats]:
    """The axis ratio and major axis direction (degrees in [0, 180), from
    the floor's x axis towards y) on the floor plane of a coin at (x, y)
    tilted ``tilt_deg`` with its normal leaning towards azimuth
    ``toward_deg``, seen from ``camera``."""
    t, p = np.radians(tilt_deg), np.radians(toward_deg)
    dx, dy, dz = np.asarray(x) - camera[0], np.asarray(y) - camera[1], -camera[2]
    # The disc's axes: u down its slope, v level; a point w goes to the
    # floor along the ray d: w - (w_z / d_z) d. v is level, u drops sin t.
    ux = np.cos(t) * np.cos(p) + np.sin(t) * dx / dz
    uy = np.cos(t) * np.sin(p) + np.sin(t) * dy / dz
    vx, vy = -np.sin(p) + 0 * ux, np.cos(p) + 0 * uy
    # M M^T of the map from the unit disc to the floor, [[a, b], [b, c]].
    a, b, c = ux * ux + vx * vx, ux * uy + vx * vy, uy * uy + vy * vy
    det = np.abs(ux * vy - uy * vx)
    sq = a + c
    root = np.sqrt(np.maximum(sq * sq - 4 * det * det, 0.0))
    ratio = np.sqrt((sq - root) / np.maximum(sq + root, 1e-12))
    axis = np.degrees(0.5 * np.arctan2(2 * b, a - c)) % 180.0
    return np.asarray(ratio), np.asarray(axis)


@functools.cache
def _grid(step: float) -> tuple[Floats, Floats]:
    """Tilts 20-90 degrees by ``step``, leaning every way by ``step``: a
    cleet leans 30 degrees or more, and a coin tilted less is not told from
    a flat one by any outline."""
    t, p = np.meshgrid(np.arange(20.0, 90.0 + step / 2, step), np.arange(0.0, 360.0, step))
    return t.ravel(), p.ravel()


def round_to_other(
    ratio: float,
    axis_deg: float,
    seen_by: Place,
    other: Place,
    x: float,
    y: float,
    *,
    ratio_slack: float = 0.1,
    axis_slack: float = 15.0,
    step: float = 2.0,
) -> float:
    """The roundest the ``other`` camera can see a coin at (x, y) that
    ``seen_by`` sees as an oval of ``ratio`` along ``axis_deg``: the largest
    axis ratio to ``other`` of every tilt (20-90 degrees) and way of leaning
    whose ellipse to ``seen_by`` is within ``ratio_slack`` of ``ratio``
    (measured ratios run up to about 0.1 rounder than the disc's) and
    ``axis_slack`` degrees of ``axis_deg``; 0 when none is.

    A coin leaning 50 degrees towards camera B (1 m to the side, 2 m up)
    looks round to B; camera A straight over it sees the oval across that
    way, and the geometry says B may see it round; the same oval turned a
    quarter says B cannot:

    >>> a, b = (0.0, 0.0, 2000.0), (1000.0, 0.0, 2000.0)
    >>> r, ax = ellipse(50.0, 0.0, a, 0.0, 0.0)
    >>> round(float(r), 2), round(float(ax), 1)
    (0.64, 90.0)
    >>> round(float(ellipse(50.0, 0.0, b, 0.0, 0.0)[0]), 2)
    0.97
    >>> round_to_other(0.64, 90.0, a, b, 0.0, 0.0) > 0.93
    True
    >>> round_to_other(0.64, 0.0, a, b, 0.0, 0.0) < 0.85
    True
    """
    t, p = _grid(step)
    r1, a1 = ellipse(t, p, seen_by, x, y)
    turn = np.abs((a1 - axis_deg + 90.0) % 180.0 - 90.0)
    fits = (r1 >= ratio - ratio_slack) & (r1 <= ratio + 0.02) & (turn <= axis_slack)
    if not fits.any():
        return 0.0
    r2, _ = ellipse(t[fits], p[fits], other, x, y)
    return float(r2.max())


ROUND = 0.93
"""At or above this a measured outline is round (``Settings.round_edge``)."""

OVAL = 0.9
"""Below this predicted axis ratio an outline's direction is asked too (a
rounder one's direction is the noise of its fit)."""


def one_coin(
    outlines: list[tuple[float, float, Place]],
    x: float,
    y: float,
    *,
    ratio_slack: float = 0.12,
    round_slack: float = 0.03,
    axis_slack: float = 15.0,
    step: float = 2.0,
) -> bool:
    """Whether one coin at (x, y), tilted 20-90 degrees some way, explains
    every camera's outline (axis ratio, direction, the camera's place):
    each measured ratio within ``ratio_slack`` rounder (or 0.03 less round)
    than the disc's, and where the disc's ellipse is oval (below
    :data:`OVAL`) its direction within ``axis_slack`` degrees. A round
    outline (:data:`ROUND` or more) is any disc ``round_slack`` or less
    below it: a flat coin's measures 0.95-1, a disc's 1."""
    t, p = _grid(step)
    ok = np.ones(t.shape, bool)
    for ratio, axis_deg, place in outlines:
        r, a = ellipse(t, p, place, x, y)
        turn = np.abs((a - axis_deg + 90.0) % 180.0 - 90.0)
        if ratio >= ROUND:
            ok &= r >= ratio - round_slack
        else:
            ok &= (
                (r >= ratio - ratio_slack)
                & (r <= ratio + 0.03)
                & ((r >= OVAL) | (turn <= axis_slack))
            )
    return bool(ok.any())
