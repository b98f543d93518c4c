"""Two winks of one colour sharing one candidate in a still's crop: the
second is fitted from the candidate's edge points that the first's circle
does not hold (issue 8, session 14: :func:`vision.mat.winks._second`),
against the renderer's ground truth. The pile is rendered alone from its
tuning frame."""

from __future__ import annotations

from tests.mat_piles import benched, off_mm
from vision.mat.synth.compare import seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink

# From tuning seed 40581: b6 on b3 on b4 (all 16 mm); b3 lies 6.1 mm from
# b6, under it, and reaches over b4. In the crop the two made one peak of
# the blue blob and one candidate, whose rays' voted circle was b6's; b3 had
# no candidate of its own and was lost with both its relations (b6 lies
# over b4 too, and was seen so).
ONE_PEAK_FOR_TWO = MatScene(
    (
        TrueWink("b4", -542.8948, -184.9320),
        TrueWink("b3", -550.5699, -185.3394, 1),
        TrueWink("b6", -549.7287, -179.2330, 2),
    )
)


def test_a_wink_sharing_its_candidate_with_one_of_its_colour_over_it_is_found() -> None:
    obs, m = benched(ONE_PEAK_FOR_TWO, 40581)
    assert sorted(t.id for t in m.values()) == ["b3", "b4", "b6"]
    assert len(obs.winks) == 3
    assert off_mm(obs, m) < 1.0
    pairs = {("b3", "b4"), ("b6", "b3"), ("b6", "b4")}
    assert seen_pairs(obs, m) == true_pairs(ONE_PEAK_FOR_TWO) == pairs
