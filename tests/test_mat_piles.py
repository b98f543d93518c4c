"""Piles of three read in a still (vision/mat/closer.py, vision/mat/winks.py),
against the renderer's ground truth."""

from __future__ import annotations

import numpy as np

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.analyse import analyse
from vision.mat.camera import MatCalibration
from vision.mat.closer import region
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import match
from vision.mat.synth.scene import MatScene, TrueWink
from vision.mat.winks import Fit, Found, Picture, find_winks

# Two piles of three in a row, the middle wink showing a band 6-8 mm wide
# between the other two (a fit started anywhere in such a band can take the
# upper wink's arc for the band's own edge).
PILES = MatScene((
    TrueWink("y4", -177.9, 114.6), TrueWink("y5", -180.5, 101.9, 1),
    TrueWink("r1", -181.5, 87.3, 2),
    TrueWink("g4", 218.4, -125.7), TrueWink("g3", 228.6, -120.1, 1),
    TrueWink("b2", 229.2, -105.9, 2),
))  # fmt: skip
PILED = {("y5", "y4"), ("r1", "y5"), ("g3", "g4"), ("b2", "g3")}


def _relations(scene: MatScene, rig_seed: int) -> set[tuple[str, str]]:
    rig = MatRig.make(seed=rig_seed)
    obs = analyse(render(rig, scene, seed=1),
                  still=lambda box: render(rig.still(box), scene, seed=2))  # fmt: skip
    m = match(obs, scene)
    return {(m[w.index].id, m[b].id) for w in obs.winks for b in w.on if w.index in m and b in m}


def test_the_middle_of_a_pile_is_refitted_from_where_the_video_saw_it() -> None:
    for rig_seed in (1, 2, 6):
        assert _relations(PILES, rig_seed) == PILED, rig_seed


def _still_of(
    scene: MatScene, around: list[Fit], rig_seed: int = 3
) -> tuple[Picture, MatCalibration]:
    rig = MatRig.make(seed=rig_seed)
    cal = MatCalibration.from_projection(rig.projection(), rig.size)
    box = region(cal, around, 3.6)
    assert box is not None
    ccal = cal.crop(3.6, box)
    image = render(rig.still(box), scene, seed=2).image
    r_small = 8.0 * ccal.px_per_mm(around[0].x, around[0].y, WINK_THICKNESS_MM)
    nothing = np.zeros(image.shape[:2], np.uint8)
    return Picture(image, ccal, nothing + 255, nothing, r_small, (5.0, 2.5), 0.25), ccal


def _fits(pic: Picture, *hints: Fit) -> Found:
    return find_winks(Picture(pic.image, pic.cal, pic.region, pic.blocked, pic.r_small_px,
                              pic.apart_mm, pic.loose_mm, hints))  # fmt: skip


def test_a_hint_the_still_shows_no_wink_for_is_not_kept() -> None:
    scene = MatScene((TrueWink("g1", 100.0, 40.0),))
    seen = Fit(Colour.GREEN, 22, 100.2, 40.1, 0.2, False, 0, 5.0)
    astray = Fit(Colour.GREEN, 16, 112.0, 40.0, 0.3, False, 0, 3.0)  # mostly on the mat
    pic, _ = _still_of(scene, [seen, astray])
    for hints in ((), (seen,), (astray,), (seen, astray)):
        found = _fits(pic, *hints)
        assert [(f.colour, f.size) for f in found.fits] == [(Colour.GREEN, 22)], hints
        assert abs(found.fits[0].x - 100.0) < 0.3 and abs(found.fits[0].y - 40.0) < 0.3
