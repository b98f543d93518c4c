"""Two winks of one colour ordered by their edges, a wink of another colour
known to lie under either of them left out of the third winks that hide the
edges (issue 8, session 20), against the renderer's ground truth."""

from __future__ import annotations

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 76965: r6 (16 mm) on r4 (16 mm) on y2 (22 mm). Read again
# with each face at its level, r6's edge on r4 was judged clear of y2, which
# the pile already put under r4: one sample of r6's edge was left against 27
# of r4's (94.0 and 92.4 grey), too few to order them, and r6 was left on
# nothing, r6 on r4 and r6 on y2 unseen. Whole, the edges read 83.4 against
# 92.3 over 29 samples each: r6 on r4.
ON_A_PAIR_OVER_A_THIRD = MatScene(
    (
        TrueWink("y2", -594.9886, -245.7546),
        TrueWink("r4", -590.7953, -250.4114, 1),
        TrueWink("r6", -584.6845, -252.9414, 2),
    )
)


def test_a_wink_under_one_of_a_pair_hides_neither_edge() -> None:
    obs, m = benched(ON_A_PAIR_OVER_A_THIRD, 76965)
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(ON_A_PAIR_OVER_A_THIRD)
