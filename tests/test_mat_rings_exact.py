"""``rings.score`` returns, to the bit, what the plain form (as merged in
ef4b79d, kept here as ``_score_reference``: ``np.hypot``'s distance tests
in ``_clear`` and ``np.mean`` of each part of the samples) returns: the
cheaper one (sums of squares, :mod:`vision.mat.reach`; each part's mean
without ``np.mean``'s wrapper) must not move a score by a bit.

A guard of the cheaper arithmetic; it fails when a change to ``score`` or
``_clear`` moves any returned bit on these inputs."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.mat import rings
from vision.mat.camera import MatCalibration
from vision.mat.relations import Circle
from vision.mat.render import MatRig


def _clear_reference(lower: Circle, centres: rings.Floats, offs: rings.Floats,
                     others: Sequence[Circle]) -> NDArray[np.bool_]:  # fmt: skip
    x, y = (centres[:, None, axis] + offs[[0, -1], None, :, axis] for axis in (0, 1))
    ok = np.hypot(x[1] - lower[0], y[1] - lower[1]) < lower[2] - rings.RIM_MM
    for o in others:
        for k in (0, 1):
            ok &= np.hypot(x[k] - o[0], y[k] - o[1]) > o[2] + 0.7
    return np.asarray(ok, np.bool_)


def _score_reference(grey: NDArray[np.uint8], cal: MatCalibration, lower: Circle,
                     centres: rings.Floats, others: Sequence[Circle] = (),
                     n_angles: int = rings.N_ANGLES) -> rings.Floats:  # fmt: skip
    """``rings.score`` as merged in ef4b79d, verbatim (its ``_clear`` too)."""
    mid = rings.R_SMALL + rings.EDGE_MM
    inner = [mid - d for d in rings.INNER_MM]
    band = [mid + d for d in rings.BAND_MM]
    outer = [mid + d for d in rings.OUTER_MM]
    offs = rings.offsets(n_angles, (*inner, *band, *outer))
    ok = _clear_reference(lower, centres, offs, others)
    g = rings.sample(grey, cal, lower, centres, offs)
    ends = np.cumsum([len(inner), len(band)])
    face_in, ring, face_out = (part.mean(axis=0) for part in np.split(g, ends))
    side = np.minimum(face_in, face_out)
    dark = np.where(ok, (side - ring) / np.maximum(side, 1.0), 0.0)
    n = ok.sum(axis=1)
    mean = dark.sum(axis=1) / np.maximum(n, 1)
    var = np.where(ok, (dark - mean[:, None]) ** 2, 0.0).sum(axis=1) / np.maximum(n - 1, 1)
    out = mean / np.sqrt(var / np.maximum(n, 1) + 1e-6)
    return np.asarray(np.where(n >= n_angles // 4, out, -1.0), np.float64)


@pytest.mark.parametrize("seed", range(3))
def test_score_is_the_plain_forms_to_the_bit(seed: int) -> None:
    rig = MatRig.make(seed=seed)
    cal = MatCalibration.from_projection(rig.projection(), rig.size)
    rng = np.random.default_rng(seed)
    w, h = cal.size
    # a blotchy grey picture: scores of all signs, faces of all greys
    grey = np.asarray(
        cv2.resize(rng.integers(0, 256, (h // 6, w // 6), dtype=np.uint8), (w, h)), np.uint8
    )
    coarse, fine = rings._grids(rings.REACH_MM, rings.STEP_MM)
    scored = 0
    for _ in range(12):
        x, y = (float(v) for v in rng.uniform(-120, 120, 2))
        lower: Circle = (x, y, 11.0, 1.5)
        others: list[Circle] = [
            (x + float(rng.uniform(-14, 14)), y + float(rng.uniform(-14, 14)), r, 4.5)
            for r in rng.choice([8.0, 11.0], int(rng.integers(0, 3)))
        ]
        for centres, n_angles in (
            (coarse + np.array([x, y]), 24),
            (fine + np.array([x + 1.3, y - 0.7]), 48),
        ):
            want = _score_reference(grey, cal, lower, centres, others, n_angles)
            got = rings.score(grey, cal, lower, centres, others, n_angles)
            assert got.tobytes() == want.tobytes()
            scored += int((want > -1).sum())
    assert scored > 20
