"""The coin's outline on drawn crops: the edge fit beside a line, the
segmentation against the empty floor, and a coin too near the line to call."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import coinface, silhouette, smooth  # noqa: E402
from vision.analyse import MASK_STEP, STILL_STEP, Analyser, Settings  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.coinface import (  # noqa: E402
    Ellipse,
    face_feature,
    find_outline,
)
from vision.model import Frame, Observation, Posture  # noqa: E402
from vision.silhouette import (  # noqa: E402
    SAMPLE_FROM,
    changed_sliver,
    coin_mask,
    segment_outline,
)
from vision.synth.art import CoinDesign  # noqa: E402
from vision.synth.scene import Landing, Rig, render, still_window  # noqa: E402

N = 300
D = 96.0


def _floor(seed: int) -> np.ndarray:
    """A tinted, grainy floor, BGR."""
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 12, (N, N)).astype(np.float32), (0, 0), 3)
    base = np.dstack([110 + grain, 120 + grain, 100 + grain])
    return np.asarray(np.clip(base, 0, 255), np.uint8)


def _coarse(image: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.resize(image, (N // MASK_STEP, N // MASK_STEP), cv2.INTER_AREA))


def test_a_flat_coin_touching_a_white_line_is_measured_round() -> None:
    crop = _floor(1)
    crop[:, 150 + 48 + 2 :] = (228, 232, 235)  # the line, 2 px from the rim
    cv2.circle(crop, (150, 150), 48, (150, 190, 205), -1, cv2.LINE_AA)
    cv2.circle(crop, (150, 150), 42, (110, 140, 150), 3, cv2.LINE_AA)  # the relief's ring
    found = find_outline(crop, D, coarse=True)
    assert found is not None
    assert found.ratio >= 0.95
    # The line's edge, outermost, still pulls that side out by a few pixels.
    assert abs(found.major - D) < 0.08 * D
    assert np.hypot(found.x - 150, found.y - 150) < 2


def test_a_leaning_coin_is_told_from_its_shadow_and_a_seam() -> None:
    empty = _floor(2)
    empty[148:152, :] = (60, 66, 55)  # a plank's seam through the coin
    crop = empty.copy()
    shadow = np.zeros((N, N), np.uint8)
    cv2.ellipse(shadow, (185, 165), (50, 30), 20, 0, 360, 255, -1)
    dim = cv2.GaussianBlur(shadow.astype(np.float32) / 255, (0, 0), 4)[..., None]
    crop = (crop * (1 - 0.3 * dim)).astype(np.uint8)
    cv2.ellipse(crop, (150, 150), (48, 18), 20, 0, 360, (150, 190, 205), -1, cv2.LINE_AA)
    found = segment_outline(crop, _coarse(empty), D, blur=0.5)
    assert found is not None
    assert found.ratio <= 0.6  # leaning: 36 / 96 across
    assert abs(found.major - D) < 0.15 * D
    assert np.hypot(found.x - 150, found.y - 150) < 6


def test_a_shadow_alone_is_not_a_coin() -> None:
    empty = _floor(3)
    crop = empty.copy()
    crop[100:200, 100:200] = (crop[100:200, 100:200] * 0.65).astype(np.uint8)
    assert int(coin_mask(crop, _coarse(empty), 0.5).sum()) == 0


def test_a_coin_too_near_the_line_is_the_spotters_call() -> None:
    rig = Rig.make(21, coin_px=80.0)
    empty = render(rig, None, None, seed=1)
    # Within 30 mm of the in/out boundary the camera does not call in or out.
    analyser = Analyser(calibrate(empty, rig.layout), settings=Settings(tolerance_mm=30.0))
    design = CoinDesign.make(5)
    land = Landing(rig.layout.side_mm + 6.0, 700.0, "heads")  # its rim over the line
    preview = render(rig, design, land, seed=2)
    window = still_window(rig, land, np.random.default_rng(3))
    still = render(rig, design, land, seed=3, still=True, window=window)
    obs = analyser.analyse(preview, still, empty)
    assert obs.found
    assert obs.zone is None
    assert obs.verdict == "indeterminate"
    assert any("too close to call" in r for r in obs.reasons)


def test_a_face_outlined_past_the_crops_corner_reads_no_uninitialised_memory() -> None:
    # The polar warp of a face whose outline runs past the crop (the crop's
    # corner, or beyond) has samples with no source pixel: they must read as
    # nothing, not as whatever memory the warp's output was given (NaN made
    # NumPy warn of an invalid cast, and a finite leftover would count as
    # the design).
    crop = np.asarray(np.random.default_rng(0).integers(0, 255, (154, 154, 3)), np.uint8)
    outlines = [
        Ellipse(x, y, d, d, 0.0)
        for x, y in ((0.0, 0.0), (153.0, 153.0), (200.0, 0.0), (1000.0, 1000.0))
        for d in (30.0, 96.0, 150.0)
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = [face_feature(crop, e) for e in outlines]
        again = [face_feature(crop, e) for e in reversed(outlines)][::-1]
    for e, a, b in zip(outlines, first, again, strict=True):
        assert np.isfinite(a).all(), e
        assert np.allclose(a, b, rtol=0, atol=1e-6), e


def _leaning_at_700_800(tilt_deg: float) -> tuple[Analyser, Frame, Frame, Frame]:
    """Rig 1 (80 px coins) calibrated from its empty floor; a coin leaning
    ``tilt_deg`` at (700, 800) mm: the analyser, the still, the empty floor's
    preview and its still through the same window."""
    rig = Rig.make(1, coin_px=80.0)
    empty = render(rig, None, None, seed=1)
    analyser = Analyser(calibrate(empty, rig.layout), settings=Settings())
    land = Landing(700.0, 800.0, "heads", rotation_deg=33.0, tilt_deg=tilt_deg, tilt_dir_deg=20.0)
    window = still_window(rig, land, np.random.default_rng(2))
    still = render(rig, CoinDesign.make(1), land, seed=3, still=True, window=window)
    empty_still = render(rig, None, None, seed=4, still=True, window=window)
    return analyser, still, empty, empty_still


def test_the_silhouettes_medians_from_a_quarter_of_the_pixels_change_almost_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A coin leaning 60 degrees against the empty floor's still, at half the
    # crop's resolution as the analyser takes it (154 px: its medians are
    # taken from every other pixel of every other row): the mask and its
    # outline as with all pixels.
    analyser, still, _, empty_still = _leaning_at_700_800(60.0)
    s = analyser.settings
    half = s.extent * s.coin_diameter_mm
    crop = analyser.crop(still, 700.0, 800.0, half)
    floor = analyser.crop(empty_still, 700.0, 800.0, half, STILL_STEP)
    assert floor.shape[0] * floor.shape[1] >= SAMPLE_FROM
    sampled = coin_mask(crop, floor, 0.0, despeckle=False)
    shape = segment_outline(crop, floor, s.crop_px, min_fill=s.min_fill, despeckle=False)
    monkeypatch.setattr(silhouette, "SAMPLE_FROM", 10**12)
    whole = coin_mask(crop, floor, 0.0, despeckle=False)
    every = segment_outline(crop, floor, s.crop_px, min_fill=s.min_fill, despeckle=False)
    assert 0.03 * whole.size < int(whole.sum()) < 0.3 * whole.size  # the coin, not noise
    assert int(np.count_nonzero(sampled != whole)) <= 0.002 * whole.size
    assert shape is not None and every is not None
    assert shape.ratio < 0.85  # leaning
    assert abs(shape.ratio - every.ratio) < 0.005
    assert np.hypot(shape.x - every.x, shape.y - every.y) < 0.5


def _circle_searches(
    monkeypatch: pytest.MonkeyPatch, analyser: Analyser, *frames: object
) -> tuple[list[int], object]:
    scales: list[int] = []
    real = coinface.hough_circle

    def counted(crop: np.ndarray, diameter: float, scale: int) -> Ellipse | None:
        scales.append(scale)
        return real(crop, diameter, scale)

    monkeypatch.setattr(coinface, "hough_circle", counted)
    obs = analyser._judge(*frames)  # type: ignore[arg-type]
    return scales, obs


def test_a_leaning_coin_is_searched_for_circles_once_and_no_coin_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    analyser, still, empty, empty_still = _leaning_at_700_800(45.0)
    # Leaning: an outline at half resolution, not round; it is not searched again.
    scales, obs = _circle_searches(
        monkeypatch, analyser, still, 700.0, 800.0, [], empty, empty_still
    )
    assert scales == [2]
    assert isinstance(obs, Observation) and obs.posture is Posture.LEANING
    # Nothing there at half resolution: looked at again at full resolution.
    # (A plain grey still: a textured floor may hold a circle-like patch.)
    blank = replace(empty_still, image=np.full_like(empty_still.image, 128))
    scales, obs = _circle_searches(monkeypatch, analyser, blank, 700.0, 800.0, [], empty, blank)
    assert scales == [2, 1]
    assert obs is None


def test_the_edge_contour_is_traced_at_half_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    # An oval (a leaning coin) on a grainy floor: its contour traced from a
    # quarter of the pixels is a guess as good as the full resolution's (the
    # coarse pixels' centres mapped back), and the rays refine either alike.
    rng = np.random.default_rng(3)
    crop = np.clip(rng.normal(120, 8, (307, 307, 3)), 0, 255).astype(np.uint8)
    cv2.ellipse(crop, ((151, 148), (96, 64), 30), (60, 150, 210), -1)
    cv2.ellipse(crop, ((151, 148), (70, 44), 30), (30, 90, 160), 2)
    full, half = coinface.fit_outline(crop, D), coinface.fit_outline(crop, D, 2)
    assert full is not None and half is not None
    for guess in (full, half):
        assert np.hypot(guess.x - 151, guess.y - 148) < 5 and abs(guess.major - 96) < 15
    g = smooth.soft(crop)
    a, b = coinface.refine(g, full), coinface.refine(g, half)
    assert np.hypot(a.x - b.x, a.y - b.y) < 0.2 and abs(a.ratio - b.ratio) < 0.005
    assert abs(b.ratio - 64 / 96) < 0.03
    scales: list[int] = []
    real = coinface.fit_outline

    def counted(crop: np.ndarray, diameter: float, scale: int = 1) -> Ellipse | None:
        scales.append(scale)
        return real(crop, diameter, scale)

    monkeypatch.setattr(coinface, "fit_outline", counted)
    assert coinface.Outlines(crop, D).contour() is not None
    assert scales == [2]


def test_the_silhouette_against_the_empty_still_is_taken_at_half_resolution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A quarter of the pixels to warp, compare and label (the crop averaged
    # over 2x2 blocks, by an exact factor: OpenCV's fast path); the outline
    # as the full resolution's, near enough for the posture.
    import vision.halves

    analyser, still, empty, empty_still = _leaning_at_700_800(45.0)
    sizes: list[tuple[int, int]] = []
    real = silhouette.segment_outline
    segmented = silhouette.segment_outlines

    def spied(crop: np.ndarray, floor: np.ndarray, *args: object, **kw: object) -> object:
        sizes.append((crop.shape[1], floor.shape[1]))
        return segmented(crop, floor, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.halves, "segment_outlines", spied)
    obs = analyser._judge(still, 700.0, 800.0, [], empty, empty_still)
    assert sizes == [(154, 154)]
    assert obs is not None and obs.posture is Posture.LEANING
    s = analyser.settings
    half = s.extent * s.coin_diameter_mm
    crop = analyser.crop(still, 700.0, 800.0, half)
    floor = analyser.crop(empty_still, 700.0, 800.0, half)
    full = real(crop, floor, s.crop_px, despeckle=False)
    assert full is not None and obs.axis_ratio is not None
    assert abs(obs.axis_ratio - full.ratio) < 0.01
    ppm = s.crop_px / s.coin_diameter_mm
    x, y = 700.0 - half + full.x / ppm, 800.0 - half + full.y / ppm
    x, y = analyser._under(x, y, obs.axis_ratio)  # (leaning: the point under its middle)
    assert obs.x_mm is not None and obs.y_mm is not None
    assert np.hypot(obs.x_mm - x, obs.y_mm - y) < 0.1
    # (Despeckled, the full resolution's outline lies a pixel down and right:
    # the 2x2 opening's anchor.)
    opened = real(crop, floor, s.crop_px)
    assert opened is not None and 0.8 < opened.x - full.x < 1.2 and 0.8 < opened.y - full.y < 1.2


def test_a_rim_one_pixel_wide_is_kept_unless_despeckled() -> None:
    # A silver coin on a grey floor changes along its rim only: at half
    # resolution a ring a pixel wide, which a 2 px opening takes off.
    floor = _floor(4)
    crop = floor.copy()
    cv2.circle(crop, (150, 150), 48, (200, 60, 60), 1)
    ring = np.zeros(floor.shape[:2], np.uint8)
    cv2.circle(ring, (150, 150), 48, 1, 1)
    kept = coin_mask(crop, floor, 0.0, despeckle=False)
    opened = coin_mask(crop, floor, 0.0)
    assert int(kept[ring > 0].sum()) > 0.9 * int(ring.sum())
    assert int(opened[ring > 0].sum()) < 0.1 * int(ring.sum())


def _searched(monkeypatch: pytest.MonkeyPatch, seed: int, places: list[tuple[float, float]],
              within_px: float) -> list[tuple[int, ...]]:  # fmt: skip
    """The shapes of the images the Hough search read while finding a
    coin drawn at each of ``places`` (crop pixels) on a fresh blurred floor
    per place, each found within ``within_px`` of where it was drawn."""
    seen: list[tuple[int, ...]] = []
    real = cv2.HoughCircles

    def spied(image: np.ndarray, *args: object, **kw: object) -> object:
        seen.append(image.shape)
        return real(image, *args, **kw)

    monkeypatch.setattr(cv2, "HoughCircles", spied)
    rng = np.random.default_rng(seed)
    for n, (x, y) in enumerate(places):
        if n % 3 == 0:  # a new floor every three coins, as the tests drew them
            noise = rng.integers(60, 200, (307, 307, 3), dtype=np.uint8)
            floor = cv2.GaussianBlur(noise, (0, 0), 2)
        crop = floor.copy()
        cv2.circle(crop, (round(16 * x), round(16 * y)), 48 * 16, (235, 230, 225), -1, 16, 4)
        found = coinface.hough_circle(crop, D, 2)
        assert found is not None
        assert np.hypot(found.x - x, found.y - y) < within_px and abs(found.major - D) < 3
    return seen


def test_a_landings_circle_is_searched_for_only_within_its_reach_of_the_middle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The Hough search's time grows with the floor's edges it reads: at half
    # resolution it reads HOUGH_REACH diameters each side of the middle, and
    # a coin up to about half a diameter off the middle is found there.
    places = [(153 + off * D * (-1) ** trial, 153 + off * 0.4 * D)
              for trial in range(4) for off in (0.0, 0.2, 0.4)]  # fmt: skip
    seen = _searched(monkeypatch, 31, places, 1.5)
    assert seen and all(abs(max(shape) - coinface.HOUGH_REACH * D) < 1.5 for shape in seen)


def test_a_landings_circle_search_reads_one_diameter_each_side_of_the_middle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Session 23: the search reads 1.0 diameters each side (96 px at half
    # resolution; 110 at 1.15): a coin up to half a diameter off the middle,
    # the farthest a landing's circle was found on tuning rigs, has its rim
    # inside, and one the border cuts (0.55 off) is still found.
    places = [(153 + off * D * (-1) ** trial, 153 - off * 0.4 * D * (-1) ** (trial // 2))
              for trial in range(4) for off in (0.3, 0.45, 0.55)]  # fmt: skip
    seen = _searched(monkeypatch, 32, places, 1.6)
    assert len(seen) == 12 and all(max(shape) <= 97 for shape in seen)


def test_a_solid_coin_long_narrow_change_is_a_sliver_and_nothing_else_is() -> None:
    rng = np.random.default_rng(5)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (154, 154)).astype(np.float32), (0, 0), 3)
    floor = np.asarray(np.clip(np.dstack([130 + grain] * 3), 0, 255), np.uint8)
    bounds = Settings().sliver  # (a coin is 48 px across here: half the crop's resolution)

    def dimmed(draw: Callable[[np.ndarray], None], exposure: float = 1.0) -> np.ndarray:
        """The floor, ``exposure`` times as bright, dimmed by 30 % where ``draw`` paints."""
        shade = np.zeros(floor.shape[:2], np.float32)
        draw(shade)
        return np.asarray(
            np.clip(floor * exposure * (1 - 0.3 * shade[..., None]), 0, 255), np.uint8
        )

    def box(length: float, width: float) -> Callable[[np.ndarray], None]:
        points = cv2.boxPoints(((77.0, 77.0), (length, width), 30.0)).astype(np.int32)
        return lambda shade: cv2.fillPoly(shade, [points], 1.0)

    # A grey coin on edge and its shadow beside it, under a brighter exposure.
    found = changed_sliver(dimmed(box(54.0, 20.0), 1.1), floor, 48.0, bounds)
    assert found is not None
    assert abs(found.major - 54) < 3 and abs(found.minor - 20) < 3, found
    assert abs(found.angle_deg % 180 - 30) < 5 and np.hypot(found.x - 77, found.y - 77) < 2
    # A flat coin as dark: a diameter wide every way.
    disc = dimmed(lambda shade: cv2.circle(shade, (77, 77), 24, 1.0, -1))
    assert changed_sliver(disc, floor, 48.0, bounds) is None

    # A flat coin's thin shadow, a coin long but an arc: not solid.
    def arc(shade: np.ndarray) -> None:
        cv2.ellipse(shade, (77, 77), (29, 29), 0, 20, 160, 1.0, 5)

    assert changed_sliver(dimmed(arc), floor, 48.0, bounds) is None
    # Twice a coin long, or nothing changed: no coin.
    assert changed_sliver(dimmed(box(110.0, 20.0)), floor, 48.0, bounds) is None
    assert changed_sliver(floor.copy(), floor, 48.0, bounds) is None
