"""Leaning coins against the empty floor's still, and the face of a coin too
near the line: rendered with ground truth, on rigs and coins the benchmark
does not use."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from bench.vision import face_call  # noqa: E402
from controller.games.heads_and_tails.events import Face  # noqa: E402
from vision.analyse import Analyser, Settings, choose_outline  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.coinface import Ellipse, shrunk  # noqa: E402
from vision.locate import Candidate, find_changed, find_slivers  # noqa: E402
from vision.model import CoinFace, Frame, Observation, Posture  # noqa: E402
from vision.silhouette import edge_silhouette, segment_outline  # noqa: E402
from vision.synth.art import CoinDesign  # noqa: E402
from vision.synth.scene import Landing, Rig, render, still_window  # noqa: E402
from vision.synth.trial import Trial, register  # noqa: E402
from vision.watch import landed_from  # noqa: E402


def _shots(rig: Rig, design: CoinDesign, land: Landing, seed: int) -> tuple[Frame, ...]:
    """Preview, still, and the empty floor's preview and still (the same window)."""
    window = still_window(rig, land, np.random.default_rng(seed))
    return (
        render(rig, design, land, seed=seed),
        render(rig, design, land, seed=seed + 1, still=True, window=window),
        render(rig, None, None, seed=seed + 2),
        render(rig, None, None, seed=seed + 3, still=True, window=window),
    )


@pytest.fixture(scope="module")
def table() -> tuple[Rig, Analyser]:
    # Camera nearly overhead (tilt 60 mm): a coin leaning 30-45 degrees can
    # not look round from there (it does when tilted about twice the angle
    # the camera sees it at).
    rig = Rig.make(4242, coin_px=90.0, tilt=60.0)
    return rig, Analyser(calibrate(render(rig, None, None, seed=1), rig.layout))


@pytest.mark.parametrize("tilt", [85.0, 60.0])
def test_a_coin_on_edge_is_outlined_against_the_empty_still(
    table: tuple[Rig, Analyser], tilt: float
) -> None:
    rig, analyser = table
    design = CoinDesign.make(77)
    for k, direction in enumerate((10.0, 100.0, 215.0)):
        land = Landing(640.0, 820.0, "tails", tilt_deg=tilt, tilt_dir_deg=direction)
        obs = analyser.analyse(*_shots(rig, design, land, 10 * k))
        assert obs.posture is Posture.LEANING, (direction, obs.reasons, obs.axis_ratio)
        assert obs.verdict == "edge"


def test_leaning_coins_are_not_called_a_face(table: tuple[Rig, Analyser]) -> None:
    rig, analyser = table
    design = CoinDesign.make(78)
    empty = render(rig, None, None, seed=5)
    analyser.references = register(analyser, rig, design, empty, np.random.default_rng(6))
    verdicts = []
    for k in range(8):
        land = Landing(
            700.0, 760.0, "heads", rotation_deg=40.0 * k, tilt_deg=30.0 + 2 * k, tilt_dir_deg=45 * k
        )
        verdicts.append(analyser.analyse(*_shots(rig, design, land, 100 + 10 * k)).verdict)
    assert not {"heads", "tails"} & set(verdicts), verdicts
    assert verdicts.count("edge") >= 6, verdicts


def test_a_flat_coin_too_near_the_line_has_its_face_read_but_the_spotter_calls_it() -> None:
    rig = Rig.make(4343, coin_px=90.0, tilt=60.0)
    empty = render(rig, None, None, seed=1)
    # Within 30 mm of the in/out boundary the camera does not call in or out.
    analyser = Analyser(calibrate(empty, rig.layout), settings=Settings(tolerance_mm=30.0))
    design = CoinDesign.make(79)
    analyser.references = register(analyser, rig, design, empty, np.random.default_rng(2))
    land = Landing(rig.layout.side_mm + 6.0, 700.0, "heads", rotation_deg=70.0)
    obs = analyser.analyse(*_shots(rig, design, land, 20))
    assert obs.face is CoinFace.HEADS  # read ...
    assert obs.zone is None and obs.verdict == "indeterminate"  # ... but not ruled
    assert any("too close to call" in r for r in obs.reasons)
    # The engine gets no face: the spotter enters the landing.
    assert landed_from(obs, t_ns=1).face is Face.UNKNOWN
    # The benchmark counts the face as read, and the landing as the spotter's.
    clearance = rig.layout.in_out_clearance(land.x_mm, land.y_mm, 12.0)
    trial = Trial(land, land.truth(rig.layout), clearance, obs, 0.0, 0.0)
    assert face_call(trial) == "right" and trial.outcome == "indeterminate"


