"""A 16 mm wink fitted as a 22 mm circle internally tangent to its arc
(issue 8, session 19: :func:`vision.mat.tangent.retake`), against the
renderer's ground truth."""

from __future__ import annotations

from tests.mat_piles import benched, sizes
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 73966: r3 on b3 on b4, all 16 mm. b4's rays ran on past
# its rim over b3, and the second circle through them (beyond.second_circles) took
# the size that fitted them closer: 22 mm, 2.9 mm off b3's centre, tangent
# to its arc. That circle's rim, where it leaves b3's disc, shows no edge;
# read as b3, it put b4 on b3 (a false squop) and left b3 on b4 unseen.
BESIDE_A_SECOND_CIRCLE = MatScene(
    (
        TrueWink("b4", -239.4376, -253.4386),
        TrueWink("b3", -237.0093, -264.7953, 1),
        TrueWink("r3", -228.6503, -267.9606, 2),
    )
)


def test_a_second_circle_at_the_wrong_size_gives_way_to_the_small_wink() -> None:
    obs, m = benched(BESIDE_A_SECOND_CIRCLE, 73966)
    assert sizes(obs, m) == [("b3", 16), ("b4", 16), ("r3", 16)]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(BESIDE_A_SECOND_CIRCLE)


# From tuning seed 64887: g6 (16 mm, the top) on g5 (16 mm) on g1 (22 mm),
# all green. g6's candidate fitted a 22 mm circle 3.1 mm off through 23 of
# its 40 edge points (the 16 mm one held 20): the top wink, wholly
# uncovered, was read at the wrong size.
TOP_AT_THE_WRONG_SIZE = MatScene(
    (
        TrueWink("g1", 689.9340, -327.4148),
        TrueWink("g5", 704.0267, -323.0912, 1),
        TrueWink("g6", 694.4317, -322.9460, 2),
    )
)


def test_the_top_wink_tangent_to_a_22_mm_circle_is_read_at_16_mm() -> None:
    obs, m = benched(TOP_AT_THE_WRONG_SIZE, 64887)
    assert sizes(obs, m) == [("g1", 22), ("g5", 16), ("g6", 16)]
    assert len(obs.winks) == 3
    assert ("g6", "g5") in seen_pairs(obs, m)


# From tuning seed 69300: g5 (16 mm) on g1 (22 mm) on g6 (16 mm), all green.
# Besides g5's own fit, a 22 mm circle 3.6 mm off through g5's arc was kept
# as a fourth, false wink, covered by g5 and lying on g6.
A_FOURTH_WINK_BESIDE_THE_TOP = MatScene(
    (
        TrueWink("g6", -234.9904, 57.0631),
        TrueWink("g1", -247.7207, 59.9636, 1),
        TrueWink("g5", -242.2060, 52.9790, 2),
    )
)


def test_no_22_mm_circle_through_a_small_wink_s_arc_is_kept_beside_it() -> None:
    obs, m = benched(A_FOURTH_WINK_BESIDE_THE_TOP, 69300)
    assert sizes(obs, m) == [("g1", 22), ("g5", 16), ("g6", 16)]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) <= true_pairs(A_FOURTH_WINK_BESIDE_THE_TOP)


# From tuning seed 76387: r5 (16 mm, the top) on r2 on r1, all red. r5's
# rays ran on over its edge onto the faces under it and found its rim only
# where it borders the mat; a 22 mm circle 3.2 mm off, tangent to that arc,
# held 24 of its 33 points against the 16 mm circle's 23, and r2 was read
# on r5 (a false squop). Its rim shows little edge either way; the 16 mm
# circle's shows as a ring on r2's face (score 11.7).
TOP_OF_ONE_COLOUR = MatScene(
    (
        TrueWink("r1", -352.6362, 416.7848),
        TrueWink("r2", -340.0868, 404.6554, 1),
        TrueWink("r5", -348.1788, 405.1963, 2),
    )
)


def test_the_top_of_a_one_colour_pile_is_read_by_its_ring() -> None:
    obs, m = benched(TOP_OF_ONE_COLOUR, 76387)
    assert sizes(obs, m) == [("r1", 22), ("r2", 22), ("r5", 16)]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(TOP_OF_ONE_COLOUR)


# From fresh tuning seed 80139 (session 21's scan): r3 (16 mm, the top) on
# r1 (22 mm) and r6 (16 mm), all red: a 22 mm circle 2.9 mm off through 21
# of 39 points (the 16 mm circle 20); its ring on r1 scores 5.6.
TOP_ON_A_LARGE_AND_A_SMALL = MatScene(
    (
        TrueWink("r6", 691.0191, 139.8086),
        TrueWink("r1", 678.4206, 129.2088, 1),
        TrueWink("r3", 681.9701, 135.9109, 2),
    )
)


def test_the_top_on_a_large_and_a_small_wink_of_its_colour_is_read_at_16_mm() -> None:
    obs, m = benched(TOP_ON_A_LARGE_AND_A_SMALL, 80139)
    assert sizes(obs, m) == [("r1", 22), ("r3", 16), ("r6", 16)]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) <= true_pairs(TOP_ON_A_LARGE_AND_A_SMALL)


# From tuning seed 81655 (session 21's scan): g5 (16 mm, the top) on r2
# (22 mm) and g6 (16 mm). The crop's own fit of g5 was too loose (RMS 0.34);
# the video's hint, refitted at the other size (hints._refits), gave a 22 mm
# circle 3.9 mm off with RMS 0.20, rescued after tangent.retake had run:
# g5 was read at 22 mm. Put through retake's tests, it gives way to the
# 16 mm circle through its points (0.8 mm off).
RESCUED_TOP_ON_TWO_COLOURS = MatScene(
    (
        TrueWink("g6", 67.9846, -103.6855),
        TrueWink("r2", 77.8343, -102.1561, 1),
        TrueWink("g5", 75.7347, -96.0223, 2),
    )
)


def test_a_rescued_22_mm_fit_of_a_small_top_gives_way_to_the_small_wink() -> None:
    obs, m = benched(RESCUED_TOP_ON_TWO_COLOURS, 81655)
    assert sizes(obs, m) == [("g5", 16), ("g6", 16), ("r2", 22)]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(RESCUED_TOP_ON_TWO_COLOURS)


# From tuning seed 82478 (session 21's check range): y3 (16 mm, the top) on
# y1 (22 mm) and y4 (16 mm), all yellow. The video saw y3 as a 22 mm
# circle; the crop's own fit was too loose (0.39) and the hint refitted at
# its size, 3.3 mm off (RMS 0.39, under hints.RESCUE_MM), was rescued after
# retake had run: y1 on y3 and y4 on y3, two false squops. The 16 mm circle
# through its points lies 0.1 mm off; its candidate is y1's own, whose
# edge points stay whole for y1's refit a level up.
RESCUED_TOP_OF_ONE_COLOUR = MatScene(
    (
        TrueWink("y4", 223.8405, 44.6971),
        TrueWink("y1", 213.0675, 48.3795, 1),
        TrueWink("y3", 218.2000, 52.2104, 2),
    )
)


def test_a_rescued_22_mm_fit_of_the_top_of_one_colour_gives_way_to_the_small_wink() -> None:
    obs, m = benched(RESCUED_TOP_OF_ONE_COLOUR, 82478)
    assert sizes(obs, m) == [("y1", 22), ("y3", 16), ("y4", 16)]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(RESCUED_TOP_OF_ONE_COLOUR)
