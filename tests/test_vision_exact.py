"""Speed-ups of the coin's judgement that must not change a single result:
the evidence PNG (the same pixels, stored), the silhouette mask, the second look,
the medians and the edge contour's percentile by one selection each."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import coinface, ranks, silhouette  # noqa: E402
from vision.coinface import (  # noqa: E402
    Ellipse,
    Outlines,
    _radius,
    _support,
    find_outline,
    refine,
)
from vision.locate import components  # noqa: E402
from vision.model import png  # noqa: E402
from vision.silhouette import LOG8, SAMPLE_FROM, coin_mask  # noqa: E402
from vision.smooth import Soft, soft  # noqa: E402


def test_the_evidence_png_is_stored_with_the_crops_exact_pixels() -> None:
    # A smooth crop, as compressible as a crop gets: stored, the file is at
    # least the raw size (compressing it took 14-17 ms for a leaning coin's crop).
    ramp = np.linspace(0, 255, 307, dtype=np.float32)
    crop = np.dstack([np.add.outer(ramp, ramp) / 2] * 3).astype(np.uint8)
    data = png(crop)
    back = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert np.array_equal(back, crop)
    assert len(data) >= crop.size


def test_the_judgement_keeps_the_evidence_picture_and_encodes_it_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The PNG is made when the evidence is saved, not inside the timed judgement.
    from vision.analyse import Analyser
    from vision.calibration import calibrate
    from vision.floor import FloorLayout
    from vision.synth.art import CoinDesign
    from vision.synth.scene import Landing, Rig, render

    layout = FloorLayout(180.0, 8.0, 30.0)
    rig = Rig.make(3, coin_px=80.0, layout=layout, tilt=40.0)
    empty = render(rig, None, None, seed=1)
    analyser = Analyser(calibrate(empty, layout))
    encoded: list[int] = []
    encode = cv2.imencode

    def counted(ext: str, image: np.ndarray, params: list[int]) -> tuple[bool, np.ndarray]:
        encoded.append(image.size)
        ok, data = encode(ext, image, params)
        return bool(ok), np.asarray(data)

    monkeypatch.setattr(cv2, "imencode", counted)
    for land in (Landing(90, 90, "heads"), Landing(90, 90, "heads", tilt_deg=60)):
        frame = render(rig, CoinDesign.make(1), land, seed=2)
        obs = analyser.analyse(frame, frame, empty)
        assert obs.found and obs.picture is not None and encoded == []
        back = cv2.imdecode(np.frombuffer(obs.crop, np.uint8), cv2.IMREAD_UNCHANGED)
        assert np.array_equal(back, obs.picture) and encoded == [obs.picture.size]
        encoded.clear()


def _mask_as_before(crop: np.ndarray, floor: np.ndarray, blur: float) -> np.ndarray:
    """``coin_mask`` as it was (np.log, np.median along an axis, np.linalg.norm),
    its medians over every other pixel of every other row on a plane of at
    least ``SAMPLE_FROM`` pixels (as ``coin_mask`` takes them now)."""
    h, w = floor.shape[:2]
    small = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
    if blur > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    empty = cv2.GaussianBlur(floor, (0, 0), 1.0)
    step = 2 if h * w >= SAMPLE_FROM else 1
    r = np.log(small.astype(np.float32) + 8) - np.log(empty.astype(np.float32) + 8)
    r -= np.median(r[::step, ::step].reshape(-1, 3), axis=0)
    b = r.mean(axis=2)
    q = np.linalg.norm(r - b[..., None], axis=2)
    noise_b = 1.4826 * float(np.median(np.abs(b)[::step, ::step])) + 0.01
    noise_q = float(np.median(q[::step, ::step])) + 0.01
    coin = (q > max(0.06, 3 * noise_q)) | (b > max(0.1, 3 * noise_b)) | (b < -0.55)
    mask = cv2.morphologyEx(coin.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))


def test_the_log_table_is_numpys_log_bit_for_bit() -> None:
    values = np.arange(256, dtype=np.uint8)
    for shift in range(17):  # every value in every SIMD lane
        x = np.roll(np.tile(values, 3), shift).reshape(-1, 3)[None]
        assert np.array_equal(cv2.LUT(x, LOG8), np.log(x.astype(np.float32) + 8))


def test_the_silhouette_mask_is_as_before_bit_for_bit() -> None:
    rng = np.random.default_rng(5)
    sampled = 0
    for trial in range(40):
        n, m = (int(v) for v in rng.integers(8, 320, 2))
        crop = rng.integers(0, 256, (n, m, 3), dtype=np.uint8)
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.5, 3)))
        step = 1 if trial % 2 else int(rng.integers(2, 5))  # the still's floor, or the preview's
        floor = cv2.resize(
            crop, (max(2, m // step), max(2, n // step)), interpolation=cv2.INTER_AREA
        )
        noise = rng.normal(0, 6, floor.shape)
        floor = np.clip(floor * rng.uniform(0.5, 1.1) + noise, 0, 255).astype(np.uint8)
        mid, radius = (floor.shape[1] // 2, floor.shape[0] // 2), max(1, n // (3 * step))
        cv2.circle(floor, mid, radius, (40, 90, 200), -1)  # a coin (the floor is the crop here)
        if trial % 3 == 0:  # a shadow
            floor[: floor.shape[0] // 2] = floor[: floor.shape[0] // 2] // 2
        blur = float(rng.choice([0.0, 0.2, 0.9, 2.0]))
        assert np.array_equal(coin_mask(crop, floor, blur), _mask_as_before(crop, floor, blur))
        sampled += floor.shape[0] * floor.shape[1] >= SAMPLE_FROM
    assert 3 <= sampled <= 37  # both kinds of plane were tried


def test_a_second_look_at_a_crop_reuses_the_first_and_finds_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An oval (a leaning coin) on a grainy floor: no clean circle, so both
    # looks fit the edge contour; the second must not fit it again.
    rng = np.random.default_rng(3)
    crop = np.clip(rng.normal(120, 8, (300, 300, 3)), 0, 255).astype(np.uint8)
    cv2.ellipse(crop, ((150, 150), (96, 60), 30), (60, 150, 210), -1)
    cv2.ellipse(crop, ((150, 150), (70, 40), 30), (30, 90, 160), 2)
    coarse, full = find_outline(crop, 96.0, coarse=True), find_outline(crop, 96.0)
    assert full is not None and full.ratio < 0.9
    calls = []
    real = coinface.fit_outline

    def counted(crop: np.ndarray, diameter: float, scale: int = 1) -> coinface.Ellipse | None:
        calls.append(diameter)
        return real(crop, diameter, scale)

    monkeypatch.setattr(coinface, "fit_outline", counted)
    outlines = Outlines(crop, 96.0)
    assert (outlines.find(coarse=True), outlines.find()) == (coarse, full)
    assert len(calls) == 1


def _refine_as_before(g: np.ndarray, guess: Ellipse, rays: int = 120, rounds: int = 2) -> Ellipse:
    """``refine`` as it was: the rays' angles, cosines and spans made on every round."""
    fit = guess
    for k in range(rounds):
        angles = np.linspace(0, 2 * np.pi, rays, endpoint=False)
        r0 = np.maximum(_radius(fit, angles), 3.0)
        span = np.linspace(0.7, 1.3, 37) if k == 0 else np.linspace(0.88, 1.12, 31)
        radii = np.outer(r0, span)
        xs = fit.x + np.cos(angles)[:, None] * radii
        ys = fit.y + np.sin(angles)[:, None] * radii
        samples = cv2.remap(
            g, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )  # fmt: skip
        step = np.abs(np.diff(samples, axis=1))
        strong_steps = step >= 0.6 * step.max(axis=1, keepdims=True)
        best = step.shape[1] - 1 - np.argmax(strong_steps[:, ::-1], axis=1)
        strong = step[np.arange(rays), best] > 0.4 * np.median(step.max(axis=1))
        r = (radii[np.arange(rays), best] + radii[np.arange(rays), best + 1]) / 2
        pts = np.column_stack([fit.x + r * np.cos(angles), fit.y + r * np.sin(angles)])[strong]
        if len(pts) < 20:
            return fit
        fit = _robust_fit_as_before(pts) or fit
    return fit


