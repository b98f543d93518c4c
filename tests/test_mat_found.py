"""Piles of three whose winks the still fitted millimetres off or not at
all (issue 8, session 11), against the renderer's ground truth."""

from __future__ import annotations

import math

import pytest

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 32028: g2 (22 mm) on g6 (16 mm), b1 on both. The still's
# crop also fitted a 22 mm circle across the two greens (RMS 0.247 mm, just
# inside the still's loose limit of 0.25) 3.2 mm from g6; lifted a level it
# became a 16 mm circle on g6's, the pile read as a cycle, every face was
# lifted five levels (about 2-3 mm of parallax) and g6 was read on g2.
TWICE = (
    (32028, MatScene((TrueWink("g6", 782.8191, 270.7804), TrueWink("g2", 776.0056, 263.1403, 1),
                      TrueWink("b1", 771.7089, 274.1094, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", TWICE)
def test_a_wink_fitted_twice_in_a_pile_is_one_wink(rig_seed: int, scene: MatScene) -> None:
    obs, m = benched(scene, rig_seed)
    assert len(obs.winks) == len(scene.winks)
    assert sorted(t.id for t in m.values()) == sorted(w.id for w in scene.winks)
    assert seen_pairs(obs, m) == true_pairs(scene)
    for i, t in m.items():
        assert math.hypot(obs.winks[i].x - t.x, obs.winks[i].y - t.y) < 0.5
