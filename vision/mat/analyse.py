"""The mat analysis: a frame in, a :class:`MatObservation` out.

>>> from vision.mat.render import MatRig, render
>>> from vision.mat.synth.scene import MatScene, TrueWink
>>> rig = MatRig.make(seed=5)
>>> scene = MatScene((TrueWink("b1", 100.0, 50.0), TrueWink("r3", 108.0, 58.0, level=1)))
>>> obs = analyse(render(rig, scene, seed=1), hfov_deg=rig.hfov_deg)
>>> names = {w.index: w.colour.value for w in obs.winks}
>>> sorted((names[w.index], w.size, [names[i] for i in w.on]) for w in obs.winks)
[('blue', 22, []), ('red', 16, ['blue'])]
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from controller.games.tiddlywinks.geometry import COLOURS, Colour, MatSpec, Place, Wink
from controller.games.tiddlywinks.geometry import in_field as geo_in_field
from controller.games.tiddlywinks.geometry import on_mat as geo_on_mat
from controller.games.tiddlywinks.geometry import pot_distance as geo_pot_distance
from vision.mat import closer
from vision.mat.camera import DEFAULT_HFOV_DEG, MatCalibration, calibrate_mat
from vision.mat.closer import Still
from vision.mat.layout import WINK_THICKNESS_MM, MatLayout
from vision.mat.model import MatObservation, PotView, SeenWink
from vision.mat.pot import (
    OpeningCrop,
    Pot,
    find_pot,
    near,
    opening_box,
    polygon_mask,
    pot_mask,
    read_opening,
)
from vision.mat.winks import Fit, Found, Picture, find_winks
from vision.model import Frame

if TYPE_CHECKING:
    from vision.mat.pool import CropPool, Handed

STILL_SCALE = 3.6
"""A full-resolution still's pixels per video pixel (the Pi Camera Module
3: 4608x2592 stills, 1280x720 video)."""
BORDER_MM = 25.0
"""How far beyond the mat's edges winks are looked for (the markers start 30 mm out)."""


class MatAnalyser:
    """The analysis for one calibrated camera (the region masks are made
    once); ``pool``: a still's crops are read side by side in its worker
    processes (:class:`~vision.mat.pool.CropPool`; the same observations)."""

    def __init__(self, calibration: MatCalibration, layout: MatLayout | None = None,
                 still_scale: float = STILL_SCALE,
                 pool: CropPool | None = None) -> None:  # fmt: skip
        self.cal = calibration
        self.pool = pool
        self.still_scale = still_scale
        self.layout = layout or MatLayout()
        spec = self.layout.spec
        hx, hy = spec.length_mm / 2 + BORDER_MM, spec.width_mm / 2 + BORDER_MM
        corners = np.array([[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]])
        self.region = polygon_mask(calibration.size, calibration.to_pixels(corners))
        self.r_small_px = 8.0 * calibration.px_per_mm(0.0, 0.0, WINK_THICKNESS_MM)

    def analyse(self, frame: Frame, still: Still | None = None) -> MatObservation:
        """Every wink, squop and potted wink the frame shows; with ``still``,
        each pile is looked at again in a full-resolution still
        (:mod:`vision.mat.closer`)."""
        spec = self.layout.spec
        image = frame.image
        grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        pot = find_pot(grey, self.cal, spec)
        handed = self._hand_pot_view(frame, still, pot)  # read by a worker meanwhile
        blocked = pot_mask(self.cal, pot, spec) if pot else np.zeros_like(grey)
        found = find_winks(Picture(image, self.cal, self.region, blocked, self.r_small_px,
                                   reread=still is None, grey=grey))  # fmt: skip
        if still is not None:
            found = closer.look(found, still, self.cal, pot, spec, self.still_scale, self.pool)
        pot_view = None
        if handed is not None and self.pool is not None:
            pot_view = self.pool.collect(handed)
        elif pot is not None:
            pot_view = self.pot_view(frame, still, pot)
        px, py = near(pot, spec)
        here = replace(spec, pot_x_mm=px, pot_y_mm=py)  # once a frame, not once a wink
        covered: set[int] = set().union(*found.on.values())
        return MatObservation(
            tuple(self._seen(i, f, found, here, i in covered) for i, f in enumerate(found.fits)),
            pot_view, self.cal.rms_mm)  # fmt: skip

    def potted(self, frame: Frame, still: Still | None, pot: Pot) -> dict[Colour, int]:
        """The potted winks of each colour (:meth:`pot_view`'s counts)."""
        return self.pot_view(frame, still, pot).potted

    def pot_view(self, frame: Frame, still: Still | None, pot: Pot) -> PotView:
        """The pot with its potted winks counted and each colour's area in
        its opening (:func:`colour_areas`), both from one crop of the
        opening: the still's when there is one and it holds the opening
        (about four times the video's pixels per mm), else the video
        frame's; no winks and no areas when neither holds it."""
        crop = self._opening(frame, still, pot)
        if crop is None:
            return PotView(pot.x, pot.y, pot.rim, dict.fromkeys(COLOURS, 0))
        return read_opening(crop)

    def _hand_pot_view(self, frame: Frame, still: Still | None, pot: Pot | None
                       ) -> Handed[PotView] | None:  # fmt: skip
        """The pot's view (:meth:`pot_view`) handed to the pool's workers,
        to be read while this process reads the video (it needs the pot,
        not the winks); None: there is no pool (or it reads everything
        here), no pot, or no crop to read, and :meth:`pot_view` is read
        here after the winks, as with no pool."""
        if self.pool is None or self.pool.serial or pot is None:
            return None
        crop = self._opening(frame, still, pot)
        return None if crop is None else self.pool.hand(functools.partial(read_opening, crop))

    def _opening(self, frame: Frame, still: Still | None, pot: Pot) -> OpeningCrop | None:
        """The crop round the pot's opening, the still's if it holds it."""
        spec = self.layout.spec
        if still is not None:
            box = opening_box(self.cal, pot, spec, self.still_scale)
            if box is not None:
                image = still(box).image
                return OpeningCrop(image, self.cal.crop(self.still_scale, box), pot, spec, True)
        box = opening_box(self.cal, pot, spec)
        if box is None:
            return None
        x0, y0, w, h = box
        image = frame.image[y0 : y0 + h, x0 : x0 + w]
        return OpeningCrop(image, self.cal.crop(1.0, box), pot, spec, False)

    def _seen(self, i: int, f: Fit, found: Found, here: MatSpec, covered: bool) -> SeenWink:
        """Fit ``i`` as seen: ``here`` is the mat with the pot where it was
        seen, ``covered`` whether a wink lies on it."""
        spec = self.layout.spec
        probe = Wink("b1" if f.size == 22 else "b3", Place.FIELD, f.x, f.y)
        return SeenWink(f.colour, f.size, f.x, f.y, i, tuple(sorted(found.on[i])), covered,
                        found.levels[i], geo_in_field(spec, probe), geo_on_mat(spec, probe),
                        geo_pot_distance(here, probe), f.rms)  # fmt: skip


def analyse(
    frame: Frame,
    calibration: MatCalibration | None = None,
    layout: MatLayout | None = None,
    hfov_deg: float = DEFAULT_HFOV_DEG,
    still: Still | None = None,
) -> MatObservation:
    """The mat in ``frame``; calibrates from the frame's markers when no
    calibration is given."""
    layout = layout or MatLayout()
    cal = calibration or calibrate_mat(frame, layout, hfov_deg)
    return MatAnalyser(cal, layout).analyse(frame, still)


__all__ = ["MatAnalyser", "MatSpec", "analyse"]
