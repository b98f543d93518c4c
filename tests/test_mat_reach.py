"""``reach.within`` and ``reach.beyond`` are ``np.hypot``'s tests to the bit,
on random points and on points at the radius itself and one float either
side of it (where the sum of squares alone would answer otherwise: the
threshold test below shows it does)."""

from __future__ import annotations

import numpy as np

from vision.mat.reach import beyond, within


def _edge_cases(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Points on and one float either side of circles of radii 0.5-25 mm,
    about centres at fractional offsets, and the radii."""
    dxs, dys, rs = [], [], []
    for _ in range(400):
        r = float(rng.uniform(0.5, 25))
        t = rng.uniform(0, 2 * np.pi, 64)
        c = rng.uniform(-300, 300, 2)
        px, py = c[0] + r * np.cos(t), c[1] + r * np.sin(t)
        for step in (-np.inf, 0, np.inf):
            qx = px if step == 0 else np.nextafter(px, step)
            dxs.append(qx - c[0])
            dys.append(py - c[1])
            rs.append(r)
    return np.array(dxs), np.array(dys), rs


def test_within_and_beyond_are_hypots_at_the_radius() -> None:
    rng = np.random.default_rng(5)
    dx, dy, rs = _edge_cases(rng)
    sums_differ = 0
    for x, y, r in zip(dx, dy, rs, strict=True):
        h = np.hypot(x, y)
        assert np.array_equal(within(x, y, r), h < r)
        assert np.array_equal(beyond(x, y, r), h > r)
        sums_differ += int(np.sum((x * x + y * y < r * r) != (h < r)))
    assert sums_differ > 0  # the plain sum of squares is not hypot's test


def test_within_and_beyond_broadcast_as_hypot() -> None:
    rng = np.random.default_rng(6)
    gx, gy = rng.uniform(-20, 20, 37), rng.uniform(-20, 20, 41)
    for r in (0.5, 8.0, 10.5, 11.7):
        h = np.hypot(gx[None, :], gy[:, None])
        assert np.array_equal(within(gx[None, :], gy[:, None], r), h < r)
        assert np.array_equal(beyond(gx[None, :], gy[:, None], r), h > r)
