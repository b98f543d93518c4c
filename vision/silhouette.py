"""A coin's silhouette from its new edges, for when what changed against
the empty floor does not fill it.

``coinface.segment_outline`` takes the pixels whose colour or brightness a
shadow cannot explain; a grey (silver) coin on the white line is only
darker than the line, as the coin's own shadow is, so most of it is lost
and the silhouette is a ragged arc (or none). Its outline still has sharp
edges where the empty floor has none, and a shadow's edge is soft: the
convex hull of the new sharp edges (and of what changed) is the coin's
silhouette, as a coin's outline is convex. The hull is trusted only when
new edges run along most of its outline: where an arc of the coin's edge is
missing (silver on grey), the hull cuts a chord across it, and that chord
has no edge.

>>> rng = np.random.default_rng(4)
>>> floor = np.clip(rng.normal(230, 2, (300, 300, 3)), 0, 255).astype(np.uint8)
>>> crop = floor.copy()
>>> # A grey coin leaning, as dark as a shadow would make the white floor.
>>> _ = cv2.ellipse(crop, ((150, 150), (96, 50), 30), (150, 150, 150), -1, cv2.LINE_AA)
>>> e = edge_silhouette(crop, floor, 96.0)
>>> round(e.major), round(e.minor), round(e.angle_deg % 180)  # (the edges' spread: +1 px)
(97, 51, 30)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.coinface import LOG8, Ellipse, coin_mask
from vision.locate import components
from vision.model import Image

SUPPORT = 0.7
"""The share of the hull's outline that must run along new edges: more than
the hull of half a rim has (0.67; a rim seen for 240 degrees has 0.75, so
this alone does not tell a coin whose edge is mostly lost: the analysis asks
for this silhouette only when the edge fit found no outline at all). The
cleets it outlined on the tuning rigs had 0.61-0.95."""
SHARP = 0.05
"""A new edge: the log-brightness rises by this much more per pixel than on
the empty floor (the crop's scale, 96 px a diameter; a shadow's soft edge
rises by about 0.04)."""


def _gradient(image: Image) -> np.ndarray:
    g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    log = np.asarray(cv2.LUT(g, LOG8), np.float32)
    log = np.asarray(cv2.GaussianBlur(log, (0, 0), 1.0), np.float32)
    gx = cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3) / 8
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def edge_silhouette(crop: Image, floor: Image, diameter: float) -> Ellipse | None:
    """The coin's outline as the convex hull of its new edges and of what
    changed (``floor``: the empty floor's crop, the same view and
    resolution), nearest the middle; None when no coin-sized hull runs along
    new edges for ``SUPPORT`` of its outline."""
    if floor.shape[:2] != crop.shape[:2]:
        return None
    new = (_gradient(crop) - _gradient(floor)) > SHARP
    changed = coin_mask(crop, floor, 0.0) > 0
    both = (new | changed).astype(np.uint8)
    # Join a coin's edges (its rim, its relief) into one blob.
    joined = cv2.dilate(both, np.ones((5, 5), np.uint8))
    count, labels, stats, centres = components(joined)
    h, w = both.shape
    best: tuple[float, int] | None = None
    for i in range(1, count):
        extent = max(int(stats[i][2]), int(stats[i][3]))
        if extent < 0.7 * diameter or extent > 1.5 * diameter:
            continue
        off = math.hypot(centres[i][0] - w / 2, centres[i][1] - h / 2)
        if off <= 0.75 * diameter and (best is None or off < best[0]):
            best = (off, i)
    if best is None:
        return None
    # With the pieces of the same coin beside it (a rim broken where it
    # matches the floor): blobs whose middle is within half a diameter.
    near = [
        i for i in range(1, count) if math.hypot(*(centres[i] - centres[best[1]])) <= 0.5 * diameter
    ]
    ys, xs = np.nonzero(np.isin(labels, near) & (both > 0))
    if len(xs) < 6:
        return None
    pts = np.column_stack([xs, ys]).astype(np.float32)
    hull = cv2.convexHull(pts)
    filled = np.zeros_like(both)
    cv2.fillPoly(filled, [np.round(hull).astype(np.int32)], 1)
    m = cv2.moments(filled, binaryImage=True)
    if m["m00"] < 0.02 * diameter * diameter:
        return None
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = math.hypot(mu20 - mu02, 2 * mu11)
    big, small = (mu20 + mu02 + spread) / 2, max((mu20 + mu02 - spread) / 2, 0.0)
    # Less the edges' spread: a sharp edge blurred by one pixel and a 3-tap
    # Sobel passes the threshold about two pixels to either side of it.
    major, minor = 4 * math.sqrt(big) - 4, max(4 * math.sqrt(small) - 4, 1.0)
    angle = 0.5 * math.degrees(math.atan2(2 * mu11, mu20 - mu02))
    if not 0.8 * diameter <= major <= 1.35 * diameter:
        return None
    # The hull's outline must run along new edges, not cut a chord.
    outline = cv2.dilate(both, np.ones((5, 5), np.uint8))
    rim = hull.reshape(-1, 2)
    samples = []
    for k in range(len(rim)):
        p, q = rim[k], rim[(k + 1) % len(rim)]
        n = max(1, int(math.hypot(*(q - p))))
        t = np.arange(n, dtype=np.float32)[:, None] / n
        samples.append(p + t * (q - p))
    on = np.vstack(samples)
    xi = np.clip(np.round(on[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(on[:, 1]).astype(int), 0, h - 1)
    if float(outline[yi, xi].mean()) < SUPPORT:
        return None
    return Ellipse(cx, cy, major, minor, angle)
