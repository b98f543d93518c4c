"""Colour and size on uncovered winks, and winks made up or missed (issue 8,
session 16), against the renderer's ground truth: each scene is the part of
a fresh tuning frame where the benchmark went wrong, rendered alone with the
frame's rig and noise (``bench.mat --wrong`` lists the cases)."""

from __future__ import annotations

import pytest

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

REVERTED = pytest.mark.xfail(
    strict=True,
    reason="onefit.stands_for (a video fit of one size stands for a fit of the other size "
    "only where no fit of its own size lies as near) cured this but made a false squop on "
    "fresh tuning 62862 (r3's 22 mm misfit read under y1); reverted, the class is open",
)


# From tuning seed 59856: r6 and y6 (16 mm each) apart, just outside the
# pot's rim. In the still's crop a second red candidate fitted a 22 mm circle
# through r6's arc and the pot's dark rim, 2.9 mm from r6's fit: farther than
# the still's 2.5 mm for one wink of two sizes, and within 3 mm of r6's video
# fit, which was taken to stand for it too. It was kept as a false 22 mm wink
# (its disc clear of r6 showed red over 0.07), under r6 and y6.
BY_THE_POT = MatScene((TrueWink("r6", 16.7820, 23.0878), TrueWink("y6", 27.1648, 9.5269)))


@REVERTED
def test_a_small_winks_video_fit_does_not_stand_for_a_large_circle_beside_it() -> None:
    obs, m = benched(BY_THE_POT, 59856)
    assert sorted((t.id, obs.winks[i].size) for i, t in m.items()) == [("r6", 16), ("y6", 16)]
    assert len(obs.winks) == 2
    assert all(not w.on for w in obs.winks)


# From tuning seed 60497: b3 on b5 (16 mm each, 11.9 mm apart), r1 on b3. In the
# still's crop a 22 mm circle 2.9 mm from b5's fit was read as lying on b3
# and under b5, and b3 on b5: a pile read round in a circle, whose fits no
# video fit stands for are dropped. b5's video fit lay within 3 mm of the
# circle and was taken to stand for it: a false wink, read on b3 and under b5.
ONE_COLOUR_PAIR = MatScene((
    TrueWink("b5", -166.98, 220.97), TrueWink("b3", -156.47, 215.29, 1),
    TrueWink("r1", -143.89, 213.20, 2),
))  # fmt: skip


@REVERTED
def test_a_large_circle_by_a_small_wink_is_dropped_from_a_pile_read_round() -> None:
    obs, m = benched(ONE_COLOUR_PAIR, 60497)
    assert sorted((t.id, obs.winks[i].size) for i, t in m.items()) == [
        ("b3", 16), ("b5", 16), ("r1", 22)]  # fmt: skip
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(ONE_COLOUR_PAIR) == {("b3", "b5"), ("r1", "b3")}


# From tuning seed 60838: b3 (16 mm) on g6 (16 mm), 6.2 mm apart, at the far
# end of the mat (0.53 px per mm). The video fitted a green circle from g6's
# crescent 1.8 mm from b3's whole one: one wink seen in two colours, and blue
# filled more of it. b3, whole and alone, was not looked at in the still, and
# g6 was lost with its relation.
UNDER_ANOTHER_COLOUR = MatScene((TrueWink("g6", 810.98, 13.97), TrueWink("b3", 805.12, 11.90, 1)))


def test_a_wink_seen_in_two_colours_is_looked_at_in_the_still() -> None:
    obs, m = benched(UNDER_ANOTHER_COLOUR, 60838)
    assert sorted((t.id, obs.winks[i].size) for i, t in m.items()) == [("b3", 16), ("g6", 16)]
    assert len(obs.winks) == 2
    assert seen_pairs(obs, m) == true_pairs(UNDER_ANOTHER_COLOUR) == {("b3", "g6")}


# From tuning seed 60053: r5 (16 mm) on g6 (16 mm), 6.7 mm apart, at the
# dim far end of the mat (0.49 px per mm, the felt's value 92). g6's
# crescent, 3 px wide, a green of chroma 30-55 there, gave 6 pixels over the
# least chroma of a wink (45): no candidate, and r5, seen whole and alone,
# was not looked at in the still; g6 was lost with its relation. The green
# just past r5's rim now sends r5 to the still, where the pair is read.
DIM_END = MatScene((TrueWink("g6", 816.81, 330.25), TrueWink("r5", 813.80, 336.26, 1)))


def test_a_crescent_too_small_for_a_candidate_sends_its_wink_to_the_still() -> None:
    obs, m = benched(DIM_END, 60053)
    assert sorted((t.id, obs.winks[i].size) for i, t in m.items()) == [("g6", 16), ("r5", 16)]
    assert len(obs.winks) == 2
    assert seen_pairs(obs, m) == true_pairs(DIM_END) == {("r5", "g6")}
