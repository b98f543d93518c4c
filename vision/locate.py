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

import math
from dataclasses import dataclass, field
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


def median_u8(values: Image) -> float:
    """``float(np.median(values))`` of an 8-bit array, from its histogram:
    the same value (the middle one, or the mean of the two middle ones), a
    tenth of the time on a 1280x720 frame (0.35 against 4.1 ms), which is
    most of :func:`find_changed`'s.

    >>> a = np.array([[3, 1, 4], [1, 5, 9]], np.uint8)
    >>> median_u8(a), float(np.median(a))
    (3.5, 3.5)
    """
    counts = np.cumsum(cv2.calcHist([values], [0], None, [256], [0, 256]).ravel())
    n = values.size
    low = int(np.searchsorted(counts, (n - 1) // 2 + 1))
    high = int(np.searchsorted(counts, n // 2 + 1))
    return (low + high) / 2


def smoothed(image: Image) -> NDArray[np.int16]:
    """``image`` as :func:`find_changed` compares it: grey, blurred, signed."""
    return np.asarray(cv2.GaussianBlur(grey(image), (0, 0), 1.0), np.int16)


def find_changed(image: Image, background: Image, coin_px: float) -> list[Candidate]:
    """Blobs that are new since ``background``, sized like a coin of
    ``coin_px`` pixels across (on edge it is a sliver, with its shadow it is
    bigger), strongest change first."""
    return changed_blobs(smoothed(image), smoothed(background), coin_px)


def changed_blobs(a: NDArray[np.int16], b: NDArray[np.int16], coin_px: float) -> list[Candidate]:
    """:func:`find_changed` on images already :func:`smoothed` (a caller
    comparing many frames with one empty floor smooths the floor once)."""
    diff = np.abs(a - b).astype(np.uint8)
    # The threshold follows the frame's own noise: most pixels did not change.
    noise = median_u8(diff) * 1.5 + 1.0
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

    That motion is measured on a 320 px wide copy, where a 24 mm coin over a
    1.5 m square is 4 px across and changes the copy by about 12 grey
    levels (20 tuning rigs: 7 of 60 drops reached the threshold). So once
    told the empty floor (:meth:`expect`), it also settles when a
    coin-sized change against that floor (:func:`find_changed`, at the
    preview's full resolution) has stayed put for ``still_frames``
    consecutive frames: within a quarter of a coin (2 px at least: the
    blob's centre wanders 1.3 px on a 7.5 px coin at rest) and with the
    frame-to-frame change around it under ``local_threshold`` grey levels
    (or 3 times that patch's median change, for a noisier camera). A coin
    in flight or rolling moves between frames; one spinning or wobbling on
    the spot changes its shape (20 tuning rigs, 3 places each: a coin at
    rest changed its patch by at most 7 levels, one wobbling from 85 to 20
    degrees of tilt by 8 or more, 12 at the 5th percentile); an empty
    floor shows no such change at all. Either way it fires once; the change
    against the floor must move or go before it can fire again; and while
    such a change is in view, the small copy's calm does not fire (a coin
    wobbling in place is calm there).

    >>> floor = np.full((360, 640), 100, np.uint8)
    >>> coin = cv2.circle(floor.copy(), (200, 150), 4, 120, -1)  # 8 px, 20 levels
    >>> frames = (floor, coin, coin, coin, coin)
    >>> plain = SettleDetector(still_frames=2)
    >>> [plain.feed(f) for f in frames]  # too faint for the small copy
    [False, False, False, False, False]
    >>> d = SettleDetector(still_frames=2)
    >>> d.expect(floor, coin_px=8.0)
    >>> [d.feed(f) for f in frames]
    [False, False, False, True, False]
    """

    still_frames: int = 5
    threshold: float = 20.0
    """Grey levels of change, at the largest 3x3 patch of a 320 px wide copy:
    a coin is a few pixels of a frame, the mean change would not see it."""
    _last: Image | None = None
    _moved: bool = False
    _calm: int = 0
    local_threshold: float = 8.0
    """Grey levels of frame-to-frame change around a coin at rest (see above)."""
    _floor: NDArray[np.int16] | None = None
    _full: Image | None = None
    _coin_px: float = 0.0
    _track: list[tuple[float, float]] = field(default_factory=list)
    _armed: bool = True

    def expect(self, floor: Image, coin_px: float) -> None:
        """The empty floor (taken after Go, before the toss) and a coin's
        size on it in pixels: the coin's change against it is watched too."""
        self._floor, self._coin_px = smoothed(floor), coin_px
        self._track, self._armed, self._full = [], True, None

    def feed(self, image: Image) -> bool:
        """One preview frame; True when the scene has just settled."""
        width = image.shape[1]
        size = (320, max(1, round(image.shape[0] * 320 / width)))
        one = grey(image)
        small = (
            np.asarray(cv2.resize(one, size, interpolation=cv2.INTER_AREA), np.uint8)
            if width > 320
            else one
        )
        last, self._last = self._last, small
        if last is None:
            self._follow(one)
            return False
        change = float(np.max(cv2.blur(cv2.absdiff(small, last), (3, 3))))
        if change > self.threshold:
            self._moved, self._calm = True, 0
        else:
            self._calm += 1
        came_to_rest = self._follow(one)
        # While a coin-sized change is in view, it alone says when it rests:
        # a coin wobbling in place is too faint for the small copy's motion.
        calmed = self._moved and self._calm >= self.still_frames and not self._track
        if calmed or came_to_rest:
            self._moved, self._armed = False, False
            return True
        return False

    def _follow(self, now: Image) -> bool:
        """Track the change against the empty floor in ``now`` (the frame in
        grey); whether it has now stayed put for ``still_frames`` frames
        (and may fire)."""
        if self._floor is None:
            return False
        before, self._full = self._full, now
        found = changed_blobs(smoothed(now), self._floor, self._coin_px)
        if not found:
            self._track, self._armed = [], True
            return False
        tol = max(2.0, self._coin_px / 4)
        near = [c for c in found if self._track and _dist(c, self._track[0]) <= tol]
        if not near:  # new, or moved: a landing to wait for
            self._track, self._armed = [(found[0].x, found[0].y)], True
        elif before is not None and self._calm_at(now, before, near[0]):
            self._track.append((near[0].x, near[0].y))
        else:  # in place but changing shape (spinning, wobbling): wait again
            self._track = [self._track[0]]
        return self._armed and len(self._track) > self.still_frames

    def _calm_at(self, now: Image, before: Image, spot: Candidate) -> bool:
        """Whether the frame changed around ``spot`` (a coin either side)
        only by noise since the last one."""
        r = math.ceil(self._coin_px)
        x, y = round(spot.x), round(spot.y)
        box = np.s_[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1]
        diff = cv2.absdiff(
            cv2.GaussianBlur(now[box], (0, 0), 1.0), cv2.GaussianBlur(before[box], (0, 0), 1.0)
        )
        bar = max(self.local_threshold, 3.0 * float(np.median(diff)))
        return float(np.max(cv2.blur(diff, (3, 3)))) < bar


def _dist(c: Candidate, spot: tuple[float, float]) -> float:
    return float(np.hypot(c.x - spot[0], c.y - spot[1]))
