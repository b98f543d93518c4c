"""The fitting steps done for many candidates in one numpy pass give each
candidate exactly what it would get alone (the mat analysis's speed rests
on batching them; bench.mat_identity checks whole frames)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.games.tiddlywinks.geometry import Colour
from vision.mat import fit
from vision.mat.fit import RAYS, _faces, _strength, edges, fixed_all, kasa_all
from vision.mat.pot import polygon_mask
from vision.mat.segment import Candidate


def _per_depth(raw: np.ndarray, inner: np.ndarray) -> np.ndarray:
    face = np.empty((len(raw), 3), np.float32)
    for i, k in enumerate(inner):
        face[i] = np.median(raw[i, :, :k].astype(np.float32).reshape(-1, 3), axis=0)
    return face


def test_faces_in_one_call_are_each_candidates_own_median() -> None:
    rng = np.random.default_rng(3)
    for trial in range(30):
        n, steps = int(rng.integers(1, 12)), int(rng.integers(8, 40))
        raw = rng.integers(0, 256, (n, RAYS, steps, 3)).astype(np.uint8)
        if trial % 2:  # few grey levels: ties, and values at the padding's 0 and 255
            raw = (raw // 128 * 255).astype(np.uint8)
        inner = rng.integers(1, steps, n)
        got = _faces(raw, inner)
        assert got.dtype == np.float32
        assert np.array_equal(got, _per_depth(raw, inner))


def test_edges_of_the_rays_sampled_in_two_parts_are_those_of_one_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:func:`edges` samples the rest of a ray only where its first part
    (:data:`fit.HEAD` of the steps) has no edge: the points are those of
    sampling every step of every ray (HEAD 1), to the bit."""
    rng = np.random.default_rng(5)
    image = np.full((160, 220, 3), (120, 130, 125), np.uint8)
    colours = [(200, 60, 40), (40, 50, 210), (40, 190, 60), (30, 200, 220)]
    cands = []
    for i in range(9):
        u, v, r = rng.uniform(30, 190), rng.uniform(30, 130), rng.uniform(6, 22)
        cv2.circle(image, (int(u), int(v)), int(r), colours[i % 4], -1, cv2.LINE_AA)
        cands.append(Candidate(Colour.BLUE, u, v, float(rng.uniform(1, r))))
    image = np.asarray(cv2.GaussianBlur(image, (5, 5), 1.2), np.uint8)
    blocked = np.zeros(image.shape[:2], np.uint8)
    blocked[:20, :60] = 1  # a pot in one corner
    monkeypatch.setattr(fit, "HEAD", 1.0)
    whole = edges(image, cands, 30.0, blocked)
    assert whole.ok.sum() > RAYS  # the rays find edges
    for head in (0.1, 0.3, 0.6, 0.9):
        monkeypatch.setattr(fit, "HEAD", head)
        part = edges(image, cands, 30.0, blocked)
        assert np.array_equal(part.points, whole.points)
        assert np.array_equal(part.ok, whole.ok)


def test_fixed_circles_of_many_rows_are_each_rows_own() -> None:
    rng = np.random.default_rng(4)
    ang = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    centre = rng.uniform(0, 100, (7, 2))
    radius = rng.choice([8.0, 11.0], 7)
    pts = centre[:, None] + (radius[:, None, None] + rng.normal(0, 0.1, (7, RAYS, 1))) * np.stack(
        [np.cos(ang), np.sin(ang)], -1
    )
    pts[:, :12] -= 3.0  # something lying over part of each rim
    ok = rng.random((7, RAYS)) > 0.2
    start = centre + rng.normal(0, 1, (7, 2))
    together = fixed_all(pts, ok, start, radius)
    for i in range(7):
        alone = fixed_all(pts[i : i + 1], ok[i : i + 1], start[i : i + 1], radius[i])
        assert [v[0] for v in alone] == [v[i] for v in together]
    assert abs(together[0][0] - centre[0, 0]) < 0.2  # and it fits: the circle is found
    assert [len(v) for v in fixed_all(pts[:0], ok[:0], start[:0], 8.0)] == [0, 0, 0, 0]


