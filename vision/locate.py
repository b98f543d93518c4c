"""Finding coins at low resolution, and knowing when the scene has settled.

Two finders: against an empty-floor reference frame (taken after Go, before
the toss) the coin is what changed, whatever its posture, even on edge; with
no reference, flat coins are found as circles (Hough, the gradient variant).

>>> img = np.full((120, 160), 90, np.uint8)
>>> _ = cv2.circle(img, (60, 50), 12, 200, -1)
>>> [(round(c.x), round(c.y)) for c in find_circles(img, 18, 30)]
[(60, 50)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.model import Image


@dataclass(frozen=True, slots=True)
class Candidate:
    """A coin candidate at (x, y) pixels, about ``size`` pixels across."""

    x: float
    y: float
    size: float
    score: float


def grey(image: Image) -> Image:
    """One channel."""
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def components(mask: NDArray[Any]) -> tuple[int, NDArray[Any], NDArray[Any], NDArray[Any]]:
    """``cv2.connectedComponentsWithStats(mask)`` (8-connected): the count,
    labels, stats and centres, the labels 16-bit when they cannot overflow
    (fewer set pixels than 65,535: each label starts at one). The same labels,
    stats and centres as 32-bit labels give, in about a third of the time
    for a coin's crop (OpenCV 5.0: 50 instead of 145 us at 154 px square).

    >>> mask = np.zeros((5, 7), np.uint8)
    >>> mask[1, 1] = mask[3, 4:6] = 1
    >>> count, labels, stats, centres = components(mask)
    >>> count, int(labels[3, 5]), stats[2].tolist(), centres[2].tolist()
    (3, 2, [4, 3, 2, 1, 2], [4.5, 3.0])
    """
    ltype = cv2.CV_16U if cv2.countNonZero(mask) < 65_535 else cv2.CV_32S
    count, labels, stats, centres = cv2.connectedComponentsWithStats(
        mask, None, None, None, 8, ltype
    )
    return int(count), np.asarray(labels), np.asarray(stats), np.asarray(centres)


def find_circles(image: Image, min_d: float, max_d: float) -> list[Candidate]:
    """Circles ``min_d``..``max_d`` pixels across, best first."""
    g = cv2.GaussianBlur(grey(image), (0, 0), max(1.0, min_d / 40))
    found = cv2.HoughCircles(
        g,
        cv2.HOUGH_GRADIENT_ALT,
        dp=1.5,
        minDist=max(min_d * 0.8, 3.0),
        param1=70,
        param2=0.75,
        minRadius=max(int(min_d / 2), 2),
        maxRadius=int(max_d / 2 + 1),
    )
    if found is None:
        return []
    return [Candidate(float(x), float(y), float(2 * r), 1.0) for x, y, r in found[0]]


def find_changed(image: Image, background: Image, coin_px: float) -> list[Candidate]:
    """Blobs that are new since ``background``, sized like a coin of
    ``coin_px`` pixels across (on edge it is a sliver, with its shadow it is
    bigger), strongest change first."""
    a = cv2.GaussianBlur(grey(image), (0, 0), 1.0).astype(np.int16)
    b = cv2.GaussianBlur(grey(background), (0, 0), 1.0).astype(np.int16)
    diff = np.abs(a - b).astype(np.uint8)
    # The threshold follows the frame's own noise: most pixels did not change.
    noise = float(np.median(diff)) * 1.5 + 1.0
    mask = (diff > max(12.0, 5 * noise)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, labels, stats, centres = components(mask)
    out = []
    for i in range(1, count):
        _, _, w, h, area = (int(v) for v in stats[i])
        extent = max(w, h)
        if not (0.5 * coin_px <= extent <= 3.0 * coin_px and area >= 0.05 * coin_px**2):
            continue
        strength = float(diff[labels == i].sum())
        out.append(Candidate(float(centres[i][0]), float(centres[i][1]), float(extent), strength))
    return sorted(out, key=lambda c: -c.score)


def find_slivers(
    image: Image, background: Image, coin_px: float, k: float = 4.0
) -> list[Candidate]:
    """Small changes since ``background`` that :func:`find_changed` misses,
    strongest first: a coin on edge or steeply leaning seen from above when
    it is a few pixels across is a sliver a pixel or two thick, and in grey
    it may change the floor by only a few levels (silver on a brown floor of
    the same brightness) while its colour changes by tens. So: the largest
    change of the three channels, each blurred as in :func:`find_changed`,
    above ``k`` times its median over the frame (most pixels did not change:
    the median is the two frames' noise), in a blob at least a third of a
    coin long and no more than three coins. Slower than :func:`find_changed`
    (three channels); for when it finds no coin.

    >>> rng = np.random.default_rng(1)
    >>> floor = np.clip(rng.normal((90, 110, 140), 3, (90, 120, 3)), 0, 255).astype(np.uint8)
    >>> now = floor.copy()
    >>> _ = cv2.line(now, (40, 50), (46, 46), (150, 120, 110), 1)  # silver on brown
    >>> [(round(c.x), round(c.y)) for c in find_slivers(now, floor, 7.0)]
    [(43, 48)]
    >>> find_changed(now, floor, 7.0)
    []
    """
    if image.ndim == 2 or background.ndim == 2:
        a, b = grey(image), grey(background)
    else:
        a, b = image, background
    diff = np.asarray(
        cv2.absdiff(cv2.GaussianBlur(a, (0, 0), 1.0), cv2.GaussianBlur(b, (0, 0), 1.0)), np.uint8
    )
    if diff.ndim == 3:
        c = cv2.split(diff)
        diff = np.asarray(cv2.max(cv2.max(c[0], c[1]), c[2]), np.uint8)
    counts = np.cumsum(np.bincount(diff[::2, ::2].ravel(), minlength=256))
    noise = float(np.searchsorted(counts, counts[-1] / 2)) + 0.5  # the median
    mask = (diff > k * noise).astype(np.uint8)
    count, labels, stats, centres = components(mask)
    out = []
    for i in range(1, count):
        _, _, w, h, area = (int(v) for v in stats[i])
        extent = max(w, h)
        if not (coin_px / 3 <= extent <= 3.0 * coin_px and area >= 2):
            continue
        strength = float(diff[labels == i].sum())
        out.append(Candidate(float(centres[i][0]), float(centres[i][1]), float(extent), strength))
    return sorted(out, key=lambda c: -c.score)


@dataclass
class SettleDetector:
    """Says when the low-resolution stream has stopped changing after a motion.

    Feed preview frames in order; :meth:`feed` returns True once, for the
    first frame after motion that ``still_frames`` consecutive frames agree
    with (mean absolute change under ``threshold`` grey levels).

    >>> d = SettleDetector(still_frames=2)
    >>> calm, moved = np.zeros((8, 8), np.uint8), np.full((8, 8), 80, np.uint8)
    >>> [d.feed(f) for f in (calm, moved, moved, moved, moved)]
    [False, False, False, True, False]
    """

    still_frames: int = 5
    threshold: float = 20.0
    """Grey levels of change, at the largest 3x3 patch of a 320 px wide copy:
    a coin is a few pixels of a frame, the mean change would not see it."""
    _last: Image | None = None
    _moved: bool = False
    _calm: int = 0

    def feed(self, image: Image) -> bool:
        """One preview frame; True when the scene has just settled."""
        width = image.shape[1]
        size = (320, max(1, round(image.shape[0] * 320 / width)))
        small = (
            np.asarray(cv2.resize(grey(image), size, interpolation=cv2.INTER_AREA), np.uint8)
            if width > 320
            else grey(image)
        )
        last, self._last = self._last, small
        if last is None:
            return False
        change = float(np.max(cv2.blur(cv2.absdiff(small, last), (3, 3))))
        if change > self.threshold:
            self._moved, self._calm = True, 0
            return False
        self._calm += 1
        if self._moved and self._calm >= self.still_frames:
            self._moved = False
            return True
        return False
