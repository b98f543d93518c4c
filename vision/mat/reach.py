"""Distance tests against a radius, to the bit of ``np.hypot``'s.

The mat's masks of points within (or beyond) a radius of a centre are
``np.hypot(dx, dy) < r``: libm's ``hypot``, one call a point, some 10 ns
each (session 16: 45-60 us for the 5,184 points of a ring search's coarse
grid, against 6 us for ``dx * dx + dy * dy`` and its compares; on a few
hundred points, as in ``shows.lens_share``, one ``hypot`` is the cheaper:
these are some eight numpy calls). The sum of squares decides every point
whose squared distance is not within a millionth of a millionth of
``r * r``: its rounding (a few parts in 1e16) cannot carry it across; the
few left undecided are given to ``np.hypot`` itself, so the answer is
``np.hypot``'s for every point.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
SURE = 1e-12
"""The share of ``r * r`` by which a sum of squares must clear it to decide
a point without ``np.hypot``: some four thousand times the relative rounding
of the squares, their sum, ``r * r`` and ``hypot`` together (about 2.4e-16)."""


def _squares(dx: Floats, dy: Floats) -> Floats:
    return np.asarray(np.add(np.multiply(dx, dx), np.multiply(dy, dy)), np.float64)


def within(dx: Floats, dy: Floats, r: float) -> NDArray[np.bool_]:
    """``np.hypot(dx, dy) < r``, to the bit (finite dx and dy, broadcast
    together; ``r`` > 0)."""
    s = _squares(dx, dy)
    r2 = r * r
    out: NDArray[np.bool_] = s < r2 * (1 - SURE)
    unsure = ~out & (s <= r2 * (1 + SURE))
    if unsure.any():
        dx, dy = np.broadcast_arrays(dx, dy)
        out[unsure] = np.hypot(dx[unsure], dy[unsure]) < r
    return out


def beyond(dx: Floats, dy: Floats, r: float) -> NDArray[np.bool_]:
    """``np.hypot(dx, dy) > r``, to the bit (finite dx and dy, broadcast
    together; ``r`` > 0)."""
    s = _squares(dx, dy)
    r2 = r * r
    out: NDArray[np.bool_] = s > r2 * (1 + SURE)
    unsure = ~out & (s >= r2 * (1 - SURE))
    if unsure.any():
        dx, dy = np.broadcast_arrays(dx, dy)
        out[unsure] = np.hypot(dx[unsure], dy[unsure]) > r
    return out
