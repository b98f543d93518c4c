"""vision.fuse: two cameras' observations of one landing made one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.fuse import (
    FLAT_OR_LEANING,
    MILD_ON_LINE,
    NO_ONE_COIN,
    OPEN_OFF_LINE,
    SMALL_PX,
    explained,
    fuse,
)
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


def test_a_face_read_flat_by_one_camera_and_left_open_by_the_other_is_that_face() -> None:
    # On tuning seeds 100 and 110: 46 flat coins and no cleet seen so.
    unsure = replace(FLAT, face=CoinFace.INDETERMINATE, posture=Posture.INDETERMINATE)
    for views in ([FLAT, unsure], [unsure, FLAT]):
        assert fuse(views).verdict == "tails"
        assert fuse(views).confidence == FLAT.confidence


def test_flat_unread_to_one_camera_and_undecided_to_the_other_is_the_spotters() -> None:
    unread = replace(FLAT, face=CoinFace.INDETERMINATE)
    unsure = replace(unread, posture=Posture.INDETERMINATE)
    assert fuse([unread, unsure]).verdict == "indeterminate"
    assert fuse([unsure, unsure]).verdict == "indeterminate"


def test_a_small_leaning_view_against_a_face_read_is_the_spotters() -> None:
    small = replace(
        FLAT, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, coin_px=SMALL_PX - 1
    )
    for views in ([FLAT, small], [small, FLAT]):
        one = fuse(views)
        assert one.verdict == "indeterminate"
        assert FLAT_OR_LEANING in one.reasons


def test_a_small_leaning_view_is_a_cleet_when_no_camera_reads_a_face() -> None:
    small = replace(
        FLAT, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, coin_px=SMALL_PX - 1
    )
    unsure = replace(small, posture=Posture.INDETERMINATE)
    unread = replace(small, posture=Posture.FLAT, coin_px=90.0)
    lost = Observation(found=False, reasons=("no coin found",))
    for other in (unsure, unread, lost, small):
        assert fuse([small, other]).verdict == "edge"


def test_a_leaning_view_of_a_large_enough_coin_overrules_a_face() -> None:
    large = replace(FLAT, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, coin_px=SMALL_PX)
    small = replace(large, coin_px=SMALL_PX - 1)
    assert fuse([FLAT, large]).verdict == "edge"
    assert fuse([FLAT, small, large]).verdict == "edge"


def test_inside_and_on_the_line_are_both_in() -> None:
    on_line = replace(FLAT, zone=Zone.ON_LINE)
    one = fuse([FLAT, on_line])
    assert (one.verdict, one.zone) == ("tails", Zone.ON_LINE)
    assert not any("in or out" in why for why in one.reasons)
    leaning = replace(FLAT, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, coin_px=90.0)
    assert fuse([on_line, leaning]).verdict == "edge"


def test_in_or_out_must_agree() -> None:
    out = replace(FLAT, zone=Zone.OUTSIDE, face=CoinFace.INDETERMINATE)
    one = fuse([FLAT, out])
    assert one.verdict == "indeterminate" and one.zone is None
    assert fuse([out, replace(out, x_mm=510.0)]).verdict == "outside"


def test_a_mild_oval_on_the_painted_line_against_a_face_read_is_the_spotters() -> None:
    # On the white line a flat coin's outline reads a mild oval (0.83-0.92
    # on tuning seeds 100-150), the shadow on white reaching past it.
    read = replace(FLAT, zone=Zone.ON_LINE, axis_ratio=0.97, coin_px=90.0)
    mild = replace(read, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, axis_ratio=0.88)
    for views in ([read, mild], [mild, read]):
        one = fuse(views)
        assert one.verdict == "indeterminate", one.reasons
        assert MILD_ON_LINE in one.reasons
    # where one camera sees the coin clear of the line, the two agree it is on it
    assert fuse([replace(read, zone=Zone.INSIDE), mild]).verdict == "indeterminate"


def test_a_mild_oval_off_the_line_or_a_clear_one_on_it_is_a_cleet() -> None:
    read = replace(FLAT, axis_ratio=0.97, coin_px=90.0)
    mild = replace(read, face=CoinFace.INDETERMINATE, posture=Posture.LEANING, axis_ratio=0.88)
    assert fuse([read, mild]).verdict == "edge"  # inside, clear of the line
    on_line = [replace(v, zone=Zone.ON_LINE) for v in (read, mild)]
    assert fuse([on_line[0], replace(on_line[1], axis_ratio=0.75)]).verdict == "edge"
    # the face-reading camera sees it less than round
    assert fuse([replace(on_line[0], axis_ratio=0.91), on_line[1]]).verdict == "edge"
    # no face read: nothing to weigh the oval against
    unsure = replace(on_line[0], face=CoinFace.INDETERMINATE, posture=Posture.INDETERMINATE)
    assert fuse([unsure, on_line[1]]).verdict == "edge"
    # both cameras see it lean
    assert fuse([on_line[1], on_line[1]]).verdict == "edge"


def test_a_camera_that_found_nothing_leaves_it_to_the_other() -> None:
    lost = Observation(found=False, reasons=("no coin found",))
    assert fuse([lost, FLAT]).verdict == "tails"
    none = fuse([lost, lost])
    assert not none.found
    assert none.reasons == ("camera 1: no coin found", "camera 2: no coin found")


# Two cameras 2 m up, one over the coin, one 830 mm along x: a coin tilted
# 45 degrees towards the second is a disc of ratio 0.71 to the first, its
# major axis along y (90 degrees), and round to the second (vision.tilt).
OVER, ASIDE = (500.0, 600.0, 2000.0), (1330.0, 600.0, 2000.0)
READ = replace(FLAT, axis_ratio=0.97, axis_deg=30.0)
OVAL = replace(
    FLAT,
    face=CoinFace.INDETERMINATE,
    posture=Posture.LEANING,
    coin_px=SMALL_PX + 10,
    axis_ratio=0.75,
    axis_deg=90.0,
)


def test_a_cleet_tilted_towards_the_camera_that_reads_a_face_is_a_cleet() -> None:
    one = fuse([OVAL, READ], cameras=[OVER, ASIDE])
    assert one.verdict == "edge", one.reasons
    assert explained([OVAL, READ], [OVER, ASIDE]) is True


def test_an_oval_no_tilted_coin_fits_with_a_face_read_is_the_spotters() -> None:
    # Turned a quarter, the oval says the coin leans along y: then the
    # second camera cannot see it round; yet it reads a face on it flat.
    across = replace(OVAL, axis_deg=0.0)
    for views, places in (([across, READ], [OVER, ASIDE]), ([READ, across], [ASIDE, OVER])):
        one = fuse(views, cameras=places)
        assert one.verdict == "indeterminate"
        assert NO_ONE_COIN in one.reasons
        assert fuse(views).verdict == "edge"  # without the cameras' places: as before


def test_only_a_clear_oval_is_asked() -> None:
    # Milder than 0.8 the oval allows nearly any tilt; more oval than 0.7
    # no flat coin's dented silhouette reads.
    for ratio in (0.85, 0.6):
        across = replace(OVAL, axis_ratio=ratio, axis_deg=0.0)
        assert fuse([across, READ], cameras=[OVER, ASIDE]).verdict == "edge"


def test_without_a_place_or_a_direction_the_geometry_is_not_asked() -> None:
    across = replace(OVAL, axis_deg=0.0)
    assert fuse([across, READ], cameras=[OVER, None]).verdict == "edge"
    assert explained([replace(across, axis_deg=None), READ], [OVER, ASIDE]) is None
    assert fuse([replace(across, axis_deg=None), READ], cameras=[OVER, ASIDE]).verdict == "edge"


def test_a_small_leaning_view_is_still_the_spotters_with_the_cameras_places() -> None:
    small = replace(OVAL, coin_px=SMALL_PX - 1)
    one = fuse([small, READ], cameras=[OVER, ASIDE])
    assert one.verdict == "indeterminate" and FLAT_OR_LEANING in one.reasons


def test_the_cameras_places_are_one_a_view() -> None:
    with pytest.raises(ValueError):
        fuse([OVAL, READ], cameras=[OVER])


# Tuning landing 230011#67 (a cleet leaning 32 degrees, called heads by the
# pair): camera 1 leaves it open (0.92), camera 2 reads heads on it round.
OPEN_1 = replace(
    FLAT,
    face=CoinFace.INDETERMINATE,
    posture=Posture.INDETERMINATE,
    confidence=0.0,
    x_mm=63.9,
    y_mm=610.2,
    axis_ratio=0.922,
    axis_deg=178.1,
    coin_px=103.9,
)
HEADS_2 = replace(
    FLAT,
    face=CoinFace.HEADS,
    confidence=0.338,
    x_mm=63.3,
    y_mm=609.2,
    axis_ratio=0.987,
    axis_deg=121.4,
    coin_px=113.1,
)
PLACES_230011 = [(998.4, 565.0, 2207.3), (391.0, 1019.1, 2478.6)]


def test_an_open_view_off_the_line_one_tilted_coin_explains_is_the_spotters() -> None:
    assert explained([OPEN_1, HEADS_2], PLACES_230011) is True
    one = fuse([OPEN_1, HEADS_2], cameras=PLACES_230011)
    assert one.verdict == "indeterminate"
    assert OPEN_OFF_LINE in one.reasons
    # Without the places the geometry is not asked: the face, as before.
    assert fuse([OPEN_1, HEADS_2]).verdict == "heads"


def test_an_open_view_on_the_line_or_small_stays_the_face_read() -> None:
    on_line = [replace(v, zone=Zone.ON_LINE) for v in (OPEN_1, HEADS_2)]
    assert fuse(on_line, cameras=PLACES_230011).verdict == "heads"
    small = replace(OPEN_1, coin_px=SMALL_PX - 1)
    assert fuse([small, HEADS_2], cameras=PLACES_230011).verdict == "heads"


def test_an_open_view_no_tilted_coin_explains_stays_the_face_read() -> None:
    # Tuning landing 230008#80, flat heads: camera 2's open view (0.93) and
    # camera 1's round one fit no coin tilted 20 degrees or more.
    heads = replace(
        HEADS_2, x_mm=134.8, y_mm=1018.2, axis_ratio=0.986, axis_deg=131.4, coin_px=94.0
    )
    unsure = replace(
        OPEN_1, x_mm=137.7, y_mm=1017.5, axis_ratio=0.934, axis_deg=153.4, coin_px=77.5
    )
    places = [(583.5, 865.3, 2099.2), (1221.5, 421.2, 1944.5)]
    assert explained([heads, unsure], places) is False
    assert fuse([heads, unsure], cameras=places).verdict == "heads"


# Tuning landing 250004#35 (a cleet leaning 42 degrees, called tails by the
# pair): camera 1 reads tails on it round (its silhouette 0.96; the geometry
# 0.91) and places it just over the painted line's inner edge, camera 2
# leaves it open (edge 0.93, silhouette 0.87; the geometry 0.87) and places
# it inside, clear of the line.
TAILS_1 = replace(
    FLAT,
    zone=Zone.ON_LINE,
    confidence=0.501,
    x_mm=1371.8,
    y_mm=1438.1,
    axis_ratio=0.961,
    axis_deg=89.0,
    coin_px=67.3,
)
OPEN_2 = replace(OPEN_1, x_mm=1371.3, y_mm=1435.8, axis_ratio=0.870, axis_deg=10.3, coin_px=61.8)
PLACES_250004 = [(960.5, 650.4, 2482.2), (167.9, 1021.4, 2458.7)]


def test_an_open_view_clear_of_the_line_is_asked_when_the_face_read_is_on_it() -> None:
    assert explained([TAILS_1, OPEN_2], PLACES_250004) is True
    one = fuse([TAILS_1, OPEN_2], cameras=PLACES_250004)
    assert one.zone is Zone.ON_LINE  # (the cameras agree it is in)
    assert one.verdict == "indeterminate"
    assert OPEN_OFF_LINE in one.reasons
    # The open view on the line too: its outline may be the tape's dent.
    on_line = replace(OPEN_2, zone=Zone.ON_LINE)
    assert fuse([TAILS_1, on_line], cameras=PLACES_250004).verdict == "tails"
