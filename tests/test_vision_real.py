"""The coin finder on a real photograph: scikit-image's ``data.coins()``."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("cv2")
data = pytest.importorskip("skimage.data")

from vision.locate import find_circles  # noqa: E402

# The 24 coins of the photograph (4 rows of 6), centres read off by eye
# from the image (303 x 384 pixels): row by row, left to right.
ROWS = (
    (46, 54),
    (100, 57),
    (154, 52),
    (214, 51),
    (278, 52),
    (333, 44),
    (45, 124),
    (104, 126),
    (156, 128),
    (206, 124),
    (267, 118),
    (336, 126),
    (44, 196),
    (100, 195),
    (154, 196),
    (212, 194),
    (273, 196),
    (348, 186),
    (45, 258),
    (114, 266),
    (171, 261),
    (243, 264),
    (302, 264),
    (360, 267),
)


def test_finds_at_least_23_of_the_24_coins() -> None:
    found = find_circles(data.coins(), 30, 70)
    hits = {i for c in found for i, (x, y) in enumerate(ROWS) if math.hypot(c.x - x, c.y - y) < 10}
    assert len(hits) >= 23
    # And nothing that is not a coin.
    strays = [c for c in found if all(math.hypot(c.x - x, c.y - y) >= 10 for x, y in ROWS)]
    assert len(strays) <= 1
