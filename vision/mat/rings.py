"""A small wink lying nearly concentrically on a large one of its colour.

A 16 mm wink on a 22 mm wink of its colour, its centre within a few
millimetres of the lower one's, makes one blob of one colour, whose outline
is the lower wink's (the upper one reaches past it by a millimetre or two,
if at all): no candidate or ray finds it. What shows it is its dark edge, a
ring 16 mm across drawn on the lower wink's face. In a still's crop (about
2 px per mm) that ring, though blurred, is darker than the faces on both
sides of it; shading is not (a shadow darkens one side of a line, not a
thin band between two lit faces).

For each 22 mm fit with no wink of its colour on it yet, 16 mm circles
centred up to :data:`REACH_MM` from its centre are scored by how much
darker their edge is than the faces either side, where the edge runs over
the lower wink's face; the best, if it scores :data:`RING_MIN`
(:data:`RING_MIN_COVERED` where other winks lie over part of the lower
one), is a wink.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.camera import MatCalibration
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.relations import Circle

REACH_MM = 8.5
"""How far from the lower wink's centre the small wink's is looked for
(further out it reaches well past the lower wink's rim, and the rays find
it)."""
RING_MIN = 6.0
"""The least score of a ring: its darkening against the faces either side
(a share of their grey), over its standard error along the ring. First set
at 9 on the benchmark's still crops, seeds 1000-1199 and 5000-5199: rings of
real winks 10-42 (and two at 4-6, missed), no wink's ring up to 6.7. Every
22 mm fit in the still crops of tuning seeds 34000-34299: real rings not
found otherwise 8.0, 8.5, 10.7, 14.9 (the first two missed at 9), shading
and other winks' edges 5.2 at most. Session 9 (b-ring), read in the face's
channel (:func:`face_channel`): 6 (a real ring at 6.5 missed at 7); on the
4190 22 mm fits scored in the still crops of tuning seeds 32000-34999 and
40000-40999 with no small wink of their colour on them, rings scored 5.2 at
most (the edge of a yellow 16 mm wink on a red face, read in red), the next
3.6."""
RING_MIN_COVERED = 4.0
"""The least score where other winks lie over part of the lower wink: the
ring is scored over the part of it clear of them, fewer points, so a real
ring's score (its mean over its standard error) is smaller, by the root of
the share left. On the tuning fits above, real rings not found at 7 with a
wink over part of the lower one scored 4.3-5.3 (32034, 40362, 40499,
40748), rings of no wink on such fits 2.8 at most (2110 fits)."""
Floats = NDArray[np.float64]
STEP_MM = 1.0
N_ANGLES = 144
R_SMALL = 8.0
EDGE_MM = 0.25
"""The dark edge's middle beyond the face's radius (the side wall and the
ring under the rim reach half a millimetre out)."""
SIDE_MM = 1.1
"""How far either side of the edge the faces are sampled."""


CHANNEL = {Colour.BLUE: 0, Colour.GREEN: 1, Colour.RED: 2}
"""The channel (BGR) in which a face of each colour is brightest against a
dark edge: a blue face is three times as bright in blue as in grey, so its
ring darkens a share of its face twice the grey one's, and the noise on
that share is a third of grey's. Yellow, bright in green and red, is read
in grey."""


def face_channel(image: NDArray[np.uint8], grey: NDArray[np.uint8],
                 colour: Colour) -> NDArray[np.uint8]:  # fmt: skip
    """The picture a ring on a face of ``colour`` is looked for in
    (:data:`CHANNEL`; grey for yellow)."""
    if colour not in CHANNEL:
        return grey
    return np.ascontiguousarray(image[..., CHANNEL[colour]])


def score(grey: NDArray[np.uint8], cal: MatCalibration, lower: Circle, centres: Floats,
          others: Sequence[Circle] = (), n_angles: int = N_ANGLES) -> Floats:  # fmt: skip
    """For each centre (n, 2), how much darker a 16 mm wink's edge there is
    than the faces either side (a share of their grey, its mean over the
    part of the ring that runs on ``lower``'s face clear of ``others``,
    divided by the mean's standard error: a ring dark all round scores
    high, noise and a shadow across one part low); -1 where under a quarter
    of the ring runs there.

    The picture is taken as affine over the few centimetres of a pile (the
    mapping at ``lower``'s centre, at the upper face's height)."""
    ang = np.linspace(0, 2 * math.pi, n_angles, endpoint=False)
    unit = np.column_stack([np.cos(ang), np.sin(ang)])
    radii = (R_SMALL - SIDE_MM, R_SMALL + EDGE_MM - 0.15, R_SMALL + EDGE_MM + 0.15,
             R_SMALL + EDGE_MM + SIDE_MM)  # fmt: skip
    offs = np.stack([r * unit for r in radii])  # (4, angles, 2) mm
    z = lower[3] + WINK_THICKNESS_MM
    c = np.array([lower[0], lower[1]])
    base = cal.to_pixels(c + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), z)
    jac = np.column_stack([base[1] - base[0], base[2] - base[0]])  # pixels per mm
    at = ((centres - c) @ jac.T + base[0]).astype(np.float32)
    step = (offs @ jac.T).astype(np.float32)
    px = at[None, :, None, :] + step[:, None, :, :]  # (4, n, angles, 2)
    outer = centres[:, None, :] + offs[3][None]
    ok = np.hypot(outer[..., 0] - lower[0], outer[..., 1] - lower[1]) < lower[2] - 1.0
    for o in others:
        for k in (0, 3):
            pts = centres[:, None, :] + offs[k][None]
            ok &= np.hypot(pts[..., 0] - o[0], pts[..., 1] - o[1]) > o[2] + 0.7
    rows = px.reshape(4 * len(centres), n_angles, 2)
    g = cv2.remap(grey, rows[..., 0], rows[..., 1], cv2.INTER_LINEAR,
                  borderMode=cv2.BORDER_REPLICATE).astype(np.float32)  # fmt: skip
    g = g.reshape(4, len(centres), n_angles)
    side = np.minimum(g[0], g[3])
    dark = np.where(ok, (side - (g[1] + g[2]) / 2) / np.maximum(side, 1.0), 0.0)
    n = ok.sum(axis=1)
    mean = dark.sum(axis=1) / np.maximum(n, 1)
    var = np.where(ok, (dark - mean[:, None]) ** 2, 0.0).sum(axis=1) / np.maximum(n - 1, 1)
    out = mean / np.sqrt(var / np.maximum(n, 1) + 1e-6)
    return np.where(n >= n_angles // 4, out, -1.0)


def find(grey: NDArray[np.uint8], cal: MatCalibration, lower: Circle,
         others: Sequence[Circle] = ()) -> tuple[float, float, float] | None:  # fmt: skip
    """The best 16 mm ring on ``lower``'s face: centre x, y and its score
    (None: no centre has enough of its ring on the face). Centres every
    millimetre first, then every quarter round the best, whose score is
    taken over more of its ring."""
    xs = np.arange(-REACH_MM, REACH_MM + 0.01, STEP_MM)
    gx, gy = np.meshgrid(xs, xs)
    keep = np.hypot(gx, gy) <= REACH_MM
    centres = np.column_stack([gx[keep] + lower[0], gy[keep] + lower[1]])
    s = score(grey, cal, lower, centres, others, N_ANGLES // 6)
    best = int(np.argmax(s))
    if s[best] < 0:
        return None
    fine = np.arange(-0.75, 0.76, 0.25) * STEP_MM
    fx, fy = np.meshgrid(fine, fine)
    near = np.column_stack([fx.ravel() + centres[best, 0], fy.ravel() + centres[best, 1]])
    k = int(np.argmax(score(grey, cal, lower, near, others, N_ANGLES // 3)))
    final = score(grey, cal, lower, near[k : k + 1], others)[0]
    return float(near[k, 0]), float(near[k, 1]), float(final)
