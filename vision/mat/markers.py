"""Marker corners to a small fraction of a pixel.

``cv2.aruco.ArucoDetector``'s corner refinement leaves errors of 0.3-0.5 px
on markers some 60 px wide (about 0.5 mm on the mat at 1280x720), too much
for a 0.5 mm goal. Each side of a marker's black square is a straight line in
the image, so each is refitted from some 40 subpixel edge points (the mid-grey
crossing of the black-to-white step across the side) and the corners become
the intersections of the fitted lines.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.floor import Points
from vision.model import Image

_REACH = 4.0
"""How far (px) either side of the detected side to look for the edge."""


def _grey(image: Image) -> np.ndarray:
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return np.asarray(grey, np.float32)


def _side_line(grey: np.ndarray, a: Points, b: Points, inward: Points) -> np.ndarray | None:
    """(point, direction) of the edge between corners a and b; ``inward``
    points into the black square."""
    t = np.linspace(0.15, 0.85, 40)[:, None]
    base = a + (b - a) * t
    steps = np.linspace(-_REACH, _REACH, 33)
    pts = base[:, None, :] + steps[None, :, None] * inward[None, None, :]
    xy = pts.reshape(-1, 2).astype(np.float32)
    vals = cv2.remap(grey, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR)
    prof = vals.reshape(len(t), len(steps))
    lo, hi = prof.min(axis=1, keepdims=True), prof.max(axis=1, keepdims=True)
    level = (lo + hi) / 2
    # from the white outside (negative steps) to the black inside: first drop below the level
    below = prof < level
    edges = []
    for row in range(len(t)):
        k = int(np.argmax(below[row]))
        if k == 0 or hi[row, 0] - lo[row, 0] < 30:
            continue
        v0, v1 = prof[row, k - 1], prof[row, k]
        frac = (v0 - level[row, 0]) / (v0 - v1)
        s = steps[k - 1] + frac * (steps[k] - steps[k - 1])
        edges.append(base[row] + s * inward)
    if len(edges) < 10:
        return None
    fit = cv2.fitLine(np.array(edges, np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.asarray(fit, np.float64)


def _meet(l1: np.ndarray, l2: np.ndarray) -> Points:
    d1, p1, d2, p2 = l1[:2], l1[2:], l2[:2], l2[2:]
    m = np.column_stack([d1, -d2])
    s = np.linalg.solve(m, p2 - p1)
    return np.asarray(p1 + s[0] * d1, np.float64)


def refine(image: Image, corners: dict[int, Points]) -> dict[int, Points]:
    """Each marker's four corners refined from its fitted sides (a marker
    whose sides cannot all be fitted keeps the detector's corners)."""
    grey = _grey(image)
    out: dict[int, Points] = {}
    for mid, c in corners.items():
        centre = c.mean(axis=0)
        lines = []
        for i in range(4):
            a, b = c[i], c[(i + 1) % 4]
            mid_pt = (a + b) / 2
            n = np.array([-(b - a)[1], (b - a)[0]])
            n /= np.linalg.norm(n)
            if n @ (centre - mid_pt) < 0:
                n = -n
            lines.append(_side_line(grey, a, b, n))
        if any(line is None for line in lines):
            out[mid] = c
            continue
        ls = [line for line in lines if line is not None]
        out[mid] = np.array([_meet(ls[(i - 1) % 4], ls[i]) for i in range(4)])
    return out