def _robust_fit_as_before(pts: np.ndarray) -> Ellipse | None:
    """``_robust_fit`` as it was: three fits, whether the first two dropped points or not."""
    for _ in range(2):
        (x, y), (a, b), angle = cv2.fitEllipse(pts.astype(np.float32))
        e = Ellipse(x, y, max(a, b), min(a, b), angle if a >= b else angle + 90)
        d = np.hypot(pts[:, 0] - x, pts[:, 1] - y)
        resid = np.abs(d - _radius(e, np.arctan2(pts[:, 1] - y, pts[:, 0] - x)))
        keep = resid < max(1.5, 2.5 * float(np.median(resid)))
        if keep.sum() < 20:
            return None
        pts = pts[keep]
    (x, y), (a, b), angle = cv2.fitEllipse(pts.astype(np.float32))
    if not np.isfinite([x, y, a, b, angle]).all():
        return None
    return Ellipse(x, y, max(a, b), min(a, b), angle if a >= b else angle + 90)


def _support_as_before(g: np.ndarray, e: Ellipse, n: int = 90) -> float:
    angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
    r = _radius(e, angles)
    inner, outer = np.maximum(r - 2.5, 0.5), r + 2.5
    xi, yi = e.x + np.cos(angles) * inner, e.y + np.sin(angles) * inner
    xo, yo = e.x + np.cos(angles) * outer, e.y + np.sin(angles) * outer
    a = cv2.remap(g, xi.astype(np.float32)[None], yi.astype(np.float32)[None], cv2.INTER_LINEAR)
    b = cv2.remap(g, xo.astype(np.float32)[None], yo.astype(np.float32)[None], cv2.INTER_LINEAR)
    return float(np.median(np.abs(a - b)))