def test_a_sliver_is_sized_by_its_length() -> None:
    rng = np.random.default_rng(3)
    grain = cv2.GaussianBlur(rng.normal(0, 8, (300, 300)).astype(np.float32), (0, 0), 3)
    empty = np.asarray(np.clip(np.dstack([120 + grain] * 3), 0, 255), np.uint8)
    crop = empty.copy()
    # A coin on edge, 96 px long and 9 px thick, seen from above: a metal sliver.
    box = cv2.boxPoints(((150.0, 150.0), (104.0, 9.0), 30.0)).astype(np.int32)
    cv2.fillPoly(crop, [box], (150, 190, 205))
    found = segment_outline(crop, empty, 96.0)
    assert found is not None
    assert found.ratio < 0.2
    assert abs(found.angle_deg % 180 - 30) < 5
    assert np.hypot(found.x - 150, found.y - 150) < 3
    # Twice as long it is no coin.
    crop = empty.copy()
    long = cv2.boxPoints(((150.0, 150.0), (200.0, 9.0), 30.0)).astype(np.int32)
    cv2.fillPoly(crop, [long], (150, 190, 205))
    assert segment_outline(crop, empty, 96.0) is None


def test_edge_and_silhouette_disagreeing_is_the_spotters_call() -> None:
    s = Settings()
    round_edge = Ellipse(100.0, 100.0, 96.0, 93.0, 0.0)
    half_shape = Ellipse(110.0, 100.0, 96.0, 60.0, 90.0)
    close_shape = Ellipse(100.0, 100.0, 97.0, 89.0, 10.0)
    oval_edge = Ellipse(100.0, 100.0, 96.0, 87.5, 0.0)  # 0.91: flat or leaning by the edge
    assert choose_outline(round_edge, half_shape, s) == (half_shape, True)
    assert choose_outline(oval_edge, close_shape, s) == (close_shape, False)
    assert choose_outline(None, half_shape, s) == (half_shape, False)
    assert choose_outline(round_edge, None, s) == (round_edge, False)
    # An edge that already says leaning is not contradicted by a thinner silhouette.
    leaning_edge = Ellipse(100.0, 100.0, 96.0, 80.0, 0.0)
    assert choose_outline(leaning_edge, half_shape, s) == (half_shape, False)


def test_a_round_edge_with_a_less_round_silhouette_is_the_spotters_call() -> None:
    # A flat coin whose silhouette reads less round than it is (part of it
    # matches the floor) beside its round edge: not a cleet, the spotter's.
    s = Settings()
    flat_edge = Ellipse(100.0, 100.0, 96.0, 90.9, 0.0)  # 0.947
    flat_shape = Ellipse(100.0, 101.0, 97.0, 88.4, 30.0)  # 0.911
    assert flat_shape.ratio <= s.leaning_silhouette  # alone it says leaning
    assert choose_outline(flat_edge, flat_shape, s) == (flat_shape, True)
    # Leaning coins are still caught: their edge is oval too, even when it
    # measures rounder than their silhouette.
    for edge_ratio, shape_ratio in ((0.905, 0.848), (0.90, 0.907), (0.92, 0.88)):
        edge = Ellipse(100.0, 100.0, 96.0, 96.0 * edge_ratio, 0.0)
        shape = Ellipse(100.0, 100.0, 96.0, 96.0 * shape_ratio, 0.0)
        outline, unsure = choose_outline(edge, shape, s)
        assert outline == shape and not unsure, (edge_ratio, shape_ratio)
        assert shape.ratio <= s.leaning_silhouette
    # A silhouette that says flat is taken whatever the edge.
    round_shape = Ellipse(100.0, 100.0, 96.0, 92.0, 0.0)  # 0.958
    assert choose_outline(flat_edge, round_shape, s) == (round_shape, False)


