"""The mat analysis against the renderer's ground truth (vision/mat)."""

from __future__ import annotations

import numpy as np
import pytest

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.analyse import MatAnalyser, analyse
from vision.mat.camera import MatCalibration, calibrate_mat
from vision.mat.closer import Still, groups
from vision.mat.layout import MatLayout
from vision.mat.render import MatRig, render, sensor_noise
from vision.mat.synth.compare import Tally, match, percentile, tally
from vision.mat.synth.scene import MatScene, TrueWink, random_scene
from vision.mat.winks import Fit
from vision.model import Frame, VisionError

SEEDS = range(100, 108)


def _tally(closer: bool) -> Tally:
    t = Tally()
    for seed in SEEDS:
        rig = MatRig.make(seed=seed)
        scene = random_scene(np.random.default_rng(seed))
        frame = render(rig, scene, seed=seed)
        still = _still(rig, scene, seed) if closer else None
        tally(analyse(frame, still=still), scene, t, f"[{seed}] ")
    return t


def _still(rig: MatRig, scene: MatScene, seed: int) -> Still:
    return lambda box: render(rig.still(box), scene, seed=seed + 1)


@pytest.fixture(scope="module")
def tallied() -> Tally:
    return _tally(closer=False)


@pytest.fixture(scope="module")
def tallied_closer() -> Tally:
    return _tally(closer=True)


def test_uncovered_winks_all_found_with_colour_and_size(tallied: Tally) -> None:
    assert tallied.whole > 100
    assert tallied.whole_right == tallied.whole, tallied.wrong


def test_centre_error_of_uncovered_winks_is_sub_millimetre(tallied: Tally) -> None:
    assert percentile(tallied.errors_mm, 95) <= 0.5
    assert max(tallied.errors_mm) < 1.0


def test_touching_winks_are_never_squops(tallied: Tally) -> None:
    assert tallied.touching_pairs > 5
    assert tallied.touching_false == 0, tallied.wrong


def test_squops_mostly_found_and_rarely_invented(tallied: Tally) -> None:
    # A floor against regressions, below the goal (99 %), which
    # bench.mat measures and which is not met yet (see bench/RESULTS.md).
    assert tallied.squops_true > 10
    assert tallied.squops_right >= 0.7 * tallied.squops_true, tallied.wrong
    assert tallied.squops_right >= 0.9 * tallied.squops_seen, tallied.wrong


def test_a_closer_look_at_piles_in_a_still(tallied_closer: Tally) -> None:
    t = tallied_closer
    assert t.whole_right == t.whole, t.wrong
    assert t.touching_false == 0, t.wrong
    assert percentile(t.errors_mm, 95) <= 0.5
    assert percentile(t.errors_covered_mm, 95) <= 0.6  # the part a covered wink shows
    assert t.squops_right >= 0.9 * t.squops_true, t.wrong
    assert t.squops_right >= 0.97 * t.squops_seen, t.wrong


def test_a_still_crop_is_the_same_camera_scaled() -> None:
    rig = MatRig.make(seed=11)
    box = (1200, 700, 160, 120)
    cal = MatCalibration.from_projection(rig.projection(), rig.size).crop(3.6, box)
    assert cal.size == rig.still(box).size == (160, 120)
    assert np.allclose(cal.projection, rig.still(box).projection())
    # the crop's pixel (0, 0) is the still's (x0, y0): 3.6 video pixels per pixel
    video = MatCalibration.from_projection(rig.projection(), rig.size)
    mm = np.array([[30.0, -40.0]])
    u = video.to_pixels(mm, 1.5)[0]
    assert np.allclose(cal.to_pixels(mm, 1.5)[0], 3.6 * (u + 0.5) - 0.5 - box[:2])


def test_overlapping_still_crops_agree_on_their_shared_pixels() -> None:
    # the sensor's noise belongs to its pixels, not to the box read, so a
    # crop moved by a pixel keeps its noise (else borderline fits flip)
    rig = MatRig.make(seed=11)
    scene = random_scene(np.random.default_rng(11))
    a = render(rig.still((1800, 900, 300, 240)), scene, seed=5).image.astype(int)
    b = render(rig.still((1937, 1001, 300, 240)), scene, seed=5).image.astype(int)
    m = 12  # clear of each crop's own border, where the blur differs
    diff = np.abs(a[101 + m : 240 - m, 137 + m : 300 - m] - b[m : 139 - m, m : 163 - m])
    assert rig.noise > 2 and diff.max() <= 1 and diff.mean() < 0.1
    c = render(rig.still((1937, 1001, 300, 240)), scene, seed=6).image.astype(int)
    assert np.abs(c - b).mean() > 1  # another frame's seed: other noise