def test_the_ray_refinement_and_support_are_as_before_bit_for_bit() -> None:
    # The rays' directions, cosines and sines are made once, not per call.
    rng = np.random.default_rng(11)
    moved = 0
    for trial in range(12):
        crop = np.clip(rng.normal(120, 10, (300, 300, 3)), 0, 255).astype(np.uint8)
        axes = (int(rng.integers(60, 100)), int(rng.integers(30, 100)))
        cv2.ellipse(crop, ((150, 150), axes, float(rng.uniform(0, 180))), (60, 150, 210), -1)
        g = soft(crop)
        for guess in (
            Ellipse(150 + float(rng.normal(0, 4)), 150.0, 96.0, 96.0, 0.0),
            Ellipse(148.0, 153.0, 100.0, 70.0, float(rng.uniform(0, 180))),
        ):
            rays = (120, 90, 61)[trial % 3]
            fit = refine(g, guess, rays)
            assert fit == _refine_as_before(g, guess, rays)
            assert _support(g, fit) == _support_as_before(g, fit)
            moved += fit != guess
    assert moved >= 20  # the rays found the edge, round after round


def _placed(a: np.ndarray, offset: int) -> np.ndarray:
    """A copy of ``a`` that starts ``offset`` bytes past a 64-byte boundary."""
    buf = np.empty(a.nbytes + 128, np.uint8)
    start = (-buf.ctypes.data) % 64 + offset
    out = buf[start : start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def test_the_gradient_magnitude_is_the_same_wherever_its_buffers_lie() -> None:
    # cv2.magnitude gave about 1 % of a crop's pixels an ulp apart with its
    # inputs at other alignments, so one crop could be judged two ways.
    rng = np.random.default_rng(9)
    crop = cv2.GaussianBlur(rng.integers(0, 256, (307, 307, 3), dtype=np.uint8), (0, 0), 1.5)
    g = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (0, 0), 1.2)
    first = coinface.gradient(g)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)
    assert np.array_equal(first, np.hypot(gx, gy))
    for offset in (0, 4, 8, 16, 32, 48):
        assert np.array_equal(coinface.gradient(_placed(g, offset)), first)
    f32 = np.asarray(g, np.float32)
    assert np.array_equal(coinface.gradient(_placed(f32, 4)), coinface.gradient(_placed(f32, 32)))


