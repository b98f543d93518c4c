"""Piles of three whose winks the still fitted millimetres off or not at
all (issue 8, session 11), against the renderer's ground truth."""

from __future__ import annotations

import pytest

from tests.mat_piles import benched, off_mm, sizes
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
    assert off_mm(obs, m) < 0.5


# From tuning seed 32736: r4 (16 mm) a crescent on b2 under y4. The still's
# crop fitted its candidate as a 22 mm circle 2.9 mm off (RMS 0.238 mm),
# which stood for the video's 16 mm fit there; at 16 mm, started where the
# video saw it, the same edge points fit closer (0.214 mm).
RESIZED = (
    (32736, MatScene((TrueWink("b2", -610.3029, 108.5640), TrueWink("r4", -610.5314, 101.2560, 1),
                      TrueWink("y4", -604.5747, 102.8966, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", RESIZED)
def test_a_crescent_fitted_at_the_wrong_size_takes_the_videos_size(
    rig_seed: int, scene: MatScene
) -> None:
    obs, m = benched(scene, rig_seed)
    assert sizes(obs, m) == [
        ("b2", 22), ("r4", 16), ("y4", 16)]  # fmt: skip
    assert seen_pairs(obs, m) == true_pairs(scene)
    assert off_mm(obs, m) < 0.5


# From tuning seed 32508: b3 on y4 on b2. The still's crop fitted a 22 mm
# circle through 14 of one candidate's 48 edge points (RMS 0.035 mm), 6.6 mm
# from b2 and far from any video fit; it made the pile a cycle (b3 on y4 on
# it, it on b3), which lifted all of it five levels: b3 and y4 were fitted
# 1.1 and 1.8 mm off and b3 on b2 was missed.
CYCLE = (
    (32508, MatScene((TrueWink("b2", 640.0452, 191.8773), TrueWink("y4", 634.4440, 190.6113, 1),
                      TrueWink("b3", 628.9226, 180.2291, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", CYCLE)
def test_a_fit_no_video_fit_stands_for_in_a_pile_read_as_a_cycle_is_dropped(
    rig_seed: int, scene: MatScene
) -> None:
    obs, m = benched(scene, rig_seed)
    assert len(obs.winks) == len(scene.winks)
    assert seen_pairs(obs, m) == true_pairs(scene)
    assert off_mm(obs, m) < 0.5


# From tuning seed 32756: y6 (16 mm) on y2 (22 mm) on y5 (16 mm), one colour.
# The still's crop fitted a 22 mm second circle (beyond.second_circles) 2.55 mm from
# y5's 16 mm fit, just past the still's 2.5 mm for fits of unlike sizes: a
# false wink under the pile, on which y2 and y6 were read, and y2 upside
# down on y6.
SECOND_22 = (
    (32756, MatScene((TrueWink("y5", -817.8640, -256.5538), TrueWink("y2", -805.5922, -245.0857, 1),
                      TrueWink("y6", -808.5611, -242.3011, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", SECOND_22)
def test_a_large_second_circle_through_a_small_winks_arc_is_that_wink(
    rig_seed: int, scene: MatScene
) -> None:
    obs, m = benched(scene, rig_seed)
    assert len(obs.winks) == len(scene.winks)
    assert seen_pairs(obs, m) == true_pairs(scene)


# From tuning seed 32813: y4 (16 mm) nearly concentric on y2 (22 mm), both on
# y5 (16 mm, 9.3 mm from y2's centre), one colour. The ring search skipped
# y2 because a small wink of its colour (y5) overlapped it; y5 lies beyond
# the search's reach of y2's centre, and y4's ring there scores 31.
RING_BESIDE_A_SMALL_ONE = (
    (32813, MatScene((TrueWink("y2", -12.3475, -124.9083), TrueWink("y5", -16.2021, -133.1780, 1),
                      TrueWink("y4", -15.3527, -125.6054, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", RING_BESIDE_A_SMALL_ONE)
def test_a_ring_is_looked_for_on_a_large_wink_a_small_one_lies_on_beyond_reach(
    rig_seed: int, scene: MatScene
) -> None:
    obs, m = benched(scene, rig_seed)
    assert sorted(t.id for t in m.values()) == ["y2", "y4", "y5"]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(scene)


# From tuning seed 32915: g6 on g1 on r4 (16 mm). The still's crop fitted r4
# twice: at 16 mm where the video saw it, and as a 22 mm circle through its
# arc 3.8 mm away (RMS 0.224 mm) that no video fit stood for: a false wink,
# which g1 was read on.
MIS_SIZED = (
    (32915, MatScene((TrueWink("r4", 848.3667, -25.5730), TrueWink("g1", 839.9368, -31.0921, 1),
                      TrueWink("g6", 842.1531, -28.5630, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", MIS_SIZED)
def test_a_large_fit_beside_a_small_wink_the_video_saw_is_that_wink(
    rig_seed: int, scene: MatScene
) -> None:
    obs, m = benched(scene, rig_seed)
    assert sizes(obs, m) == [
        ("g1", 22), ("g6", 16), ("r4", 16)]  # fmt: skip
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) <= true_pairs(scene)


# From tuning seed 32183: g5 (16 mm) on g2 (22 mm), 4.8 mm off its centre;
# the video saw only g5. A 22 mm fit beside a 16 mm wink the video saw is
# kept when its disc clear of the small one shows its colour (0.97 here;
# 32915's circle through r4's arc: 0.0).
UNDER_A_SMALL_ONE = (
    (32183, MatScene((TrueWink("g2", -723.3794, -219.1218),
                      TrueWink("g5", -727.4124, -216.4472, 1)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", UNDER_A_SMALL_ONE)
def test_a_large_wink_under_a_small_one_the_video_saw_alone_is_kept(
    rig_seed: int, scene: MatScene
) -> None:
    obs, m = benched(scene, rig_seed)
    assert sizes(obs, m) == [("g2", 22), ("g5", 16)]
    assert seen_pairs(obs, m) == true_pairs(scene)


# From tuning seed 40068: b2 on b4 on b3, one colour. The video fitted a
# 22 mm circle across b2 and b3; the crop fitted it too, and b3 at 16 mm,
# neither near a video fit of blue, in a cycle. Dropping every such fit at
# once (as first written) lost b3; one at a time, the 22 mm circle first,
# keeps it.
CYCLE_OF_ONE_COLOUR = (
    (40068, MatScene((TrueWink("b3", 384.3816, 367.9442), TrueWink("b4", 372.7193, 369.6080, 1),
                      TrueWink("b2", 380.1623, 357.4841, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", CYCLE_OF_ONE_COLOUR)
def test_a_cycle_loses_its_unhinted_fits_one_at_a_time(rig_seed: int, scene: MatScene) -> None:
    obs, m = benched(scene, rig_seed)
    assert sorted(t.id for t in m.values()) == ["b2", "b3", "b4"]
    assert len(obs.winks) == 3
    assert seen_pairs(obs, m) == true_pairs(scene)
