"""Two floor cameras on rendered landings: the second camera's own
calibration and registration, and what the pair decides that one camera
cannot. The landings are tuning rigs' (110005, 110006, 110002: seed 110
of ``bench.vision --cameras 2 --cleet 0.5``; 100001: seed 100), rendered
again here."""

from __future__ import annotations

import itertools

import pytest

cv2 = pytest.importorskip("cv2")

from vision.fuse import NO_ONE_COIN, OPEN_OFF_LINE, fuse  # noqa: E402
from vision.model import Posture, Zone  # noqa: E402
from vision.synth.scene import Landing  # noqa: E402
from vision.synth.trial import (  # noqa: E402
    Pair,
    Prepared,
    pair_at,
    pair_trials,
    prepared,
    second_camera,
    seen,
    trials,
)
from vision.tilt import ellipse  # noqa: E402


@pytest.fixture(scope="module")
def rig5() -> tuple[Prepared, Prepared]:
    one = prepared(110005)
    return one, second_camera(one, 110005)


@pytest.fixture(scope="module")
def rig6() -> list[Pair]:
    # The benchmark's own landings (its random streams): these two turn on
    # the renders' noise.
    return list(pair_trials(110006, 22, cleet=0.5))


def test_the_first_camera_sees_what_a_one_camera_run_sees() -> None:
    # Same rig, landings and renders: "camera 1 alone" is the baseline.
    pairs = list(pair_trials(100003, 3))
    alone = list(trials(100003, 3))
    assert [p.first.landing for p in pairs] == [t.landing for t in alone]
    assert [p.first.observation for p in pairs] == [t.observation for t in alone]
    assert all(p.second.landing == p.first.landing for p in pairs)


def test_the_second_camera_is_calibrated_and_registered_on_its_own(
    rig5: tuple[Prepared, Prepared],
) -> None:
    one, two = rig5
    assert two.rig.camera.position != one.rig.camera.position
    assert two.analyser.calibration.homography.tolist() != (
        one.analyser.calibration.homography.tolist()
    )
    assert two.analyser.calibration.rms_mm < 3.0
    assert two.analyser.references is not None
    assert two.analyser.references is not one.analyser.references
    assert two.design == one.design


def test_a_cleet_that_looks_flat_to_camera_1_is_a_cleet_to_the_pair(
    rig5: tuple[Prepared, Prepared],
) -> None:
    # Tilted 31 degrees towards camera 1 (seen 9 degrees off vertical from
    # there is not this class; from 1235, 750 mm it is about 15): camera 1
    # reads its face, camera 2 sees the oval.
    one, two = rig5
    land = Landing(1235.67, 749.93, "tails", 210.47, tilt_deg=30.61, tilt_dir_deg=209.35)
    first, second = seen(one, land), seen(two, land)
    assert first.observation.verdict == "tails", first.observation.reasons
    assert second.observation.verdict == "edge", second.observation.reasons
    assert fuse([first.observation, second.observation]).verdict == "edge"


def test_a_flat_coin_one_camera_cannot_pose_is_read_by_the_other(rig6: list[Pair]) -> None:
    pair = rig6[4]
    first, second = pair.first.observation, pair.second.observation
    assert pair.first.truth == "tails"
    assert first.posture is Posture.INDETERMINATE, first.reasons  # "flat or leaning?"
    assert second.verdict == "tails"
    assert pair.fused.observation.verdict == "tails"


def test_a_small_coin_one_camera_sees_leaning_and_the_other_reads_is_the_spotters(
    rig6: list[Pair],
) -> None:
    # Camera 1 alone rules this flat coin a cleet (a retake); camera 2 reads
    # heads. Camera 1 sees it 46 px across: the pair asks the spotter.
    pair = rig6[21]
    first, second = pair.first.observation, pair.second.observation
    assert pair.first.truth == "heads"
    assert first.verdict == "edge"
    assert first.coin_px < 50
    assert second.verdict == "heads"
    assert pair.fused.observation.verdict == "indeterminate"
    assert any("flat or leaning?" in why for why in pair.fused.observation.reasons)


def test_pairs_are_fused_by_the_rule() -> None:
    pair = next(itertools.islice(pair_trials(100003, 1), 0, None))
    assert pair.fused.observation == fuse([pair.first.observation, pair.second.observation])
    assert pair.fused.seconds >= pair.first.seconds + pair.second.seconds


