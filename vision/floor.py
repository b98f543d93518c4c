"""The floor plane: the landing square, its white lines, the markers, and
homographies between floor millimetres and image pixels (pure numpy).

Floor coordinates are millimetres with the origin at the outer corner of the
square on the table's left, ``x`` along the table's edge and ``y`` away from it.
The square (1.4.3) is ``[0, side] x [0, side]`` measured to the outer edges of
its white lines; the lines lie inside it. One ArUco marker sits diagonally
outside each corner, its inner corner touching the square's corner.

>>> layout = FloorLayout()
>>> layout.zone(750.0, 750.0, 12.0)
(<Zone.INSIDE: 'inside'>, 688.0)
>>> layout.zone(-20.0, 750.0, 12.0)[0], layout.zone(40.0, 750.0, 12.0)[0]
(<Zone.OUTSIDE: 'outside'>, <Zone.ON_LINE: 'on_line'>)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.model import Zone

Points = NDArray[np.float64]
"""An (n, 2) array of points."""
Matrix = NDArray[np.float64]
"""A 3x3 homography."""


@dataclass(frozen=True, slots=True)
class FloorLayout:
    """The landing square and its markers, in millimetres."""

    side_mm: float = 1500.0
    line_mm: float = 50.0
    marker_mm: float = 150.0
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)

    def marker_origins(self) -> dict[int, tuple[float, float]]:
        """Each marker's top-left corner (its image's (0, 0)) on the floor."""
        s, m = self.side_mm, self.marker_mm
        origins = ((-m, -m), (s, -m), (s, s), (-m, s))
        return dict(zip(self.marker_ids, origins, strict=True))

    def marker_corners(self) -> dict[int, Points]:
        """Each marker's four corners on the floor, in ArUco's order
        (clockwise from the marker image's top-left), the marker laid with
        its image's x along the floor's x."""
        m = self.marker_mm
        unit = np.array([[0, 0], [m, 0], [m, m], [0, m]], dtype=np.float64)
        return {i: unit + np.array(o) for i, o in self.marker_origins().items()}

    def zone(self, x: float, y: float, radius: float) -> tuple[Zone, float]:
        """The zone of a coin of ``radius`` centred at (x, y), and its clearance:
        how far (mm) the centre may move before the answer could change."""
        s, w = self.side_mm, self.line_mm
        dx = max(-x, 0.0, x - s)
        dy = max(-y, 0.0, y - s)
        outside_by = math.hypot(dx, dy)  # 0 when the centre is in the square
        depth = min(x, s - x, y, s - y)  # distance in from the outer edge
        if outside_by >= radius:
            return Zone.OUTSIDE, outside_by - radius
        if outside_by == 0.0 and depth >= w + radius:
            return Zone.INSIDE, depth - w - radius
        to_out = radius - outside_by if outside_by > 0 else depth + radius
        to_in = w + radius - depth if outside_by == 0.0 else math.inf
        return Zone.ON_LINE, min(to_out, to_in)

    def in_out_clearance(self, x: float, y: float, radius: float) -> float:
        """How far the centre is from the in/out boundary (touching the square
        or not), whichever side it is on."""
        s = self.side_mm
        outside_by = math.hypot(max(-x, 0.0, x - s), max(-y, 0.0, y - s))
        if outside_by > 0:
            return abs(outside_by - radius)
        return min(x, s - x, y, s - y) + radius


def apply(h: Matrix | NDArray[np.floating[Any]], points: NDArray[Any]) -> Points:
    """Map (n, 2) points through a homography.

    >>> apply(np.diag([2.0, 3.0, 1.0]), np.array([[1.0, 1.0]])).tolist()
    [[2.0, 3.0]]
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    # written into one array rather than stacked: the mat's analysis maps
    # points some 80 times a frame, mostly a few dozen at a time, where
    # ``np.hstack``'s overhead was most of the cost (session 13)
    homog = np.empty((len(pts), 3))
    homog[:, :2] = pts
    homog[:, 2] = 1.0
    out = homog @ np.asarray(h, dtype=np.float64).T
    return out[:, :2] / out[:, 2:3]


def local_scale(h: Matrix, x: float, y: float) -> float:
    """Pixels per millimetre of the floor->image homography ``h`` near (x, y)
    (the square root of the local area ratio).

    >>> round(local_scale(np.diag([2.0, 2.0, 1.0]), 5.0, 5.0), 6)
    2.0
    """
    pts = apply(h, np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
    jac = np.column_stack([pts[1] - pts[0], pts[2] - pts[0]])
    return math.sqrt(abs(float(np.linalg.det(jac))))


def scaled(h: Matrix, sx: float, sy: float) -> Matrix:
    """``h`` for the same view at another resolution (scaled by sx, sy).

    Picamera2's low-resolution stream and its stills see the same field of
    view, so one calibration serves both. Pixel centres stay aligned, as in
    ``cv2.resize``: pixel ``u`` covers ``[u - 0.5, u + 0.5]``.

    >>> apply(scaled(np.eye(3), 2.0, 2.0), np.array([[0.0, 0.0]])).tolist()
    [[0.5, 0.5]]
    """
    s = np.array([[sx, 0.0, 0.5 * (sx - 1)], [0.0, sy, 0.5 * (sy - 1)], [0.0, 0.0, 1.0]])
    return s @ np.asarray(h, dtype=np.float64)


def translate(dx: float, dy: float) -> Matrix:
    """The homography that shifts by (dx, dy)."""
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])


def hfov_focal_px(width: int, hfov_deg: float) -> float:
    """The focal length in pixels of a ``width`` frame whose lens sees
    ``hfov_deg`` across."""
    return (width / 2) / math.tan(math.radians(hfov_deg) / 2)


def pinhole(size: tuple[int, int], f_px: float) -> Matrix:
    """An ideal camera's matrix: square pixels, principal point in the middle."""
    w, h = size
    return np.array([[f_px, 0.0, (w - 1) / 2], [0.0, f_px, (h - 1) / 2], [0.0, 0.0, 1.0]])
