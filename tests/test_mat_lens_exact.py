"""``shows.lens_share`` returns, to the bit, what the plain formula (the
whole half-millimetre grid about a, as merged in ef4b79d, kept here as
``_lens_share_reference``) returns: the cheaper one (only the rows and
columns of the grid that reach b's disc, each test's differences once a
column and once a row) must keep the same points, none lost at the rim
of the part of the grid it looks at (narrowing that part by a millimetre
fails this).

A guard of the cheaper arithmetic; it fails when a change to ``lens_share``
moves any returned bit on these inputs."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from vision.mat.camera import MatCalibration
from vision.mat.render import MatRig
from vision.mat.segment import Mask, sample
from vision.mat.shows import Circle, clear_of, lens_share


def _lens_share_reference(mask_a: Mask, mask_b: Mask, cal: MatCalibration, a: Circle, b: Circle,
                          others: Sequence[Circle] = ()) -> tuple[float, int]:  # fmt: skip
    """``shows.lens_share`` as merged in ef4b79d, verbatim."""
    xs = np.arange(-a[2], a[2] + 0.01, 0.5)
    gx, gy = np.meshgrid(xs + a[0], xs + a[1])
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    keep = (np.hypot(grid[:, 0] - a[0], grid[:, 1] - a[1]) < a[2] - 0.5) & (
        np.hypot(grid[:, 0] - b[0], grid[:, 1] - b[1]) < b[2] - 0.5
    )
    z = max(a[3], b[3])
    lens = grid[keep]
    lens = lens[clear_of(cal, lens, z, others, 0.7)]
    if len(lens) == 0:
        return 0.5, 0
    px = cal.to_pixels(lens, z)
    na = float(sample(mask_a, px).sum())
    nb = float(sample(mask_b, px).sum())
    return (0.5 if na + nb == 0 else na / (na + nb)), len(lens)


@pytest.mark.parametrize("seed", range(4))
def test_lens_share_is_the_whole_grids_to_the_bit(seed: int) -> None:
    rig = MatRig.make(seed=seed)
    cal = MatCalibration.from_projection(rig.projection(), rig.size)
    rng = np.random.default_rng(seed)
    w, h = cal.size
    # blotchy masks: points near a lens's rim sample other values than its
    # middle
    coarse = [((rng.random((h // 8, w // 8)) > 0.5) * 255).astype(np.uint8) for _ in range(2)]
    masks: list[Mask] = [
        np.asarray(cv2.resize(cv2.GaussianBlur(m, (5, 5), 0), (w, h)), np.uint8) for m in coarse
    ]
    lens_seen = 0
    for _ in range(150):
        x, y = rng.uniform(-150, 150, 2)
        ra, za = float(rng.choice([8.0, 11.0])), float(rng.choice([1.5, 3.0]))
        a: Circle = (float(x), float(y), ra, za)
        # b from concentric to beyond touching, at fractional offsets
        d, t = rng.uniform(0, 21), rng.uniform(0, 2 * np.pi)
        b: Circle = (x + d * np.cos(t), y + d * np.sin(t), float(rng.choice([8.0, 11.0])), 1.5)
        others: list[Circle] = []
        if rng.random() < 0.5:
            others.append((x + rng.uniform(-10, 10), y + rng.uniform(-10, 10), 8.0, 4.5))
        want = _lens_share_reference(masks[0], masks[1], cal, a, b, others)
        got = lens_share(masks[0], masks[1], cal, a, b, others)
        assert got == want, (a, b, others)
        lens_seen += want[1] > 0
    assert lens_seen > 50
