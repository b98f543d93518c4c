"""``fit.voted`` returns, to the bit, what the plain formula (session 14's
first version, kept here as ``_voted_reference``) returns: the cheaper one
(pairs made once per point count, x and y apart, the cells near the
fullest from a table) must not move a centre, nor resolve a tie otherwise.
Both take the fullest cells fullest first, ties to the lowest cell (the
lattice cases tie: ``np.argpartition``'s order, which the first version
used, depends on the CPU's kernel, and fails them).

A guard of the cheaper arithmetic; it fails when a change to ``voted``
moves any returned bit on these inputs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.mat.fit import VOTE_BEST, VOTE_CELL_MM, _fullest, voted


def _voted_reference(
    points: NDArray[np.float64], r: float, within: float = 0.5
) -> tuple[float, float] | None:
    """``fit.voted`` as merged in 87ba2a6 (session 14), verbatim."""
    i, j = np.triu_indices(len(points), 1)
    chord = points[j] - points[i]
    half = np.hypot(chord[:, 0], chord[:, 1]) / 2
    use = (half > 0.2 * r) & (half < r)
    if not use.any():
        return None
    mid, chord, half = (points[i[use]] + points[j[use]]) / 2, chord[use], half[use]
    normal = np.column_stack([-chord[:, 1], chord[:, 0]]) / (2 * half[:, None])
    reach = np.sqrt(r * r - half * half)[:, None]
    centres = np.vstack([mid + normal * reach, mid - normal * reach])
    cell = np.floor((centres - centres.min(axis=0)) / VOTE_CELL_MM).astype(np.int64)
    shape = cell.max(axis=0) + 1
    counts = np.bincount(cell[:, 1] * shape[0] + cell[:, 0], minlength=int(shape[0] * shape[1]))
    grid = cv2.boxFilter(counts.reshape(shape[1], shape[0]).astype(np.float32), -1, (3, 3),
                         normalize=False, borderType=cv2.BORDER_CONSTANT).ravel()  # fmt: skip
    best = np.argsort(-grid, kind="stable")[:VOTE_BEST]
    by, bx = np.divmod(best, shape[0])
    near = (np.abs(cell[:, 0, None] - bx) <= 1) & (np.abs(cell[:, 1, None] - by) <= 1)
    tried = (near.T @ centres) / np.maximum(near.sum(axis=0), 1)[:, None]
    res = np.abs(np.hypot(points[None, :, 0] - tried[:, None, 0],
                          points[None, :, 1] - tried[:, None, 1]) - r)  # fmt: skip
    k = int(np.argmax((res < within).sum(axis=1)))
    return float(tried[k, 0]), float(tried[k, 1])


def _rim(rng: np.random.Generator, n: int, r: float, arc: float, stray: int) -> NDArray[np.float64]:
    """``n`` points on part of a circle of radius ``r`` (noisy, as edge
    points are), ``stray`` of them replaced by points of another circle."""
    cx, cy = rng.uniform(-300, 300, 2)
    a = rng.uniform(0, 2 * np.pi) + np.linspace(0, arc, n)
    pts = np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)]) + rng.normal(0, 0.15, (n, 2))
    if stray:
        b = rng.uniform(0, 2 * np.pi, stray)
        ox, oy = cx + rng.uniform(-1.6, 1.6) * r, cy + rng.uniform(-1.6, 1.6) * r
        pts[rng.choice(n, stray, replace=False)] = np.column_stack(
            [ox + r * np.cos(b), oy + r * np.sin(b)]
        )
    return np.asarray(pts, np.float64)


def _same(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    if a is None or b is None:
        return a is b
    return all(
        np.float64(u).tobytes() == np.float64(v).tobytes() for u, v in zip(a, b, strict=True)
    )


@pytest.mark.parametrize("seed", range(40))
def test_voted_bit_equal_on_partial_rims(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for r in (11.0, 8.0):
        for n, arc, stray in (
            (48, 2 * np.pi, 0),
            (48, 4.0, 12),
            (47, 3.0, 20),
            (13, 1.5, 0),
            (2, 1.0, 0),
        ):
            pts = _rim(rng, n, r, arc, stray)
            assert _same(voted(pts, r), _voted_reference(pts, r)), (seed, r, n)


@pytest.mark.parametrize("seed", range(20))
def test_voted_bit_equal_on_lattice_points(seed: int) -> None:
    """Points on a 0.25 mm lattice (centres on cell edges, equal counts in
    many cells: argpartition's and argmax's ties) and repeated points."""
    rng = np.random.default_rng(1000 + seed)
    pts = np.round(_rim(rng, 48, 8.0, 5.0, 10) * 4) / 4
    pts[rng.choice(48, 6, replace=False)] = pts[0]
    for r in (8.0, 11.0):
        for within in (0.5, 0.25):
            assert _same(voted(pts, r, within), _voted_reference(pts, r, within)), (seed, r)


def test_voted_few_cells_and_none() -> None:
    """Grids of VOTE_BEST cells or fewer (every cell tried) and no pair to go by."""
    two = np.array([[0.0, 0.0], [10.0, 0.0]])  # one pair: two centres, a few cells
    assert _same(voted(two, 11.0), _voted_reference(two, 11.0))
    assert voted(two, 11.0) is not None
    close = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5]])  # all pairs too close
    assert voted(close, 11.0) is None and _voted_reference(close, 11.0) is None
    far = np.array([[0.0, 0.0], [30.0, 0.0]])  # too far apart
    assert voted(far, 11.0) is None and _voted_reference(far, 11.0) is None


def test_fullest_cells_are_the_stable_sorts_first() -> None:
    """``fit._fullest`` (session 16: a partition instead of sorting the whole
    grid) picks the cells ``np.argsort(-grid, kind="stable")[:k]`` does, in
    its order: box sums of small counts tie often, at the k-th value and
    above it, and grids may hold k cells or fewer."""
    rng = np.random.default_rng(16)
    for trial in range(500):
        n = int(rng.choice([1, 3, VOTE_BEST, VOTE_BEST + 1, 40, 3700]))
        top = int(rng.choice([1, 2, 5, 30]))
        grid = rng.integers(0, top + 1, n).astype(np.float32)
        if trial % 4 == 0:
            grid[rng.choice(n, min(n, 3), replace=False)] = top + 1  # a few above the ties
        want = np.argsort(-grid, kind="stable")[:VOTE_BEST]
        assert _fullest(grid, VOTE_BEST).tolist() == want.tolist(), (trial, n, top)