def test_the_watch_takes_the_empty_floors_still_and_hands_it_on() -> None:
    from vision.watch import CameraWatch

    rig = Rig.make(4444, coin_px=60.0, tilt=60.0)
    frames = {"preview": render(rig, None, None, seed=1)}
    frames["still"] = render(rig, None, None, seed=2, still=True, window=(0, 0, 400, 300))

    class Source:
        def preview(self) -> Frame:
            return frames["preview"]

        def still(self) -> Frame:
            return frames["still"]

        def close(self) -> None:
            pass

    seen: list[tuple[Frame | None, Frame | None]] = []

    class Spy(Analyser):
        def analyse(
            self,
            preview: Frame,
            still: Frame | None = None,
            background: Frame | None = None,
            empty_still: Frame | None = None,
        ) -> Observation:
            seen.append((background, empty_still))
            return Observation(found=False)

    watch = CameraWatch(lambda: Source(), Spy(calibrate(frames["preview"], rig.layout)))
    watch.start(0)
    watch.empty_floor(1)
    landed = watch.judge(frames["preview"], frames["still"], 2)
    assert len(seen) == 1
    assert seen[0][0] is frames["preview"] and seen[0][1] is frames["still"]
    assert landed.face is Face.UNKNOWN


def test_a_silhouette_that_is_only_a_ragged_ring_is_no_silhouette() -> None:
    rng = np.random.default_rng(5)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (300, 300)).astype(np.float32), (0, 0), 3)
    empty = np.asarray(np.clip(np.dstack([150 + grain] * 3), 0, 255), np.uint8)
    crop = empty.copy()
    # A silver coin as grey as the floor: only its rim and a stroke of relief
    # differ (darker than a shadow could make them).
    cv2.ellipse(crop, ((150.0, 150.0), (96.0, 80.0), 20.0), (40, 40, 40), 5)
    cv2.line(crop, (130, 140), (170, 160), (40, 40, 40), 4)
    ring = segment_outline(crop, empty, 96.0)
    assert ring is not None  # the ring alone fits an ellipse ...
    assert segment_outline(crop, empty, 96.0, min_fill=0.7) is None  # ... hardly filled
    solid = empty.copy()
    cv2.ellipse(solid, ((150.0, 150.0), (96.0, 80.0), 20.0), (40, 40, 40), -1)
    filled = segment_outline(solid, empty, 96.0, min_fill=0.7)
    assert filled is not None and abs(filled.ratio - 80 / 96) < 0.03


def _tuning_table(seed: int) -> tuple[Rig, Analyser, Frame]:
    """A rig of the tuning set (``trials`` on rigs 50000-50019 is where these
    misses were found), calibrated, and its empty floor's preview."""
    rig = Rig.make(seed)
    analyser = Analyser(calibrate(render(rig, None, None, seed=11), rig.layout))
    return rig, analyser, render(rig, None, None, seed=12)


def _landing_shots(
    rig: Rig, design: CoinDesign, land: Landing, seed: int
) -> tuple[Frame, Frame, Frame]:
    """Preview, still and the empty floor's still (the same window)."""
    window = still_window(rig, land, np.random.default_rng(seed))
    return (
        render(rig, design, land, seed=seed),
        render(rig, design, land, seed=seed + 1, still=True, window=window),
        render(rig, None, None, seed=seed + 2, still=True, window=window),
    )


