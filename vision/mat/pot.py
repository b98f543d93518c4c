"""The pot: its rim fitted in the plane 38 mm up, the region it hides, and
the winks seen through its opening."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import COLOURS, Colour, MatSpec
from vision.mat.camera import MatCalibration
from vision.mat.fit import fixed_fit, kasa
from vision.mat.layout import POT_FLOOR_MM, POT_HEIGHT_MM, POT_WALL_MM, WINK_THICKNESS_MM
from vision.mat.model import PotView
from vision.mat.segment import Mask, colour_masks, sample

Floats = NDArray[np.float64]


def circle(cx: float, cy: float, r: float, n: int = 72) -> Floats:
    """Points round a circle, mm."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


def polygon_mask(size: tuple[int, int], pixels: Floats) -> Mask:
    """A filled polygon (255 inside; nothing drawn when it lies wholly to
    one side of the picture, as the pot does for most crops of a still)."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    corners = np.round(pixels).astype(np.int32)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    if hi[0] < 0 or hi[1] < 0 or lo[0] >= size[0] or lo[1] >= size[1]:
        return mask
    cv2.fillPoly(mask, [cv2.convexHull(corners)], 255)
    return mask


@dataclass(frozen=True, slots=True)
class Pot:
    """The pot as fitted: centre and rim radius (mm)."""

    x: float
    y: float
    rim: float


def find_pot(grey: NDArray[np.uint8], cal: MatCalibration, spec: MatSpec) -> Pot | None:
    """The rim, searched from where the pot should be (the dark cup on the felt)."""
    rim = spec.pot_rim_mm / 2
    z = POT_HEIGHT_MM
    ang = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    radii = np.linspace(0.6 * rim, 1.8 * rim, 97)
    ring = np.stack([spec.pot_x_mm + radii[None, :] * np.cos(ang)[:, None],
                     spec.pot_y_mm + radii[None, :] * np.sin(ang)[:, None]], axis=-1)  # fmt: skip
    prof = sample(grey, cal.to_pixels(ring.reshape(-1, 2), z)).reshape(len(ang), len(radii))
    inside = float(np.median(prof[:, (radii > 0.85 * rim) & (radii < 0.95 * rim)]))
    outside = float(np.median(prof[:, radii > 1.5 * rim]))
    if outside - inside < 25:
        return None
    level = (inside + outside) / 2
    # each ray's first sample above the level, where the one before it is not
    k = np.argmax(prof > level, axis=1)
    rows = np.arange(len(ang))
    good = (k != 0) & (prof[rows, k] > level)
    i, k = rows[good], k[good]
    frac = (level - prof[i, k - 1]) / (prof[i, k] - prof[i, k - 1])
    r = radii[k - 1] + frac * (radii[k] - radii[k - 1])
    step = (ring[i, 1] - ring[i, 0]) / (radii[1] - radii[0])
    points = ring[i, 0] + step * (r - radii[0])[:, None]
    if len(points) < 12:
        return None
    cx, cy, _ = kasa(points)
    cx, cy, n, _ = fixed_fit(points, (cx, cy), rim)
    if n < 12:
        return None
    _, _, r = kasa(points[np.abs(np.hypot(points[:, 0] - cx, points[:, 1] - cy) - rim) < 0.7])
    return Pot(cx, cy, r)


def pot_mask(cal: MatCalibration, pot: Pot, spec: MatSpec) -> Mask:
    """What the pot hides, with a little margin."""
    top, base = _outline(pot, spec)
    return polygon_mask(cal.size, np.vstack([cal.to_pixels(top, POT_HEIGHT_MM),
                                             cal.to_pixels(base, 0.0)]))  # fmt: skip


@functools.lru_cache(maxsize=4)
def _outline(pot: Pot, spec: MatSpec) -> tuple[Floats, Floats]:
    """The pot's rim and base, with the margin, in mat mm: made once per pot
    (a frame masks it out of the video and of every crop of the still)."""
    top = circle(pot.x, pot.y, spec.pot_rim_mm / 2 + 1.5)
    base = circle(pot.x, pot.y, spec.pot_base_mm / 2 + 1.5)
    top.flags.writeable = base.flags.writeable = False  # shared by every caller
    return top, base


PATCH_MM = 4.5
"""A colour patch seen through the opening at least this thick is a potted
wink's (thinner: a sliver past the wink above, or the colour bleeding into
a dark edge). Chosen on seeds 30000-30199 (``bench.mat --potted``)."""
VIDEO_PATCH_MM = 8.8
"""The same in a video frame (about 0.7 px per mm): thinner patches there
are as often colours blended at the edges of two winks."""
CLUSTER_MM = 12.5
"""Patches of one colour within this of a thicker one are the same wink's
(a wink split in two by one lying across it; a large wink's radius is 11)..."""
SPAN_MM = 23.0
"""... if both fit in one wink: the patches' inscribed discs span at most
a large wink's 22 mm (with 1 mm for the pixels). A crescent next to a whole
face of its colour is another wink, however near."""


CRESCENT_MM = 10.0
"""A kept patch thinner than this is a crescent: a patch of its colour in
one piece with it is the same wink's however far along the crescent it
lies (within :data:`SPAN_MM`). Seeds 32203 and 32124: yellow crescents
7-8 mm thick whose ends lie 13-14 mm apart counted twice. Chosen on seeds
32000-32999 (``potted`` alone, no dips): 8 -> 975 of 1000 right with 2
over-counts, 9 -> 976, 10-14 -> 975, none over."""
DIP_MM = 1.75
"""A piece of one colour whose outline (smoothed over
:data:`DIP_SMOOTH_MM`) dips this far inside its convex hull where the dip
holds bare pot (mostly inside the opening, and less than
:data:`DIP_COLOURED` of its pixels there coloured) is two winks' faces run
together, stacked with no edge seen between them: one wink's face is a
disc less the winks above it, and those would colour the dip. Chosen on
seeds 32000-32999: 1.25 -> 3 over-counts, 1.5 -> 982 of 1000 right,
1.75 -> 979, 2.0 -> 978, none -> 976 (40000-40999: 989 at 1.5-2.0, 988
without); unsmoothed outlines are ragged (1.5 -> 17 over-counts)."""
DIP_COLOURED = 0.2
DIP_SMOOTH_MM = 0.75
WHOLE_MM = 11.0
"""A piece counted once whose thickest patch is at least this thick (a 16
mm face all but whole, or much of a 22 mm one) ..."""
RIM_RMS_MM = 0.5
"""... and whose rim against the bare pot (:func:`_rim_rms`) strays from
one circle by this much (RMS) is two winks of one colour, stacked with no
edge seen: the lower one's crescent bulges past the upper one's rim.
Chosen on tuning seeds 32000-32999 (the pieces counted once that merged a
patch, had no dip and a patch 11 mm thick): one wink's rim strays at most
0.37 mm, and 8 of the 14 pairs counted once 0.53-1.17 (32045, 32293,
32838, ...; the rest 0.20-0.43: the crescent hidden in part by another
colour, or too short to bend the rim). 40000-40999: one wink's at most
0.28, pairs 0.39, 0.47, 0.82."""
RIM_OUTLIER_MM = 2.0
"""Rim points further than this off the first circle are left out and the
circle fitted again (seed 32850: a sliver where a 22 mm wink passes under
another colour lay 8 mm off, its rim RMS 1.78 mm, 0.18 without it)."""
RIM_CLEAR_MM = 1.5
"""Rim points this near another colour or the opening's edge are left out
(there the outline is another wink's edge, not this one's)."""

EDGE_LINE = 14
"""A wink's edge inside a patch of its colour: a line this many grey levels
darker than the face either side (a morphological black-hat of the
brightest channel) is taken out of the colour's mask, so that two winks of
one colour, one on the other, are two patches and not one. Chosen on seeds
30000-30399 (``bench.mat --potted``: 384 -> 391 of 400 right; 10 and 30
were worse). 256: never (the counter as it was)."""
EDGE_LINE_MM = 5.0
"""... across at most this (the black-hat's disc; 3 and 4 were worse)."""
EDGE_SPECK_MM2 = 3.0
"""... and covering at least this much: smaller specks are the sensor's
noise on a face (seed 32929: specks on a whole 22 mm face cut its
inscribed disc to 13 mm and the rest counted as a second wink)."""


def edge_lines(image: NDArray[np.uint8], ppm: float) -> Mask:
    """255 where ``image`` has no wink edge (:data:`EDGE_LINE`), 0 on one:
    specks smaller than :data:`EDGE_SPECK_MM2` are noise, not edges."""
    bright = cv2.GaussianBlur(image.max(axis=2), (3, 3), 0)
    k = max(5, 2 * round(EDGE_LINE_MM * ppm / 2) + 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    hat = cv2.morphologyEx(bright, cv2.MORPH_BLACKHAT, disc)
    line = np.asarray(hat >= EDGE_LINE, np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(line, connectivity=8)
    big = stats[:, cv2.CC_STAT_AREA] >= EDGE_SPECK_MM2 * ppm * ppm
    big[0] = False
    return np.asarray(~big[labels], np.uint8) * np.uint8(255)


def opening_box(cal: MatCalibration, pot: Pot, spec: MatSpec, scale: float = 1.0
                ) -> tuple[int, int, int, int] | None:  # fmt: skip
    """The pixels round the pot's opening (x0, y0, width, height) in a
    picture ``scale`` times finer than ``cal``'s (a still), or None when the
    opening is not wholly in the picture."""
    uv = scale * (cal.to_pixels(_opening(pot, spec), POT_HEIGHT_MM) + 0.5) - 0.5
    x0, y0 = np.floor(uv.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(uv.max(axis=0)).astype(int) + 3
    w, h = round(cal.size[0] * scale), round(cal.size[1] * scale)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def opening_crop(image: NDArray[np.uint8], cal: MatCalibration, pot: Pot, spec: MatSpec
                 ) -> NDArray[np.uint8] | None:  # fmt: skip
    """A copy of the pixels round the pot's opening (:func:`opening_box`)
    in ``image``, a picture of ``cal``'s view as many times finer as it is
    wider (a still); None when the opening is not wholly in it. The
    umpire's evidence of what the pot showed (a crop of a few hundred
    pixels, kept where the whole still would not be)."""
    box = opening_box(cal, pot, spec, image.shape[1] / cal.size[0])
    if box is None:
        return None
    x0, y0, w, h = box
    return np.array(image[y0 : y0 + h, x0 : x0 + w], np.uint8)


def _opening(pot: Pot, spec: MatSpec) -> Floats:
    return circle(pot.x, pot.y, spec.pot_rim_mm / 2 - POT_WALL_MM - 0.5)


def potted(image: NDArray[np.uint8], cal: MatCalibration, pot: Pot, spec: MatSpec,
           patch_mm: float = PATCH_MM, edges: bool = True) -> dict[Colour, int]:  # fmt: skip
    """Winks of each colour seen through the opening in ``image`` (a crop
    round the opening, :func:`opening_box`, whose calibration is ``cal``):
    each colour patch at least ``patch_mm`` thick is a wink, but patches
    within :data:`CLUSTER_MM` of a thicker one of their colour are counted
    with it (and patches in one piece with a thinner crescent,
    :data:`CRESCENT_MM`). ``edges``: a wink's edge across a patch splits it
    (:func:`edge_lines`; off for a video frame, too coarse to show one).
    Two winks of one colour stacked with no edge seen between them count as
    two when the bare pot shows in a dip of their outline (:data:`DIP_MM`),
    else as one."""
    return potted_and_areas(image, cal, pot, spec, patch_mm, edges)[0]


def colour_areas(image: NDArray[np.uint8], cal: MatCalibration, pot: Pot, spec: MatSpec
                 ) -> dict[Colour, float]:  # fmt: skip
    """How much of each colour shows through the opening in ``image`` (a
    crop as for :func:`potted`), mm² at the height of a wink on the pot's
    floor: the same pixels :func:`potted` counts winks in, edges and all."""
    _, ppm, masks = _opening_masks(image, cal, pot, spec)
    return _areas(masks, ppm)


def potted_and_areas(image: NDArray[np.uint8], cal: MatCalibration, pot: Pot, spec: MatSpec,
                     patch_mm: float = PATCH_MM, edges: bool = True,
                     ) -> tuple[dict[Colour, int], dict[Colour, float]]:  # fmt: skip
    """:func:`potted` and :func:`colour_areas` from one pass of the colour
    masks (each made them for itself until session 13)."""
    window, ppm, masks = _opening_masks(image, cal, pot, spec)
    least, near, span = patch_mm / 2 * ppm, CLUSTER_MM * ppm, SPAN_MM * ppm
    counts = dict.fromkeys(COLOURS, 0)
    coloured = np.zeros(window.shape, np.uint8)
    for mask in masks.values():
        coloured |= mask
    seen = _padded(np.where(window > 0, coloured // 255, 2).astype(np.uint8))
    cut = edge_lines(image, ppm) if edges else window
    for colour, mask in masks.items():
        left = _padded(np.asarray(cv2.bitwise_and(mask, cut), np.uint8))
        counts[colour] = _winks(left, seen, ppm, (least, near, span, CRESCENT_MM * ppm))
    return counts, _areas(masks, ppm)


def _padded(mask: Mask) -> Mask:
    """``mask`` with a border of one 0 pixel: ``np.pad(mask, 1)``, by
    OpenCV (session 20: np.pad's Python layers cost some 30 us a call,
    five calls a frame)."""
    return np.asarray(cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), np.uint8)


def _opening_masks(image: NDArray[np.uint8], cal: MatCalibration, pot: Pot, spec: MatSpec
                   ) -> tuple[Mask, float, dict[Colour, Mask]]:  # fmt: skip
    """The opening's window in ``image``, the pixels per mm at a potted
    wink's face and the colour masks within the window."""
    window = polygon_mask(cal.size, cal.to_pixels(_opening(pot, spec), POT_HEIGHT_MM))
    ppm = cal.px_per_mm(pot.x, pot.y, POT_FLOOR_MM + WINK_THICKNESS_MM)
    return window, ppm, colour_masks(image, window)


def _areas(masks: dict[Colour, Mask], ppm: float) -> dict[Colour, float]:
    return {c: cv2.countNonZero(m) / ppm**2 for c, m in masks.items()}


def _winks(left: Mask, seen: Mask, ppm: float, bounds: tuple[float, float, float, float]) -> int:
    """The winks in one colour's mask (padded by a pixel): its patches
    (inscribed discs, thickest first, each at least ``least`` deep) less
    those that may be the same wink as a thicker one kept (within ``near``
    of it, or in one piece with it when that one is ``thin``, a crescent,
    and both within ``span``); but a piece
    with a dip of bare pot in its outline (:func:`_dipped`; ``seen``: 1
    where any colour is, 0 bare pot, 2 past the opening) is at least two
    winks when it has two such patches."""
    least, near, span, thin = bounds
    n, piece = cv2.connectedComponents(left, connectivity=8)
    kept: list[tuple[int, int, float, int]] = []
    merged = [0] * n
    for _ in range(12):
        dist = cv2.distanceTransform(left, cv2.DIST_L2, 5)
        _, depth, _, (px, py) = cv2.minMaxLoc(dist)
        if depth < least:
            break
        here = int(piece[py, px])
        if all(
            ((gap := math.hypot(px - u, py - v)) > near and (here != k or 2 * d > thin))
            or gap + depth + d > span
            for u, v, d, k in kept
        ):
            kept.append((px, py, depth, here))
        else:
            merged[here] += 1
        cv2.circle(left, (px, py), round(depth + 1.0), 0, -1)
    count = len(kept)
    for k in range(1, n):
        mine = [d for *_, d, here in kept if here == k]
        if len(mine) >= 2 or not merged[k]:
            continue
        one = np.asarray(piece == k, np.uint8)
        smooth, contours = _smoothed(one, ppm)
        if _dipped(smooth, contours, seen, ppm):
            count += min(2, len(mine) + merged[k]) - len(mine)
        elif (mine and 2 * mine[0] >= WHOLE_MM * ppm
              and _rim_rms(one, contours, seen, ppm) >= RIM_RMS_MM):  # fmt: skip
            count += 1
    return count


def _smoothed(mask: Mask, ppm: float) -> tuple[Mask, Sequence[NDArray[np.int32]]]:
    """The piece ``mask`` with its outline smoothed (:data:`DIP_SMOOTH_MM`),
    and that outline's external contours: what :func:`_dipped` and
    :func:`_rim_rms` read."""
    k = 2 * round(DIP_SMOOTH_MM * ppm) + 1
    smooth = np.asarray(cv2.GaussianBlur(mask * np.uint8(255), (k, k), 0) > 127, np.uint8)
    contours, _ = cv2.findContours(smooth, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return smooth, [np.asarray(c, np.int32) for c in contours]


def _rim_rms(mask: Mask, contours: Sequence[NDArray[np.int32]], seen: Mask, ppm: float) -> float:
    """How far (RMS, mm) the outline of the piece ``mask`` (``contours``:
    its smoothed outline's, :func:`_smoothed`) strays from the circle
    fitted to it where it borders bare pot (:data:`RIM_CLEAR_MM` from any
    other colour and from the opening's edge), fitted again without the
    points off it by more than :data:`RIM_OUTLIER_MM`; 0.0 with fewer than
    8 such points."""
    if not contours:
        return 0.0
    outline = max(contours, key=len).reshape(-1, 2)
    c = 2 * round(RIM_CLEAR_MM * ppm) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (c, c))
    other = np.asarray((seen != 0) & ((seen == 2) | (mask == 0)), np.uint8)
    clear = cv2.dilate(other, disc)[outline[:, 1], outline[:, 0]] == 0
    points = outline[clear].astype(np.float64)
    if len(points) < 8:
        return 0.0
    off = _off_circle(points)
    points = points[np.abs(off) < RIM_OUTLIER_MM * ppm]  # a stray bit of edge, not a rim
    if len(points) < 8:
        return 0.0
    return float(np.sqrt(np.mean(_off_circle(points) ** 2))) / ppm


def _off_circle(points: Floats) -> Floats:
    """How far each point lies off the circle fitted to them all (px)."""
    x, y, r = kasa(points)
    return np.asarray(np.hypot(points[:, 0] - x, points[:, 1] - y) - r, np.float64)


def _dipped(mask: Mask, contours: Sequence[NDArray[np.int32]], seen: Mask, ppm: float) -> bool:
    """Whether a piece, ``mask`` with its outline smoothed and ``contours``
    that outline's (:func:`_smoothed`), has a dip of bare pot (:data:`DIP_MM`)."""
    for contour in contours:
        if len(contour) < 8:
            continue
        try:
            defects = cv2.convexityDefects(contour, cv2.convexHull(contour, returnPoints=False))
        except cv2.error:  # an outline crossing itself (a pixel-wide neck): no hull order
            continue
        for start, end, _, depth in [] if defects is None else defects.reshape(-1, 4):
            if depth / 256 < DIP_MM * ppm:
                continue
            arc = np.roll(contour, -int(start), axis=0)[: (end - start) % len(contour) + 1]
            dip = np.zeros_like(mask)
            cv2.fillPoly(dip, [arc], 1)
            there = seen[(dip > 0) & (mask == 0)]
            known = int(np.count_nonzero(there < 2))
            if 2 * known > len(there) and np.count_nonzero(there == 1) < DIP_COLOURED * known:
                return True
    return False


@dataclass(frozen=True, slots=True)
class OpeningCrop:
    """A crop round the pot's opening (:func:`opening_box`) with all that
    reading it needs (:func:`read_opening`): it pickles, to be read in
    another process while the frame's own reads the video
    (:meth:`vision.mat.pool.CropPool.hand`)."""

    image: NDArray[np.uint8]
    cal: MatCalibration
    """The crop's calibration."""
    pot: Pot
    spec: MatSpec
    in_still: bool
    """Whether it is the still's (else the video frame's: coarser, no edges read)."""


def read_opening(crop: OpeningCrop) -> PotView:
    """The pot with its potted winks counted and each colour's area in its
    opening (:func:`potted_and_areas`)."""
    pot, spec = crop.pot, crop.spec
    counts, areas = (potted_and_areas(crop.image, crop.cal, pot, spec) if crop.in_still
                     else potted_and_areas(crop.image, crop.cal, pot, spec, VIDEO_PATCH_MM,
                                           edges=False))  # fmt: skip
    return PotView(pot.x, pot.y, pot.rim, counts, areas)


def near(pot: Pot | None, spec: MatSpec) -> tuple[float, float]:
    """The pot's centre: as seen, else where it should be."""
    return (spec.pot_x_mm, spec.pot_y_mm) if pot is None else (pot.x, pot.y)


__all__ = [
    "OpeningCrop",
    "Pot",
    "circle",
    "colour_areas",
    "edge_lines",
    "find_pot",
    "near",
    "opening_box",
    "opening_crop",
    "polygon_mask",
    "pot_mask",
    "potted",
    "potted_and_areas",
    "read_opening",
]
