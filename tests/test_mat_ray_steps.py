"""A ray of :func:`vision.mat.fit.edges` reaches its ``reach_px`` inclusive,
whatever the rounding of ``reach / step``. A still crop's rays (2.6 r in
steps of r / 20, :func:`vision.mat.winks.find_winks`) are 53 samples; until
session 22 the count was ``int(reach / step) + 1``, and the ratio, 52 by
construction, came out 51.99999999999999 for about one still crop in ten,
which lost the last step (2.6 r) there: one calibration rounded an ulp
another way (OpenCV 5.1's homography) flipped a pinned case."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.fit import RAYS, edges, ray_steps
from vision.mat.segment import Candidate

# r_small_px for which 2.6 r / (0.25 r / 5) is 51.99999999999999 in floats
ROUNDED_DOWN = (13.746472253648254, 22.340228048217934, 40.82113359941763)


def _still_step(r: float) -> float:
    return 0.25 * max(1.0, r / 5.0)  # as find_winks computes it


@pytest.mark.parametrize("r", ROUNDED_DOWN)
def test_the_ratio_rounds_below_its_whole_number_on_these_radii(r: float) -> None:
    assert 2.6 * r / _still_step(r) < 52  # the knife-edge the count must not ride


def test_a_stills_rays_are_53_steps_for_every_radius() -> None:
    rng = np.random.default_rng(22)
    radii = [*ROUNDED_DOWN, 5.0, *rng.uniform(5.0, 45.0, 20_000)]
    assert {ray_steps(2.6 * r, _still_step(r)) for r in radii} == {53}


def test_a_video_rays_count_is_the_steps_inside_its_reach() -> None:
    """Steps of 0.25 px out to 2.6 r: whole ratios count their last step."""
    assert ray_steps(13.0, 0.25) == 53  # r = 5: the same 53 as a still's
    assert ray_steps(2.6 * 2.5, 0.25) == 27  # 26 steps exactly (6.5 / 0.25)
    assert ray_steps(2.6 * 2.49, 0.25) == 26  # 25.896 steps
    assert ray_steps(0.1 * 3, 0.1) == 4  # 0.30000000000000004 / 0.1: whole
    assert ray_steps(0.3 - 1e-9, 0.1) == 4  # within the slack of whole
    assert ray_steps(0.3 - 1e-5, 0.1) == 3  # a real shortfall is a step fewer


def test_an_edge_between_the_last_two_steps_is_found() -> None:
    """A disc of the candidate's colour reaching 2.575 r (between the steps at
    2.55 r and 2.6 r, 2 px apart at this r): every ray finds its edge, within
    half a step, only if it samples 2.6 r."""
    r = ROUNDED_DOWN[-1]
    size = int(2 * 2.6 * r) + 40
    c = size / 2
    image = np.full((size, size, 3), (120, 130, 125), np.uint8)
    shift = 4  # subpixel drawing
    cv2.circle(image, (int(c * 2**shift), int(c * 2**shift)), round(2.575 * r * 2**shift),
               (200, 60, 40), -1, cv2.LINE_AA, shift)  # fmt: skip
    blocked = np.zeros(image.shape[:2], np.uint8)
    cand = Candidate(Colour.BLUE, c, c, r)
    found = edges(image, [cand], 2.6 * r, blocked, _still_step(r))
    assert found.ok.sum() == RAYS
    dist = np.hypot(found.points[0, :, 0] - c, found.points[0, :, 1] - c)
    assert np.all(np.abs(dist - 2.575 * r) < 0.5 * _still_step(r))