def test_the_median_is_numpys_bit_for_bit() -> None:
    # One selection instead of np.median's two and its reduction: the same
    # value and type, odd and even sizes, strided planes, ties and -0.0.
    rng = np.random.default_rng(21)
    for trial in range(400):
        shape = (int(rng.integers(1, 300)), int(rng.integers(1, 4)))
        a: np.ndarray = rng.normal(0, 1, shape)
        if trial % 2:
            a = a.astype(np.float32)
        if trial % 3 == 0:
            a = np.round(a, 1)  # ties, and -0.0 beside 0.0
        if trial % 4 == 0:
            a = a[::2]
        got, want = ranks.median(a), np.median(a)
        assert type(got) is type(want) and got.tobytes() == want.tobytes()
    assert ranks.median(np.array([-0.0, -0.0], np.float32)).tobytes() == (
        np.median(np.array([-0.0, -0.0], np.float32)).tobytes()
    )
    for lower, upper in ((-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), (-1.0, 0.0), (-0.0, 2.0)):
        pair = np.array([upper, lower, upper, 5.0, -5.0, lower, 7.0, -7.0], np.float32)
        assert ranks.median(pair).tobytes() == np.median(pair).tobytes()


def test_the_median_of_many_values_is_numpys_bit_for_bit() -> None:
    # The shadow's exposure median: ~18,000 log ratios, odd and even counts
    # (the lower middle value of an even count as the largest below the upper).
    rng = np.random.default_rng(23)
    for n in (17_992, 17_993, 5_929, 5_930, 2, 3):
        a = np.float32(0.003) + rng.gamma(0.5, 0.01, n).astype(np.float32)
        for b in (a, -a, np.round(a, 2), np.repeat(a[: n // 4 + 1], 4)[:n]):
            got, want = ranks.median(b), np.median(b)
            assert type(got) is type(want) and got.tobytes() == want.tobytes()
    # Shuffled, where the selection at the upper middle leaves the lower
    # middle value elsewhere below it (about 1 in 50 of these).
    for _ in range(300):
        c = rng.permutation(1000).astype(np.float32)
        assert ranks.median(c) == np.median(c) == np.float32(499.5)


def test_above_the_percentile_is_numpys_bit_for_bit() -> None:
    # The edge contour's busy pixels, on gradient magnitudes as it makes them
    # and on arbitrary values.
    rng = np.random.default_rng(22)
    for trial in range(60):
        n = int(rng.integers(20, 320))
        crop = rng.integers(0, 256, (n, n, 3), dtype=np.uint8)
        g = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (0, 0), 1.2)
        values = coinface.gradient(g) if trial % 2 else rng.gamma(2.0, size=(n, 7))
        for pct in (90.0, 80.0, 95.0):
            want = values > np.percentile(values, pct)
            assert np.array_equal(ranks.above(values, pct), want)


def _face_feature_as_before(crop: np.ndarray, outline: Ellipse) -> np.ndarray:
    """``face_feature`` as it was: the gradient of the whole crop."""
    g = cv2.GaussianBlur(
        cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (0, 0), max(0.8, outline.major / 120)
    ).astype(np.float32)
    polar = cv2.warpPolar(
        coinface.gradient(g),
        (coinface.POLAR_RADII, coinface.POLAR_ANGLES),
        (outline.x, outline.y),
        0.9 * outline.major / 2,
        cv2.INTER_LINEAR + cv2.WARP_POLAR_LINEAR + cv2.WARP_FILL_OUTLIERS,
    )
    p = np.asarray(polar, np.float64)[:, int(coinface.INNER * coinface.POLAR_RADII) :]
    p = np.log1p(np.clip(np.nan_to_num(p), 0, None))
    p -= p.mean(axis=0)
    norm = float(np.linalg.norm(p))
    return np.asarray(np.fft.fft(p / norm if norm > 0 else p, axis=0), np.complex128)


def test_the_face_is_read_from_its_discs_gradient_alone_bit_for_bit() -> None:
    # Only the face's disc (and a margin) is smoothed and differentiated:
    # the same feature as from the whole crop's gradient, wherever the
    # outline lies (the middle, a corner, past the crop's edge, off it),
    # however large (a larger coin is smoothed more), at any sub-pixel place.
    rng = np.random.default_rng(23)
    for trial in range(150):
        n, m = (int(v) for v in rng.integers(60, 320, 2))
        crop = cv2.GaussianBlur(rng.integers(0, 256, (n, m, 3), dtype=np.uint8), (0, 0), 1.0)
        d = float(rng.uniform(30, 260))
        x, y = (float(v) for v in rng.uniform(-0.3, 1.3, 2) * (m, n))
        if trial % 3 == 0:
            x, y = (float(v) for v in rng.uniform(0.3, 0.7, 2) * (m, n))
        e = Ellipse(x, y, d, d * float(rng.uniform(0.5, 1)), float(rng.uniform(0, 180)))
        got = coinface.face_feature(crop, e)
        assert got.tobytes() == _face_feature_as_before(crop, e).tobytes(), (trial, e)


def test_components_with_16_bit_labels_are_the_32_bit_ones() -> None:
    # Random masks, some closed into blobs, some a speckle of thousands of
    # components; and one with more components than 16 bits can label.
    rng = np.random.default_rng(24)
    for trial in range(200):
        n, m = (int(v) for v in rng.integers(2, 330, 2))
        mask = (rng.random((n, m)) < rng.uniform(0.01, 0.9)).astype(np.uint8)
        if trial % 2:
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        want = cv2.connectedComponentsWithStats(mask)
        got = components(mask)
        assert got[0] == want[0]
        assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])
        assert got[3].tobytes() == want[3].tobytes()
    speckle = np.zeros((600, 600), np.uint8)
    speckle[::2, ::2] = 1
    count, labels, _, _ = components(speckle)
    assert count == 300 * 300 + 1 and labels[598, 598] == count - 1


