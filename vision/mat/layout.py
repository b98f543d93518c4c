"""Where the calibration markers lie around the mat, in the engine's frame.

Millimetres, origin at the centre of the mat, ``x`` along the 6 ft length,
``y`` along the 3 ft width, upwards as the camera sees it
(:mod:`controller.games.tiddlywinks.geometry`). Six 4x4 ArUco markers lie on
the table just outside the mat: one beyond each corner and one beyond the
middle of each long edge, each laid with its printed "up" towards +y (so the
camera, looking down with +y at the top of its image, reads it upright).

>>> lay = MatLayout()
>>> c = lay.marker_corners()[10]
>>> [round(float(v), 1) for v in c[0]], [round(float(v), 1) for v in c[2]]
([-1044.4, 587.2], [-944.4, 487.2])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from controller.games.tiddlywinks.geometry import MatSpec
from vision.floor import Points

WINK_THICKNESS_MM = 1.5
"""Rule 2: "approximately 1.5 mm thick". A wink's top face lies this high
above whatever it rests on, which the camera sees as parallax."""
POT_HEIGHT_MM = 38.0
"""Rule 4."""
POT_WALL_MM = 1.5
"""The pot's wall at the rim: the opening is the rim less this."""
POT_FLOOR_MM = 2.0
"""The inside of the pot's base, above the mat."""


@dataclass(frozen=True, slots=True)
class MatLayout:
    """The mat (rule 3), the pot (rule 4) and the markers around them."""

    spec: MatSpec = field(default_factory=MatSpec)
    marker_mm: float = 100.0
    gap_mm: float = 30.0
    """Between the mat's edge and a marker's nearest side."""
    marker_ids: tuple[int, ...] = (10, 11, 12, 13, 14, 15)
    """Top-left, top-middle, top-right, bottom-right, bottom-middle, bottom-left.
    Not 0-3, so the Heads & Tails floor markers never calibrate a mat."""

    def marker_origins(self) -> dict[int, tuple[float, float]]:
        """Each marker's top-left corner (its image's (0, 0)) in mat mm."""
        hx, hy = self.spec.length_mm / 2, self.spec.width_mm / 2
        m, g = self.marker_mm, self.gap_mm
        left, mid, right = -hx - g - m, -m / 2, hx + g
        top, bottom = hy + g + m, -hy - g
        spots = ((left, top), (mid, top), (right, top), (right, bottom), (mid, bottom),
                 (left, bottom))  # fmt: skip
        return dict(zip(self.marker_ids, spots, strict=True))

    def marker_corners(self) -> dict[int, Points]:
        """Each marker's corners in ArUco's order (clockwise from its image's
        top-left as the camera sees it: +x right, +y up)."""
        m = self.marker_mm
        unit = np.array([[0, 0], [m, 0], [m, -m], [0, -m]], dtype=np.float64)
        return {i: unit + np.array(o) for i, o in self.marker_origins().items()}

    def extent(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): the mat and its markers, with a 40 mm border."""
        hx = self.spec.length_mm / 2 + self.gap_mm + self.marker_mm + 40
        hy = self.spec.width_mm / 2 + self.gap_mm + self.marker_mm + 40
        return (-hx, -hy, hx, hy)
