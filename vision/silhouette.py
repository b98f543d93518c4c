"""A coin's silhouette against the empty floor: what changed there
(:func:`segment_outline`), or its new edges, for when what changed does not
fill it (:func:`edge_silhouette`).

:func:`segment_outline` takes the pixels whose colour or brightness a
shadow cannot explain (:func:`coin_mask`); a grey (silver) coin on the white line is only
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
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.coinface import Ellipse
from vision.locate import components
from vision.model import Image
from vision.ranks import median

LOG8 = np.log(np.arange(256, dtype=np.float32) + 8)
"""log(v + 8) for each uint8 value v, float32: the log-ratio of two images by table."""


SAMPLE_FROM = 10_000
"""A plane of at least this many pixels has its medians taken over every
other pixel of every other row (a quarter; the empty still's half-resolution
crop, 154 px: 5,929 of 23,716): five medians of the whole plane were about 4
of a leaning coin's 15-20 ms at full resolution, and 1 of 7-8 ms at half. A
median is a robust estimate: on tuning rigs 50000-50002 and 80000-80003 (700
landings, full resolution) no verdict, face or posture changed; the
silhouette's axis ratio moved in 101 of them, by 0.0003 at the median and
0.004 at most; at half resolution, on rigs 50000-50009 and 80000-80009 (2,000
landings), one flat coin's silhouette moved across the 0.94 line (0.940 ->
0.938: the spotter's). Smaller planes (the preview's, 77 px) as before."""


def _quarter(plane: NDArray[Any]) -> NDArray[Any]:
    """``plane``, or every other pixel of every other row of it when it has
    at least :data:`SAMPLE_FROM` pixels: what its medians are taken over."""
    return plane[::2, ::2] if plane.size >= SAMPLE_FROM else plane


def _median(plane: NDArray[np.float32]) -> np.float32:
    """The median of ``plane``'s values, of a quarter of them when it is large."""
    return np.float32(median(_quarter(plane)))


def log_brightness(small: Image, floor: Image) -> NDArray[np.float32]:
    """How much brighter ``small`` (BGR) is than the empty ``floor`` (the
    same view, the same size or ``small`` cut to it), a log ratio per pixel,
    the channels' mean (by a 1x3 transform: NumPy's mean over interleaved
    channels took 0.4 ms)."""
    h, w = floor.shape[:2]
    ratio = np.asarray(cv2.LUT(small[:h, :w], LOG8), np.float32) - cv2.LUT(floor, LOG8)
    return np.asarray(cv2.transform(ratio, np.full((1, 3), 1 / 3, np.float32)), np.float32)


def _log_ratios() -> tuple[NDArray[np.float32], NDArray[np.uint16]]:
    """Every value ``LOG8[a] - LOG8[b]`` takes (a, b uint8), distinct and
    sorted, and the rank among them of each pair's, at ``a * 256 + b``."""
    pairs = (LOG8[:, None] - LOG8[None, :]).ravel()  # float32, as coin_mask subtracts
    values, rank = np.unique(pairs, return_inverse=True)
    return np.asarray(values, np.float32), np.asarray(rank, np.uint16)


RATIOS, RATIO_RANK = _log_ratios()


def _ratio_median(a: NDArray[np.uint8], b: NDArray[np.uint8]) -> np.float32:
    """``_median(LOG8[a] - LOG8[b])``, bit for bit, from the 8-bit planes: the
    middle values by their ranks (16-bit keys), not selected among floats
    (``np.partition`` of a plane of a few hundred distinct values, 6,000 of
    them, took 80 us; the ranks' sort 15, their selection 6).
    The order statistics of the values are the values of the ranks' order
    statistics, the rank being the value's place among the distinct values."""
    a, b = _quarter(a), _quarter(b)
    codes = (a.astype(np.uint16) << 8) | b
    # (The middle ranks by one selection: 13-70 us against the sort's 70-120
    # on 23,716 ranks; the lower middle of an even count is the largest
    # below the upper, as ranks.median takes it.)
    ranks = RATIO_RANK[codes].ravel()
    k = ranks.size // 2
    part = np.partition(ranks, k)
    zero = np.float32(0)  # (as median: the middle values added to a float32 zero)
    if ranks.size % 2:
        return np.float32(zero + RATIOS[part[k]])
    return np.float32((zero + RATIOS[part[:k].max()] + RATIOS[part[k]]) / 2)


