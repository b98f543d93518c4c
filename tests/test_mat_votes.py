"""Sliver votes (issue 8): a point of an overlap showing a colour votes for it
once (`relations.clear_votes`)."""

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


def _masks() -> tuple[np.ndarray, np.ndarray]:
    """a's colour on its own disc, over b; b's on the rest of b's disc."""
    mask_a = np.zeros((120, 120), np.uint8)
    mask_b = np.zeros((120, 120), np.uint8)
    cv2.circle(mask_b, _px(B[0], B[1]), round(S * B[2]), 255, -1)
    cv2.circle(mask_a, _px(A[0], A[1]), round(S * A[2]), 255, -1)
    mask_b[mask_a > 0] = 0
    return mask_a, mask_b


def test_a_point_votes_once() -> None:
    # a's face over the whole overlap: each point showing a colour votes for
    # it once; until session 13 a colour's count was the product of its
    # points showing the colour and of those clear of the other's rim
    mask_a, mask_b = _masks()
    na, nb = clear_votes(mask_a, mask_b, CAL, A, B, [])
    points = shown_mm2(A, B, [], CAL) / 0.01
    assert 0 < na + nb <= points
    assert nb < na / 10


def test_a_wink_of_the_colour_in_no_known_order_hides_its_votes() -> None:
    # a third wink of a's colour, C, over the whole overlap, known neither on
    # nor under a or b: the colour there may be C's face, and votes nothing
    # for a (session 14, tuning seed 47432: b5 over b1/g6's lens, 8026 blue
    # points against 183 green, b1 read on g6); what shows of a's colour
    # beyond C still votes
    mask_a, mask_b = _masks()
    c = (0.0, 0.0, 8.0, 3.0)
    plain = clear_votes(mask_a, mask_b, CAL, A, B, [])
    assert clear_votes(mask_a, mask_b, CAL, A, B, [], hide_a=[c]) == (0, plain[1])
    assert clear_votes(mask_a, mask_b, CAL, A, B, [], hide_b=[c]) == (plain[0], 0)
    small = (0.0, 0.0, 1.0, 3.0)
    na, _ = clear_votes(mask_a, mask_b, CAL, A, B, [], hide_a=[small])
    assert 0 < na < plain[0]
