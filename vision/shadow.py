"""How far a coin's shadow reaches beyond its outline: a cue for a leaning
coin that looks flat.

A coin tilted towards the camera by about twice the angle the camera sees
it at looks as round on the floor plane as a flat coin, and its face reads
as well. Its shadow does not look flat: a flat coin is its thickness high
(about 2 mm), so its shadow reaches at most that over the tangent of the
light's elevation beyond its edge (2.9 mm for light 35 degrees up); a coin
leaning t degrees has its high edge 24 sin t mm up (12 mm at 30 degrees),
so its shadow reaches six times as far under the same light. The shadow is
told from the empty floor's still: only the coin can have dimmed the floor
since (a shadow dims the three channels by one factor; how much is measured
here, not which way).

>>> import numpy as np
>>> from vision.coinface import Ellipse, shrunk
>>> floor = np.full((300, 300, 3), 120, np.uint8)
>>> crop = floor.copy()
>>> coin = Ellipse(150, 150, 96, 96, 0)
>>> far_shadow(shrunk(crop, 2), floor[::2, ::2], coin, 4.0)
0.0
>>> crop[150:, 150:] = 84  # a shadow 30 % deep over the lower right quarter
>>> round(far_shadow(shrunk(crop, 2), floor[::2, ::2], coin, 4.0), 2)  # 0.33 over 4.5 mm
1.49
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.coinface import Ellipse
from vision.model import Image
from vision.ranks import median
from vision.silhouette import log_brightness

STEP = 2
"""The shadow is soft: it is measured at half the crop's resolution."""
BEYOND_MM = 3.0
"""A flat coin's shadow ends this far beyond its edge (2 mm thick, light at
35 degrees or higher); only darkening farther out is counted."""
OUT_MM = 7.5
"""... up to this far beyond the edge (where a coin leaning 30 degrees or
more still casts shadow under light up to about 60 degrees)."""
SECTOR = 9
"""Of 72 directions: a shadow falls on one side of the coin, a 45-degree
sector is where it is summed."""
RAYS = 72


def far_shadow(small: Image, floor: Image, outline: Ellipse, ppm: float, step: int = STEP) -> float:
    """How much the floor beyond ``BEYOND_MM`` to ``OUT_MM`` from ``outline``
    (crop pixels) is darker in the crop (BGR) than in the empty ``floor``,
    both at 1 / ``step`` of the crop's resolution (``small`` is the crop
    shrunk by ``step``, :func:`~vision.coinface.shrunk`; ``floor`` the same
    view sampled at the ``step`` x ``step`` blocks' centres): the darkening (a log ratio, 0.36
    for a shadow 30 % deep) integrated outwards in millimetres, averaged
    over the darkest 45-degree sector. ``ppm``: crop pixels a millimetre.
    The exposure (and white balance) is taken out by the median over the
    view farther than ``OUT_MM`` + 1 mm from the outline."""
    h, w = floor.shape[:2]
    b = log_brightness(small, floor)
    # Positions in the half-resolution view (a block's centre is (STEP - 1) / 2 in).
    k = float(step)
    cx, cy = (outline.x - (k - 1) / 2) / k, (outline.y - (k - 1) / 2) / k
    a, c = outline.major / 2 / k, outline.minor / 2 / k
    pm = ppm / k  # half-resolution pixels a millimetre
    # Beyond a circle drawn (a distance per pixel by NumPy took 0.6 ms).
    far = np.ones((h, w), np.uint8)
    centre, radius = (round(cx * 16), round(cy * 16)), round((a + (OUT_MM + 1) * pm) * 16)
    cv2.circle(far, centre, radius, 0, -1, cv2.LINE_8, 4)
    far = far.astype(bool)
    if int(far.sum()) < 100:
        return 0.0
    b -= np.float32(median(b[far]))
    angles = np.linspace(0, 2 * math.pi, RAYS, endpoint=False)
    phi = angles - math.radians(outline.angle_deg)
    edge = a * c / np.hypot(c * np.cos(phi), a * np.sin(phi))
    out = np.arange(BEYOND_MM * pm, OUT_MM * pm, 1.0)  # a sample a pixel, each a pixel long
    r = edge[:, None] + out[None, :]
    xs = (cx + np.cos(angles)[:, None] * r).astype(np.float32)
    ys = (cy + np.sin(angles)[:, None] * r).astype(np.float32)
    dim = cv2.remap(b, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    per_ray = np.clip(-dim, 0, None).sum(axis=1) / pm
    ring = np.concatenate([per_ray, per_ray[: SECTOR - 1]])
    return float(np.convolve(ring, np.ones(SECTOR) / SECTOR, "valid").max())
