"""The rectified crop warped as four channels: OpenCV's three-channel warp's
bytes, reading the still only inside the footprint it makes four-channel."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.warp import BORDER, FLAGS, _footprint, warped  # noqa: E402


def _case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    """A random still (noise, sometimes smoothed), a homography from a crop
    of ``n`` px into it (turned, scaled, with perspective; the crop often
    reaching past the still's border) and ``n``."""
    h, w = int(rng.integers(60, 500)), int(rng.integers(60, 500))
    still = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    if rng.random() < 0.5:
        still = cv2.GaussianBlur(still, (0, 0), float(rng.uniform(0.5, 3.0)))
    s, turn = rng.uniform(0.3, 2.0), rng.uniform(-0.5, 0.5)
    m = np.array(
        [
            [s * np.cos(turn), -s * np.sin(turn) * rng.uniform(0.8, 1.2), rng.uniform(-60, w)],
            [s * np.sin(turn), s * np.cos(turn), rng.uniform(-60, h)],
            [rng.uniform(-5e-4, 5e-4), rng.uniform(-5e-4, 5e-4), 1.0],
        ]
    )
    return still, m, int(rng.integers(20, 330))


def _plain(still: np.ndarray, m: np.ndarray, n: int) -> np.ndarray:
    return np.asarray(cv2.warpPerspective(still, m, (n, n), flags=FLAGS, borderMode=BORDER))


def test_a_colour_still_warped_as_four_channels_gives_the_three_channel_warps_bytes() -> None:
    rng = np.random.default_rng(2026)
    for _ in range(150):
        still, m, n = _case(rng)
        assert np.array_equal(warped(still, m, n), _plain(still, m, n))


def test_the_warp_reads_nothing_of_the_still_outside_the_footprint() -> None:
    # Whatever lies outside the footprint, the three-channel warp is the same:
    # so the four-channel still need hold only the footprint.
    rng = np.random.default_rng(7)
    for _ in range(150):
        still, m, n = _case(rng)
        box = _footprint(m, n, still.shape[1], still.shape[0])
        assert box is not None
        x0, x1, y0, y1 = box
        other = rng.integers(0, 256, still.shape, dtype=np.uint8)
        other[y0:y1, x0:x1] = still[y0:y1, x0:x1]
        assert np.array_equal(_plain(other, m, n), _plain(still, m, n))


def test_a_crop_not_wholly_in_front_of_the_camera_is_warped_as_before() -> None:
    still = np.random.default_rng(3).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    m = np.array([[1.0, 0.0, 10.0], [0.0, 1.0, 10.0], [-0.02, 0.0, 1.0]])  # w <= 0 past x = 50
    assert _footprint(m, 80, 160, 120) is None
    assert np.array_equal(warped(still, m, 80), _plain(still, m, 80))
    grey, affine = still[..., 0].copy(), np.array([[0.9, 0.1, 5.0], [0.0, 1.1, 3.0], [0, 0, 1]])
    assert np.array_equal(warped(grey, affine, 40), _plain(grey, affine, 40))  # (OpenCV's own)
    deep = still.astype(np.uint16) * 257  # (16-bit: OpenCV's own)
    assert np.array_equal(warped(deep, affine, 40), _plain(deep, affine, 40))