def test_a_polygon_off_the_picture_draws_nothing_and_one_across_its_edge_draws_its_part() -> None:
    square = np.array([[-30.0, 10.0], [-10.0, 10.0], [-10.0, 30.0], [-30.0, 30.0]])
    assert not polygon_mask((40, 40), square).any()
    across = polygon_mask((40, 40), square + np.array([20.0, 0.0]))
    assert across[10:31, 0:11].all() and not across[:, 11:].any()


def test_least_squares_circles_of_many_rows_are_each_rows_own() -> None:
    """`winks._lift` fits the rows of every level in one call: a row's
    circle must not depend on the rows fitted with it."""
    rng = np.random.default_rng(5)
    ang = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    centre = rng.uniform(-500, 500, (9, 2))
    radius = rng.choice([8.0, 11.0], 9)
    pts = centre[:, None] + (radius[:, None, None] + rng.normal(0, 0.2, (9, RAYS, 1))) * np.stack(
        [np.cos(ang), np.sin(ang)], -1
    )
    ok = rng.random((9, RAYS)) > 0.3
    ok[4] = False  # a row with no points
    together = kasa_all(pts, ok)
    for i in range(9):
        alone = kasa_all(pts[i : i + 1], ok[i : i + 1])
        assert [v[0] for v in alone] == [v[i] for v in together]
    assert abs(together[2][0] - radius[0]) < 0.05  # and it fits


