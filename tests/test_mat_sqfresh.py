"""A sliver of a pair's overlap beside a third wink that can put one of the
pair's colours there by blur (issue 8: a wink of that colour, or one whose
colour blurs with the other's face into it, red over green reading yellow)
votes for that colour only where it lies clear of both the third wink and
the other wink's rim (``shows.clear_votes``, ``shows.bleeds``)."""

from __future__ import annotations

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink


def _false(scene: MatScene, rig_seed: int) -> set[tuple[str, str]]:
    return seen_pairs(*benched(scene, rig_seed)) - true_pairs(scene)


# Tuning seed 58218: y4 on g1 on y1. All that shows of g1 and y1's overlap clear of
# y4 is a strip of g1's face at most 1.2 mm wide, between y4's yellow rim and y1's
# yellow face beyond g1's rim; blurred, it read 57 points yellow to 1 green (the
# green mask 100-124 of 255 at its middle): y1 on g1. Of the yellow points, none
# shows yellow more than a pixel both inside g1's rim and beyond y4's dark edge: open.
PILE_58218 = MatScene((
    TrueWink("y1", -218.6822937160556, 148.00480973993888, 0),
    TrueWink("g1", -226.57389029058743, 130.688005533268, 1),
    TrueWink("y4", -221.25192235929268, 133.1827881485608, 2),
))  # fmt: skip

# Tuning seed 53558: r4 on g5 on y2. The sliver of g5 and y2's overlap clear of r4
# read 132 points yellow to 22 green: r4's red rim blurred over g5's green face reads
# yellow to 1.3 mm beyond it, and y2's face beyond g5's rim blurs in too: y2 on g5.
# Counted only clear of r4's edge and g5's rim by a pixel, 25 yellow to 22 green: open.
PILE_53558 = MatScene((
    TrueWink("y2", 308.7606292274779, -274.65989031551976, 0),
    TrueWink("g5", 305.85970471146203, -286.7575537652044, 1),
    TrueWink("r4", 309.9633554866947, -279.933079634859, 2),
))  # fmt: skip


def test_a_strip_between_two_faces_of_a_colour_does_not_vote_for_it() -> None:
    assert not _false(PILE_58218, 58218)


def test_a_red_rim_blurred_over_green_does_not_vote_yellow() -> None:
    assert not _false(PILE_53558, 53558)


# Tuning seed 57159: y6 on r2 on y5. The sliver of r2 and y5's overlap clear of y6 read
# 24 yellow to 45 red, under 80 % one colour: open. The yellow lay within a pixel of
# y6's edge or of r2's rim (y5's face beyond it); clear of both, 0 yellow to 45 red.
PILE_57159 = MatScene((
    TrueWink("y5", 359.0008653862044, -341.2857625046962, 0),
    TrueWink("r2", 353.9589593227882, -356.9909129867685, 1),
    TrueWink("y6", 350.2414541244171, -349.5356479199954, 2),
))  # fmt: skip


def test_a_colour_clear_of_a_wink_of_the_other_colour_orders_the_pair() -> None:
    obs, m = benched(PILE_57159, 57159)
    assert seen_pairs(obs, m) == true_pairs(PILE_57159)
