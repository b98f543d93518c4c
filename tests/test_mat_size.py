"""The size of an uncovered wink in a dim corner of the mat (issue 8,
session 16), against the renderer's ground truth: the scene is the part of
fresh tuning frame 62130 where the benchmark went wrong, rendered alone with
the frame's rig and noise (``bench.mat --wrong`` lists the case)."""

from __future__ import annotations

from tests.mat_piles import benched, off_mm, sizes
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 62130: g1 (22 mm) between g3 and g4 (16 mm each), apart,
# at the dim far corner of the mat (0.45 px per mm; green of chroma 20-55
# against the least chroma of a wink, 45). The video's green mask there was
# a scatter of pixels: g1 gave a partial fit (sent to the still), g4 no
# candidate at all (missed). The still's mask was as broken: no candidate in
# g1's crop, only the hint's seed, whose 48 edge points a 22 mm circle fitted
# with RMS 0.36 through 14 and a 16 mm circle 3.1 mm off with RMS 0.27
# through 16; "no looser and holding more" gave g1 16 mm, 4.6 mm off.
# Session 17 (b-dim): the masks mended where the felt is dim
# (vision/mat/faint.py: pixels as saturated as a face, chroma over 20)
# give each wink a solid blob and a candidate at its middle, in the video
# and in the still.
DIM_CORNER = MatScene((
    TrueWink("g1", 890.3670, 399.8180), TrueWink("g3", 860.3838, 407.9706),
    TrueWink("g4", 898.7390, 366.0403),
))  # fmt: skip


def test_a_wink_refitted_at_the_other_size_through_a_third_of_its_points_keeps_its_size() -> None:
    obs, m = benched(DIM_CORNER, 62130)
    seen = sizes(obs, m)
    assert ("g1", 22) in seen
    assert ("g3", 16) in seen
    assert off_mm(obs, {i: t for i, t in m.items() if t.id == "g1"}) < 2.0


def test_a_small_wink_in_the_dim_corner_is_seen() -> None:
    obs, m = benched(DIM_CORNER, 62130)
    assert sizes(obs, m) == [("g1", 22), ("g3", 16), ("g4", 16)]
    assert len(obs.winks) == 3
    assert off_mm(obs, m) < 1.5


# From tuning seed 88152: g1 (22 mm) on g3 (16 mm) on r1 (22 mm), at the far
# end of the mat. The still's crop fitted g1's own 22 mm circle with RMS
# 0.28 (over its loose 0.25: dropped), and the video's 22 mm hint, refitted
# at 22 mm through 40 of 45 points with RMS 0.28, gave way to a 16 mm circle
# 2.7 mm off through 12 of them with RMS 0.15 (closer than 0.6 of 0.28):
# g1 read 16 mm, and not on g3. The ring such a small circle leaves inside
# a 22 mm one showed green on 0.63 of it (hints.ring_share).
LARGE_ON_SMALL = MatScene((
    TrueWink("r1", -875.6749, -206.5219), TrueWink("g3", -880.8523, -205.8513, 1),
    TrueWink("g1", -879.9773, -190.2638, 2),
))  # fmt: skip


def test_a_large_wink_refitted_small_through_a_part_of_its_points_keeps_its_size() -> None:
    obs, m = benched(LARGE_ON_SMALL, 88152)
    assert sizes(obs, m) == [("g1", 22), ("g3", 16), ("r1", 22)]
    assert seen_pairs(obs, m) == true_pairs(LARGE_ON_SMALL)
    assert off_mm(obs, {i: t for i, t in m.items() if t.id == "g1"}) < 1.0


# From tuning seed 91259: g2 (22 mm) alone in the dim far corner, seen whole
# in video (RMS 0.30, so looked at again for a small wink on it). The
# still's green mask was full of holes: one candidate 2.8 px deep, whose
# rays ended 3-8 mm from the centre. Refitted at 22 mm, RMS 0.34 through 13
# of 48 points, 4.8 mm off the video's; at 16 mm 0.33 through 17, 2.2 mm
# off: g2 read 16 mm. A wink the video saw whole is its outline to a few
# tenths of a millimetre: a refit 2 mm or more off it is not that wink
# (hints.WHOLE_OFF_MM), and with no refit the video's fit stays.
LARGE_IN_A_DIM_CORNER = MatScene((TrueWink("g2", 879.5688, 408.1392),))


def test_a_large_wink_seen_whole_in_video_keeps_its_size_and_centre() -> None:
    obs, m = benched(LARGE_IN_A_DIM_CORNER, 91259)
    assert sizes(obs, m) == [("g2", 22)]
    assert len(obs.winks) == 1
    assert off_mm(obs, m) < 0.5
