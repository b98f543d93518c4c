"""vision.fuse: two cameras' observations of one landing made one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.fuse import fuse
from vision.model import CoinFace, Observation, Posture, Zone

FLAT = Observation(
    found=True,
    face=CoinFace.TAILS,
    posture=Posture.FLAT,
    zone=Zone.INSIDE,
    x_mm=500.0,
    y_mm=600.0,
    confidence=0.2,
    coin_px=60.0,
    reasons=(),
)


def test_one_camera_is_its_own_observation() -> None:
    assert fuse([FLAT]) is FLAT


def test_no_camera_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        fuse([])


def test_a_coin_leaning_to_either_camera_is_a_cleet() -> None:
    leaning = replace(FLAT, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, axis_ratio=0.7)
    for views in ([FLAT, leaning], [leaning, FLAT]):
        one = fuse(views)
        assert one.verdict == "edge"
        assert one.axis_ratio == 0.7  # the evidence of the camera that saw it lean


def test_the_face_comes_from_the_most_confident_camera() -> None:
    sure = replace(FLAT, confidence=0.4, coin_px=90.0, x_mm=502.0)
    one = fuse([FLAT, sure])
    assert (one.verdict, one.confidence, one.coin_px) == ("tails", 0.4, 90.0)
    assert (one.x_mm, one.y_mm) == (501.0, 600.0)


def test_faces_that_disagree_go_to_the_spotter() -> None:
    one = fuse([FLAT, replace(FLAT, face=CoinFace.HEADS, confidence=0.5)])
    assert one.verdict == "indeterminate"
    assert "the cameras read different faces" in one.reasons


def test_a_face_one_camera_cannot_read_is_read_by_the_other() -> None:
    unread = replace(FLAT, face=CoinFace.INDETERMINATE, reasons=("faces too alike",))
    one = fuse([unread, FLAT])
    assert one.verdict == "tails"
    assert one.reasons == ("camera 1: faces too alike",)


def test_flat_to_one_camera_and_undecided_to_the_other_is_the_spotters() -> None:
    unsure = replace(FLAT, face=CoinFace.INDETERMINATE, posture=Posture.INDETERMINATE)
    assert fuse([FLAT, unsure]).verdict == "indeterminate"


def test_in_or_out_must_agree() -> None:
    out = replace(FLAT, zone=Zone.OUTSIDE, face=CoinFace.INDETERMINATE)
    one = fuse([FLAT, out])
    assert one.verdict == "indeterminate" and one.zone is None
    assert fuse([out, replace(out, x_mm=510.0)]).verdict == "outside"


def test_a_camera_that_found_nothing_leaves_it_to_the_other() -> None:
    lost = Observation(found=False, reasons=("no coin found",))
    assert fuse([lost, FLAT]).verdict == "tails"
    none = fuse([lost, lost])
    assert not none.found
    assert none.reasons == ("camera 1: no coin found", "camera 2: no coin found")
