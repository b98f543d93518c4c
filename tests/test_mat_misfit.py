"""False squops from a lower wink misfitted in the still's second look
(issue 8): a relation that rests only on where the lower wink is not seen
is left open (a false squop is worse than an open pair)."""

from __future__ import annotations

import pytest

from controller.games.tiddlywinks.geometry import Colour
from tests.mat_piles import benched
from vision.mat.closer import unproven
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink
from vision.mat.winks import Fit, Found

# Tuning seed 42066: g6 on b1 on b4 (16 mm). The still fits b4 as 22 mm,
# 3.2 mm off, overlapping b1 with neither on the other; g6's overlap with
# that circle lies inside b1 and reads green: g6 on b4, though g6 lies
# 2.4 mm clear of b4.
PILE_42066 = MatScene((
    TrueWink("b1", 18.6366, -391.3878, 1), TrueWink("b4", 27.2390, -383.0403, 0),
    TrueWink("g6", 21.5746, -400.5287, 2),
))  # fmt: skip


def test_a_lens_only_inside_a_third_wink_orders_nothing() -> None:
    obs, m = benched(PILE_42066, 42066)
    seen = seen_pairs(obs, m)
    assert ("g6", "b4") not in seen
    assert ("g6", "b1") in seen
    assert seen <= true_pairs(PILE_42066)


def _fit(colour: Colour, size: int, x: float, y: float) -> Fit:
    return Fit(colour, size, x, y, 0.2, False, -1, 0.0)


# The crop's fits of 42066 (g6, b4 as 22 mm, b1).
FITS = [_fit(Colour.GREEN, 16, 21.6, -401.0), _fit(Colour.BLUE, 22, 24.4, -384.6),
        _fit(Colour.BLUE, 22, 18.7, -391.7)]  # fmt: skip


def test_unordered_neighbour_holding_the_lens_drops_the_relation() -> None:
    got = unproven(Found(FITS, {0: {1, 2}, 1: set(), 2: set()}, [1, 0, 0], {}))
    assert got.on == {0: {2}, 1: set(), 2: set()}


@pytest.mark.parametrize("order", [{1: {2}, 2: set()}, {1: set(), 2: {1}}])
def test_a_pile_ordered_through_the_middle_wink_keeps_the_relation(
    order: dict[int, set[int]],
) -> None:
    on = {0: {1, 2}, **order}
    assert unproven(Found(FITS, on, [2, 0, 1], {})).on == on


def test_a_lens_mostly_outside_the_third_wink_keeps_the_relation() -> None:
    fits = [*FITS[:2], _fit(Colour.BLUE, 22, 8.0, -400.0)]  # b1 far aside: holds little of the lens
    on = {0: {1, 2}, 1: set(), 2: set()}
    assert unproven(Found(fits, on, [1, 0, 0], {})).on == on


# Tuning seed 43702: y5 and g3 touching (no squop). The still fits g3 4.0 mm
# off (a voted circle, 3.7 mm from the video's) into y5; not fixed here.
PAIR_43702 = MatScene((
    TrueWink("g3", 727.0831, -27.1864, 0), TrueWink("y5", 741.5898, -20.0653, 0),
))  # fmt: skip


@pytest.mark.xfail(
    strict=True, reason="43702: the still's voted misfit of g3 (winks._voted) is not caught"
)
def test_touching_pair_with_a_voted_misfit_orders_nothing() -> None:
    obs, m = benched(PAIR_43702, 43702)
    assert not seen_pairs(obs, m) - true_pairs(PAIR_43702)
