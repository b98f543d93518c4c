"""Subpixel wink edges along rays, and circles fitted to them in mat mm.

From a point inside a wink, 48 rays run outwards; along each, the colour's
strength (the pixel's chroma projected on the wink's own face chroma, less
twice the part of it at right angles beyond a quarter of the face's, so that
another wink's colour counts as strongly negative even when it projects
well: red and yellow do) falls from
the face's value to about nothing on the neutral mat or the dark edge, and
below nothing on another colour. Where it crosses half-way is the edge, to a small fraction of
a pixel (the renderer's anti-aliasing and blur, like a real lens, are
symmetric about the edge). Edge points are mapped to the mat at the height
of the wink's face, so parallax does not move the centre.

Every candidate's rays are sampled, and every circle fitted, in one numpy
pass over all the winks of the frame (a Python loop per wink and per ray
cost 20-80 ms on a crowded mat).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.mat.segment import Candidate

RAYS = 48
STEP_PX = 0.25
Floats = NDArray[np.float64]
Bools = NDArray[np.bool_]
F32 = NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class EdgeSet:
    """Every candidate's edge points: ``points[i, ray]`` (pixels) where
    ``ok[i, ray]`` (the ray found an edge that is not the pot's)."""

    cands: list[Candidate]
    points: Floats
    ok: Bools


STEPS_SLACK = 1e-6
"""How far short of a whole number of steps (in steps) a reach may fall and
still count as that number: the ratio of a reach to its step is often whole
by construction (a still's 2.6 r in steps of r / 20 is 52) but comes out of
floating point an ulp either side of it (51.99999999999999 or 52.0), which
flipped the last step of a ray on about 10 % of still crops (session 21
b-cv51; a change of OpenCV that moved a calibration by 1e-8 flipped a case)."""


def ray_steps(reach_px: float, step_px: float) -> int:
    """The samples along each ray of :func:`edges`: steps of ``step_px``
    from the centre out to ``reach_px`` inclusive, that is the floor of the
    ratio plus one, with a ratio within :data:`STEPS_SLACK` below a whole
    number taken as whole (so the count does not depend on rounding).

    >>> r = 13.746472253648254  # a still's: 2.6 r / (r / 20) is 51.99999999999999
    >>> ray_steps(2.6 * r, 0.25 * (r / 5.0))
    53
    >>> ray_steps(13.0, 0.25), ray_steps(12.9, 0.25)
    (53, 52)
    """
    return math.floor(reach_px / step_px + STEPS_SLACK) + 1


def edges(image: NDArray[np.uint8], cands: list[Candidate], reach_px: float,
          blocked: NDArray[np.uint8], step_px: float = STEP_PX) -> EdgeSet:  # fmt: skip
    """Edge points of every candidate, sampled every ``step_px`` along each
    ray out to ``reach_px`` inclusive (:func:`ray_steps`): first the
    :data:`HEAD` share of every ray's steps (one remap for all of them),
    then the rest of only the rays with no edge in it (each step's value is
    the same whichever part it is computed in, so the edges are the same to
    the bit as from every step of every ray)."""
    n = len(cands)
    if not n:
        return EdgeSet(cands, np.zeros((0, RAYS, 2)), np.zeros((0, RAYS), bool))
    n_steps = ray_steps(reach_px, step_px)
    radii = np.arange(n_steps) * step_px
    dirs = _DIRS
    origins = np.array([[c.u, c.v] for c in cands])
    inner = np.maximum(1, (0.5 * np.array([c.depth_px for c in cands]) / step_px).astype(int))
    head = min(n_steps, max(int(inner.max()), math.ceil(HEAD * n_steps)))
    raw = _along(image, origins, dirs[:, None, :] * radii[None, :head, None])
    face = _faces(raw, inner)
    d = face - face.mean(axis=1, keepdims=True)
    strength = np.linalg.norm(d, axis=1)
    d = (d / np.maximum(strength, 1e-6)[:, None]).astype(np.float32)
    level = (0.5 * strength[:, None]).astype(np.float32)
    # per ray (candidate-major): its candidate's unit chroma, level and inner
    ray_d, ray_level = np.repeat(d, RAYS, axis=0), np.repeat(level, RAYS, axis=0)
    ray_inner = np.repeat(inner, RAYS)[:, None]
    m = _strength(raw.reshape(n * RAYS, head, 3), ray_d, ray_level)
    first, v0, v1 = _crossing(m, ray_level, np.arange(head)[None, :] >= ray_inner, 0)
    todo = np.flatnonzero(first == 0)
    if head < n_steps and len(todo):  # the rest of the rays with no edge yet, from the last step
        rest = radii[head - 1 :]
        ray_o, ray_dir = origins[todo // RAYS], dirs[todo % RAYS]
        count = len(todo) * len(rest)
        maps = _maps(count)
        for axis in (0, 1):
            np.add(ray_o[:, axis, None], ray_dir[:, axis, None] * rest[None, :],
                   out=maps[axis, :count].reshape(len(todo), len(rest)))  # fmt: skip
        tail = _remap(image, maps, count).reshape(len(todo), len(rest), 3)
        m = _strength(tail, ray_d[todo], ray_level[todo])
        step = np.arange(head - 1, n_steps)[None, :] >= ray_inner[todo]
        first[todo], v0[todo], v1[todo] = _crossing(m, ray_level[todo], step, head - 1)
    ok = (first > 0).reshape(n, RAYS) & (strength > 1e-6)[:, None]
    first, v0, v1 = first.reshape(n, RAYS), v0.reshape(n, RAYS), v1.reshape(n, RAYS)
    k = np.maximum(first, 1)
    gap = np.where(ok, v0 - v1, 1.0)
    frac = np.where(ok, (v0 - level) / np.where(gap == 0, 1.0, gap), 0.0).astype(float)
    dist = (k - 1 + frac) * step_px
    points = origins[:, None, :] + dirs[None, :, :] * dist[..., None]
    if not cv2.countNonZero(blocked):  # no pot here (most crops of a still): no ray ends in it
        return EdgeSet(cands, points, ok)
    beyond = origins[:, None, :] + dirs[None] * radii[np.minimum(k + 4, n_steps - 1)][..., None]
    bx, by = np.round(beyond[..., 0]).astype(int), np.round(beyond[..., 1]).astype(int)
    h, w = blocked.shape
    inside = (bx >= 0) & (bx < w) & (by >= 0) & (by < h)
    hit = np.zeros_like(ok)
    hit[inside] = blocked[by[inside], bx[inside]] > 0
    return EdgeSet(cands, points, ok & ~hit)  # a ray into the pot found its edge, not the wink's


def _dirs() -> Floats:
    ang = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    dirs = np.column_stack([np.cos(ang), np.sin(ang)])
    dirs.flags.writeable = False
    return dirs


_DIRS = _dirs()
"""The rays' unit vectors (made once, read-only: every call used the same)."""
HEAD = 0.6
"""The share of every ray's steps :func:`edges` samples first; the rest is
sampled only for the rays with no edge in them (on tuning frames about
half of the rays' edges are found in it)."""


def _strength(raw: NDArray[np.uint8], d: NDArray[np.float32],
              level: NDArray[np.float32]) -> NDArray[np.float32]:  # fmt: skip
    """The face colour's strength at each of the rays' (rays, steps, 3)
    samples, as :func:`edges` describes: the pixel's chroma along its ray's
    unit face chroma ``d``, less twice the part across it beyond half the
    ray's ``level`` (half the face's strength).

    Each channel is a contiguous plane (session 16: the strided channel
    views and an ``einsum`` over the 3-long axis cost a third more); the
    projection on ``d`` sums its three products in the order ``einsum``
    did, to the bit."""
    b, g, r = raw.transpose(2, 0, 1).astype(np.float32, order="C")  # np.moveaxis's view
    along = b * d[:, 0, None]  # d has no grey: the pixel's grey drops out
    along += g * d[:, 1, None]
    along += r * d[:, 2, None]
    # whole grey levels: these sums are exact in float32 in any order
    total = b + g
    total += r
    sq = b * b
    sq += g * g
    sq += r * r
    chroma2 = sq - total * total / 3
    across = np.sqrt(np.maximum(chroma2 - along**2, 0.0))
    # another colour (which may project well on the face's) counts as edge;
    # the mat's tint, the dark edge and noise stay under the allowance
    return np.asarray(along - 2.0 * np.maximum(across - 0.5 * level, 0.0), np.float32)


def _crossing(m: F32, level: F32, step: Bools, start: int) -> tuple[NDArray[np.int64], F32, F32]:
    """Each ray's first step (counted from ``start``) below its ``level``
    where ``step`` allows it (0: none; never the ray's first sample, as
    ``step`` is false there), and the values there and one step before (0
    where none)."""
    below = (m < level) & step
    at = np.argmax(below, axis=1)
    rows = np.arange(len(m))
    hit = below[rows, at]
    v0 = np.where(hit, m[rows, np.maximum(at - 1, 0)], np.float32(0))
    v1 = np.where(hit, m[rows, at], np.float32(0))
    return np.where(hit, at + start, 0), v0, v1


def _along(image: NDArray[np.uint8], origins: Floats, offsets: Floats) -> NDArray[np.uint8]:
    """``image``'s bilinear samples at each origin plus every offset
    (rays, steps, 2): (origins, rays, steps, channels). One remap, as
    :func:`~vision.mat.segment.sample` does, but its maps are written in
    float32 straight from the float64 sums (the same values, without a
    float64 array of every point and its copy)."""
    n, shape = len(origins), offsets.shape[:2]
    count = n * shape[0] * shape[1]
    maps = _maps(count)
    for axis in (0, 1):
        np.add(origins[:, axis, None, None], offsets[None, ..., axis],
               out=maps[axis, :count].reshape(n, *shape))  # fmt: skip
    return _remap(image, maps, count).reshape(n, *shape, -1)


_COLS = 1024
"""The width of :func:`_remap`'s maps."""


def _maps(count: int) -> F32:
    """Remap maps (x, y) for ``count`` points, padded to whole rows of
    :data:`_COLS` with zeros, for the caller to write the first ``count``
    of (only the padding is zeroed: a video frame's maps hold some 40,000
    points, written over at once)."""
    maps = np.empty((2, -(-max(count, 1) // _COLS) * _COLS), np.float32)
    maps[:, count:] = 0.0
    return maps


def _remap(image: NDArray[np.uint8], maps: F32, count: int) -> NDArray[np.uint8]:
    """``image``'s bilinear samples at the first ``count`` points of
    ``maps`` (:func:`_maps`): (points, channels)."""
    rows = maps.shape[1] // _COLS
    out = cv2.remap(image, maps[0].reshape(rows, _COLS), maps[1].reshape(rows, _COLS),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    return np.asarray(out, np.uint8).reshape(rows * _COLS, -1)[:count]


def _faces(raw: NDArray[np.uint8], inner: NDArray[np.int64]) -> NDArray[np.float32]:
    """Each candidate's face colour: the median of its rays' first ``inner``
    samples (a uint8 image's bilinear samples are whole grey levels), for
    every candidate in one partition. The samples past a
    candidate's ``inner`` are padded, half with 0 and half with 255, which
    leaves its own middle two in the middle of the padded row: the same
    median to the bit (the mean of two whole numbers), at a fraction of a
    call per candidate and in uint8, which partitions faster than floats.
    The median as ``np.median`` computes it (its partition at the middle
    two, their float64 sum halved), in place on the padded copy: session
    20, ``np.median``'s Python layers cost more than the partition."""
    most = int(inner.max())
    pad = (np.arange(most)[None, None, :] >= inner[:, None, None])[..., None]
    vals = raw[:, :, :most].copy()
    np.copyto(vals, _PAD, where=pad)  # (np.where with _PAD broadcast is twice as slow)
    rows = vals.reshape(len(raw), -1, 3)
    half = rows.shape[1] // 2  # RAYS is even: every row has two middle values
    rows.partition((half - 1, half), axis=1)
    return np.asarray((rows[:, half - 1] + rows[:, half].astype(np.float64)) / 2, np.float32)


_PAD = np.where(np.arange(RAYS) < RAYS // 2, 0, 255).astype(np.uint8)[None, :, None, None]
"""The padding of :func:`_faces`: 0 on the first half of the rays, 255 on the rest."""


def kasa_all(pts: Floats, ok: Bools) -> tuple[Floats, Floats, Floats]:
    """The least-squares circle through each row's ``ok`` points: x, y, r."""
    w = ok.astype(np.float64)
    add = np.add.reduce  # ndarray.sum's sums, without its Python wrapper
    cnt = np.maximum(add(w, 1), 1.0)
    mean = add(pts * w[..., None], 1) / cnt[:, None]
    x, y = pts[..., 0] - mean[:, None, 0], pts[..., 1] - mean[:, None, 1]
    cols = np.empty((*w.shape, 3))  # (x, y, 1) weighted, written in place (not stacked)
    np.multiply(x, w, out=cols[..., 0])
    np.multiply(y, w, out=cols[..., 1])
    cols[..., 2] = w
    ata = np.einsum("nri,nrj->nij", cols, cols)
    atb = np.einsum("nri,nr->ni", cols, (x * x + y * y) * w)
    bad = np.abs(np.linalg.det(ata)) < 1e-9
    if bad.any():
        ata[bad] = np.eye(3)
    sol = np.linalg.solve(ata, atb[..., None])[..., 0]
    cx, cy = sol[:, 0] / 2, sol[:, 1] / 2
    r = np.sqrt(np.maximum(sol[:, 2] + cx * cx + cy * cy, 0.0))
    r[bad] = 0.0
    return cx + mean[:, 0], cy + mean[:, 1], r


_LIMITS = (3.0, 1.5, 1.5, 0.7, 0.7, 0.7, 0.7, 0.7)
""":func:`fixed_all`'s eight steps: how far off its circle (mm) a point
may lie and still be fitted at each."""


def fixed_all(
    pts: Floats, ok: Bools, start: Floats, r: float | Floats
) -> tuple[Floats, Floats, NDArray[np.int64], Floats]:
    """For each row, the circle of radius ``r`` through most of its points
    (points well inside it are where something lies over the wink, and are
    dropped): centre x, y, inliers, RMS of the inliers.

    Gauss-Newton steps on all rows at once. A crop's rows are few, so the
    time goes on numpy calls, not arithmetic: x and y are stacked (one
    call does both), every step writes into arrays made once, the five
    row sums of the normal equations are one ``np.add.reduce`` (the same
    pairwise sums as ``ndarray.sum`` of each, to the bit, without its
    Python wrapper), and the steps of rows whose equations are singular are
    masked out of the division rather than selected after it (session 14:
    27 numpy calls a step instead of 45, the same centres to the bit).
    Each row's two by two solve is done in Python floats (session 16: the
    same IEEE operations in the same order, so the same bits, where twelve
    numpy calls on arrays of a few rows cost more; a call has 3 rows at the
    median, and up to about 25 rows the loop is the cheaper)."""
    if not len(pts):
        return np.zeros(0), np.zeros(0), np.zeros(0, np.int64), np.zeros(0)
    add = np.add.reduce
    rows = len(pts)
    p = pts.transpose(2, 0, 1).copy()  # (2, rows, points): x and y (np.moveaxis's view)
    c = start.T.copy()  # (2, rows): the centres
    xs, ys = c.tolist()
    radius = np.empty((rows, 1))
    radius[:, 0] = r  # a scalar or one per row
    active = [True] * rows
    d, u = np.empty_like(p), np.empty_like(p)  # offsets from the centre; unit vectors
    dist, res = np.empty(p.shape[1:]), np.empty(p.shape[1:])
    keep = np.empty(p.shape[1:], bool)
    q = np.empty((5, *p.shape[1:]))  # ux*ux, uy*uy, ux*uy, ux*res, uy*res
    s = np.empty((5, rows))  # their row sums: a, c, b, gx, gy
    # the views each step reads and writes, made once (session 20: a call
    # has 3 rows at the median, and the dozen views a step made cost as
    # much as a third of its numpy calls)
    centre, (dx, dy), (ux, uy) = c[..., None], d, u
    squares, cross, moments = q[:2], q[2], q[3:]
    mag = np.empty(p.shape[1:])
    subtract, multiply = np.subtract, np.multiply
    off = float(r) if np.ndim(r) == 0 else radius  # a scalar's subtraction: the same values
    for limit in _LIMITS:
        subtract(p, centre, out=d)
        np.hypot(dx, dy, out=dist)
        np.maximum(dist, 1e-9, out=dist)
        subtract(dist, off, out=res)
        np.less(np.absolute(res, out=mag), limit, out=keep)
        keep &= ok
        u.fill(0.0)
        np.divide(d, dist, out=u, where=keep)
        multiply(u, u, out=squares)
        multiply(ux, uy, out=cross)
        multiply(u, res, out=moments)
        add(q, 2, out=s)
        sums = zip(*s.tolist(), add(keep, 1).tolist(), strict=True)
        for k, (sa, sc, sb, gx, gy, n) in enumerate(sums):
            active[k] = active[k] and n >= 3
            det = sa * sc - sb * sb
            if active[k] and abs(det) > 1e-12:  # else a step of 0.0, as numpy added
                xs[k] += (sc * gx - sb * gy) / det
                ys[k] += (sa * gy - sb * gx) / det
            else:
                xs[k] += 0.0
                ys[k] += 0.0
        c[0], c[1] = xs, ys
    cx, cy = c
    res = np.hypot(p[0] - cx[:, None], p[1] - cy[:, None]) - radius
    keep = ok & (np.abs(res) < 0.7)
    n = add(keep, 1)
    rms = np.sqrt(add(np.where(keep, res, 0.0) ** 2, 1) / np.maximum(n, 1))
    return cx, cy, n, np.where(n > 0, rms, math.inf)


def kasa(points: Floats) -> tuple[float, float, float]:
    """The least-squares circle (x, y, r) through ``points``."""
    x, y, r = kasa_all(points[None], np.ones((1, len(points)), bool))
    return float(x[0]), float(y[0]), float(r[0])


def fixed_fit(
    points: Floats, start: tuple[float, float], r: float
) -> tuple[float, float, int, float]:
    """:func:`fixed_all` for one set of points."""
    x, y, n, rms = fixed_all(points[None], np.ones((1, len(points)), bool), np.array([start]), r)
    return float(x[0]), float(y[0]), int(n[0]), float(rms[0])


VOTE_CELL_MM = 0.5
"""The cells in which :func:`voted` counts the centres (three by three)."""
VOTE_BEST = 8
"""How many of the fullest cells' centres :func:`voted` weighs by the points
on their circles."""


_PAIRS: dict[int, tuple[NDArray[np.intp], NDArray[np.intp]]] = {}
""":func:`voted`'s point pairs (``np.triu_indices(n, 1)``) by point count
``n``, made once (read-only)."""

_NEAR = np.arange(3)
"""Rows (and columns) of the three by three cells around a cell, in
:func:`voted`'s table padded by one cell each side."""


def _pairs(n: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    if n not in _PAIRS:
        i, j = np.triu_indices(n, 1)
        i.setflags(write=False)
        j.setflags(write=False)
        _PAIRS[n] = i, j
    return _PAIRS[n]


def _fullest(grid: NDArray[np.number[Any]], k: int) -> NDArray[np.intp]:
    """The indices of ``grid``'s ``k`` largest values, largest first, ties
    to the lowest index: ``np.argsort(-grid, kind="stable")[:k]``, without
    sorting the whole grid (session 16: a vote's grid has some 3,700 cells,
    and the stable sort was 60 of :func:`voted`'s 155 us a call; this is
    14). The ``k``-th largest value is found by ``np.partition``; every
    cell above it is among them (sorted stably, as few as they are), and
    cells equal to it fill the rest in index order, as the stable sort
    takes them (the k-th value is the same whatever order the partition
    leaves, so the cells are the same on every CPU).

    >>> _fullest(np.array([1, 3, 0, 3, 2, 3], np.float32), 3).tolist()
    [1, 3, 5]
    >>> _fullest(np.array([1, 3, 0, 4, 2, 3], np.float32), 3).tolist()
    [3, 1, 5]
    """
    n = len(grid)
    if n <= k:
        return np.argsort(-grid, kind="stable")
    kth = np.partition(grid, n - k)[n - k]
    above = np.flatnonzero(grid > kth)
    above = above[np.argsort(-grid[above], kind="stable")]
    return np.concatenate([above, np.flatnonzero(grid == kth)[: k - len(above)]])


def voted(points: Floats, r: float, within: float = 0.5) -> tuple[float, float] | None:
    """The centre of the circle of radius ``r`` through the most of
    ``points`` (within ``within``): each two points far enough apart give
    the two centres a circle of that radius through both may have; these
    are counted in cells (:data:`VOTE_CELL_MM`, three by three), and of the
    mean centres of the :data:`VOTE_BEST` fullest, the one with the most
    points on its circle wins (a start for :func:`fixed_all` that points
    of other winks' edges do not drag off, as they drag a least-squares
    circle's). None: no two points to go by.

    Every number as session 14's first version computed it, to the bit (the
    pairs made once per point count, x and y apart, cells without a float
    floor, the cells near the fullest from a table, their counts from the
    three by three sums; ``tests/test_mat_voted_exact.py`` keeps that
    version) but the fullest cells: chosen fullest first, ties to the
    lowest cell, where ``np.argpartition`` resolved ties as the CPU's
    kernel did (b-vote, session 14: on 218 of 564 recorded grids without
    AVX-512 another order, on 58 another set; a centre moved up to 21.7 mm),
    so the Pi now votes as the benchmarks here do."""
    x, y = points[:, 0], points[:, 1]
    i, j = _pairs(len(points))
    dx, dy = x[j] - x[i], y[j] - y[i]
    half = np.hypot(dx, dy) / 2
    use = (half > 0.2 * r) & (half < r)
    if not use.any():
        return None
    i, j, dx, dy, half = i[use], j[use], dx[use], dy[use], half[use]
    mx, my = (x[i] + x[j]) / 2, (y[i] + y[j]) / 2
    reach = np.sqrt(r * r - half * half)
    twice = 2 * half
    ox, oy = -dy / twice * reach, dx / twice * reach
    u = len(half)
    centres = np.empty((2 * u, 2))
    np.add(mx, ox, out=centres[:u, 0])
    np.add(my, oy, out=centres[:u, 1])
    np.subtract(mx, ox, out=centres[u:, 0])
    np.subtract(my, oy, out=centres[u:, 1])
    cx, cy = centres[:, 0], centres[:, 1]
    low_x, low_y = cx.min(), cy.min()
    # x - min >= 0 exactly, so truncation is the floor; the cells grow with x
    col = ((cx - low_x) / VOTE_CELL_MM).astype(np.int64)
    row = ((cy - low_y) / VOTE_CELL_MM).astype(np.int64)
    w = int((cx.max() - low_x) / VOTE_CELL_MM) + 1
    h = int((cy.max() - low_y) / VOTE_CELL_MM) + 1
    counts = np.bincount(row * w + col, minlength=w * h)
    grid = cv2.boxFilter(counts.reshape(h, w).astype(np.float32), -1, (3, 3),
                         normalize=False, borderType=cv2.BORDER_CONSTANT).ravel()  # fmt: skip
    # the fullest first, ties to the lowest cell: the same cells and order on every CPU
    # (np.argpartition's order, and with AVX-512 or not its set, differ among ties)
    best = _fullest(grid, VOTE_BEST)
    by, bx = np.divmod(best, w)
    # near[c, k]: centre c's cell within one of best k's, each way (the table padded by a cell)
    table = np.zeros((h + 2, w + 2, len(best)), bool)
    table[
        by[:, None, None] + _NEAR[:, None],
        bx[:, None, None] + _NEAR,
        np.arange(len(best))[:, None, None],
    ] = True
    near = np.take(table.reshape(-1, len(best)), (row + 1) * (w + 2) + col + 1, axis=0)
    # the centres near best k are the three by three sum at it (exact in float32)
    tried = (near.T @ centres) / np.maximum(grid[best], 1)[:, None]
    res = np.abs(np.hypot(points[None, :, 0] - tried[:, None, 0],
                          points[None, :, 1] - tried[:, None, 1]) - r)  # fmt: skip
    k = int(np.argmax((res < within).sum(axis=1)))
    return float(tried[k, 0]), float(tried[k, 1])