def test_a_small_coin_on_edge_is_located_by_its_colour() -> None:
    # Rig 50000: the coin is 6.7 px across in the preview; on edge it is a
    # sliver a pixel thick, silver on a brown floor of about its grey level.
    rig, analyser, empty = _tuning_table(50000)
    land = Landing(918.0, 1073.0, "tails", rotation_deg=57.0, tilt_deg=82.0, tilt_dir_deg=208.0)
    preview, still, empty_still = _landing_shots(rig, CoinDesign.make(50000 + 104729), land, 40)
    px = analyser.calibration.to_pixels(np.array([[land.x_mm, land.y_mm]]), preview.full_size)[0]
    coin_px = 24.0 * analyser.calibration.px_per_mm(land.x_mm, land.y_mm, preview.full_size)
    assert coin_px < 8

    def near(cands: list[Candidate]) -> list[Candidate]:
        return [c for c in cands if np.hypot(c.x - px[0], c.y - px[1]) < coin_px]

    assert not near(find_changed(preview.image, empty.image, coin_px))  # too faint in grey
    found = find_slivers(preview.image, empty.image, coin_px)
    assert near(found) and found[0] in near(found)
    obs = analyser.analyse(preview, still, empty, empty_still)
    assert obs.verdict == "edge", obs.reasons
    assert obs.x_mm is not None and obs.y_mm is not None
    assert np.hypot(obs.x_mm - land.x_mm, obs.y_mm - land.y_mm) < 12


def test_a_grey_coin_on_edge_with_no_outline_is_ruled_on_edge_by_its_sliver() -> None:
    # Rig 60002 (tuning), landing 44: on edge (73 degrees), grey on a grey
    # floor in a soft still: no edge, no silhouette, too few new edges, so
    # main sent it to the spotter ("no coin found"). What changed against
    # the empty still is one solid blob, the sliver and its shadow, 1.1
    # diameters long and 0.55 wide: a flat coin's is a diameter wide.
    rig, analyser, empty = _tuning_table(60002)
    land = Landing(323.6, 155.0, "tails", rotation_deg=77.2, tilt_deg=73.5, tilt_dir_deg=33.8)
    preview, still, empty_still = _landing_shots(rig, CoinDesign.make(60002 + 104729), land, 40)
    obs = analyser.analyse(preview, still, empty, empty_still)
    assert any("a sliver" in r for r in obs.reasons), obs.reasons
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons
    assert obs.x_mm is not None and obs.y_mm is not None
    assert np.hypot(obs.x_mm - land.x_mm, obs.y_mm - land.y_mm) < 12


def test_nothing_new_is_no_sliver() -> None:
    rig = Rig.make(50001)
    empty, again = render(rig, None, None, seed=1), render(rig, None, None, seed=2)
    assert find_slivers(again.image, empty.image, 7.0) == []


def test_a_silver_coin_leaning_on_the_white_line_is_outlined_by_its_edges() -> None:
    # Rig 50000, a coin leaning 57 degrees on the line: as dark against the
    # white line as a shadow, so what changed hardly fills its silhouette.
    rig, analyser, empty = _tuning_table(50000)
    land = Landing(602.0, 1491.5, "heads", rotation_deg=355.0, tilt_deg=57.0, tilt_dir_deg=218.5)
    preview, still, empty_still = _landing_shots(rig, CoinDesign.make(50000 + 104729), land, 70)
    s = analyser.settings
    half = s.extent * s.coin_diameter_mm
    crop = analyser.crop(still, land.x_mm, land.y_mm, half)
    floor = analyser.crop(empty_still, land.x_mm, land.y_mm, half)
    assert segment_outline(crop, floor, s.crop_px, min_fill=s.min_fill) is None
    shape = edge_silhouette(crop, floor, s.crop_px)
    assert shape is not None and shape.ratio < 0.6
    obs = analyser.analyse(preview, still, empty, empty_still)
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons


def test_a_hull_across_a_missing_arc_is_no_silhouette() -> None:
    rng = np.random.default_rng(9)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (300, 300)).astype(np.float32), (0, 0), 3)
    floor = np.asarray(np.clip(np.dstack([150 + grain] * 3), 0, 255), np.uint8)
    # A flat silver coin as grey as the floor: only half its rim shows. The
    # hull of that arc is a half-disc, far from round, and would call it leaning.
    crop = floor.copy()
    cv2.ellipse(crop, (150, 150), (48, 48), 0, 200, 380, (60, 60, 60), 3, cv2.LINE_AA)
    assert edge_silhouette(crop, floor, 96.0) is None
    # The whole rim: round.
    whole = floor.copy()
    cv2.circle(whole, (150, 150), 48, (60, 60, 60), 3, cv2.LINE_AA)
    found = edge_silhouette(whole, floor, 96.0)
    assert found is not None and found.ratio > 0.95 and abs(found.major - 99) < 5  # (3 px thick)


