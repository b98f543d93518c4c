"""Two-colour piles of three read upside down (issue 8, session 26; fresh
tuning frames 95000-95999), each pile rendered alone with its frame's rig
and noise. Two by a sliver's votes (``shows.clear_votes``): all that shows
of the lower pair's overlap beside the top wink is a strip of the middle
wink's face under a pixel of the still wide; the lower wink's face beyond
the middle one's rim (and, where red lies on green, the yellow blend of the
top wink's red rim) blurs over it, and the middle wink's colour shows there
only faintly. Cured where the top wink can show the voting colour
(``shows.FAINT_LEAST``: 95160); 95930 and 95243 (a top wink missed) are
strict xfails."""

from __future__ import annotations

import pytest

from tests.mat_piles import benched, pile
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene

# 95160: r4 on g5 on y5, all 16 mm. Clear of r4, g5/y5's overlap is a strip at most
# 1.4 mm inside either rim; 51-52 points read yellow, none green (green's mask at most
# 45-48 of 255), and none of the yellow lies a pixel inside g5's rim and clear of r4's
# edge: y5 on g5 until session 26; now open.
PILE_95160 = pile(
    ("y5", 158.3943, 71.9638, 0), ("g5", 145.7176, 71.8497, 1), ("r4", 149.6546, 76.5625, 2)
)

# 95930: g5 on b2 (22 mm) on y3. The first read orders b2 on y3 (12 blue to 3 yellow);
# read again with each face at its level, 4 points within 0.26 mm of b2's rim read
# yellow, none blue (blue's mask at most 44): y3 on b2. No wink over the sliver can put
# yellow there (g5 over blue), so ``FAINT_LEAST`` does not act; asked of every sliver it
# cured this but lost tuning 60809's right read (13 votes within a pixel, rival at 44).
PILE_95930 = pile(
    ("y3", 875.9235, 274.7680, 0), ("b2", 878.0904, 260.1009, 1), ("g5", 879.7266, 265.3851, 2)
)

# 95243: b3 on r4 on b6, all 16 mm. The still does not find b3 (top, uncovered, 7.6 mm
# from b6: one blue blob); its blue face over r4/b6's overlap reads 87 % blue, b6 on r4.
# A wink missed, not a sliver: not cured here.
PILE_95243 = pile(
    ("b6", 805.4321, 43.2879, 0), ("r4", 795.2536, 45.1059, 1), ("b3", 801.0419, 49.5421, 2)
)


def test_a_faint_strip_of_the_middle_wink_blurred_yellow_is_left_open() -> None:
    obs, m = benched(PILE_95160, 95160)
    assert len(obs.winks) == 3
    seen = seen_pairs(obs, m)
    assert ("y5", "g5") not in seen
    assert seen - true_pairs(PILE_95160) == set()
    assert {("r4", "g5"), ("r4", "y5")} <= seen


LEFT = [
    pytest.param(
        PILE_95930,
        95930,
        marks=pytest.mark.xfail(
            strict=True,
            reason="4 yellow points within 0.26 mm of b2's rim, blue at most 44, no wink "
            "over the sliver that can show yellow: y3 read on b2",
        ),
        id="95930",
    ),
    pytest.param(
        PILE_95243,
        95243,
        marks=pytest.mark.xfail(
            strict=True,
            reason="b3, the top wink, is not found in the still: its blue face over "
            "r4/b6's overlap reads b6 on r4 (a wink missed)",
        ),
        id="95243",
    ),
]


@pytest.mark.parametrize(("scene", "seed"), LEFT)
def test_the_piles_left_are_not_read_upside_down(scene: MatScene, seed: int) -> None:
    obs, m = benched(scene, seed)
    assert seen_pairs(obs, m) - true_pairs(scene) == set()
