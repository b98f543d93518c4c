"""Piles whose pair's overlap shows from above but whose relation the mat
analysis left open (issue 8, session 14), each rendered alone from its
tuning frame, against the renderer's ground truth."""

from __future__ import annotations

import pytest

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 45803: b4 on g6, b5 on both. b5/b4's edges were judged
# clear of g6, which lies under both and hides neither: one sample of each
# edge was left, and the pair stayed open.
UNDER_BOTH = (
    45803,
    MatScene((TrueWink("g6", 133.6722, 119.7254), TrueWink("b4", 132.7320, 113.7074, 1),
              TrueWink("b5", 124.0766, 122.9159, 2))),
)  # fmt: skip

# From tuning seed 45610: y2 on b6, b4 on y2. The still first fitted b4
# 1.2 mm off, so their lens held 5 points (under 6): unsure; y2 a level
# above b4 only for want of a wink read under b4, so the pair was left open
# without a look at the overlap's colour, all blue.
HIGHER_FOR_WANT_OF_A_WINK = (
    45610,
    MatScene((TrueWink("b6", -737.1794, 112.0461), TrueWink("y2", -745.9867, 104.4614, 1),
              TrueWink("b4", -762.7248, 101.6652, 2))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", [
    UNDER_BOTH,
    pytest.param(*HIGHER_FOR_WANT_OF_A_WINK, marks=pytest.mark.xfail(strict=True, reason=(
        "not cured: ordering a pair a level apart for want of a wink by its overlap's colour "
        "(session 14 b-showing) cured this and 47128, 45463 but made a false squop on fresh "
        "tuning 48768 (r4 misfitted 2.6 mm, votes as clear as the cures'): reverted"))),
], ids=["third wink under both", "higher for want of a wink"])  # fmt: skip
def test_a_pile_whose_overlap_shows_is_read_whole(rig_seed: int, scene: MatScene) -> None:
    obs, m = benched(scene, rig_seed)
    assert len(m) == len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(scene)


def test_a_wink_under_both_does_not_undo_a_pile_read_through_a_phantom() -> None:
    """Guards the rule above (passes on the code before it too): tuning seed
    32323, all green, g4 on g6, g3 on both. The still's crop also fits a
    phantom g4 5.8 mm off, above g4 through g3; with g6 under both, g4's edge
    read darker and put g4 on the phantom, a loop, and the loop's re-read
    dropped the real g3 with its two relations. Where one of a pair is
    already above the other, the winks under both are left as they were."""
    scene = MatScene((TrueWink("g6", -538.7401, 95.9117), TrueWink("g4", -536.5668, 84.9127, 1),
                      TrueWink("g3", -546.6358, 87.7295, 2)))  # fmt: skip
    obs, m = benched(scene, 32323)
    assert sorted(t.id for t in m.values()) == ["g3", "g4", "g6"]
    assert seen_pairs(obs, m) == true_pairs(scene)
