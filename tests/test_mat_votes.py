"""Sliver votes (issue 8): a point of an overlap votes for a colour once, and
only where it shows that colour clear of the blur at the other wink's rim
(`relations.clear_votes`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.mat.camera import MatCalibration
from vision.mat.relations import clear_votes, shown_mm2

S, C = 2.0, 60.0
"""2 px per mm straight from above (a still's scale), the mat's origin at
pixel (60, 60) of a 120 px square."""
CAL = MatCalibration(np.array([[S, 0, 0, C], [0, -S, 0, C], [0, 0, 0, 1.0]]), (120, 120))
A = (-8.0, 0.0, 11.0, 1.5)
B = (8.0, 0.0, 11.0, 1.5)
"""Two 22 mm winks whose discs overlap by 6 mm."""


def _px(x: float, y: float) -> tuple[int, int]:
    return round(S * x + C), round(C - S * y)


def _masks(rim_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """a's colour on its own disc beyond b, or (``rim_only``) on the pixels
    whose centres lie within 0.2 mm inside b's rim (the blur of a's face
    beyond it); b's on the rest of b's disc."""
    mask_a = np.zeros((120, 120), np.uint8)
    mask_b = np.zeros((120, 120), np.uint8)
    cv2.circle(mask_b, _px(B[0], B[1]), round(S * B[2]), 255, -1)
    if rim_only:
        cols, rows = np.meshgrid(np.arange(120.0), np.arange(120.0))
        d = np.hypot((cols - C) / S - B[0], (C - rows) / S - B[1])
        mask_a[(d > B[2] - 0.2) & (d <= B[2])] = 255
    else:
        cv2.circle(mask_a, _px(A[0], A[1]), round(S * A[2]), 255, -1)
    mask_b[mask_a > 0] = 0
    return mask_a, mask_b


def test_a_point_votes_once() -> None:
    # a's face over the whole overlap: every point clear of the rims votes for
    # a, each once; until session 13 the count was the product of the points
    # showing a's colour and of those clear of b's rim (about 500 x 500)
    mask_a, mask_b = _masks(rim_only=False)
    na, nb = clear_votes(mask_a, mask_b, CAL, A, B, [])
    points = shown_mm2(A, B, []) / 0.01
    assert 0 < na <= points
    assert nb == 0


def test_a_blend_at_the_other_rim_votes_nothing() -> None:
    # a's colour only along b's rim, b's face inside it: the
    # points showing a's colour all lie within a pixel of b's rim, and the
    # points clear of it show b's colour (until session 13 each of those
    # points counted for a too, once per point showing a's colour)
    mask_a, mask_b = _masks(rim_only=True)
    na, nb = clear_votes(mask_a, mask_b, CAL, A, B, [])
    assert na == 0
    assert nb > 0
