"""False squops (issue 8, session 13): one-colour pairs whose edges another
wink hides, or that show too little to weigh; the pair is to be left open
(the engine asks the umpire, rule 14) rather than ruled upside down."""

from __future__ import annotations

import pytest

from tests.mat_piles import benched
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# Tuning seed 42512 (r5 on r3 on r2, all red), read upside down here until
# session 25, is cured by relations.EDGE_GAP_HIDDEN: test_mat_one_colour.

# Tuning seed 41476: b3 on b4 on b1, all blue; b3 over both edges where b1
# and b4 cross (b-sliver's trace: b1 on b4 at 5.25 standard errors).
PILE_41476 = MatScene((
    TrueWink("b1", 747.1411, 258.3608, 0), TrueWink("b4", 752.3904, 270.7624, 1),
    TrueWink("b3", 747.8961, 262.7569, 2),
))  # fmt: skip


@pytest.mark.xfail(
    strict=True,
    reason="not cured: counting a wink of the pair's colour known on either among those that "
    "hide their edges (session 13, reverted) left these two open but lost 8 right relations "
    "in tuning 43000-43999 (whole edges read right at 5-50 standard errors) for none cured there; "
    "a bar of 2 standard errors for such edges (session 14, reverted) opened 42512 (1.6-1.8) "
    "but lost 47711 and 47788 in tuning 47200-48399; the whole edges' gap of 4 % of their grey "
    "(session 25) cured 42512 but not this one, read at 5 standard errors",
)
@pytest.mark.parametrize(("scene", "seed"), [(PILE_41476, 41476)])
def test_one_colour_edges_under_a_wink_of_their_colour_on_one_order_nothing(
    scene: MatScene, seed: int
) -> None:
    obs, m = benched(scene, seed)
    seen = seen_pairs(obs, m)
    assert not seen - true_pairs(scene)
    assert seen  # the wink on top is still read on the others


# Tuning seed 42190: y2 on r2 on r5. y2 lies over nearly all of both edges
# where r2 and r5 cross; one sample of each showed clear of it (70.0 and
# 71.0 grey), no spread to weigh the difference by: r5 on r2.
PILE_42190 = MatScene((
    TrueWink("r5", 90.8799, 378.1675, 0), TrueWink("r2", 83.8331, 362.7717, 1),
    TrueWink("y2", 79.4808, 373.234, 2),
))  # fmt: skip


def test_one_colour_edges_of_a_sample_each_order_nothing() -> None:
    obs, m = benched(PILE_42190, 42190)
    seen = seen_pairs(obs, m)
    assert not seen - true_pairs(PILE_42190)
    assert {("y2", "r2"), ("y2", "r5")} <= seen


# Tuning seed 47432: b5 on g6 on b1. Read again with each face at its level,
# b5's order with the pair was not yet known, and its blue face over their
# lens voted for b1: 8026 blue points against 183 green, b1 on g6.
PILE_47432 = MatScene((
    TrueWink("b1", 770.4876, 150.7877, 0), TrueWink("g6", 779.2097, 144.7453, 1),
    TrueWink("b5", 774.6365, 149.6670, 2),
))  # fmt: skip


def test_a_third_wink_of_the_colour_in_no_known_order_votes_for_neither() -> None:
    obs, m = benched(PILE_47432, 47432)
    seen = seen_pairs(obs, m)
    assert not seen - true_pairs(PILE_47432)
    assert ("g6", "b1") in seen