def coin_mask(crop: Image, floor: Image, blur: float, despeckle: bool = True) -> Image:
    """Where ``crop`` (BGR) differs from the empty ``floor`` (the same view,
    ``step`` times coarser) in a way a shadow cannot explain: a shadow only
    dims the floor (the three channels by one factor), the coin has its own
    colour, is brighter, or much darker. At the floor's resolution; ``blur``
    (pixels there) makes the still as soft as the floor's coarser view.
    ``despeckle``: single changed pixels (noise) are opened away (by a 2x2
    opening, which also moves the mask a pixel down and right: its anchor);
    a view averaged down from the still has little such noise, and a coin's
    rim there may be one pixel wide. :func:`tidied` of :func:`changed_pixels`."""
    return tidied(changed_pixels(crop, floor, blur), despeckle)


def tidied(mask: Image, despeckle: bool = True) -> Image:
    """:func:`coin_mask` from what :func:`changed_pixels` found: opened (when
    ``despeckle``) and closed; ``mask`` itself is left as it is (one look's
    silhouette and its sharp-edges hull tidy the same changed pixels two ways)."""
    if despeckle:
        mask = np.asarray(
            cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)), np.uint8
        )
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), np.uint8)


def changed_pixels(crop: Image, floor: Image, blur: float) -> Image:
    """:func:`coin_mask`'s changed pixels (0 or 1), before its opening and closing."""
    h, w = floor.shape[:2]
    small = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
    if blur > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    empty = cv2.GaussianBlur(floor, (0, 0), 1.0)  # the preview's noise, magnified
    # As np.log(x.astype(np.float32) + 8), bit for bit, by table; per channel
    # (contiguous planes: a median along an axis of interleaved channels and
    # np.linalg.norm over them took most of the time), exactly the values the
    # reductions along the last axis gave (tested). The 8-bit planes are
    # split, not the float ones (a third of the bytes to move), and kept for
    # the medians (:func:`_ratio_median`).
    now = [np.asarray(c, np.uint8) for c in cv2.split(small)]
    then = [np.asarray(c, np.uint8) for c in cv2.split(empty)]
    # In place, each step the same float32 operation on the same values as
    # the expressions it replaces (r[c] = LUT(now) - LUT(then) - median;
    # b = (r0 + r1 + r2) / 3; q = sqrt(sum of (r[c] - b)^2)), bit for bit:
    # a new 307 x 307 float plane a step was about a third of the time.
    r = []
    for a, e in zip(now, then, strict=True):
        c = np.asarray(cv2.LUT(a, LOG8), np.float32)
        np.subtract(c, cv2.LUT(e, LOG8), out=c)
        np.subtract(c, _ratio_median(a, e), out=c)  # exposure, white
        r.append(c)
    b = r[0] + r[1]
    b += r[2]
    b /= 3
    for c in r:
        np.subtract(c, b, out=c)
        np.multiply(c, c, out=c)
    q = r[0]
    q += r[1]
    q += r[2]
    np.sqrt(q, out=q)
    # (_median(np.abs(b)): |b| of only the values it takes, a large plane's quarter)
    noise_b = 1.4826 * float(np.float32(median(np.abs(_quarter(b))))) + 0.01
    noise_q = float(_median(q)) + 0.01
    coin = (q > max(0.06, 3 * noise_q)) | (b > max(0.1, 3 * noise_b)) | (b < -0.55)
    return coin.view(np.uint8)  # (0 and 1, as astype gives them; both morphologies copy)