def _fixed_steps(
    pts: np.ndarray, ok: np.ndarray, start: np.ndarray, r: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`fixed_all` as written until session 14: x and y apart, a
    numpy call for each of the five sums, steps selected after dividing."""
    px, py = pts[..., 0], pts[..., 1]
    cx, cy = start[:, 0].copy(), start[:, 1].copy()
    r = r[:, None]
    active = np.ones(len(pts), bool)
    for it in range(8):
        dx, dy = px - cx[:, None], py - cy[:, None]
        dist = np.maximum(np.hypot(dx, dy), 1e-9)
        res = dist - r
        keep = (np.abs(res) < (3.0 if it == 0 else (1.5 if it < 3 else 0.7))) & ok
        active &= keep.sum(axis=1) >= 3
        ux, uy = np.where(keep, dx / dist, 0.0), np.where(keep, dy / dist, 0.0)
        a, b, c = (ux * ux).sum(1), (ux * uy).sum(1), (uy * uy).sum(1)
        gx, gy = (ux * res).sum(1), (uy * res).sum(1)
        det = a * c - b * b
        good = active & (np.abs(det) > 1e-12)
        safe = np.where(good, det, 1.0)
        cx += np.where(good, (c * gx - b * gy) / safe, 0.0)
        cy += np.where(good, (a * gy - b * gx) / safe, 0.0)
    res = np.hypot(px - cx[:, None], py - cy[:, None]) - r
    keep = ok & (np.abs(res) < 0.7)
    n = keep.sum(axis=1)
    rms = np.sqrt((np.where(keep, res, 0.0) ** 2).sum(1) / np.maximum(n, 1))
    return cx, cy, n, np.where(n > 0, rms, np.inf)


def test_fixed_circles_are_the_plain_gauss_newton_steps_to_the_bit() -> None:
    """Guards an assumption (the reference is the code as it was, so this
    passed before session 14's rewrite too): stacking x and y, one
    reduction for the five sums and the masked division give the same
    floats as the plain steps, on crops' and rings' point counts, rows with
    too few points, a point at the centre and singular equations."""
    rng = np.random.default_rng(14)
    for trial in range(300):
        rows, n = int(rng.integers(1, 30)), int(rng.choice([5, 8, 13, RAYS, 64, 144]))
        radius = rng.uniform(5.0, 12.0, rows)
        ang = rng.uniform(0, 2 * np.pi, (rows, n))
        centre = rng.normal(0, 60, (rows, 2))
        noise = rng.normal(0, float(rng.choice([0.05, 0.5, 3.0])), (rows, n, 2))
        pts = centre[:, None] + radius[:, None, None] * np.stack([np.cos(ang), np.sin(ang)], -1)
        pts += noise
        ok = rng.random((rows, n)) < rng.uniform(0.05, 1.0)
        start = centre + rng.normal(0, 2, (rows, 2))
        if trial % 3 == 0:
            pts[0, :] = pts[0, :1]  # one row's points all at one place: singular
            pts[-1, 0] = start[-1]  # a point at a start
        got = fixed_all(pts, ok, start, radius if trial % 2 else float(radius[0]))
        want = _fixed_steps(pts, ok, start, radius if trial % 2 else np.full(rows, radius[0]))
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype
            assert g.tobytes() == w.tobytes()


def test_kasa_circles_are_the_stacked_least_squares_to_the_bit() -> None:
    """Guards an assumption (the reference is the code as it was, so this
    passed before session 14 too): :func:`kasa_all` writing its weighted
    columns in place gives the floats of stacking them, rows with too few
    points (singular: radius 0) included."""
    rng = np.random.default_rng(8)
    for _ in range(200):
        rows, n = int(rng.integers(1, 25)), int(rng.choice([3, 8, RAYS, 72]))
        pts = rng.normal(0, 30, (rows, 1, 2)) + rng.normal(0, 8, (rows, n, 2))
        ok = rng.random((rows, n)) < rng.uniform(0.02, 1.0)
        w = ok.astype(np.float64)
        mean = (pts * w[..., None]).sum(axis=1) / np.maximum(w.sum(axis=1), 1.0)[:, None]
        x, y = pts[..., 0] - mean[:, None, 0], pts[..., 1] - mean[:, None, 1]
        cols = np.stack([x, y, np.ones_like(x)], axis=-1) * w[..., None]
        ata = np.einsum("nri,nrj->nij", cols, cols)
        atb = np.einsum("nri,nr->ni", cols, (x * x + y * y) * w)
        bad = np.abs(np.linalg.det(ata)) < 1e-9
        ata[bad] = np.eye(3)
        sol = np.linalg.solve(ata, atb[..., None])[..., 0]
        cx, cy = sol[:, 0] / 2, sol[:, 1] / 2
        r = np.sqrt(np.maximum(sol[:, 2] + cx * cx + cy * cy, 0.0))
        r[bad] = 0.0
        got = kasa_all(pts, ok)
        for g, want in zip(got, (cx + mean[:, 0], cy + mean[:, 1], r), strict=True):
            assert g.tobytes() == want.tobytes()


def _strength_einsum(raw: np.ndarray, d: np.ndarray, level: np.ndarray) -> np.ndarray:
    """:func:`fit._strength` as written until session 16: strided channel
    views and the projection by ``einsum``."""
    bgr = raw.astype(np.float32)
    along = np.einsum("rsc,rc->rs", bgr, d)
    total = bgr[..., 0] + bgr[..., 1] + bgr[..., 2]
    sq = bgr * bgr
    chroma2 = (sq[..., 0] + sq[..., 1] + sq[..., 2]) - total * total / 3
    across = np.sqrt(np.maximum(chroma2 - along**2, 0.0))
    return np.asarray(along - 2.0 * np.maximum(across - 0.5 * level, 0.0), np.float32)


def test_strength_on_channel_planes_is_the_einsum_to_the_bit() -> None:
    """Guards an assumption (the reference is the code as it was, so this
    passed before session 16's rewrite too): the strength summed over
    contiguous channel planes, in einsum's order, gives the same float32s;
    on unit face chromas of every direction, dark, bright and saturated
    samples."""
    rng = np.random.default_rng(16)
    for trial in range(60):
        rays, steps = int(rng.integers(1, 400)), int(rng.integers(1, 60))
        raw = rng.integers(0, 256, (rays, steps, 3)).astype(np.uint8)
        if trial % 3 == 0:
            raw = (raw // 64 * 85).astype(np.uint8)  # few levels: exact zeros and ties
        d = rng.normal(0, 1, (rays, 3))
        d -= d.mean(axis=1, keepdims=True)  # no grey, as a face chroma has none
        d = (d / np.linalg.norm(d, axis=1, keepdims=True)).astype(np.float32)
        level = rng.uniform(0, 120, (rays, 1)).astype(np.float32)
        got, want = _strength(raw, d, level), _strength_einsum(raw, d, level)
        assert got.dtype == want.dtype == np.float32
        assert got.tobytes() == want.tobytes()