def test_a_leaning_coin_is_placed_at_its_floor_point_not_its_outline_centre() -> None:
    # Rig 50001 (tuning; landing 84 there was a cleet called outside): the
    # camera is over (989, 402) mm, 2.46 m up. A coin leaning 60 degrees
    # 10 mm beyond the far edge is in (its radius is 12 mm), but its middle,
    # about 11 mm up, is put 5-6 mm farther out by the floor plane: main
    # called it outside.
    rig = Rig.make(50001, coin_px=90.0)
    analyser = Analyser(calibrate(render(rig, None, None, seed=1), rig.layout))
    design = CoinDesign.make(81)
    for k, direction in enumerate((90.0, 200.0, 300.0)):
        land = Landing(700.0, 1510.0, "heads", tilt_deg=60.0, tilt_dir_deg=direction)
        obs = analyser.analyse(*_shots(rig, design, land, 10 * k))
        assert obs.posture is Posture.LEANING, (direction, obs.reasons)
        assert obs.verdict != "outside" and obs.y_mm is not None
        assert abs(obs.y_mm - land.y_mm) < 2.0, (direction, obs.y_mm)


def _registered_landing(rig_seed: int, land: Landing, shots_seed: int) -> Observation:
    """The analysis of ``land`` on tuning rig ``rig_seed``, its coin registered
    as the benchmark registers it."""
    rig, analyser, empty = _tuning_table(rig_seed)
    design = CoinDesign.make(rig_seed + 104729)
    analyser.references = register(analyser, rig, design, empty, np.random.default_rng(3))
    preview, still, empty_still = _landing_shots(rig, design, land, shots_seed)
    return analyser.analyse(preview, still, empty, empty_still)


@pytest.mark.xfail(
    strict=True,
    reason=(
        "known miss since the still's silhouette is taken at half resolution (b-lean): "
        "there this coin's silhouette is a round 90 x 89 px blob, not 96 x 69, so edge "
        "and silhouette agree it is flat and it is called tails; on tuning seeds 60 and "
        "90 the half resolution caught the same cleets and read more faces, so it stays"
    ),
)
def test_a_face_read_inside_a_round_edge_does_not_make_a_leaning_coin_flat() -> None:
    # Rig 60002 (fresh tuning), landing 49 of a run with half the landings
    # cleets: a coin leaning 36 degrees, its edge round (0.94) around a
    # silhouette of 0.72, and its face reads clearly inside the edge (as a
    # flat coin's cut-short silhouette would): the spotter decides, it is not
    # called tails.
    land = Landing(1105.2, 880.2, "tails", rotation_deg=81.7, tilt_deg=35.9, tilt_dir_deg=266.3)
    obs = _registered_landing(60002, land, 40)
    assert obs.verdict == "indeterminate", obs.reasons
    assert any("flat or leaning?" in r for r in obs.reasons), obs.reasons


def test_a_leaning_coin_with_a_ghost_round_edge_is_ruled_leaning_by_its_face() -> None:
    # Rig 50003 (tuning), landing 46: a coin leaning 52 degrees by the corner
    # whose edge fit is a nearly round ghost (0.89-0.91) around its
    # silhouette (0.42): the two disagreed, and the spotter was asked.
    # Inside the ghost edge no face reads: it is leaning, as the silhouette
    # says.
    land = Landing(22.7, 70.2, "tails", rotation_deg=346.1, tilt_deg=52.5, tilt_dir_deg=302.4)
    obs = _registered_landing(50003, land, 10)
    assert any("leaning, no face reads" in r for r in obs.reasons), obs.reasons
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons


