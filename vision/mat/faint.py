"""Winks too faint for the chroma bar: the colour masks mended where the
felt is dim.

A wink's chroma falls with the light it is in, and a green face (the
weakest colour, chroma 115 lit fully) in a dim corner of the mat has a
chroma of 30-55 against the bar of a wink's pixel,
:data:`~vision.mat.segment.CHROMA_MIN` (45): its mask is a scatter of
pixels, too broken for a candidate (tuning seed 62130: g4, a 16 mm wink
uncovered in the far corner, 8 pixels over the bar, missed). Lowering the
bar where the felt is dim (session 16, ``segment.chroma_least``) let in the
blends at the rims of winks of two colours, which made a false wink, and
changed every dim wink's mask, which lost another. Here the bar is lowered
only for pixels as saturated as a face (the felt and the blends of two
winks' colours are greyish, whatever the light: a dim felt's pixels have
an HSV saturation of 65 of 255 at p95, a dim green face's 150-225), and a
blob of such pixels replaces its colour's mask only where the strong
pixels fill under half of it: a wink whose mask was whole enough keeps it
to the pixel.
"""

from __future__ import annotations

import cv2
import numpy as np

from controller.games.tiddlywinks.geometry import COLOURS, Colour
from vision.locate import components
from vision.mat.segment import HUE_CODE, Mask

FELT_DIM = 120
"""The felt's brightness (HSV value) under which a wink may be too faint
for :data:`~vision.mat.segment.CHROMA_MIN`: the benchmark's felt, 150-210
lit fully, is 120 where the light is 0.57-0.8 of full, and a green face
there has a chroma of 65-90, well over the bar."""
CHROMA_LOW = 20
"""The least chroma of a faint wink's pixel (the felt's, dim: 16 at p95)."""
SAT_LOW = 120
"""The least HSV saturation (0-255) of a faint wink's pixel (the felt's,
dim: 65 at p95; a dim green face's 150-225)."""
STRONG_SHARE = 0.5
"""A blob of faint and strong pixels of one colour replaces its colour's
mask there where the strong pixels are under this share of it."""
CELL_SMALL = 8.0
"""The felt's brightness is taken over cells this many small winks' radii
wide (wider than a wink and its shadow, narrower than the light's fall)."""


def mended(image: np.ndarray, region: Mask, masks: dict[Colour, Mask],
           r_small_px: float) -> dict[Colour, Mask]:  # fmt: skip
    """``masks`` (:func:`~vision.mat.segment.colour_masks` of ``image``
    within ``region``) with the faint winks where the felt is dim: the same
    masks (not copied) where it is nowhere dimmer than :data:`FELT_DIM`."""
    at = _dim(image, region, r_small_px)
    if at is None:
        return masks
    (x0, y0), dim = at
    h, w = dim.shape
    hue, sat, val = cv2.split(cv2.cvtColor(image[y0 : y0 + h, x0 : x0 + w], cv2.COLOR_BGR2HSV))
    chroma = np.asarray(cv2.multiply(sat, val, scale=1 / 255), np.uint8)
    faint = (chroma > CHROMA_LOW) & (sat > SAT_LOW) & (dim > 0)
    code = np.asarray(cv2.LUT(hue, HUE_CODE), np.uint8) * faint.astype(np.uint8)
    smallest = 0.15 * np.pi * r_small_px**2
    strong = {c: masks[c][y0 : y0 + h, x0 : x0 + w] for c in COLOURS}
    either = strong[COLOURS[0]] | strong[COLOURS[1]] | strong[COLOURS[2]] | strong[COLOURS[3]]
    alone = code[(code > 0) & (either == 0)]  # the faint pixels no strong mask holds
    out = dict(masks)
    for k, c in enumerate(COLOURS):
        if np.count_nonzero(alone & np.uint8(1 << k)) < smallest * STRONG_SHARE:
            continue  # too few faint pixels for a blob the strong ones fill under half of
        low = np.asarray(((code & np.uint8(1 << k)) > 0) | (strong[c] > 0), np.uint8)
        x, y, bw, bh = cv2.boundingRect(low)  # labelling costs by the pixel: only where it is
        low, held_px = low[y : y + bh, x : x + bw], strong[c][y : y + bh, x : x + bw] > 0
        n, labels, stats, _ = components(low)  # (16-bit labels where they cannot overflow)
        area = stats[:, cv2.CC_STAT_AREA]
        held = np.bincount(labels[held_px], minlength=n)
        take = (area >= smallest) & (held < STRONG_SHARE * area)
        take[0] = False
        if not take.any():
            continue
        m = masks[c].copy()
        u, v = x0 + x, y0 + y
        m[v : v + bh, u : u + bw] |= take[labels].astype(np.uint8) * np.uint8(255)
        out[c] = m
    return out


def _dim(image: np.ndarray, region: Mask, r_small_px: float) -> tuple[tuple[int, int], Mask] | None:
    """The box (its corner, and a mask of its size) of ``region`` where the
    felt round it is dimmer than :data:`FELT_DIM`, in cells about
    :data:`CELL_SMALL` small radii wide: each cell's value the mean of 2 x 2
    samples, then the brightest of it and its eight neighbours (so a wink,
    a shadow or the pot does not pass for dim felt); None where no cell of
    ``region`` is dim. Sampled, not resized: a resize of the whole frame to
    cells cost 2 ms a frame, the samples' values 0.02."""
    step = max(1, round(CELL_SMALL * r_small_px / 2))
    cell = 2 * step
    at = image[::step, ::step]
    value = _cells(np.maximum(np.maximum(at[..., 0], at[..., 1]), at[..., 2]))  # HSV value
    inside = _cells(region[::step, ::step]) > 0
    level = cv2.dilate(value, np.ones((3, 3), np.uint8))
    dim = (level < FELT_DIM) & inside
    if not dim.any():
        return None
    rows, cols = np.nonzero(dim)
    r0, r1, c0, c1 = int(rows.min()), int(rows.max()) + 1, int(cols.min()), int(cols.max()) + 1
    cells = np.asarray(dim[r0:r1, c0:c1], np.uint8) * np.uint8(255)
    box = np.asarray(cv2.resize(cells, ((c1 - c0) * cell, (r1 - r0) * cell),
                                interpolation=cv2.INTER_NEAREST), np.uint8)  # fmt: skip
    x0, y0 = c0 * cell, r0 * cell
    h, w = region.shape
    box = box[: h - y0, : w - x0]
    bh, bw = box.shape
    return (x0, y0), np.asarray(cv2.bitwise_and(box, region[y0 : y0 + bh, x0 : x0 + bw]), np.uint8)


def _cells(a: np.ndarray) -> np.ndarray:
    """The samples ``a`` (uint8) averaged over blocks of 2 x 2, one value a
    cell (the last row and column of cells from what samples they have)."""
    h, w = a.shape
    return np.asarray(cv2.resize(np.ascontiguousarray(a), (-(-w // 2), -(-h // 2)),
                                 interpolation=cv2.INTER_AREA), np.uint8)  # fmt: skip
