"""The coin's crop in grey, lightly smoothed, as the outline's ray
samplers (:func:`vision.coinface.refine` and its support score) read it:
all of it (:func:`soft`), or only where the rays reach, made as they read
(:class:`Soft`), with the same values bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.locate import grey
from vision.model import Image


def soft(crop: Image) -> NDArray[np.float32]:
    """The crop in grey, lightly smoothed, as the ray samplers read it."""
    return np.asarray(cv2.GaussianBlur(grey(crop), (0, 0), 1.0), np.float32)


class Soft:
    """:func:`soft` of a crop, made only where the ray samplers read it (and
    more as they read further): the rays of a leaning coin's two fits and
    their support read about a quarter of its 307 px crop, and smoothing
    the whole crop was 0.15 ms. The values made are :func:`soft`'s bit for
    bit (OpenCV smooths 8-bit images in exact fixed point; a margin of the
    kernel's reach round the part kept leaves out the part's own border).

    >>> crop = np.zeros((200, 200, 3), np.uint8)
    >>> _ = cv2.circle(crop, (100, 100), 40, (200, 200, 200), -1)
    >>> part = Soft(crop).over(np.array([60.0, 140.0]), np.array([100.0, 100.0]))
    >>> bool(np.array_equal(part[90:110, 50:150], soft(crop)[90:110, 50:150]))
    True
    """

    GROW = 16
    """Pixels made past what a read needs: the next fit's rays reach a little further."""

    def __init__(self, crop: Image) -> None:
        self.crop = crop
        self.image = np.zeros(crop.shape[:2], np.float32)
        self._made = (0, 0, 0, 0)  # x0, x1, y0, y1 (end exclusive): nothing yet

    def over(self, xs: NDArray[Any], ys: NDArray[Any]) -> NDArray[np.float32]:
        """The smoothed crop, made at least where bilinear samples at
        (``xs``, ``ys``) read it (outside the crop: its edge, replicated)."""
        h, w = self.crop.shape[:2]
        bounds = (float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max()))
        if not all(map(math.isfinite, bounds)):  # (a NaN is its array's min and max)
            return self._make(0, w, 0, h)
        x0, x1 = _reach(bounds[0], bounds[1], w)
        y0, y1 = _reach(bounds[2], bounds[3], h)
        mx0, mx1, my0, my1 = self._made
        if mx0 <= x0 and x1 <= mx1 and my0 <= y0 and y1 <= my1:
            return self.image
        if mx1 > mx0:  # one part, the union: what was made and what is needed
            x0, x1, y0, y1 = min(x0, mx0), max(x1, mx1), min(y0, my0), max(y1, my1)
        g = self.GROW
        return self._make(max(0, x0 - g), min(w, x1 + g), max(0, y0 - g), min(h, y1 + g))

    def _make(self, x0: int, x1: int, y0: int, y1: int) -> NDArray[np.float32]:
        # (the 8-bit kernel of sigma 1 reaches 3 px)
        self.image[y0:y1, x0:x1] = filtered_part(self.crop, (x0, x1, y0, y1), 6, soft)
        self._made = (x0, x1, y0, y1)
        return self.image


def filtered_part(
    image: Image, box: tuple[int, int, int, int], pad: int,
    fn: Callable[[Image], NDArray[np.float32]],
) -> NDArray[np.float32]:  # fmt: skip
    """``fn(image)[y0:y1, x0:x1]`` for ``box`` (x0, x1, y0, y1), from ``fn`` of
    the box and ``pad`` pixels round it only (as far as the image goes): the
    same values where ``fn`` reaches less than ``pad`` pixels and treats the
    image's border as it treats the part's."""
    x0, x1, y0, y1 = box
    h, w = image.shape[:2]
    X0, X1, Y0, Y1 = max(0, x0 - pad), min(w, x1 + pad), max(0, y0 - pad), min(h, y1 + pad)
    return fn(image[Y0:Y1, X0:X1])[y0 - Y0 : y1 - Y0, x0 - X0 : x1 - X0]


def _reach(lo: float, hi: float, size: int) -> tuple[int, int]:
    """The pixels bilinear samples from ``lo`` to ``hi`` read on an axis
    ``size`` long (clamped to it, as the border is replicated), as a
    slice's ends, with a pixel to spare each side."""
    start = min(max(math.floor(lo) - 1, 0), size - 1)
    return start, max(min(math.floor(hi) + 3, size), start + 1)


Smooth = NDArray[np.float32] | Soft
"""What the ray samplers read: :func:`soft` of a crop, or a :class:`Soft` that makes it as read."""


def sampled(g: Smooth, xs: NDArray[np.float32], ys: NDArray[np.float32]) -> NDArray[np.float32]:
    """What bilinear samples at (``xs``, ``ys``) read from: ``g`` itself, or
    the part of a :class:`Soft` they reach, made now."""
    return g.over(xs, ys) if isinstance(g, Soft) else g