@pytest.mark.parametrize(
    ("rig_seed", "land", "shots"),
    [
        # Rig 50007 (tuning), landing 95: leaning 33 degrees almost straight
        # towards the camera, which sees it 14 degrees off vertical. On the
        # floor plane it looks round (0.98) and its face reads: main called
        # it heads. Its high edge, 13 mm up, throws a shadow well beyond
        # where a flat coin's can reach.
        (
            50007,
            Landing(334.3, 229.2, "heads", rotation_deg=244.9, tilt_deg=32.9, tilt_dir_deg=111.7),
            20,
        ),
        # Rig 50019 (tuning), landing 59: leaning 74 degrees by the corner
        # of the square, the camera 31 degrees off vertical: main called it
        # tails (with these shots; with others its outline is oval enough).
        (
            50019,
            Landing(1485.3, 13.9, "heads", rotation_deg=82.2, tilt_deg=73.6, tilt_dir_deg=279.8),
            21,
        ),
    ],
)
def test_a_round_looking_leaning_coin_is_ruled_leaning_by_its_shadow(
    rig_seed: int, land: Landing, shots: int
) -> None:
    obs = _registered_landing(rig_seed, land, shots)
    assert any("shadow beyond a flat coin's" in r for r in obs.reasons), obs.reasons
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons


def test_a_shadow_is_counted_only_beyond_where_a_flat_coins_can_reach() -> None:
    from vision.shadow import BEYOND_MM, far_shadow

    s = Settings()
    ppm = s.crop_px / s.coin_diameter_mm
    rng = np.random.default_rng(11)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (300, 300)).astype(np.float32), (0, 0), 3)
    floor = np.asarray(np.clip(np.dstack([140 + grain] * 3), 0, 255), np.uint8)
    coin = Ellipse(150.0, 150.0, 96.0, 96.0, 0.0)

    def with_shadow(reach_mm: float) -> np.ndarray:
        """A flat gold coin and a shadow 30 % deep reaching ``reach_mm``
        beyond its edge, offset down and right (light from the upper left)."""
        crop = floor.copy()
        shade = np.zeros(crop.shape[:2], np.float32)
        centre = (150 + reach_mm * ppm / 2, 150 + reach_mm * ppm / 2)
        radius = 48 + reach_mm * ppm / 2
        cv2.circle(shade, (round(centre[0]), round(centre[1])), round(radius), 1.0, -1)
        crop = np.asarray(crop * (1 - 0.3 * shade[..., None]), np.uint8)
        cv2.circle(crop, (150, 150), 48, (150, 190, 205), -1)
        return crop

    half = floor[::2, ::2]  # (the empty floor at half resolution)
    near, far = (shrunk(with_shadow(r), 2) for r in (0.8 * BEYOND_MM, BEYOND_MM + 6.0))
    assert far_shadow(near, half, coin, ppm) < 0.2 * s.far_shadow
    assert far_shadow(far, half, coin, ppm) > s.far_shadow


@pytest.mark.parametrize(
    ("rig_seed", "land"),
    [
        # Tuning seed 60 (bench.vision_misses --seed 60), landings 60001#71,
        # 60001#90 and 60002#28: coins leaning 47-57 degrees whose shadow
        # lies against them and rounds them off. The edge fit is one clean
        # circle about 1.15 diameters across around coin and shadow, its
        # face matches neither registered face at 0.17-0.26 ("faces too
        # alike"), and its shadow, measured from that circle, reaches
        # nowhere. Main asked the spotter (a face reading by chance would
        # have been called heads or tails). Its silhouette against the
        # empty still leaves the shadow out: 0.50-0.66.
        (
            60001,
            Landing(722.1, 664.2, "tails", rotation_deg=75.5, tilt_deg=55.7, tilt_dir_deg=116.0),
        ),
        (
            60001,
            Landing(939.1, 1223.9, "heads", rotation_deg=314.4, tilt_deg=57.3, tilt_dir_deg=123.1),
        ),
        # (silver on the white line: no filled silhouette, its new edges outline it)
        (
            60002,
            Landing(611.1, 15.5, "tails", rotation_deg=173.0, tilt_deg=47.1, tilt_dir_deg=339.6),
        ),
    ],
)
def test_a_round_edge_larger_than_a_coin_is_coin_and_shadow(rig_seed: int, land: Landing) -> None:
    obs = _registered_landing(rig_seed, land, 10)
    assert any("leaning, no face reads inside the edge" in r for r in obs.reasons), obs.reasons
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons
    assert obs.axis_ratio is not None and obs.axis_ratio < 0.7  # the coin's own outline