def test_sensor_noise_is_keyed_by_pixel_scale_and_seed() -> None:
    a = sensor_noise(3, 3.6, (-70, -5, 200, 100))  # a crop may start off the sensor
    assert a.shape == (100, 200, 3) and a.dtype == np.float32
    assert np.array_equal(a[25:, 80:], sensor_noise(3, 3.6, (10, 20, 120, 75)))
    assert abs(float(a.std()) - 1) < 0.05
    assert not np.array_equal(a, sensor_noise(4, 3.6, (-70, -5, 200, 100)))
    assert not np.array_equal(a, sensor_noise(3, 1.0, (-70, -5, 200, 100)))


def test_only_piles_and_partly_seen_winks_get_a_closer_look() -> None:
    def fit(x: float, size: int = 22, whole: bool = True) -> Fit:
        return Fit(Colour.RED, size, x, 0.0, 0.1, whole, 0, 5.0)

    fits = [fit(0.0), fit(22.1),  # touching, both whole: the video suffices
            fit(100.0), fit(112.0, 16),  # overlapping
            fit(300.0, whole=False),  # partly seen
            fit(500.0)]  # fmt: skip
    assert sorted(sorted(g) for g in groups(fits)) == [[2, 3], [4]]


def _one(scene: MatScene, rig_seed: int = 2) -> tuple[MatScene, list[TrueWink]]:
    rig = MatRig.make(seed=rig_seed)
    obs = analyse(render(rig, scene, seed=5), hfov_deg=rig.hfov_deg)
    m = match(obs, scene)
    return scene, [m[w.index] for w in obs.winks if w.index in m]


def test_same_colour_squop_and_touching_pair_are_told_apart() -> None:
    scene = MatScene((
        TrueWink("b1", -300.0, 100.0), TrueWink("b3", -292.0, 104.0, 1),  # b3 on b1
        TrueWink("g1", 200.0, -100.0), TrueWink("g2", 222.1, -100.0),  # touching, 0.1 mm apart
    ))  # fmt: skip
    rig = MatRig.make(seed=4)
    obs = analyse(render(rig, scene, seed=1), hfov_deg=rig.hfov_deg)
    m = match(obs, scene)
    assert len(m) == 4
    seen = {(m[w.index].id, m[b].id) for w in obs.winks for b in w.on}
    assert seen == {("b3", "b1")}
    assert [p for p in obs.piles() if len(p) > 1] and len(obs.piles()) == 1


def test_potted_winks_counted_by_colour_through_the_opening() -> None:
    scene = MatScene((
        TrueWink("r3", -7.0, 0.0, 0, True), TrueWink("y3", 7.0, 2.0, 0, True),
        TrueWink("y4", 0.0, -9.0, 0, True), TrueWink("b1", 300.0, 0.0),
    ))  # fmt: skip
    obs = analyse(render(MatRig.make(seed=6), scene, seed=2))
    assert obs.pot is not None
    assert abs(obs.pot.x) < 0.6 and abs(obs.pot.y) < 0.6
    assert obs.pot.potted == {Colour.BLUE: 0, Colour.GREEN: 0, Colour.RED: 1, Colour.YELLOW: 2}
    assert len(obs.winks) == 1  # the potted winks are not taken for winks on the mat


def test_off_field_and_pot_distance_use_the_engines_geometry() -> None:
    scene = MatScene((TrueWink("g1", 0.0, 450.0), TrueWink("r1", 60.0, 0.0)))
    obs = analyse(render(MatRig.make(seed=7), scene, seed=3))
    by_colour = {w.colour: w for w in obs.winks}
    assert not by_colour[Colour.GREEN].in_field and by_colour[Colour.GREEN].on_mat
    assert by_colour[Colour.RED].in_field
    assert by_colour[Colour.RED].pot_distance_mm == pytest.approx(60 - 11 - 19, abs=0.6)


def test_calibration_from_the_markers_matches_the_camera() -> None:
    rig = MatRig.make(seed=9)
    frame = render(rig, MatScene(()), seed=1)
    cal = calibrate_mat(frame, hfov_deg=rig.hfov_deg)
    truth = MatCalibration.from_projection(rig.projection(), rig.size)
    pts = np.array([[x, y] for x in (-900.0, 0.0, 900.0) for y in (-450.0, 0.0, 450.0)])
    err = np.hypot(*(truth.to_mat(cal.to_pixels(pts, 1.5), 1.5) - pts).T)
    assert err.max() < 0.4
    assert cal.markers == MatLayout().marker_ids
    centre = cal.camera_centre()
    assert abs(centre[2] - rig.camera.position[2]) < 0.05 * rig.camera.position[2]


def test_a_frame_without_markers_is_a_clear_error() -> None:
    blank = Frame(np.full((720, 1280, 3), 160, np.uint8))
    with pytest.raises(VisionError, match="markers"):
        analyse(blank)


def test_the_analyser_is_reusable_per_calibration() -> None:
    rig = MatRig.make(seed=3)
    scene = random_scene(np.random.default_rng(3))
    frame = render(rig, scene, seed=3)
    an = MatAnalyser(calibrate_mat(frame))
    assert an.analyse(frame) == an.analyse(frame)
