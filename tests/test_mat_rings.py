"""Small winks on large ones of their colour, and winks of one colour
squopping each other, read in a still (vision/mat/rings.py, winks.py),
against the renderer's ground truth."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from controller.games.tiddlywinks.geometry import Colour
from tests.mat_piles import benched
from vision.mat import rings
from vision.mat.analyse import STILL_SCALE, analyse
from vision.mat.camera import calibrate_mat
from vision.mat.closer import region
from vision.mat.render import MatRig, render
from vision.mat.segment import colour_masks
from vision.mat.synth.compare import match, seen_pairs, true_pairs
from vision.mat.synth.scene import MatScene, TrueWink
from vision.mat.winks import Fit, _ringed


def _seen(scene: MatScene, rig_seed: int) -> tuple[list[str], set[tuple[str, str]]]:
    """The true ids of the winks seen, and the squops seen between them."""
    obs, m = benched(scene, rig_seed)
    return sorted(t.id for t in m.values()), seen_pairs(obs, m)


# From tuning seeds 32282 and 32247: a wink squopped by one of its colour
# whose rim the upper one reaches past. The still fitted a second circle
# through the upper wink's arc beyond the lower one (beyond.second_circles) of the
# other size than the lower wink's, near it: taken for the wink the video saw
# there, the lower wink was not fitted again from its hint, and was lost
# (32282: r2 22 mm, "a red 16 found 4.3 mm away"; 32247: r4 16 mm taken for
# a 22 mm circle through its arc, read under r5 upside down).
SECOND_CIRCLES = (
    (32282, MatScene((TrueWink("y2", 781.1499, -393.3121), TrueWink("r2", 795.0689, -395.7484, 1),
                      TrueWink("r3", 797.1355, -392.5096, 2)))),
    (32247, MatScene((TrueWink("r2", 598.3617, -42.7068), TrueWink("r4", 575.8778, -40.4739),
                      TrueWink("r5", 573.1267, -31.0499, 1)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", SECOND_CIRCLES)
def test_a_second_circle_of_the_other_size_does_not_stand_for_the_wink_under_it(
    rig_seed: int, scene: MatScene
) -> None:
    ids, seen = _seen(scene, rig_seed)
    assert ids == sorted(w.id for w in scene.winks)
    assert seen == true_pairs(scene)


# From tuning seeds 32926, 34353, 32309 and 32418: a 16 mm wink nearly
# concentric on a 22 mm one of its colour, whose ring was missed: 3.6 and 5.0
# alone on the face, 3.3 under a third wink's edge, and 32418 not scored
# (too little of the ring clear of g2's rim). The faces either side were
# sampled inside the edge's blurred dip; sampled clear of it, these rings
# score 7-11. (34353's y6, between y5 and y1, is another matter.)
FAINT_RINGS = (
    (32926, "b3", "b2", MatScene((TrueWink("b2", -618.0983, 340.6484),
                                  TrueWink("b3", -615.3348, 338.4632, 1)))),
    (34353, "y5", "y1", MatScene((TrueWink("y1", -530.5583, 164.9536),
                                  TrueWink("y6", -527.6631, 169.965, 1),
                                  TrueWink("y5", -524.7136, 164.5743, 2)))),
    (32309, "b6", "b2", MatScene((TrueWink("b2", -781.1251, -93.8542),
                                  TrueWink("b6", -779.2759, -96.3664, 1),
                                  TrueWink("r5", -769.6409, -93.297, 2)))),
    (32418, "g5", "g2", MatScene((TrueWink("y6", 530.0745, -122.7127),
                                  TrueWink("g2", 526.5829, -112.6956, 1),
                                  TrueWink("g5", 525.4227, -115.6507, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, ring, lower, scene", FAINT_RINGS)
def test_a_faint_ring_is_scored_clear_of_its_edges_blur(rig_seed: int, ring: str, lower: str,
                                                        scene: MatScene) -> None:  # fmt: skip
    _, seen = _seen(scene, rig_seed)
    assert (ring, lower) in seen
    assert seen <= true_pairs(scene)


# From tuning seed 32759: y3 (yellow, 16 mm) on r1 (red, 22 mm). Yellow is as
# bright in red as a red face, so where a crop did not fit y3, its edge on r1
# was a ring in red (5.2; 7.7 sampled clear of the edge's blur): a red wink
# that is not there. A ring's disc must show the lower wink's colour. (Seen
# whole, the pile's crops fit y3: the test asks winks._ringed directly.)
YELLOW_ON_RED = MatScene((TrueWink("g6", 26.4724, 17.493), TrueWink("r1", 40.9484, 36.6961),
                          TrueWink("y3", 45.3358, 40.5514, 1)))  # fmt: skip


def test_a_ring_of_another_colour_is_no_wink() -> None:
    rig = MatRig.make(seed=32759)
    cal = calibrate_mat(render(rig, YELLOW_ON_RED, seed=32759))
    r1 = YELLOW_ON_RED.winks[1]
    lower = Fit(Colour.RED, 22, r1.x, r1.y, 0.3, False, 0, 10.0)  # y3 not fitted in this crop
    box = region(cal, [lower], STILL_SCALE)
    assert box is not None
    image = render(rig.still(box), YELLOW_ON_RED, seed=32759 + 100_000).image
    ccal = cal.crop(STILL_SCALE, box)
    masks = colour_masks(image, np.full(image.shape[:2], 255, np.uint8))
    grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    red = rings.face_channel(image, grey, Colour.RED)
    got = rings.find(red, ccal, lower.circle())
    assert got is not None and got[2] >= rings.RING_MIN  # y3's edge, read in red
    assert _ringed(ccal, image, grey, [lower], masks) == []


# tests/test_mat_piles.py's pile of three (b1 on r4 on r2, r4 nearly
# concentric on r2), with rig 4: a blurred still and a long shadow (1.2 mm
# beyond r4's edge, up and to the left). The best ring score's centre leaned
# 0.7 mm towards the shadow, which made r4's overlap with b1 look 1.4 mm
# instead of 2.2 and read r4 on b1; fitted to the ring's darkest line it is
# 0.1 mm off.
SHADOWED_RING = MatScene((
    TrueWink("r2", 125.8, 135.3), TrueWink("r4", 127.7, 132.3, 1), TrueWink("b1", 143.5, 126.6, 2),
))  # fmt: skip


def test_a_rings_centre_is_fitted_to_its_darkest_line() -> None:
    rig = MatRig.make(seed=4)
    still = lambda box: render(rig.still(box), SHADOWED_RING, seed=2)  # noqa: E731
    obs = analyse(render(rig, SHADOWED_RING, seed=1), still=still)
    m = match(obs, SHADOWED_RING)
    r4 = next(w for w in obs.winks if w.index in m and m[w.index].id == "r4")
    assert math.hypot(r4.x - 127.7, r4.y - 132.3) < 0.35


# Tuning seed 32210's pile (b4 nearly concentric on b1, b1 on g2) with g2
# moved further under b1, and tuning seed 34834's (y5 nearly concentric on
# y1, y1 on r2). Until session 10 every wink overlapping the lower one
# counted as covering it, the one under it too: the ring points over it were
# left out, and too few were left to score the ring (34834: y5 missed). The
# wink under it shows none of its colour where they overlap: it hides
# nothing of the ring.
UNDER_THE_LOWER = (
    *((32210, "b4", MatScene((TrueWink("g2", gx, gy), TrueWink("b1", -310.1, -164.0, 1),
                              TrueWink("b4", -308.2, -166.8, 2))))
      for gx, gy in ((-304.0, -158.0), (-305.0, -164.0))),
    (34834, "y5", MatScene((TrueWink("r2", -77.3277, 305.2075),
                            TrueWink("y1", -79.2333, 312.2270, 1),
                            TrueWink("y5", -78.8383, 315.5420, 2)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, ring, scene", UNDER_THE_LOWER)
def test_a_wink_under_the_lower_one_hides_none_of_its_ring(rig_seed: int, ring: str,
                                                          scene: MatScene) -> None:  # fmt: skip
    ids, seen = _seen(scene, rig_seed)
    assert ring in ids
    assert seen == true_pairs(scene)
