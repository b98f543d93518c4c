"""The renderer as a frame source: an empty floor until a coin is dropped.

The still is a window of the full-resolution frame around where the coin is
(a region-of-interest readout): the synthetic camera's whole still would be
tens of megapixels for nothing.

>>> src = SyntheticSource.from_seed(4)
>>> src.preview().size
(1280, 720)
>>> src.drop(Landing(750.0, 750.0, "heads"))
>>> src.still().sensor is not None
True
"""

from __future__ import annotations

import numpy as np

from vision.model import CameraError, Frame
from vision.synth.art import CoinDesign
from vision.synth.scene import Landing, Rig, render, still_window


class SyntheticSource:
    """A rendered table; ``fail`` makes it behave like an unplugged camera."""

    def __init__(self, rig: Rig, design: CoinDesign, seed: int = 0) -> None:
        self.rig = rig
        self.design = design
        self.landing: Landing | None = None
        self.fail = False
        self._rng = np.random.default_rng(seed)
        self._count = 0

    @classmethod
    def from_seed(cls, seed: int) -> SyntheticSource:
        """A random rig with a random coin."""
        return cls(Rig.make(seed, coin_px=80.0), CoinDesign.make(seed + 1), seed)

    def drop(self, landing: Landing | None) -> None:
        """Put a coin on the floor (None: take it away)."""
        self.landing = landing

    def _seed(self) -> int:
        self._count += 1
        return self._count

    def preview(self) -> Frame:
        if self.fail:
            raise CameraError("synthetic camera: unplugged")
        return render(self.rig, self.design, self.landing, seed=self._seed())

    def still(self) -> Frame:
        if self.fail:
            raise CameraError("synthetic camera: unplugged")
        landing = self.landing or Landing(750.0, 750.0, "heads")
        window = still_window(self.rig, landing, self._rng)
        return render(
            self.rig, self.design, self.landing, seed=self._seed(), still=True, window=window
        )

    def close(self) -> None:
        self.landing = None
