"""False squops from a lower wink misfitted in the still's second look
(issue 8). Those not cured are strict xfails (a cure that fixes one turns
its test green and must drop the mark)."""

from __future__ import annotations

import pytest

from controller.games.tiddlywinks.geometry import wink_size
from tests.mat_piles import benched, sizes
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# Tuning seed 42066: g6 on b1 on b4 (16 mm). The still fits b4 as 22 mm,
# 3.2 mm off, overlapping b1 with neither on the other; g6's overlap with
# that circle lies inside b1 and reads green: g6 on b4, though g6 lies
# 2.4 mm clear of b4.
PILE_42066 = MatScene((
    TrueWink("b1", 18.6366, -391.3878, 1), TrueWink("b4", 27.2390, -383.0403, 0),
    TrueWink("g6", 21.5746, -400.5287, 2),
))  # fmt: skip

# Tuning seed 43702: y5 and g3 touching (no squop). The still fits g3 4.0 mm
# off (a voted circle, 3.7 mm from the video's) into y5.
PAIR_43702 = MatScene((
    TrueWink("g3", 727.0831, -27.1864, 0), TrueWink("y5", 741.5898, -20.0653, 0),
))  # fmt: skip


# Tuning seed 44172: b1 on r1 on r5 (16 mm). The still fitted r5 as a
# 22 mm circle 3.8 mm off and read it on r1.
PILE_44172 = MatScene((
    TrueWink("b1", 569.2063, -23.7687, 2), TrueWink("r1", 579.9895, -16.7873, 1),
    TrueWink("r5", 592.5876, -12.6398, 0),
))  # fmt: skip


@pytest.mark.parametrize(("scene", "seed"), [(PILE_42066, 42066), (PILE_44172, 44172)])
def test_a_small_lower_wink_is_fitted_at_its_size_and_read_under(
    scene: MatScene, seed: int
) -> None:
    """The still's fixed-size fits started from the least-squares centre of
    all the lower wink's edge points, rays that ran on into the winks over
    it among them: a 22 mm circle from there held more of them than a 16 mm
    one (session 13: 42066's b4, 16 of 45 points, RMS 0.248). Every partial
    fit of a still is voted again (``voting.revote``)."""
    obs, m = benched(scene, seed)
    assert sizes(obs, m) == sorted((t.id, wink_size(t.id)) for t in scene.winks)
    assert seen_pairs(obs, m) == true_pairs(scene)


def test_touching_pair_with_a_voted_misfit_orders_nothing() -> None:
    """g3's own fit (RMS 0.36 through 40 of its 46 points) was dropped as
    loose and another candidate's voted circle (RMS 0.32), 4 mm off into
    y5, kept; with the sign fixed (session 14) a third candidate's circle
    made a false green wink there instead. Since session 16 the loose fit
    holding more of both candidates' points stands for g3
    (``winks._holds_more``); a strict xfail until then."""
    obs, m = benched(PAIR_43702, 43702)
    assert not seen_pairs(obs, m) - true_pairs(PAIR_43702)
    assert len(m) == len(obs.winks)  # no false wink in the pair's place


def test_a_voted_circle_reports_its_fit_as_a_distance() -> None:
    """A circle voted by part of a wink's points (``Fit.voted``; until
    session 15 it carried its RMS negated) reports its ``fit_mm`` as a
    distance (43702's g3 once said -0.318 mm)."""
    obs, _ = benched(PAIR_43702, 43702)
    fits = [w.fit_mm for w in obs.winks]
    assert fits and all(f >= 0 for f in fits), fits
    assert max(fits) > 0.25, fits  # the voted misfit's, as large as it was
