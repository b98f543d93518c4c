"""The mat renderer as a camera: a :class:`~vision.sources.FrameSource` over
a rendered mat whose winks a test (or a demonstration) moves by hand.

Each picture of one scene is rendered once (a render takes a few hundred
milliseconds) and every frame adds fresh sensor noise to it, so a stream of
previews at 10 frames a second costs little. The still is the rig's own
frame (1280x720: no closer look); the preview is that made small.
``hand`` puts a hand over the mat (a skin-coloured oval 90x180 mm, 40 mm
above it, centred at that mat point), as a player's over the mat would be.

>>> from vision.mat.synth.scene import MatScene, TrueWink
>>> src = MatSource(MatRig.make(seed=2), preview_size=(640, 360))
>>> src.preview().size, src.still().size
((640, 360), (1280, 720))
>>> src.show(MatScene((TrueWink("b1", 100.0, 0.0),)))
>>> src.fail = True
>>> src.preview()
Traceback (most recent call last):
...
vision.model.CameraError: synthetic mat camera: unplugged
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.mat.camera import MatCalibration
from vision.mat.layout import MatLayout
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import MatScene
from vision.model import CameraError, Frame


class MatSource:
    """A rendered mat; ``fail`` makes it behave like an unplugged camera."""

    def __init__(
        self,
        rig: MatRig,
        scene: MatScene | None = None,
        *,
        preview_size: tuple[int, int] = (640, 360),
        noise: float = 2.0,
        seed: int = 0,
    ) -> None:
        self.rig = rig
        self.scene = scene or MatScene((), rig.layout.spec)
        self.preview_size = preview_size
        self.noise = noise
        self.fail = False
        self.hand: tuple[float, float] | None = None
        """Where a hand hovers over the mat (mat mm), or None."""
        self.stills = 0
        """How many stills were taken (a test counts them)."""
        self._rng = np.random.default_rng(seed)
        self._cache: tuple[MatScene, tuple[float, float] | None, np.ndarray] | None = None

    @classmethod
    def from_seed(
        cls, seed: int, layout: MatLayout | None = None, preview_size: tuple[int, int] = (640, 360)
    ) -> MatSource:
        """A random rig over an empty mat (``[camera] source = "synthetic"``)."""
        return cls(MatRig.make(seed, layout=layout), preview_size=preview_size, seed=seed)

    def show(self, scene: MatScene) -> None:
        """The winks as they now lie."""
        self.scene = scene

    def _picture(self) -> np.ndarray:
        if self.fail:
            raise CameraError("synthetic mat camera: unplugged")
        if self._cache is None or self._cache[:2] != (self.scene, self.hand):
            image = render(self.rig, self.scene, seed=1).image
            if self.hand is not None:
                image = self._with_hand(image, self.hand)
            self._cache = (self.scene, self.hand, image)
        return self._cache[2]

    def _with_hand(self, image: np.ndarray, at: tuple[float, float]) -> np.ndarray:
        a = np.linspace(0.0, 2 * np.pi, 48, endpoint=False)
        oval = np.column_stack([at[0] + 45.0 * np.cos(a), at[1] + 90.0 * np.sin(a)])
        calibration = MatCalibration.from_projection(self.rig.projection(), self.rig.size)
        px = np.round(calibration.to_pixels(oval, z=40.0)).astype(np.int32)
        out = image.copy()
        cv2.fillPoly(out, [px], (120, 150, 205))
        return out

    def _noisy(self, image: np.ndarray) -> Frame:
        noise = self._rng.normal(0.0, self.noise, image.shape).astype(np.float32)
        return Frame(np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8))

    def preview(self) -> Frame:
        small = cv2.resize(self._picture(), self.preview_size, interpolation=cv2.INTER_AREA)
        return self._noisy(np.asarray(small, np.uint8))

    def still(self) -> Frame:
        self.stills += 1
        return self._noisy(self._picture())

    def close(self) -> None:
        self._cache = None