def test_an_undecided_outline_with_a_far_shadow_is_leaning() -> None:
    # Tuning seed 60, landing 60000#28: a coin leaning 49 degrees whose
    # silhouette measures 0.94 (flat or leaning by the outline alone) and
    # whose shadow reaches beyond a flat coin's by 0.71: short of what makes
    # a round-looking coin leaning (0.72), enough for one whose outline
    # already says it may lean. Main asked the spotter.
    land = Landing(1421.9, 1280.9, "heads", rotation_deg=137.7, tilt_deg=49.1, tilt_dir_deg=296.6)
    obs = _registered_landing(60000, land, 20)
    assert obs.axis_ratio is not None and 0.92 < obs.axis_ratio < 0.94
    assert any("but shadow beyond a flat coin's" in r for r in obs.reasons), obs.reasons
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons


@pytest.mark.xfail(
    strict=True,
    reason=(
        "known miss (issue 6): a coin tilted towards the camera by about twice the angle "
        "the camera sees it at looks round on the floor plane and its face reads; its "
        "shadow falls short here (0.05): its rim band is on the far side (edge fit 0.57 mm "
        "beyond the silhouette), but that alone is no cleet, one ordinary flat coin in ten "
        "measures more than 0.3 mm (bench.vision_rim, sessions 10 and 11); session 12's "
        "rim-band ring (vision.rimband) needs a shadow of 0.1 at least, flat coins "
        "measuring 0.08-0.09 pass its other cuts"
    ),
)
def test_a_coin_tilted_towards_the_camera_by_twice_its_view_angle_is_a_cleet() -> None:
    # Rig 50001 (tuning): the camera sees this point 20 degrees off vertical;
    # the coin leans 40 degrees straight towards the camera's floor point.
    # Its outline measures 0.98 and it is called tails.
    land = Landing(937.6, 1345.8, "tails", rotation_deg=81.1, tilt_deg=39.7, tilt_dir_deg=3.1)
    obs = _registered_landing(50001, land, 20)
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons


def test_a_round_coin_with_its_rim_band_on_the_far_side_and_a_shadow_is_leaning() -> None:
    # Rig 100002 (tuning; bench.vision_rim --seed 100, landing 15): a coin
    # leaning 40 degrees towards the camera, which sees it 17 degrees off
    # vertical. It looks round and its face reads (main called it heads);
    # its shadow reaches beyond a flat coin's by about 0.65, short of
    # ``far_shadow``, and its edge fit's centre lies about 0.6 mm beyond its
    # silhouette's, away from the camera: the rim band is on the far side.
    land = Landing(1487.0, 544.4, "heads", rotation_deg=11.2, tilt_deg=40.1, tilt_dir_deg=-115.7)
    obs = _registered_landing(100002, land, 20)
    assert any("rim band" in r and "far side" in r for r in obs.reasons), obs.reasons
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons
    # The same coin flat there is heads.
    flat = Landing(land.x_mm, land.y_mm, "heads", rotation_deg=land.rotation_deg)
    assert _registered_landing(100002, flat, 20).verdict == "heads"


def test_a_round_coin_with_its_rim_band_on_the_far_side_and_a_short_shadow_is_the_spotters() -> (
    None
):
    # Rig 120007 (tuning; bench.vision_rim --seed 120, landing 15): leaning
    # 45 degrees towards the camera, which sees it 24 degrees off vertical;
    # main called it tails. The rim band is on the far side (0.6 mm) but
    # its shadow reaches beyond a flat coin's by 0.34 only (``band_doubt``
    # to ``band_shadow``): flat or leaning is the spotter's call.
    land = Landing(871.9, 75.6, "tails", rotation_deg=60.3, tilt_deg=45.0, tilt_dir_deg=-179.1)
    obs = _registered_landing(120007, land, 20)
    assert obs.posture is Posture.INDETERMINATE and obs.verdict == "indeterminate", obs.reasons
    assert any("rim band" in r and "flat or leaning?" in r for r in obs.reasons), obs.reasons
