"""vision.locate's histogram median is np.median's, to the bit, on 8-bit arrays."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from vision.locate import median_u8


@pytest.mark.parametrize(
    "shape", [(1, 1), (1, 2), (3, 2), (5, 7), (4, 4), (720, 1279), (720, 1280)]
)
@pytest.mark.parametrize("scale", [0.5, 3.0, 60.0, 400.0])
def test_the_histogram_median_is_numpys(shape: tuple[int, int], scale: float) -> None:
    rng = np.random.default_rng(shape[0] * 7919 + shape[1] + int(scale))
    values = np.clip(rng.exponential(scale, shape), 0, 255).astype(np.uint8)
    assert median_u8(values) == float(np.median(values))


def test_the_median_of_two_middles_is_their_mean() -> None:
    values = np.array([[0, 255]], np.uint8)
    assert median_u8(values) == 127.5 == float(np.median(values))
