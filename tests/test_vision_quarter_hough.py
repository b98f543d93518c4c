"""A landing's circle searched for at a quarter of the crop's resolution
(``coinface.HOUGH_SCALE``), its centre kept and its size the coin's: the
outline the rays then find, against drawn coins whose outline is known."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import coinface  # noqa: E402
from vision.coinface import Outlines  # noqa: E402

D = 96.0
N = 307  # a landing's crop (``Settings``: 3.2 coin diameters across)


def _crop(seed: int, x: float, y: float, size: float, axes: float = 1.0) -> np.ndarray:
    """A grainy floor with a coin drawn at sub-pixel (``x``, ``y``), ``size``
    across, ``axes`` its minor / major (a leaning coin's oval), with a ring
    of relief inside."""
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 14, (N, N)).astype(np.float32), (0, 0), 2)
    crop = np.clip(np.dstack([105 + grain, 118 + grain, 96 + grain]), 0, 255).astype(np.uint8)
    at = (round(16 * x), round(16 * y))
    half = (round(8 * size), round(8 * size * axes))
    cv2.ellipse(crop, at, half, 25, 0, 360, (205, 200, 190), -1, cv2.LINE_AA, 4)
    ring = (round(8 * 0.8 * size), round(8 * 0.8 * size * axes))
    cv2.ellipse(crop, at, ring, 25, 0, 360, (120, 118, 115), 3, cv2.LINE_AA, 4)
    return np.asarray(crop, np.uint8)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    seen: list[tuple[int, ...]] = []
    real = cv2.HoughCircles

    def spied(image: np.ndarray, *args: object, **kw: object) -> object:
        seen.append(image.shape)
        return real(image, *args, **kw)

    monkeypatch.setattr(cv2, "HoughCircles", spied)
    return seen


def test_a_landings_circle_is_searched_for_once_at_a_quarter_of_the_resolution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Flat coins 0.9-1.1 diameters across, up to 0.4 of a diameter off the
    # middle: one search each, of the middle's quarter-resolution image
    # (HOUGH_REACH diameters each side: about 55 px, not 110 as at half),
    # and the outline the rays refine from it on the coin: centred within a
    # pixel, its axes 2-4.5 px over the drawn ones (the rays' outermost
    # strong step lies about 1.5 px outside a drawn edge, as it did from the
    # half-resolution circle).
    seen = _spy(monkeypatch)
    for k, (size, off) in enumerate([(96.0, 0.0), (88.0, 0.25), (104.0, 0.4), (92.0, 0.1)]):
        x, y = N / 2 + off * D * (-1) ** k, N / 2 - 0.5 * off * D
        crop = _crop(k, x, y, size)
        found = Outlines(crop, D).find(coarse=True)
        assert found is not None
        assert np.hypot(found.x - x, found.y - y) < 1.0
        assert 2.0 < found.major - size < 4.5 and found.ratio > 0.97
    assert len(seen) == 4
    quarter = round(2 * coinface.HOUGH_REACH * D / coinface.HOUGH_SCALE)
    assert coinface.HOUGH_SCALE == 4 and all(abs(max(s) - quarter) <= 1 for s in seen)


def test_a_leaning_coin_is_outlined_from_the_quarter_resolution_centre() -> None:
    # Ovals of 0.85 and 0.6 (leaning about 30 and 50 degrees), a little off
    # the middle: the outline (the circle's refinement or the edge contour's,
    # whichever the image supports better) on the coin's.
    for k, axes in enumerate((0.85, 0.6)):
        x, y = N / 2 + 9.3, N / 2 - 6.6
        found = Outlines(_crop(10 + k, x, y, 98.0, axes), D).find(coarse=True)
        assert found is not None
        assert np.hypot(found.x - x, found.y - y) < 1.0
        assert 2.0 < found.major - 98.0 < 4.5 and abs(found.ratio - axes) < 0.02


def test_at_a_coarse_scale_the_circle_takes_the_coins_size_not_the_searchs() -> None:
    # A coin drawn 88 px across where coins are 96: at full resolution (a
    # reference) the search's own radius; at a quarter, only its centre, the
    # size the crop was drawn to give a coin (the rays' wide first round,
    # 0.7-1.3 of it, reaches every size an outline is kept at).
    crop = _crop(21, N / 2 + 3.4, N / 2 - 2.2, 88.0)
    fine = coinface._circle(crop, D, 1)
    coarse = coinface._circle(crop, D, coinface.HOUGH_SCALE)
    assert fine is not None and coarse is not None
    assert abs(fine.major - 88.0) < 2.0
    assert coarse.major == coarse.minor == D
    assert np.hypot(coarse.x - (N / 2 + 3.4), coarse.y - (N / 2 - 2.2)) < 2.5
    assert coinface.SPANS[0][0] * D / 2 <= 0.8 * D / 2 and coinface.SPANS[0][-1] >= 1.25
