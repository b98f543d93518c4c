"""Subpixel wink edges along rays, and circles fitted to them in mat mm.

From a point inside a wink, 48 rays run outwards; along each, the colour's
strength (the pixel's colour projected on the wink's own face colour, less
its grey) falls from the face's value to about nothing on the neutral mat or
the dark edge. Where it crosses half-way is the edge, to a small fraction of
a pixel (the renderer's anti-aliasing and blur, like a real lens, are
symmetric about the edge). Edge points are mapped to the mat at the height
of the wink's face, so parallax does not move the centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.mat.camera import MatCalibration
from vision.mat.segment import Candidate, sample

RAYS = 48
STEP_PX = 0.25
Floats = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Edges:
    """A candidate's edge points (pixels), and which rays ran into the pot."""

    candidate: Candidate
    points: Floats
    face: float


def edges(image: NDArray[np.uint8], cands: list[Candidate], reach_px: float,
          blocked: NDArray[np.uint8]) -> list[Edges]:  # fmt: skip
    """Edge points of every candidate (one remap for all of them)."""
    if not cands:
        return []
    n_steps = int(reach_px / STEP_PX) + 1
    radii = np.arange(n_steps) * STEP_PX
    ang = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    dirs = np.column_stack([np.cos(ang), np.sin(ang)])
    origins = np.array([[c.u, c.v] for c in cands])
    pts = origins[:, None, None, :] + dirs[None, :, None, :] * radii[None, None, :, None]
    bgr = sample(image, pts.reshape(-1, 2)).reshape(len(cands), RAYS, n_steps, 3)
    return [_edges(c, bgr[i], pts[i], blocked) for i, c in enumerate(cands)]


def _edges(c: Candidate, bgr: Floats, pts: Floats, blocked: NDArray[np.uint8]) -> Edges:
    inner = max(1, int(0.5 * c.depth_px / STEP_PX))
    face = np.median(bgr[:, :inner].reshape(-1, 3), axis=0)
    d = face - face.mean()
    strength = float(np.linalg.norm(d))
    if strength < 1e-6:
        return Edges(c, np.zeros((0, 2)), 0.0)
    m = ((bgr - bgr.mean(axis=2, keepdims=True)) @ d) / strength
    level = 0.5 * strength
    below = m < level
    below[:, :inner] = False
    first = np.argmax(below, axis=1)
    ok = below[np.arange(RAYS), first]
    out = []
    h, w = blocked.shape
    for ray in np.nonzero(ok)[0]:
        k = int(first[ray])
        v0, v1 = m[ray, k - 1], m[ray, k]
        frac = (v0 - level) / (v0 - v1)
        p = pts[ray, k - 1] + frac * (pts[ray, k] - pts[ray, k - 1])
        beyond = np.round(pts[ray, min(k + 4, pts.shape[1] - 1)]).astype(int)
        if 0 <= beyond[0] < w and 0 <= beyond[1] < h and blocked[beyond[1], beyond[0]]:
            continue  # ran into the pot: its edge, not the wink's
        out.append(p)
    return Edges(c, np.array(out, np.float64).reshape(-1, 2), strength)


def kasa(points: Floats) -> tuple[float, float, float]:
    """The least-squares circle (x, y, r) through ``points``."""
    x, y = points[:, 0], points[:, 1]
    a = np.column_stack([x, y, np.ones_like(x)])
    b = x * x + y * y
    sol, *_ = np.linalg.lstsq(a, b, rcond=None)
    cx, cy = sol[0] / 2, sol[1] / 2
    return float(cx), float(cy), float(math.sqrt(max(sol[2] + cx * cx + cy * cy, 0.0)))


def fixed_fit(
    points: Floats, start: tuple[float, float], r: float
) -> tuple[float, float, int, float]:
    """The circle of radius ``r`` through most of ``points`` (points well
    inside it are where something lies over the wink, and are dropped):
    centre, inliers, RMS of the inliers."""
    cx, cy = start
    keep = np.ones(len(points), bool)
    for it in range(8):
        dx, dy = points[:, 0] - cx, points[:, 1] - cy
        dist = np.hypot(dx, dy)
        res = dist - r
        gate = 3.0 if it == 0 else (1.5 if it < 3 else 0.7)
        keep = np.abs(res) < gate
        if keep.sum() < 3:
            break
        jac = np.column_stack([-dx[keep] / dist[keep], -dy[keep] / dist[keep]])
        step, *_ = np.linalg.lstsq(jac, -res[keep], rcond=None)
        cx, cy = cx + float(step[0]), cy + float(step[1])
    res = np.hypot(points[:, 0] - cx, points[:, 1] - cy) - r
    keep = np.abs(res) < 0.7
    rms = float(np.sqrt(np.mean(res[keep] ** 2))) if keep.any() else math.inf
    return cx, cy, int(keep.sum()), rms


def to_mat(cal: MatCalibration, pixels: Floats, z: float) -> Floats:
    """Edge pixels to mat mm at height ``z``."""
    if len(pixels) == 0:
        return pixels
    return cal.to_mat(pixels, z)
