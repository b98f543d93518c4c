"""What the vision package hands out: frames in, plain observations out.

No OpenCV type crosses this boundary. A :class:`Frame` holds a numpy image
(OpenCV's Python images are numpy arrays, so the camera adapters return them
as they are); an :class:`Observation` holds only Python values and its
evidence picture (a numpy image, given out as PNG bytes).

>>> obs = Observation(found=True, face=CoinFace.HEADS, posture=Posture.FLAT,
...     zone=Zone.INSIDE, x_mm=750.0, y_mm=700.0, confidence=0.42, coin_px=80.0)
>>> obs.decided, obs.verdict
(True, 'heads')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from controller.errors import TablerefError

Image = NDArray[np.uint8]
"""An 8-bit image: (h, w) grey or (h, w, 3) BGR, as OpenCV and Picamera2 give them."""


class VisionError(TablerefError):
    """A vision step that cannot run (no calibration, no references, bad image)."""


class CameraError(VisionError):
    """The camera is missing or failing: the table reports it as a health fault."""


class CoinFace(StrEnum):
    """The face of a flat coin, as the classifier saw it."""

    HEADS = "heads"
    TAILS = "tails"
    INDETERMINATE = "indeterminate"


class Posture(StrEnum):
    """How the coin rests, from the ellipse fitted to its outline on the floor plane."""

    FLAT = "flat"
    LEANING = "leaning"  # on edge or leaning: a cleet (2.7.4)
    INDETERMINATE = "indeterminate"


class Zone(StrEnum):
    """Where the coin rests against the landing square (1.4.3, 2.1.7)."""

    INSIDE = "inside"
    ON_LINE = "on_line"  # part of the coin is over the white line
    OUTSIDE = "outside"


@dataclass(frozen=True, slots=True)
class Frame:
    """One image from a source; ``t_ns`` is when it was taken (``mono_ns``), 0 if unknown."""

    image: Image
    t_ns: int = 0
    origin: tuple[int, int] = (0, 0)
    """Where this image's top-left pixel is on the sensor (a windowed readout)."""
    sensor: tuple[int, int] | None = None
    """(width, height) of the whole sensor frame; None: this image is all of it."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the image in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])

    @property
    def full_size(self) -> tuple[int, int]:
        """(width, height) of the whole frame this image was read from."""
        return self.size if self.sensor is None else self.sensor


@dataclass(frozen=True, slots=True)
class Observation:
    """The landed coin as the camera saw it.

    ``verdict`` is what the table acts on: ``heads``, ``tails``, ``edge``
    (a cleet), ``outside`` or ``indeterminate`` (the spotter decides).
    ``picture`` is the rectified full-resolution crop of the coin, the
    evidence; ``crop`` is it as PNG bytes.
    """

    found: bool
    face: CoinFace = CoinFace.INDETERMINATE
    posture: Posture = Posture.INDETERMINATE
    zone: Zone | None = None
    x_mm: float | None = None
    y_mm: float | None = None
    confidence: float = 0.0
    coin_px: float = 0.0
    axis_ratio: float | None = None
    axis_deg: float | None = None
    """The outline's major axis on the floor plane, degrees from the floor's
    x axis towards its y axis, in [0, 180) (an axis has no sign); None with
    no outline. With ``axis_ratio`` it says which way a leaning coin tilts
    (up to the sign): ``vision.fuse`` asks whether one tilted coin explains
    two cameras' views. Meaningless for a round outline."""
    scores: dict[str, float] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()
    picture: Image | None = field(default=None, compare=False, repr=False)

    @property
    def crop(self) -> bytes:
        """``picture`` as PNG (b"" when there is none), encoded when asked
        (:func:`png`): when the evidence is saved, not inside the judgement
        (0.03 ms for a flat coin's face crop, 0.2 ms for a leaning coin's
        whole crop)."""
        return b"" if self.picture is None else png(self.picture)

    @property
    def in_area(self) -> bool | None:
        """True inside or on the line, False outside, None when not found."""
        return None if self.zone is None else self.zone is not Zone.OUTSIDE

    @property
    def decided(self) -> bool:
        """Whether the camera decided the landing (no need to ask the spotter)."""
        return self.verdict != "indeterminate"

    @property
    def verdict(self) -> str:
        """``heads``, ``tails``, ``edge``, ``outside`` or ``indeterminate``."""
        if not self.found or self.zone is None:
            return "indeterminate"
        if self.zone is Zone.OUTSIDE:
            return "outside"
        if self.posture is Posture.LEANING:
            return "edge"
        if self.posture is Posture.INDETERMINATE or self.face is CoinFace.INDETERMINATE:
            return "indeterminate"
        return self.face.value

    def summary(self) -> dict[str, object]:
        """The observation as JSON-ready values (no crop)."""
        return {
            "verdict": self.verdict,
            "face": self.face.value,
            "posture": self.posture.value,
            "zone": None if self.zone is None else self.zone.value,
            "x_mm": None if self.x_mm is None else round(self.x_mm, 1),
            "y_mm": None if self.y_mm is None else round(self.y_mm, 1),
            "confidence": round(self.confidence, 4),
            "coin_px": round(self.coin_px, 1),
            "axis_ratio": None if self.axis_ratio is None else round(self.axis_ratio, 3),
            "axis_deg": None if self.axis_deg is None else round(self.axis_deg, 1),
            "scores": {k: round(v, 4) for k, v in self.scores.items()},
            "reasons": list(self.reasons),
        }


@functools.cache
def _png_params() -> list[int]:
    import cv2  # (here: the controller imports this module without loading OpenCV)

    params = [cv2.IMWRITE_PNG_COMPRESSION, 0]
    if hasattr(cv2, "IMWRITE_PNG_FILTER"):  # (not in every OpenCV: then libpng picks the filters)
        params += [cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE]
    return params


def png(image: Image) -> bytes:
    """``image`` as a PNG stored, not compressed: the same pixels in a
    quarter of a millisecond instead of 14-17 ms for the 1.6-diameter crop
    of a leaning coin (libpng's adaptive row filters and Huffman coding),
    twice the size (about 280 KB instead of 140 KB for a 307 px crop).

    >>> data = png(np.full((4, 6, 3), 200, np.uint8))
    >>> data[1:4], len(data) > 4 * 6 * 3
    (b'PNG', True)
    """
    import cv2

    ok, data = cv2.imencode(".png", image, _png_params())
    if not ok:
        raise VisionError("could not encode the crop as PNG")
    return bytes(data.tobytes())