def test_the_log_ratios_median_by_ranks_is_the_float_planes_bit_for_bit() -> None:
    # Odd and even counts, planes sampled (>= SAMPLE_FROM) or whole, few
    # distinct values (ties) or many, and a plane all one value.
    rng = np.random.default_rng(25)
    for trial in range(120):
        n, m = (int(v) for v in rng.integers(1, 220, 2))
        spread = int(rng.choice([1, 4, 60, 256]))
        a = rng.integers(0, spread, (n, m), dtype=np.uint8)
        b = rng.integers(0, spread, (n, m), dtype=np.uint8) + np.uint8(trial % 7)
        plane = np.asarray(cv2.LUT(a, LOG8), np.float32) - cv2.LUT(b, LOG8)
        got = silhouette._ratio_median(a, b)
        want = silhouette._median(plane)
        assert type(got) is type(want) and got.tobytes() == want.tobytes(), trial


def test_the_best_similarity_over_stacked_references_is_each_ones_bit_for_bit() -> None:
    # Faces read from random crops against 1-9 references at once: the
    # same best score as one reference at a time.
    rng = np.random.default_rng(26)

    def feature() -> np.ndarray:
        crop = cv2.GaussianBlur(rng.integers(0, 256, (116, 116, 3), dtype=np.uint8), (0, 0), 1.2)
        d = float(rng.uniform(80, 100))
        return coinface.face_feature(crop, Ellipse(58.0, 58.0, d, d * 0.97, 10.0))

    for trial in range(40):
        refs = [feature() for _ in range(int(rng.integers(1, 10)))]
        a = feature() if trial % 4 else refs[0]
        want = max(coinface.similarity(a, b) for b in refs)
        assert coinface.best_similarity(a, np.conj(np.stack(refs))) == want