def test_the_outline_says_which_way_a_leaning_coin_lies(rig5: tuple[Prepared, Prepared]) -> None:
    # The cleet above, seen oval by camera 2: its outline's major axis on
    # the floor is the disc's projected along camera 2's rays (the renderer
    # turns the coin about tilt_dir_deg, so its normal leans 90 degrees
    # before it).
    _, two = rig5
    land = Landing(1235.67, 749.93, "tails", 210.47, tilt_deg=30.61, tilt_dir_deg=209.35)
    obs = seen(two, land).observation
    ratio, axis = ellipse(
        land.tilt_deg, land.tilt_dir_deg - 90, two.rig.camera.position, land.x_mm, land.y_mm
    )
    assert obs.axis_deg is not None and obs.axis_ratio is not None
    assert abs((obs.axis_deg - float(axis) + 90) % 180 - 90) < 10
    assert 0 <= obs.axis_ratio - float(ratio) < 0.12  # measured a little rounder
    assert obs.summary()["axis_deg"] == round(obs.axis_deg, 1)


def test_a_flat_coin_no_tilted_coin_explains_is_the_spotters_not_a_cleet() -> None:
    # Tuning landing 100001#18, flat heads: camera 1 reads heads, camera 2
    # (65 px across, not small) sees an oval of 0.75 whose direction no
    # coin tilted so that camera 1 sees it round allows. b-pair's rule
    # flagged it (a retake); with the cameras' places it is the spotter's.
    pair = list(pair_trials(100001, 19))[18]
    first, second = pair.first.observation, pair.second.observation
    assert pair.first.truth == "heads"
    assert (first.verdict, second.verdict) == ("heads", "edge")
    assert second.coin_px >= 50 and second.axis_ratio is not None and second.axis_ratio < 0.8
    assert fuse([first, second]).verdict == "edge"
    one = fuse([first, second], cameras=pair.cameras)
    assert one.verdict == "indeterminate" and pair.fused.observation.verdict == "indeterminate"
    assert NO_ONE_COIN in one.reasons


def test_a_cleet_one_camera_reads_a_face_on_stays_a_cleet() -> None:
    # Tuning landing 110002#20, a cleet tilted 43 degrees: camera 2 reads
    # tails, camera 1 sees an oval of 0.76; one tilted coin explains both.
    pair = list(pair_trials(110002, 21, cleet=0.5))[20]
    first, second = pair.first.observation, pair.second.observation
    assert pair.first.truth == "edge"
    assert (first.verdict, second.verdict) == ("edge", "tails")
    assert first.axis_ratio is not None and 0.7 <= first.axis_ratio <= 0.8
    assert fuse([first, second], cameras=pair.cameras).verdict == "edge"
    assert pair.fused.observation.verdict == "edge"
    assert fuse([first, second]).verdict == "edge"


def test_a_cleet_one_camera_reads_round_and_the_other_leaves_open_is_the_spotters() -> None:
    # Tuning landing 230007#12 (seed 230, fresh in session 20), leaning 33
    # degrees, clear of the line: camera 1 leaves it open (edge 0.94,
    # silhouette 0.93; the geometry 0.92), camera 2 reads heads by its edge
    # alone (0.90, as the geometry says: the still's window left no
    # silhouette, and an edge of 0.89 or more is flat). The pair called it
    # heads (a wrong point); one tilted coin explains both outlines.
    pair = list(pair_trials(230007, 13))[12]
    first, second = pair.first.observation, pair.second.observation
    assert pair.first.truth == "edge" and 32 < pair.first.landing.tilt_deg < 34
    assert (first.posture, second.verdict) == (Posture.INDETERMINATE, "heads"), first.reasons
    assert second.coin_px >= 50 and first.coin_px >= 50
    one = pair.fused.observation
    assert one.verdict == "indeterminate" and OPEN_OFF_LINE in one.reasons
    assert fuse([first, second]).verdict == "heads"  # (without the places)


def test_a_cleet_read_on_the_line_and_left_open_clear_of_it_is_the_spotters() -> None:
    # Tuning landing 250004#35 (seed 250, fresh in session 21), leaning 42
    # degrees, 2.6 mm clear of the painted line's inner edge: camera 1 (20
    # degrees off vertical) outlines it by its silhouette, 0.96 round (its
    # edge 0.89; the geometry 0.91), reads tails and places it on the line;
    # camera 2 (27 degrees) leaves it open (edge 0.93, silhouette 0.87; the
    # geometry 0.87) and places it inside. The pair called it tails (a wrong
    # point): the coin was on the line, where OPEN_OFF_LINE was not asked.
    pair = pair_at(250004, 35)
    first, second = pair.first.observation, pair.second.observation
    assert pair.first.truth == "edge" and 41 < pair.first.landing.tilt_deg < 42
    assert (first.verdict, first.zone) == ("tails", Zone.ON_LINE)
    assert (second.posture, second.zone) == (Posture.INDETERMINATE, Zone.INSIDE), second.reasons
    assert second.coin_px >= 50
    one = pair.fused.observation
    assert one.verdict == "indeterminate" and OPEN_OFF_LINE in one.reasons