def _outer_contour(labels: NDArray[Any], i: int) -> NDArray[np.int32]:
    """The longest outer contour of component ``i`` of ``labels``, every pixel."""
    contours, _ = cv2.findContours(
        (labels == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    return np.asarray(max(contours, key=len), np.int32)


class Segmented(NamedTuple):
    """A silhouette's outline: the ellipse fitted to its contour, and the one
    fitted to the contour's convex hull (rounder where parts of a flat coin
    matched the floor and left dents; as round for a leaning coin's solid
    ellipse)."""

    fit: Ellipse
    hull: Ellipse
    points: NDArray[np.float64] | None = None
    """The contour ``fit`` was fitted to, (n, 2) in the same pixels (None
    when not kept): an outline across the tape's edge is fitted again
    without the points on it (``Analyser._across_tape``)."""


def segment_outline(
    crop: Image,
    floor: Image,
    diameter: float,
    blur: float = 0.0,
    min_fill: float = 0.0,
    despeckle: bool = True,
) -> Ellipse | None:
    """The coin's outline from what changed against the empty floor (``floor``:
    the same rectified view, coarser): the changed blob nearest the middle,
    its contour fitted with an ellipse. None too when less than ``min_fill``
    of the ellipse changed: a coin much like the floor (silver on grey)
    changes only along its edges and relief, and the ragged ring's ellipse
    says nothing of its posture. ``despeckle`` as :func:`coin_mask`'s."""
    found = segment_outlines(crop, floor, diameter, blur, min_fill, despeckle)
    return None if found is None else found.fit


def segment_outlines(
    crop: Image,
    floor: Image,
    diameter: float,
    blur: float = 0.0,
    min_fill: float = 0.0,
    despeckle: bool = True,
    mask: Image | None = None,
    changed: Image | None = None,
) -> Segmented | None:
    """:func:`segment_outline`'s outline and its convex hull's ellipse;
    ``mask``: :func:`coin_mask` of these arguments when already made.
    ``changed``: the changed pixels ``mask`` was tidied from, undespeckled
    (:func:`changed_pixels`): when nothing is outlined and a blob larger
    than a coin is there, they are despeckled (:func:`despeckled`) and
    looked at again (:data:`LARGER`)."""
    step = crop.shape[1] / floor.shape[1]
    if mask is None:
        mask = coin_mask(crop, floor, blur, despeckle)
    found, larger = _outlined(mask, diameter, step, min_fill)
    if found is None and larger and changed is not None:
        found, _ = _outlined(despeckled(changed), diameter, step, min_fill)
    return found


LARGER = 1.35
"""A blob over this many diameters (the longest a silhouette may be) is larger
than a coin; in an undespeckled mask (``Halves``) of at least ``SPECKLED``
blobs (a dark, noisy floor: 202 and 226 for tuning landing 320012#18, a coin
leaning across the tape's edge) the speckles have joined the coin into it.
Only then, and only when nothing is outlined, the mask is despeckled and
looked at again. On a clean floor a leaning coin and its long shadow make one
such blob (tuning rig 50019, a test's landing), and despeckled it came apart
into an oval the round edge disputed: a cleet its shadow caught went to the
spotter. So a mask of few blobs is not looked at again."""
SPECKLED = 30


def despeckled(changed: Image) -> Image:
    """:func:`tidied` of ``changed`` with its single changed pixels (noise)
    opened away, by a 2x2 opening that leaves the mask where it was (an
    erosion and a dilation anchored at opposite corners: OpenCV's own
    opening anchors both at one and moves the mask a pixel down and right)."""
    square = np.ones((2, 2), np.uint8)
    opened = cv2.dilate(cv2.erode(changed, square, anchor=(0, 0)), square, anchor=(1, 1))
    return tidied(np.asarray(opened, np.uint8), despeckle=False)


def _nearest_coin_sized(
    stats: NDArray[Any], centres: NDArray[Any], d: float, h: int, w: int
) -> int | None:
    """The blob (:func:`components`) of a coin's size (``d`` pixels across)
    nearest the middle of an ``h`` x ``w`` mask, or None."""
    best: tuple[float, int] | None = None
    for i in range(1, len(stats)):
        extent = max(int(stats[i][2]), int(stats[i][3]))
        if extent < 0.6 * d or extent > 1.6 * d or stats[i][4] < 0.03 * d * d:
            continue
        off = math.hypot(centres[i][0] - w / 2, centres[i][1] - h / 2)
        if best is None or off < best[0]:
            best = (off, i)
    return None if best is None else best[1]


def _outlined(
    mask: Image, diameter: float, step: float, min_fill: float
) -> tuple[Segmented | None, bool]:
    """:func:`segment_outlines` in ``mask`` (``step`` times coarser than the
    crop; ``diameter``: the crop's pixels), and whether the mask is
    speckled (:data:`SPECKLED`) with a blob in it reaching more than
    :data:`LARGER` diameters."""
    d = diameter / step
    count, labels, stats, centres = components(mask)
    speckled = count > SPECKLED  # (count includes the background)
    larger = speckled and int(stats[1:, 2:4].max()) > LARGER * d
    best = _nearest_coin_sized(stats, centres, d, *mask.shape)
    if best is None:
        return None, larger
    contour = _outer_contour(labels, best)
    if len(contour) < 6:
        return None, larger
    fit = _fitted(contour, step)
    if not np.isfinite([fit.x, fit.y, fit.major, fit.minor, fit.angle_deg]).all():
        return None, larger
    # Sized by its length, not the fitted ellipse: an ellipse fitted to a
    # coin on edge (a sliver, near a rectangle) overshoots its ends.
    _, sides, _ = cv2.minAreaRect(contour)
    length = max(sides) * step
    if not 0.8 * diameter <= length <= LARGER * diameter:
        return None, larger or (speckled and length > LARGER * diameter)
    if min_fill > 0 and _fill(mask, fit, step) < min_fill:
        return None, larger
    hull = np.asarray(cv2.convexHull(contour), np.int32)
    points = (contour.reshape(-1, 2).astype(np.float64) + 0.5) * step - 0.5
    return Segmented(fit, _fitted(hull, step) if len(hull) >= 5 else fit, points), larger


def _fill(mask: Image, fit: Ellipse, step: float) -> float:
    """The share of ``fit`` (crop pixels) that changed in ``mask`` (``step``
    times coarser); 1.0 when the ellipse is thinner than a mask pixel and
    draws nothing (a sliver: as before session 20, when the mean of no
    pixels, NaN, never compared below ``min_fill``; whether such a sliver
    should pass is not settled)."""
    inside = np.zeros_like(mask)
    a, b = fit.major, fit.minor
    axes = (max(a, b) / 2, max(min(a, b), 1.0) / 2)
    centre = ((fit.x + 0.5) / step - 0.5, (fit.y + 0.5) / step - 0.5)
    box = (centre, (2 * axes[0] / step, 2 * axes[1] / step), fit.angle_deg)
    cv2.ellipse(inside, box, 1, -1)
    filled = mask[inside > 0]
    return float(filled.mean()) if filled.size else 1.0


def _fitted(points: NDArray[np.int32], step: float) -> Ellipse:
    """The ellipse fitted to ``points`` (pixels of an image ``step`` times
    coarser than the crop, five or more), in crop pixels."""
    (x, y), (a, b), angle = cv2.fitEllipse((points.astype(np.float32) + 0.5) * step - 0.5)
    return Ellipse(x, y, max(a, b), max(min(a, b), 1.0), angle if a >= b else angle + 90)


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


JOIN = 5
SPREAD = 4.0
"""The dilation that joins a coin's new edges into one blob (pixels across)
and the edges' spread taken off the hull's axes (pixels), both at the crop's
resolution."""


SLIVER_CHANGE = 0.08
"""A sliver's pixel: brighter or darker than the empty floor by this log
ratio (8 %), exposure taken out."""
SLIVER_SOLID = 0.8
"""... in a blob filling this share of its convex hull (a sliver and its
shadow are solid; a flat coin's thin arc, its rim or shadow, is not)."""
SLIVER_SMOOTH = 1.5
"""A blob too wide for a sliver is looked into for the part a shadow cannot
explain (:func:`_unshadowed`), each channel's log ratio first smoothed by
this sigma (pixels of ``small``, half the crop's resolution: 0.75 mm), as a
sliver is 3-6 mm wide and the change in colour it makes is a few %."""
SLIVER_COLOUR = (0.03, 4.0)
"""... a pixel whose colour changed (the norm of its channels' log ratios
less their mean) by more than the larger of the first and the second times
the view's median is not the shadow's (a shadow dims the three channels by
one factor): the median is the floor's noise, which a dark floor (the
painted tape) makes several times a light one's."""


def _gradient(image: Image, blur: float = 1.0) -> np.ndarray:
    g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    log = np.asarray(cv2.LUT(g, LOG8), np.float32)
    log = np.asarray(cv2.GaussianBlur(log, (0, 0), blur), np.float32)
    gx = cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3) / 8
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def _hull_candidates(mask: NDArray[np.bool_]) -> NDArray[np.float32] | None:
    """The points (x, y) of ``mask`` that its convex hull is made of: each
    row's first and last, and every point of its first and last rows (the
    only rows a hull's horizontal sides can run along), in the row-major
    order ``np.nonzero`` lists them; None when ``mask`` has fewer than six
    points. ``cv2.convexHull`` of these is its hull of all the mask's points,
    bit for bit (a leaning coin's 7,250 edge points took it 0.7 ms; its 188
    candidates are found in 0.1 ms and their hull in 0.01)."""
    rows = mask.any(axis=1)
    ys = np.flatnonzero(rows)
    if ys.size == 0 or np.count_nonzero(mask) < 6:
        return None
    top, bottom = int(ys[0]), int(ys[-1])
    band = mask[top : bottom + 1]
    w = mask.shape[1]
    first = np.argmax(band, axis=1)
    last = w - 1 - np.argmax(band[:, ::-1], axis=1)
    inner = ys[1:-1] - top if ys.size > 2 else ys[:0]
    ends = np.column_stack([first[inner], inner + top, last[inner], inner + top]).reshape(-1, 2)
    # (a row of one point gives it once)
    single = np.column_stack([np.ones(inner.size, np.bool_), last[inner] != first[inner]])
    ends = ends[single.ravel()]
    tops = np.flatnonzero(mask[top])
    bottoms = np.flatnonzero(mask[bottom]) if bottom != top else tops[:0]
    pts = np.vstack(
        [
            np.column_stack([tops, np.full_like(tops, top)]),
            ends,
            np.column_stack([bottoms, np.full_like(bottoms, bottom)]),
        ]
    )
    return pts.astype(np.float32)


def edge_silhouette(
    crop: Image,
    floor: Image,
    diameter: float,
    *,
    step: int = 1,
    mask: Image | None = None,
    outline_points: list[NDArray[np.float64]] | None = None,
) -> Ellipse | None:
    """The coin's outline as the convex hull of its new edges and of what
    changed (``floor``: the empty floor's crop, the same view and
    resolution), nearest the middle; None when no coin-sized hull runs along
    new edges for ``SUPPORT`` of its outline. ``step``: ``crop`` is the
    crop's view ``step`` times coarser (``diameter`` and the outline in its
    pixels), and what is per pixel scales with it (the smoothing, the rise
    a pixel that makes an edge, the join, the edges' spread); ``mask``:
    what changed (:func:`coin_mask`) when already made; ``outline_points``:
    the hull's outline, sampled a pixel apart, is appended to it when an
    outline is found (``Analyser._across_tape``)."""
    if floor.shape[:2] != crop.shape[:2]:
        return None
    rise = _gradient(crop, 1.0 / step)
    np.subtract(rise, _gradient(floor, 1.0 / step), out=rise)  # (in place: bit for bit)
    inside = rise > SHARP * step
    inside |= (coin_mask(crop, floor, 0.0) if mask is None else mask) > 0
    both = inside.view(np.uint8)  # (0 and 1, as astype gives them)
    # Join a coin's edges (its rim, its relief) into one blob: 5 px at the
    # crop's resolution, 3 at half.
    join = 2 * (JOIN // (2 * step)) + 1
    joined = cv2.dilate(both, np.ones((join, join), np.uint8))
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
    keep = np.zeros(count, np.bool_)
    keep[near] = True
    pts = _hull_candidates(np.take(keep, labels) & inside)  # (take: 0.10 ms; keep[labels] 0.31)
    if pts is None:
        return None
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
    # Sobel passes the threshold about two pixels to either side of it (at
    # the crop's resolution).
    blurred = SPREAD / step
    major, minor = 4 * math.sqrt(big) - blurred, max(4 * math.sqrt(small) - blurred, 1.0)
    angle = 0.5 * math.degrees(math.atan2(2 * mu11, mu20 - mu02))
    if not 0.8 * diameter <= major <= 1.35 * diameter:
        return None
    # The hull's outline must run along new edges, not cut a chord.
    outline = joined  # (both, dilated as above)
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
    if outline_points is not None:
        outline_points.append(on.astype(np.float64))
    return Ellipse(cx, cy, major, minor, angle)


def changed_sliver(
    small: Image, floor: Image, diameter: float, bounds: tuple[float, float, float]
) -> Ellipse | None:
    """A coin on edge that has no outline: the blob whose brightness
    changed against the empty ``floor`` (exposure taken out; a sliver and
    its shadow, brighter or darker) nearest the middle of ``small`` (the
    crop at the floor's resolution), when it is long, narrow and solid:
    ``bounds`` = (shortest and longest length, widest width) in coin
    diameters (``diameter``: pixels here). A flat coin, however like the
    floor, changes it a diameter across every way; a coin on edge seen from
    above is a sliver about a diameter long. As a rectangle (the blob's
    least-area box) in ``small``'s pixels; None when no such blob."""
    h, w = floor.shape[:2]
    b = log_brightness(small, floor)
    changed = (np.abs(b - _median(b)) > SLIVER_CHANGE).astype(np.uint8)
    changed = np.asarray(cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)))
    count, labels, _, centres = components(changed)
    if count < 2:
        return None
    offs = np.hypot(centres[1:, 0] - w / 2, centres[1:, 1] - h / 2)
    best = int(np.argmin(offs)) + 1
    if offs[best - 1] > 0.75 * diameter:
        return None
    contour = _outer_contour(labels, best)
    found, too_wide = _sliver(contour, diameter, bounds)
    if not too_wide:
        return found
    # A coin nearly on edge and its long shadow as one blob (tuning 320013#98,
    # 330015#7): the sliver is the part of it a shadow cannot explain.
    part = _unshadowed(small, floor, labels == best)
    return None if part is None else _sliver(part, diameter, bounds)[0]