def test_the_kth_value_by_unit_buckets_is_the_partitions() -> None:
    # Values with many ties (whole numbers, square roots of whole numbers),
    # spread wide or packed into one bucket, float32 and float64, every k
    # near the ends, the middle and a bucket's edges; and values the buckets
    # do not take (negative, past 65,535, too few), which select as before.
    rng = np.random.default_rng(27)
    for trial in range(60):
        n = int(rng.integers(2048, 30_000)) if trial % 6 else int(rng.integers(1, 2048))
        kind = trial % 5
        if kind == 0:
            v = np.sqrt(rng.integers(0, 2_000_000, n).astype(np.float32))
        elif kind == 1:
            v = rng.integers(0, 40, n).astype(np.float64)
        elif kind == 2:
            v = rng.uniform(3.0, 3.999, n).astype(np.float32)
        elif kind == 3:
            v = rng.normal(0, 5, n)
        else:
            v = rng.gamma(2.0, 40_000, n)
        ks = {0, n - 1, n // 2, int(0.9 * (n - 1)), *(int(k) for k in rng.integers(0, n, 5))}
        for k in ks:
            got, want = ranks.kth(v, k), np.partition(v, k)[k]
            assert type(got) is type(want) and got == want, (trial, k)


def test_the_crop_smoothed_where_the_rays_read_is_the_whole_smoothed_crop() -> None:
    # One Soft per crop, read by fits in turn (growing what it has made):
    # the same refinements and supports as the whole crop smoothed, for
    # fits in the middle, at the edges and past them, large and small.
    rng = np.random.default_rng(28)
    for trial in range(30):
        n, m = (int(v) for v in rng.integers(60, 320, 2))
        crop = np.clip(rng.normal(120, 10, (n, m, 3)), 0, 255).astype(np.uint8)
        centre = (float(rng.uniform(0.2, 0.8) * m), float(rng.uniform(0.2, 0.8) * n))
        axes = (float(rng.uniform(20, 100)), float(rng.uniform(15, 100)))
        cv2.ellipse(crop, (centre, axes, float(rng.uniform(0, 180))), (60, 150, 210), -1)
        whole, lazy = soft(crop), Soft(crop)
        for _ in range(4):
            x, y = (float(v) for v in rng.uniform(-0.2, 1.2, 2) * (m, n))
            if rng.random() < 0.5:
                x, y = centre[0] + float(rng.normal(0, 5)), centre[1] + float(rng.normal(0, 5))
            d = float(rng.uniform(20, 140))
            guess = Ellipse(x, y, d, d * float(rng.uniform(0.5, 1)), float(rng.uniform(0, 180)))
            fit = refine(lazy, guess)
            assert fit == refine(whole, guess), (trial, guess)
            assert _support(lazy, fit) == _support(whole, fit), (trial, fit)


def test_the_hull_of_each_rows_ends_is_the_hull_of_every_point() -> None:
    # Random speckle, ellipses (filled and rings), thinned polygons and full
    # rows: the convex hull of the rows' first and last points (all of the
    # first and last rows) is cv2.convexHull of every point, bit for bit.
    rng = np.random.default_rng(7)
    for it in range(3000):
        h, w = (int(v) for v in rng.integers(1, 80, 2))
        m = np.zeros((h, w), np.uint8)
        if it % 3 == 0:
            m = (rng.random((h, w)) < rng.random() * 0.3).astype(np.uint8)
        elif it % 3 == 1:
            centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
            axes = (float(rng.uniform(1, w)), float(rng.uniform(1, h)))
            box = (centre, axes, float(rng.uniform(0, 180)))
            cv2.ellipse(m, box, 1, int(rng.integers(-1, 3)))
        else:
            corners = rng.integers(0, [w, h], (int(rng.integers(3, 8)), 2)).astype(np.int32)
            cv2.fillPoly(m, [corners], 1)
            m &= (rng.random((h, w)) < 0.7).astype(np.uint8)
            m[int(rng.integers(0, h)), :] = rng.random(w) < 0.5
        ys, xs = np.nonzero(m)
        got = silhouette._hull_candidates(m > 0)
        if len(xs) < 6:
            assert got is None
            continue
        assert got is not None
        every = cv2.convexHull(np.column_stack([xs, ys]).astype(np.float32))
        assert np.array_equal(cv2.convexHull(got), every)
