"""Colour masks and wink candidates: where each colour is, and one point
inside each wink of it.

Winks are strongly coloured and the mat, the table, the pot and the markers
are not (the mat must be a neutral felt: grey, beige or white), so a wink's
pixels are those with high chroma; the hue says which colour. A blob may
hold several winks of one colour (touching, or one on another): the peaks of
its distance transform, taken greedily, give one inside point per wink.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import COLOURS, Colour

Mask = NDArray[np.uint8]

CHROMA_MIN = 45
"""Chroma (max - min of B, G, R) above which a pixel is a wink's."""
HUES: dict[Colour, tuple[tuple[int, int], ...]] = {
    Colour.RED: ((0, 9), (165, 180)),
    Colour.YELLOW: ((16, 40),),
    Colour.GREEN: ((44, 90),),
    Colour.BLUE: ((95, 135),),
}
"""OpenCV hue bands (0-180) of the four colours."""


def colour_masks(image: NDArray[np.uint8], region: Mask) -> dict[Colour, Mask]:
    """Each colour's pixels within ``region`` (255 where it is).

    Only the pixels in ``region``'s bounding box are converted (every step
    is per pixel, and outside ``region`` every mask is 0: the mat's region
    fills about half a 1280x720 frame)."""
    x0, y0, w, h = cv2.boundingRect(region)
    if w == 0 or h == 0:
        return {c: np.zeros(region.shape[:2], np.uint8) for c in COLOURS}
    hsv = cv2.cvtColor(image[y0 : y0 + h, x0 : x0 + w], cv2.COLOR_BGR2HSV)
    hue, sat, val = cv2.split(hsv)
    chroma = np.asarray(cv2.multiply(sat, val, scale=1 / 255), np.uint8)
    strong = cv2.bitwise_and(np.asarray(chroma > CHROMA_MIN, np.uint8),
                             region[y0 : y0 + h, x0 : x0 + w])  # fmt: skip
    code = np.asarray(cv2.multiply(cv2.LUT(hue, HUE_CODE), strong), np.uint8)  # a bit per colour
    rows, cols = region.shape[:2]
    # the box's masks as they are where the box is the whole picture (a
    # crop of a still), else framed in zeros by one copyMakeBorder each:
    # a zeroed frame written into cost twice as much (session 20: 0.33 ms
    # against 0.16 for a video frame's four)
    frame = (y0, rows - y0 - h, x0, cols - x0 - w)
    out = {}
    for k, c in enumerate(COLOURS):
        m = ((code & np.uint8(1 << k)) > 0) * np.uint8(255)
        out[c] = m if not any(frame) else np.asarray(
            cv2.copyMakeBorder(m, *frame, cv2.BORDER_CONSTANT, value=0), np.uint8)  # fmt: skip
    return out


def _hue_code() -> NDArray[np.uint8]:
    lut = np.zeros(256, np.uint8)
    for k, colour in enumerate(COLOURS):
        for lo, hi in HUES[colour]:
            lut[lo : hi + 1] |= 1 << k
    return lut


HUE_CODE = _hue_code()
"""Hue (0-180) to a bit per colour whose band holds it."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A point well inside one wink of ``colour`` (pixels) and how far it is
    from the blob's edge."""

    colour: Colour
    u: float
    v: float
    depth_px: float
    blob: int = -1
    """Which blob of all colours together (an outline of the union of the
    masks) it lies in: winks whose colours touch or overlap share one."""


def candidates(masks: dict[Colour, Mask], r_small_px: float) -> list[Candidate]:
    """One inside point per wink of every colour's blobs.

    The blobs are found once, on all colours together, by their outlines
    (``findContours`` is many times faster than labelling a sparse frame)."""
    union = np.zeros_like(next(iter(masks.values())))
    for m in masks.values():
        union |= m
    contours, _ = cv2.findContours(union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = max(1.0, 0.2 * r_small_px)
    smallest = 0.15 * np.pi * r_small_px**2
    out: list[Candidate] = []
    hgt, wid = union.shape
    for blob, contour in enumerate(contours):
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < smallest:
            continue
        x0, y0 = max(x - 1, 0), max(y - 1, 0)
        x1, y1 = min(x + w + 1, wid), min(y + h + 1, hgt)
        for colour, m in masks.items():
            if cv2.countNonZero(m[y0:y1, x0:x1]) < smallest:
                continue  # counted before it is copied: most colours are not in most blobs
            roi = np.zeros((y1 - y0 + 4, x1 - x0 + 4), np.uint8)
            roi[2:-2, 2:-2] = m[y0:y1, x0:x1]
            out += _peaks(roi, colour, least, x0 - 2, y0 - 2, blob)
    return out


def _peaks(roi: Mask, colour: Colour, least: float, x0: int, y0: int,
           blob: int) -> list[Candidate]:  # fmt: skip
    out: list[Candidate] = []
    left = roi.copy()
    for _ in range(12):  # no blob holds more than a dozen winks
        dist = cv2.distanceTransform(left, cv2.DIST_L2, 5)
        _, depth, _, (px, py) = cv2.minMaxLoc(dist)
        if depth < least:
            break
        out.append(Candidate(colour, float(px + x0), float(py + y0), float(depth), blob))
        cv2.circle(left, (px, py), round(depth + 1.0), 0, -1)
    return out


def sample(
    image: NDArray[np.uint8] | NDArray[np.float32],
    xy: NDArray[np.float64],
    dtype: type[np.floating[Any]] = np.float64,
) -> NDArray[Any]:
    """Bilinear samples of ``image`` at (n, 2) pixel points: (n, channels)."""
    n = len(xy)
    cols = 1024
    rows = max(1, -(-n // cols))
    pad = np.zeros((rows * cols, 2), np.float32)
    pad[:n] = xy
    mx = pad[:, 0].reshape(rows, cols)
    my = pad[:, 1].reshape(rows, cols)
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, dtype).reshape(rows * cols, -1)[:n]