def _sliver(
    contour: NDArray[np.int32], diameter: float, bounds: tuple[float, float, float]
) -> tuple[Ellipse | None, bool]:
    """``contour``'s least-area box when it is a sliver's (:func:`changed_sliver`),
    and whether it is instead a solid blob a sliver's length but wider than
    a sliver's ``bounds`` allow (a sliver merged with its long shadow, or a
    flat coin, a diameter wide every way)."""
    (x, y), sides, angle = cv2.minAreaRect(contour)
    length, width = max(sides) / diameter, min(sides) / diameter
    shortest, longest, widest = bounds
    if not (shortest <= length <= longest and _solid(contour)):
        return None, False
    if width > widest:
        return None, True
    turn = angle if sides[0] >= sides[1] else angle + 90
    return Ellipse(x, y, max(sides), max(min(sides), 1.0), turn), False


def _solid(contour: NDArray[np.int32]) -> bool:
    hull = cv2.contourArea(cv2.convexHull(contour))
    return hull > 0 and cv2.contourArea(contour) >= SLIVER_SOLID * hull


def _unshadowed(small: Image, floor: Image, blob: NDArray[np.bool_]) -> NDArray[np.int32] | None:
    """The outer contour of what changed against the empty ``floor`` in a way
    a shadow cannot explain, in one piece with most of ``blob`` (None when
    nothing is): a shadow dims the three channels by one factor, softly
    (its penumbra between none and the full depth), so a pixel is the
    coin's when its colour changed (``SLIVER_COLOUR``), or it is brighter
    than the floor or darker than the blob's median (the shadow's depth) by
    ``SLIVER_CHANGE``. Each channel's log ratio, exposure and white taken
    out by its median, smoothed by ``SLIVER_SMOOTH``. A flat coin there
    changes a diameter across every way and stays too wide; a coin on edge
    is its sliver, a diameter long and a few mm wide."""
    h, w = floor.shape[:2]
    now = [np.asarray(c, np.uint8) for c in cv2.split(np.ascontiguousarray(small[:h, :w]))]
    then = [np.asarray(c, np.uint8) for c in cv2.split(floor)]
    r = []
    for a, e in zip(now, then, strict=True):
        c = np.asarray(cv2.LUT(a, LOG8), np.float32) - cv2.LUT(e, LOG8)
        c -= _ratio_median(a, e)
        r.append(np.asarray(cv2.GaussianBlur(c, (0, 0), SLIVER_SMOOTH), np.float32))
    b = (r[0] + r[1] + r[2]) / 3
    q = np.sqrt((r[0] - b) ** 2 + (r[1] - b) ** 2 + (r[2] - b) ** 2)
    least, times = SLIVER_COLOUR
    colour = q > max(least, times * float(_median(q)))
    depth = float(median(b[blob]))
    part = colour | (b > SLIVER_CHANGE) | (b < depth - SLIVER_CHANGE)
    count, labels, _, _ = components(part.view(np.uint8))
    if count < 2:
        return None
    over = np.bincount(labels[blob], minlength=count)
    over[0] = 0
    best = int(np.argmax(over))
    return None if over[best] == 0 else _outer_contour(labels, best)
