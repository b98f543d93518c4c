"""A wink the video saw whose colour in the still's crop is too broken for
a candidate of its own, fitted from a candidate seeded where the video saw
it (issue 8, session 14: :func:`vision.mat.hints.seeds`), against the
renderer's ground truth. The pile is rendered alone from its tuning frame."""

from __future__ import annotations

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 40731: b2 on g2 (both 22 mm, 8.8 mm apart) at the dark
# end of the mat. The video fitted g2's crescent (at 16 mm); in the still's
# noisy crop the crescent's green mask was so broken that no peak of it lay
# deep enough for a candidate: g2 had nothing to be fitted from, and was lost
# with its relation.
BROKEN_CRESCENT = MatScene(
    (TrueWink("g2", -818.8198, 129.0025), TrueWink("b2", -811.5617, 133.9801, 1))
)


def test_a_hinted_wink_with_no_candidate_in_the_crop_is_fitted_from_a_seed() -> None:
    obs, m = benched(BROKEN_CRESCENT, 40731)
    assert sorted(t.id for t in m.values()) == ["b2", "g2"]
    assert len(obs.winks) == 2
    assert seen_pairs(obs, m) == true_pairs(BROKEN_CRESCENT) == {("b2", "g2")}


# From tuning seed 40012: y5 on g1 (22 mm), 3.2 mm off its centre. The video
# fitted g1 and a second 22 mm green circle across y5's other side, which the
# crop rightly dropped; a seed for that hint, fitted on its own, made a false
# 16 mm wink 3.4 mm from g1's centre. Seeds serve only the rescue.
CROSSED_HINT = MatScene((TrueWink("g1", -23.9433, 169.3009), TrueWink("y5", -27.1516, 168.8036, 1)))


def test_a_seed_is_not_fitted_as_a_wink_of_its_own() -> None:
    obs, m = benched(CROSSED_HINT, 40012)
    assert sorted(t.id for t in m.values()) == ["g1", "y5"]
    assert len(obs.winks) == 2
    assert seen_pairs(obs, m) == true_pairs(CROSSED_HINT) == {("y5", "g1")}
