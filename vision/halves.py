"""One look at a landed coin at half the crop's resolution: the crop and
the empty floor's still around it, made once, when first wanted."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from vision.coinface import Ellipse, shrunk
from vision.model import Frame, Image, VisionError
from vision.silhouette import Segmented, changed_pixels, edge_silhouette, segment_outlines, tidied

if TYPE_CHECKING:
    from vision.analyse import Analyser

STILL_STEP = 2
"""The coin is told from the empty floor's still at half the crop's
resolution (from its preview at a quarter, ``MASK_STEP``): a quarter of the pixels
to warp, compare and label (at full resolution that was about a third of a
leaning coin's time), and a silhouette outline rounder for a flat coin (a
ragged pixel edge weighs less). Not despeckled there: a 2 px opening at half
resolution took a silver coin's thin rim off, leaving a filled half disc
where the whole ring had said "no silhouette" (and it moved the silhouette
a pixel down and right). On the tuning rigs
50000-50009 and 80000-80009 (2,000 landings), against full resolution: 22
landings more right, 4 fewer wrong, 18 fewer sent to the spotter."""


class Halves:
    """One look's crop and the empty still around it at 1 / ``STILL_STEP`` of
    the crop's resolution, each made once, when first wanted: the silhouette
    and the shadow both read them. The crop is averaged over blocks of
    ``STILL_STEP`` pixels (by an exact factor: OpenCV's area resize by a
    factor like 307 / 154 took 0.5 ms, by 2 a tenth of it); the empty still
    is sampled at those blocks' centres."""

    def __init__(
        self, analyser: Analyser, crop: Image, empty_still: Frame | None,
        x: float, y: float, half: float,
    ) -> None:  # fmt: skip
        self._analyser, self._full, self._empty_still = analyser, crop, empty_still
        # (The crop's middle, floor mm, and how far it reaches from it, mm.)
        self.x, self.y, self.half = x, y, half

    @functools.cached_property
    def covered(self) -> bool:
        """Whether there is an empty still and it shows the whole crop."""
        return self._empty_still is not None and self._analyser.covers(
            self._empty_still, self.x, self.y, self.half
        )

    @property
    def full(self) -> Image:
        """The crop at its own resolution."""
        return self._full

    @functools.cached_property
    def crop(self) -> Image:
        return shrunk(self._full, STILL_STEP)

    @functools.cached_property
    def empty(self) -> Image:
        if self._empty_still is None:
            raise VisionError("no empty still to compare with")
        s = self._analyser.settings
        shift = (STILL_STEP - 1) / 2 / (s.crop_px / s.coin_diameter_mm)  # blocks' centres, mm
        return self._analyser.crop(
            self._empty_still, self.x + shift, self.y + shift, self.half, STILL_STEP
        )

    @functools.cached_property
    def changed(self) -> Image:
        """What changed against the empty still (:func:`changed_pixels`),
        before it is tidied: the silhouette and the sharp-edges hull both
        start from it."""
        return changed_pixels(self.crop, self.empty, 0.0)

    @functools.cached_property
    def segmented(self) -> Segmented | None:
        """The coin's silhouette against the empty still (its outline and its
        convex hull's ellipse, :func:`segment_outlines`), in the full crop's
        pixels; taken once a look (the posture and the rim band both ask)."""
        s = self._analyser.settings
        found = segment_outlines(
            self.crop,
            self.empty,
            s.crop_px / STILL_STEP,
            min_fill=s.min_fill,
            despeckle=False,
            mask=tidied(self.changed, despeckle=False),
            changed=self.changed,
        )
        if found is None:
            return None
        points = None if found.points is None else found.points * STILL_STEP + (STILL_STEP - 1) / 2
        return Segmented(found.fit.enlarged(STILL_STEP), found.hull.enlarged(STILL_STEP), points)

    @functools.cached_property
    def sharp(self) -> Ellipse | None:
        """The hull of the coin's new sharp edges (:func:`edge_silhouette`)
        at this resolution, in the full crop's pixels: a quarter of the
        pixels of the one at the crop's own, from the crop and empty still
        the silhouette reads and what changed, despeckled here as at the
        crop's resolution (undespeckled, the four hulls that made a coin
        flat on tuning seed 100 read none, 0.905, 0.911 and 0.967 here;
        despeckled 0.956-0.975). Only a first look: see
        :func:`~vision.posture.by_edges` and ``Settings.coarse_edges``."""
        s = self._analyser.settings
        found = edge_silhouette(
            self.crop,
            self.empty,
            s.crop_px / STILL_STEP,
            step=STILL_STEP,
            mask=tidied(self.changed),
        )
        return None if found is None else found.enlarged(STILL_STEP)
