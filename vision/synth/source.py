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

A second camera over the same table sees the same coin (it is dropped once):

>>> two = src.other_view(4)
>>> two.landing is src.landing, two.rig.floor is src.rig.floor
(True, True)
"""

from __future__ import annotations

import numpy as np

from vision.floor import FloorLayout
from vision.model import CameraError, Frame
from vision.synth.art import CoinDesign
from vision.synth.scene import Landing, Rig, render, still_window


class _Floor:
    """What lies on the rendered floor, shared by every camera that views it."""

    def __init__(self) -> None:
        self.landing: Landing | None = None


class SyntheticSource:
    """A rendered table; ``fail`` makes it behave like an unplugged camera."""

    def __init__(
        self, rig: Rig, design: CoinDesign, seed: int = 0, floor: _Floor | None = None
    ) -> None:
        self.rig = rig
        self.design = design
        self._floor = floor or _Floor()
        self.fail = False
        self._rng = np.random.default_rng(seed)
        self._count = 0

    @property
    def landing(self) -> Landing | None:
        """The coin on the floor (None: an empty floor)."""
        return self._floor.landing

    @landing.setter
    def landing(self, landing: Landing | None) -> None:
        self._floor.landing = landing

    def other_view(self, seed: int) -> SyntheticSource:
        """A second camera over this table (:meth:`Rig.other_view`): the
        same floor, light and coin design, and the same coin on it: what is
        dropped through either camera is seen by both. Its own ``fail``."""
        return SyntheticSource(
            self.rig.other_view(seed), self.design, seed + 1_000_003, self._floor
        )

    @classmethod
    def from_seed(cls, seed: int, layout: FloorLayout | None = None) -> SyntheticSource:
        """A random rig with a random coin (``layout``: the square's, else the standard one)."""
        return cls(Rig.make(seed, coin_px=80.0, layout=layout), CoinDesign.make(seed + 1), seed)

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
        """Nothing to release. (The coin stays: a camera that is closed
        and opened again after a fault, or the other camera, still sees it.)"""
