"""Piles of three whose pair of one colour the relations left open although
the picture or the pile orders it (issue 8, session 13), against the
renderer's ground truth."""

from __future__ import annotations

import pytest

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 41086: b1 on g6 on b2, all three overlapping. b1/g6 and
# g6/b2 were ordered after the pairs of one colour, so b1/b2 (edges under g6)
# was left open, though b1 lies above b2 through g6.
THROUGH_THE_WINK_BETWEEN = (
    41086,
    MatScene((TrueWink("b2", 229.5323, 360.3196), TrueWink("g6", 232.8349, 362.1172, 1),
              TrueWink("b1", 246.5272, 364.6112, 2))),
)  # fmt: skip

# From tuning seed 40151: r4 on r5 on y2, r4 over y2 too. r5 on y2 was read
# from their overlap; r4/r5's edges were judged clear of y2, which hid r5's
# edge inside r4, though y2 lies under r5 and can hide nothing there.
# From tuning seed 40241: y2 on y6 on g2, y2 over g2 too, likewise.
UNDER_ONE_OF_THE_PAIR = (
    (40151, MatScene((TrueWink("y2", 342.3362, -386.0929), TrueWink("r5", 345.1243, -389.0942, 1),
                      TrueWink("r4", 357.4409, -390.8210, 2)))),
    (40241, MatScene((TrueWink("g2", -329.8196, -306.9705), TrueWink("y6", -330.9834, -311.6024, 1),
                      TrueWink("y2", -336.5266, -321.3019, 2)))),
)  # fmt: skip


@pytest.mark.parametrize(
    "rig_seed, scene",
    [THROUGH_THE_WINK_BETWEEN, *UNDER_ONE_OF_THE_PAIR],
    ids=["through the wink between", "third wink under the middle one (red)",
         "third wink under the middle one (yellow)"],
)  # fmt: skip
def test_a_pile_of_three_is_read_whole(rig_seed: int, scene: MatScene) -> None:
    obs, m = benched(scene, rig_seed)
    assert len(m) == len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(scene)
