"""The mat analysis's cost (issue 8): exact speed-ups that must stay so."""

from __future__ import annotations

import tracemalloc

import numpy as np

from vision.mat.camera import MatCalibration
from vision.mat.relations import clear_votes


def test_clear_votes_holds_no_array_of_every_pair_of_points() -> None:
    # two 22 mm winks overlapping by 6 mm, read at 4 px per mm (a still's
    # crop is about 2): about 6000 points of the overlap. Until session 13
    # the votes were summed over an (n, n) array, about 40 MB here and
    # 170 MB on tuning seed 32012, a second a call
    s, c = 4.0, 100.0
    cal = MatCalibration(np.array([[s, 0, 0, c], [0, -s, 0, c], [0, 0, 0, 1.0]]), (200, 200))
    left = np.zeros((200, 200), np.uint8)
    left[:, :100] = 255
    a, b = (-8.0, 0.0, 11.0, 1.5), (8.0, 0.0, 11.0, 1.5)
    tracemalloc.start()
    try:
        na, nb = clear_votes(left, 255 - left, cal, a, b, [])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert na > 0 and nb > 0
    assert peak < 8_000_000
