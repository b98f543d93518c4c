"""The coin alone, cut out of the rectified crop: the face crop kept as a
landing's evidence, and the one registered as a reference (rule 1.3.2)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.coinface import Ellipse, find_outline
from vision.floor import translate
from vision.locate import Candidate
from vision.model import Frame, Image, VisionError

if TYPE_CHECKING:
    from vision.analyse import Analyser


def on_sensor(cand: Candidate, frame: Frame) -> np.ndarray:
    """Where ``cand`` is on the sensor (full-frame pixels), as a 1 x 2 array."""
    return np.array([[cand.x + frame.origin[0], cand.y + frame.origin[1]]])


def face_crop(crop: Image, outline: Ellipse) -> Image:
    """The coin alone, 1.2 diameters square, centred: a reference or the evidence."""
    half = 0.6 * outline.major
    m = translate(half - outline.x, half - outline.y)
    n = math.ceil(2 * half)
    return np.asarray(
        cv2.warpPerspective(
            crop, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ),
        np.uint8,
    )


def reference_crop(
    analyser: Analyser,
    preview: Frame,
    still: Frame | None = None,
    background: Frame | None = None,
    faint: bool = True,
) -> Image:
    """The face crop of the one flat coin in view, to register as a reference
    (1.3.2). The candidates are a landing's (:meth:`Analyser.tried`): with the
    empty floor as ``background`` and ``faint``, a coin of about the floor's
    grey that changes it only in colour is found by the fainter search, as it
    is when it lands (a second camera 2 m up, a coin 6 px across in its
    preview, found no coin to register before). ``faint=False``: the grey
    search only (a spotter who can nudge the coin and try again does that
    first: the colour search is weaker evidence)."""
    still = still or preview
    s = analyser.settings
    for cand in analyser.tried(preview, background, faint):
        x, y = analyser.calibration.to_floor(on_sensor(cand, preview), preview.full_size)[0]
        half = s.extent * s.coin_diameter_mm
        crop = analyser.crop(still, float(x), float(y), half)
        outline = find_outline(crop, s.crop_px, flat=True)
        if outline is None:
            continue
        if outline.ratio < s.flat_ratio:
            raise VisionError(f"the coin is not flat (axis ratio {outline.ratio:.2f}): lay it flat")
        return face_crop(crop, outline)
    raise VisionError("no coin found: lay the coin flat in the middle of the square")
