"""The registered match coin (1.3.2): reference crops of both faces.

A folder holds ``heads-N.png`` and ``tails-N.png``: rectified crops of the
coin, 1.2 diameters square, as the spotter showed them to the camera.
Registering again for a new coin (1.3.3 damaged, 1.3.4 changed at half way)
replaces them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.coinface import Ellipse, Feature, best_similarity, face_feature, find_outline
from vision.model import CoinFace, Image, VisionError

FACES = ("heads", "tails")


def _outline(crop: Image) -> Ellipse:
    n = crop.shape[1]
    found = find_outline(crop, n / 1.2)
    return found or Ellipse(n / 2, n / 2, n / 1.2, n / 1.2, 0.0)


@dataclass
class References:
    """Reference crops by face; their signatures are computed once."""

    crops: dict[str, list[Image]]
    _features: dict[str, list[Feature]] | None = field(default=None, repr=False)
    _conjugates: dict[str, NDArray[np.complex128]] | None = field(default=None, repr=False)

    def features(self) -> dict[str, list[Feature]]:
        """The signatures of every reference, by face."""
        if self._features is None:
            self._features = {
                face: [face_feature(c, _outline(c)) for c in crops]
                for face, crops in self.crops.items()
            }
        return self._features

    def conjugates(self) -> dict[str, NDArray[np.complex128]]:
        """By face, the references' signatures stacked and conjugated, as
        :func:`vision.coinface.best_similarity` takes them (made once)."""
        if self._conjugates is None:
            self._conjugates = {
                face: np.conj(np.stack(features)) for face, features in self.features().items()
            }
        return self._conjugates

    def read(
        self, crop: Image, outline: Ellipse, margin: float, min_score: float, why: list[str]
    ) -> tuple[CoinFace, float, dict[str, float]]:
        """The face inside ``outline`` of ``crop``, its confidence (the margin
        between the two faces' scores) and the scores; indeterminate, with
        the reason added to ``why``, when the faces score within ``margin``
        of each other or neither reaches ``min_score``."""
        feature = face_feature(crop, outline)
        scores = {face: best_similarity(feature, refs) for face, refs in self.conjugates().items()}
        heads, tails = scores.get("heads", -1.0), scores.get("tails", -1.0)
        best = CoinFace.HEADS if heads >= tails else CoinFace.TAILS
        apart = abs(heads - tails)
        if apart < margin:
            why.append(f"faces too alike: heads {heads:.3f}, tails {tails:.3f}")
            return CoinFace.INDETERMINATE, apart, scores
        if max(heads, tails) < min_score:
            why.append(f"like neither registered face (best {max(heads, tails):.3f})")
            return CoinFace.INDETERMINATE, apart, scores
        return best, apart, scores

    @classmethod
    def load(cls, folder: Path) -> References:
        """Read a references folder; both faces are needed."""
        crops: dict[str, list[Image]] = {}
        for face in FACES:
            files = sorted(folder.glob(f"{face}-*.png"))
            images = [cv2.imread(str(f), cv2.IMREAD_COLOR) for f in files]
            crops[face] = [np.asarray(i, np.uint8) for i in images if i is not None]
            if not crops[face]:
                raise VisionError(
                    f"{folder}: no {face} reference (run tableref coin register --face {face})"
                )
        return cls(crops)

    @staticmethod
    def add(
        folder: Path, face: str, crop: Image, *, replace: bool, wall: str = "", note: str = ""
    ) -> Path:
        """Store one reference crop of ``face``; ``replace`` drops the old coin's
        references (both faces) first. ``wall`` (UTC, ISO 8601) goes in the
        log ``registered.jsonl``. Returns the file written."""
        if face not in FACES:
            raise VisionError(f"face {face!r} is not heads or tails")
        folder.mkdir(parents=True, exist_ok=True)
        if replace:
            for old in (*folder.glob("heads-*.png"), *folder.glob("tails-*.png")):
                old.unlink()
        n = len(list(folder.glob(f"{face}-*.png"))) + 1
        path = folder / f"{face}-{n}.png"
        if not cv2.imwrite(str(path), crop):
            raise VisionError(f"{path}: could not write the reference crop")
        log = folder / "registered.jsonl"
        entry = {"file": path.name, "face": face, "replace": replace, "note": note, "wall": wall}
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")
        return path
