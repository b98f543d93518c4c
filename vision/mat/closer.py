"""A second, closer look at piles: crops of a full-resolution still.

At 1280x720 the mat is about half a pixel per mm: a covered wink showing a
6 mm crescent is 3 px wide, and a centre fitted to it can be millimetres
out, enough to read which wink is on top wrongly. The camera that films at
1280x720 takes stills at 4608x2592 (:data:`~vision.mat.render.STILL_SCALE`
times finer, about 2 px per mm). After the video frame is read, every group
of winks touching or stacked (and any wink not seen whole) is read again
from a crop of a still, with the same steps (:func:`~vision.mat.winks.find_winks`)
and the same calibration scaled to the crop; what the crop finds replaces
what the video found there. A pair of winks the crop leaves with neither
on the other stays so (the engine's consistency check then asks the
umpire, 14), even where the video ordered it: tried in session 10, the
video's order was right for 7 such pairs of the nine evaluation ranges
and wrong for 3 (7070, 17178, 19085): a guess, and a wrong one is a false
squop where an open pair only asks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import MatSpec
from vision.mat import relations, rings
from vision.mat.camera import MatCalibration
from vision.mat.hints import SHOWS
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.pot import Pot, pot_mask
from vision.mat.winks import Fit, Found, Picture, find_winks
from vision.model import Frame

if TYPE_CHECKING:
    from vision.mat.pool import CropPool

Still = Callable[[tuple[int, int, int, int]], Frame]
"""Reads ``(x0, y0, width, height)`` of a full-resolution still, in its pixels."""
GAP_MM = 3.0
"""Winks closer than this (edge to edge) are looked at together."""
MARGIN_MM = 9.0
LOOSE_MM = 0.25
"""In a still, partial fits further than this (RMS) from their edge points
are circles fitted across two winks (a wink's own: 0.21 mm at p95)."""
APART_MM = (5.0, 2.5)
"""Fits of one colour this close are one wink in a still (sizes alike,
unlike): a wink squopped by one of its colour and size must show 6 mm."""
"""The crop's margin round a group's discs."""


LOOSE_RMS_MM = 0.25
"""A large wink seen whole in video whose outline fits its edge points
worse than this (RMS) is looked at in the still too, for a small wink of
its colour lying nearly concentrically on it (its rim reaches a fraction of
a millimetre past the large one's: one blob, one outline, whole). Tuning
seeds 32926, 32928, 33946: 0.31-0.34 mm; other lone whole 22 mm outlines of
seeds 34000-34057: p95 0.27, 5 of 249 over 0.30. 0.3 until session 14:
tuning seed 40700, g6 3.1 mm off g2's centre, 0.262 mm; on fresh tuning
seeds 46000-46599 the lower bar cut 74 more crops (3430, 2.2 % more) and
changed no relation, wink missed or false wink."""


def groups(fits: list[Fit], doubted: frozenset[int] = frozenset()) -> list[list[int]]:
    """The winks worth a closer look: each set of winks within
    :data:`GAP_MM` of one another or of one blob of colour (a wink the video
    did not fit may join them) with some wink not seen whole, some two
    overlapping, or a large wink whose outline fits loosely
    (:data:`LOOSE_RMS_MM`: perhaps a small one lies on it); winks seen
    whole and apart, or merely touching, are read well enough from the
    video."""
    parent = list(range(len(fits)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(fits):
        for j in range(i + 1, len(fits)):
            b = fits[j]
            if (math.hypot(a.x - b.x, a.y - b.y) - (a.size + b.size) / 2 < GAP_MM
                    or a.blob == b.blob >= 0):  # fmt: skip
                parent[root(i)] = root(j)
    out: dict[int, list[int]] = {}
    for i in range(len(fits)):
        out.setdefault(root(i), []).append(i)
    return [g for g in out.values()
            if not all(fits[i].whole for i in g) or _stacked(fits, g)
            or any(fits[i].size == 22 and not fits[i].voted and fits[i].rms > LOOSE_RMS_MM
                   for i in g)
            or any(fits[i].row in doubted for i in g)]  # fmt: skip


BESIDE_MM = (1.0, 4.0)
"""Where, past a fit's rim, pixels of another colour are looked for
(:func:`beside`): a wink of another colour under it shows there. At the
far end of the mat a video pixel is about 2 mm, and the wink's blurred
dark edge fills the first of them (tuning seed 61758's green pixels lay
past 2.5 mm)."""
BESIDE_MIN = 4
"""The least samples of another colour there (of 3 x 48) that send a lone
whole fit to the still."""


def beside(found: Found, cal: MatCalibration) -> frozenset[int]:
    """The rows of the fits seen whole with no other fit within
    :data:`GAP_MM` whose ring just past the rim (:data:`BESIDE_MM`) shows
    :data:`BESIDE_MIN` samples or more of another colour: perhaps the
    crescent of a wink under it, too small in video for a candidate of its
    own (session 16, tuning seed 60053: g6's green crescent 3 px wide at
    the far end of the mat, 6 green pixels, under r5 seen whole and alone;
    the still, 3.6 times finer, reads the pair. 61758's g4 under r6, the
    same in video, is looked at but not found in the still either)."""
    fits = found.fits
    unit = rings.unit_vectors(48)
    out = set()
    for i, f in enumerate(fits):
        if not f.whole or f.row < 0 or any(
                j != i and math.hypot(f.x - g.x, f.y - g.y) - (f.size + g.size) / 2 < GAP_MM
                for j, g in enumerate(fits)):  # fmt: skip
            continue
        radii = f.size / 2 + np.array([BESIDE_MM[0], sum(BESIDE_MM) / 2, BESIDE_MM[1]])
        pts = (np.array([f.x, f.y]) + radii[:, None, None] * unit[None]).reshape(-1, 2)
        uv = np.round(cal.to_pixels(pts, WINK_THICKNESS_MM)).astype(int)
        inside: dict[tuple[int, ...], tuple[NDArray[np.int64], NDArray[np.int64]]] = {}
        for c, m in found.masks.items():
            if c is f.colour:
                continue
            if m.shape not in inside:  # the samples in the picture: once, not once a colour
                h, w = m.shape
                ok = (uv[:, 0] >= 0) & (uv[:, 0] < w) & (uv[:, 1] >= 0) & (uv[:, 1] < h)
                inside[m.shape] = uv[ok, 1], uv[ok, 0]
            if np.count_nonzero(m[inside[m.shape]]) >= BESIDE_MIN:
                out.add(f.row)
                break
    return frozenset(out)


def _stacked(fits: list[Fit], group: list[int]) -> bool:
    pairs = [(fits[i], fits[j]) for i in group for j in group if i < j]
    return any(math.hypot(a.x - b.x, a.y - b.y) < (a.size + b.size) / 2 for a, b in pairs)


def region(cal: MatCalibration, fits: list[Fit], scale: float) -> tuple[int, int, int, int] | None:
    """The still's pixels round ``fits`` (with :data:`MARGIN_MM`)."""
    pts = np.vstack([[(f.x + dx * (f.size / 2 + MARGIN_MM), f.y + dy * (f.size / 2 + MARGIN_MM))
                      for dx in (-1, 1) for dy in (-1, 1)] for f in fits])  # fmt: skip
    uv = scale * (cal.to_pixels(pts, WINK_THICKNESS_MM) + 0.5) - 0.5
    w, h = round(cal.size[0] * scale), round(cal.size[1] * scale)
    x0, y0 = np.maximum(np.floor(uv.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(uv.max(axis=0)).astype(int) + 1, [w, h])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def look(found: Found, still: Still, cal: MatCalibration, pot: Pot | None, spec: MatSpec,
         scale: float, pool: CropPool | None = None) -> Found:  # fmt: skip
    """``found`` with each group's winks as a closer look sees them; then
    each large wink beside a group on which its crop found a small one that
    the video did not see (:func:`_rung`) is looked at alone too (after all
    the groups: what they took over stays theirs). The groups' crops are
    independent of one another: with a ``pool`` they are read side by side
    (:class:`~vision.mat.pool.CropPool`), the same readings; the crops
    :func:`_rung` adds depend on them and are read here after them."""
    kept = list(range(len(found.fits)))
    extra: list[tuple[Found, list[int]]] = []
    todo = groups(found.fits, found.doubted | beside(found, cal))
    looked = {i for g in todo for i in g}
    n_groups = len(todo)
    crops = [cut([found.fits[i] for i in g], still, cal, pot, spec, scale) for g in todo]
    first = _read_all(crops, pool)
    for n, group in enumerate(todo):  # grows while it is read
        members = [found.fits[i] for i in group]
        crop = crops[n] if n < n_groups else cut(members, still, cal, pot, spec, scale)
        if crop is None:
            continue
        got, ccal = (first[n] if n < n_groups else read(crop)), crop.cal

        def near(f: Fit, members: list[Fit] = members) -> bool:
            return min(math.hypot(f.x - g.x, f.y - g.y) - g.size / 2 for g in members) < GAP_MM

        inside = [k for k, f in enumerate(got.fits) if near(f)]
        inside += _stacked_on(found, group, got, inside, ccal)
        if n >= n_groups and any(i not in kept for i, f in enumerate(found.fits) if near(f)):
            continue  # a wink beside it was a group's
        if inside:
            kept = [i for i in kept if not near(found.fits[i])]
            extra.append((got, inside))
        for i in _rung(found, got, [k for k in range(len(got.fits)) if k not in inside]):
            if i not in looked:
                looked.add(i)
                todo.append([i])
    return _merge(found, kept, extra)


def _read_all(crops: list[Crop | None], pool: CropPool | None) -> list[Found]:
    """Each crop's reading, in order (a crop that is None: an empty
    reading, never used)."""
    real = [c for c in crops if c is not None]
    got = iter(pool.read(real) if pool is not None else [read(c) for c in real])
    return [next(got) if c is not None else Found([], {}, [], {}) for c in crops]


def _stacked_on(video: Found, group: list[int], got: Found, inside: list[int],
                ccal: MatCalibration) -> list[int]:  # fmt: skip
    """The crop's fits beyond the group's reach (:data:`GAP_MM` of its video
    fits) that the crop reads as lying on or under one of its fits near the
    group (``inside``), and that no video fit overlaps: a wink the video did
    not see, squopped with one of the group's. The video's groups are cut
    round the winks it saw, and a crop kept only its fits near them (tuning
    seeds 40287, g6 16 mm on g4, its centre 5.6 mm beyond g4's rim; 40931,
    b4 under g2 and b6, 5.1 mm beyond b6's): the crop fitted the wink, and
    it was dropped with its relation. A fit a video fit overlaps is left to
    that fit's own group, or to the video (no wink twice). And it must show
    its colour over :data:`~vision.mat.hints.SHOWS` of its disc clear of the
    crop's fits above it: a circle fitted through the arc of a wink of its
    colour and the mat beside it shows little (tuning seeds 40741 and 40875:
    0.20 and 0.12, false winks; 40287's g6 and 40931's b4: 1.0)."""
    out = []
    for k, f in enumerate(got.fits):
        if k in inside or not any(i in got.on[k] or k in got.on[i] for i in inside):
            continue
        if any(math.hypot(f.x - g.x, f.y - g.y) < (f.size + g.size) / 2
               for n, g in enumerate(video.fits) if n not in group):  # fmt: skip
            continue
        above = [g.circle(got.levels[i]) for i, g in enumerate(got.fits) if k in got.on[i]]
        if relations.fill(got.masks[f.colour], ccal, f.circle(got.levels[k]), above) >= SHOWS:
            out.append(k)
    return out


@dataclass(frozen=True, slots=True)
class Crop:
    """A still's crop round some of the video's fits, with all its reading
    needs (:func:`read`): it pickles, to be read in another process."""

    image: NDArray[np.uint8]
    cal: MatCalibration
    """The crop's calibration."""
    pot: Pot | None
    spec: MatSpec
    members: tuple[Fit, ...]
    """The video's fits it was cut round."""


def cut(members: list[Fit], still: Still, cal: MatCalibration, pot: Pot | None, spec: MatSpec,
        scale: float) -> Crop | None:  # fmt: skip
    """The crop of the still round ``members`` (None: no crop)."""
    box = region(cal, members, scale)
    if box is None:
        return None
    return Crop(still(box).image, cal.crop(scale, box), pot, spec, tuple(members))


def read(crop: Crop) -> Found:
    """The winks ``crop`` shows."""
    image, ccal, members = crop.image, crop.cal, crop.members
    blocked = (pot_mask(ccal, crop.pot, crop.spec) if crop.pot
               else np.zeros(image.shape[:2], np.uint8))  # fmt: skip
    mx, my = float(np.mean([f.x for f in members])), float(np.mean([f.y for f in members]))
    r_small = 8.0 * ccal.px_per_mm(mx, my, WINK_THICKNESS_MM)
    return find_winks(Picture(image, ccal, np.full_like(blocked, 255), blocked, r_small,
                              APART_MM, LOOSE_MM, members))  # fmt: skip


def _rung(video: Found, got: Found, rows: list[int]) -> list[int]:
    """The video's large winks on which a crop (of ``rows``: its fits not
    near the group it was cut for) found a small wink of their colour that
    no video fit stands for: a ring (:func:`~vision.mat.winks._ringed`),
    lying on it alone. The video fitted the large one whole and closely
    enough not to look at it again (tuning seed 34829: RMS 0.28 mm, a 16 mm
    wink of its colour nearly concentric on it); the crop round a group
    beside it reaches over part of it and scores its ring, and would lose it
    with the fits not near the group. Looked at alone, in a crop of its own
    (where it lies wholly), it is found again or not."""
    out = []
    for k in rows:
        f, below = got.fits[k], list(got.on[k])
        if f.size != 16 or len(below) != 1 or below[0] not in rows:
            continue
        g = got.fits[below[0]]
        i = _video_twin(video, g)
        if (g.colour is f.colour and g.size == 22 and i >= 0 and i not in out
                and _video_twin(video, f) < 0):  # fmt: skip
            out.append(i)
    return out


SAME_FIT_MM = 2.0
"""A still's fit and a video fit of one colour and size this close are the
same wink (the video's covered winks are fitted to 1.5 mm at p95)."""


def _video_twin(video: Found, f: Fit) -> int:
    """The video fit of ``f``'s colour and size nearest it within
    :data:`SAME_FIT_MM` (-1: none)."""
    near = [(math.hypot(f.x - g.x, f.y - g.y), i) for i, g in enumerate(video.fits)
            if g.colour is f.colour and g.size == f.size]  # fmt: skip
    best = min(near, default=(math.inf, -1))
    return best[1] if best[0] < SAME_FIT_MM else -1


def _merge(found: Found, kept: list[int], extra: list[tuple[Found, list[int]]]) -> Found:
    fits: list[Fit] = []
    levels: list[int] = []
    on: dict[int, set[int]] = {}
    parts = [(found, kept), *extra]
    for part, rows in parts:
        index = {k: len(fits) + n for n, k in enumerate(rows)}
        for k in rows:
            on[index[k]] = {index[b] for b in part.on[k] if b in index}
            fits.append(part.fits[k])
            levels.append(part.levels[k])
    return Found(fits, on, levels, found.masks)
