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
darker their edge is than the faces either side (sampled clear of the
edge's blur: :data:`INNER_MM`), where the edge runs over the lower wink's
face; the best, if it scores :data:`RING_MIN` (:data:`RING_MIN_COVERED`
where other winks lie over part of the lower one), is a wink if its disc
shows the lower wink's colour (:func:`~vision.mat.winks._ringed`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.camera import MatCalibration
from vision.mat.fit import fixed_all
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.reach import beyond, within
from vision.mat.relations import Circle

REACH_MM = 8.5
"""How far from the lower wink's centre the small wink's is looked for
(further out it reaches well past the lower wink's rim, and the rays find
it)."""
RING_MIN = 5.0
"""The least score of a ring: its darkening against the faces either side
(a share of their grey), over its standard error along the ring. First set
at 9 on the benchmark's still crops, seeds 1000-1199 and 5000-5199: rings of
real winks 10-42 (and two at 4-6, missed), no wink's ring up to 6.7. Every
22 mm fit in the still crops of tuning seeds 34000-34299: real rings not
found otherwise 8.0, 8.5, 10.7, 14.9 (the first two missed at 9), shading
and other winks' edges 5.2 at most. Session 9 (b-ring), read in the face's
channel (:func:`face_channel`): 6 (a real ring at 6.5 missed at 7). Session
10 (b-rings), the faces sampled clear of the edge's blur (:data:`INNER_MM`):
5. On the 22 mm fits searched in the still crops of tuning seeds
32000-32999 and 40000-40599 with no other wink over them (866), real rings
scored 7.8-55, rings of no wink 2.7 at most (but for a yellow wink's edge
read in red, 7.7, which the colour check in
:func:`~vision.mat.winks._ringed` turns away)."""
RING_MIN_COVERED = 4.5
"""The least score where other winks lie over part of the lower wink: the
ring is scored over the part of it clear of them, fewer points, so a real
ring's score (its mean over its standard error) is smaller, by the root of
the share left. Session 9: 4 (real rings 4.3-5.3 under it before, rings of
no wink 2.8 at most). Session 10, on the fits above with other winks over
part of them (1510): real rings 7.1-70 (two with too little of the ring
clear of the others to score), rings of no wink 2.3 at most (and a real
wink 9 mm off the lower one's centre, 6.7, found: tuning seed 40263)."""
Floats = NDArray[np.float64]
STEP_MM = 1.0
N_ANGLES = 144
R_SMALL = 8.0
EDGE_MM = 0.25
"""The dark edge's middle beyond the face's radius (the side wall and the
ring under the rim reach half a millimetre out)."""
BAND_MM = (-0.15, 0.15)
"""Where, either side of the edge's middle, the ring is sampled."""
INNER_MM = (1.6, 2.0)
OUTER_MM = (1.4, 1.8)
"""How far inside and outside the edge's middle the faces are sampled
(each side the mean of its samples). A still's blur (1.1-2.2 px, about
0.7-1.4 mm) spreads the half-millimetre dark edge over a few millimetres:
until session 10 the faces were sampled 1.35 mm inside and 1.1 mm outside,
in the edge's blurred dip, which halved the contrast of faint rings. The
outer side is a little nearer than the inner: further out it leaves the
lower face sooner (fewer points of a ring near its rim). Tuning seeds
32000-32999 (1482 fits searched, 19 with a small wink of their colour on
them): real rings alone on their face scored 3.6-30 before and 7.8-39 now,
rings of no wink 2.2 before and 2.5 now (but for a yellow wink's edge read
in red: 5.2, 7.7); with other winks over part of the face, real rings
3.3-51 (one not scored) before and 7.1-70 now, rings of no wink 2.6 before
and 2.3 now. Checked on seeds 40000-40599 (907 fits): real rings 4.8-52
before, 8.2-55 now; rings of no wink 3.6 before, 2.7 now."""
RIM_MM = 0.5
"""The outer face samples must lie this far inside the lower wink's rim
(nearer, they are in the dip of its own dark edge: the ring scores less,
never more; 1.0 until session 10)."""


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
    radii, ends = ring_radii(R_SMALL)
    offs = offsets(n_angles, radii)  # (radii, angles, 2) mm
    ok = _clear(lower, centres, offs, others)
    g = sample(grey, cal, lower, centres, offs)
    # each part's mean over its radii as ``part.mean(axis=0)`` makes it (the
    # float32 sum of its rows, divided by their count and rounded to float32)
    # without its Python wrapper: three calls a score
    face_in, ring, face_out = (
        np.add.reduce(g[i:j], axis=0) / np.float32(j - i) for i, j in itertools.pairwise(ends)
    )
    side = np.minimum(face_in, face_out)
    dark = np.where(ok, (side - ring) / np.maximum(side, 1.0), 0.0)
    n = ok.sum(axis=1)
    mean = dark.sum(axis=1) / np.maximum(n, 1)
    var = np.where(ok, (dark - mean[:, None]) ** 2, 0.0).sum(axis=1) / np.maximum(n - 1, 1)
    out = mean / np.sqrt(var / np.maximum(n, 1) + 1e-6)
    return np.where(n >= n_angles // 4, out, -1.0)


def ring_radii(r: float) -> tuple[tuple[float, ...], list[int]]:
    """The radii (mm) a ring round a rim of radius ``r`` is sampled at: the
    face inside (:data:`INNER_MM`), the dark band (:data:`BAND_MM`) and the
    face outside (:data:`OUTER_MM`), each from the edge :data:`EDGE_MM`
    past the rim; and where each part's rows start and end among them."""
    mid = r + EDGE_MM
    inner = [mid - d for d in INNER_MM]
    band = [mid + d for d in BAND_MM]
    outer = [mid + d for d in OUTER_MM]
    return (*inner, *band, *outer), [0, *itertools.accumulate(map(len, (inner, band, outer)))]


@functools.lru_cache(maxsize=8)
def unit_vectors(n_angles: int) -> Floats:
    """The unit vectors of ``n_angles`` angles round a ring (read-only: the
    same array for every call, computed once)."""
    ang = np.linspace(0, 2 * math.pi, n_angles, endpoint=False)
    unit = np.column_stack([np.cos(ang), np.sin(ang)])
    unit.flags.writeable = False
    return unit


@functools.lru_cache(maxsize=16)
def offsets(n_angles: int, radii: tuple[float, ...]) -> Floats:
    """The points of rings of ``radii`` (mm) round a centre: (radii,
    angles, 2), read-only, computed once for each ``n_angles`` and radii."""
    unit = unit_vectors(n_angles)
    offs = np.stack([r * unit for r in radii])
    offs.flags.writeable = False
    return offs


def _clear(lower: Circle, centres: Floats, offs: Floats,
           others: Sequence[Circle]) -> NDArray[np.bool_]:  # fmt: skip
    """Where (centres, angles) the ring's outermost samples lie on
    ``lower``'s face (:data:`RIM_MM` inside its rim) and its innermost and
    outermost clear of ``others``."""
    # x and y apart (the same sums as of the points' (x, y) pairs, in
    # numpy's contiguous loops), each ring's once for all the others; the
    # distances' tests by sums of squares (:mod:`vision.mat.reach`: hypot's
    # answers, a fifth of its time)
    x, y = (centres[:, None, axis] + offs[[0, -1], None, :, axis] for axis in (0, 1))
    ok = within(x[1] - lower[0], y[1] - lower[1], lower[2] - RIM_MM)
    for o in others:
        for k in (0, 1):  # each ring apart: fresh (2, n, angles) arrays are slower
            ok &= beyond(x[k] - o[0], y[k] - o[1], o[2] + 0.7)
    return ok


def sample(grey: NDArray[np.uint8], cal: MatCalibration, lower: Circle, centres: Floats,
           offs: Floats) -> NDArray[np.float32]:  # fmt: skip
    """``grey`` at each centre plus each offset (radii, angles, 2; mm):
    (radii, centres, angles), mapped affinely about ``lower``'s centre at
    the upper face's height."""
    z = lower[3] + WINK_THICKNESS_MM
    c = np.array([lower[0], lower[1]])
    base = cal.to_pixels(c + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), z)
    jac = np.column_stack([base[1] - base[0], base[2] - base[0]])  # pixels per mm
    at = ((centres - c) @ jac.T + base[0]).astype(np.float32)
    step = (offs @ jac.T).astype(np.float32)
    k, n_angles = len(offs), offs.shape[1]
    # each map (radii, n, angles) on its own: the same float32 sums as of
    # the (x, y) pairs, without the pairs' array and its two strided copies
    shape = (k * len(centres), n_angles)
    mx, my = (
        np.add(at[None, :, None, axis], step[:, None, :, axis]).reshape(shape) for axis in (0, 1)
    )
    g = cv2.remap(grey, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(
        np.float32
    )
    return np.asarray(g.reshape(k, len(centres), n_angles), np.float32)


def find(grey: NDArray[np.uint8], cal: MatCalibration, lower: Circle,
         others: Sequence[Circle] = ()) -> tuple[float, float, float] | None:  # fmt: skip
    """The best 16 mm ring on ``lower``'s face: centre x, y and its score
    (None: no centre has enough of its ring on the face). Centres every
    millimetre first, then every quarter round the best, whose score is
    taken over more of its ring; its centre is then fitted to the ring's
    darkest line (:func:`centre`)."""
    coarse, fine = _grids(REACH_MM, STEP_MM)
    centres = coarse + np.array(lower[:2])
    s = score(grey, cal, lower, centres, others, N_ANGLES // 6)
    best = int(np.argmax(s))
    if s[best] < 0:
        return None
    near = fine + centres[best]
    k = int(np.argmax(score(grey, cal, lower, near, others, N_ANGLES // 3)))
    final = score(grey, cal, lower, near[k : k + 1], others)[0]
    x, y = centre(grey, cal, lower, (float(near[k, 0]), float(near[k, 1])), others)
    return x, y, float(final)


@functools.lru_cache(maxsize=2)
def _grids(reach: float, step: float) -> tuple[Floats, Floats]:
    """:func:`find`'s centres about the lower wink's (mm): every ``step``
    within ``reach``, then every quarter step round the best (read-only,
    made once: each search added the same grids to its centre)."""
    xs = np.arange(-reach, reach + 0.01, step)
    gx, gy = np.meshgrid(xs, xs)
    keep = np.hypot(gx, gy) <= reach
    fine = np.arange(-0.75, 0.76, 0.25) * step
    fx, fy = np.meshgrid(fine, fine)
    grids = np.column_stack([gx[keep], gy[keep]]), np.column_stack([fx.ravel(), fy.ravel()])
    for g in grids:
        g.flags.writeable = False
    return grids


LINE_MM = (-1.2, 1.0, 0.1)
"""Where the ring's darkest line is looked for, about the edge's middle:
from, to, step (mm)."""
MOVE_MM = 1.5
"""A centre fitted further than this from where the ring scored best is
not taken (something else's dark line)."""


def centre(grey: NDArray[np.uint8], cal: MatCalibration, lower: Circle, at: tuple[float, float],
           others: Sequence[Circle] = ()) -> tuple[float, float]:  # fmt: skip
    """The centre of the 16 mm ring found at ``at``, fitted to its darkest
    line: along each radius the darkest point (to a fraction of a step),
    and the circle of the edge's radius through them. The best score's
    centre is pulled towards the small wink's shadow, which darkens one
    side beyond its edge; the darkest line is its edge. On the real rings
    of tuning seeds 32000-32999 and 40000-40599 (27): off the truth by 0.34
    mm at the median and 0.65 at p90 before, 0.14 and 0.29 fitted."""
    lo, hi, step = LINE_MM
    mid = R_SMALL + EDGE_MM
    unit = unit_vectors(N_ANGLES)
    radii = mid + np.arange(lo, hi + 1e-9, step)
    c = np.array([at])
    offs = offsets(N_ANGLES, tuple(radii.tolist()))
    ok = _clear(lower, c, offs, others)[0]
    g = sample(grey, cal, lower, c, offs)[:, 0, :]  # (radii, angles)
    k = np.argmin(g, axis=0)
    ok &= (k > 0) & (k < len(radii) - 1)  # a minimum inside the window
    k = np.clip(k, 1, len(radii) - 2)
    cols = np.arange(N_ANGLES)
    a, b, d = g[k - 1, cols], g[k, cols], g[k + 1, cols]
    curve = a - 2 * b + d
    frac = np.where(curve > 0, 0.5 * (a - d) / np.where(curve > 0, curve, 1.0), 0.0)
    pts = c + (radii[k] + frac * step)[:, None] * unit
    x, y, n, _ = fixed_all(pts[None], ok[None], c, mid)
    if n[0] < N_ANGLES // 4 or math.hypot(x[0] - at[0], y[0] - at[1]) > MOVE_MM:
        return at
    return float(x[0]), float(y[0])
