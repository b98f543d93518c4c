"""The mat analysis: a frame in, a :class:`MatObservation` out.

>>> from vision.mat.render import MatRig, render
>>> from vision.mat.synth.scene import MatScene, TrueWink
>>> rig = MatRig.make(seed=5)
>>> scene = MatScene((TrueWink("b1", 100.0, 50.0), TrueWink("r3", 108.0, 58.0, level=1)))
>>> obs = analyse(render(rig, scene, seed=1), hfov_deg=rig.hfov_deg)
>>> names = {w.index: w.colour.value for w in obs.winks}
>>> sorted((names[w.index], w.size, [names[i] for i in w.on]) for w in obs.winks)
[('blue', 22, []), ('red', 16, ['blue'])]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour, MatSpec, Place, Wink
from controller.games.tiddlywinks.geometry import in_field as geo_in_field
from controller.games.tiddlywinks.geometry import on_mat as geo_on_mat
from controller.games.tiddlywinks.geometry import pot_distance as geo_pot_distance
from vision.mat import relations
from vision.mat.camera import DEFAULT_HFOV_DEG, MatCalibration, calibrate_mat
from vision.mat.fit import RAYS, EdgeSet, edges, fixed_all, kasa_all
from vision.mat.layout import WINK_THICKNESS_MM, MatLayout
from vision.mat.model import MatObservation, PotView, SeenWink
from vision.mat.pot import Pot, find_pot, near, polygon_mask, pot_mask, potted
from vision.mat.segment import Mask, candidates, colour_masks
from vision.model import Frame

CLOSE_MM = 0.35
"""Edge points within this RMS of their circle fit it closely."""
SAME_MM = 2.0
"""Two circles of one size whose centres are this close are one wink (a
wink squopping another of its size must leave it 6 mm or more showing)."""
BORDER_MM = 25.0
"""How far beyond the mat's edges winks are looked for (the markers start 30 mm out)."""


@dataclass(frozen=True, slots=True)
class _Fit:
    colour: Colour
    size: int
    x: float
    y: float
    rms: float
    whole: bool
    row: int
    depth: float
    """How far the candidate lay inside its colour's blob, px."""
    inliers: int
    """Edge points on the circle."""
    """The candidate's row in the frame's :class:`EdgeSet`."""


class MatAnalyser:
    """The analysis for one calibrated camera (the region masks are made once)."""

    def __init__(self, calibration: MatCalibration, layout: MatLayout | None = None) -> None:
        self.cal = calibration
        self.layout = layout or MatLayout()
        spec = self.layout.spec
        hx, hy = spec.length_mm / 2 + BORDER_MM, spec.width_mm / 2 + BORDER_MM
        corners = np.array([[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]])
        self.region = polygon_mask(calibration.size, calibration.to_pixels(corners))
        self.r_small_px = 8.0 * calibration.px_per_mm(0.0, 0.0, WINK_THICKNESS_MM)

    def analyse(self, frame: Frame) -> MatObservation:
        """Every wink, squop and potted wink the frame shows."""
        spec = self.layout.spec
        image = frame.image
        grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        pot = find_pot(grey, self.cal, spec)
        blocked = pot_mask(self.cal, pot, spec) if pot else np.zeros_like(grey)
        every = colour_masks(image, self.region)
        free = cv2.bitwise_not(blocked)
        masks = {c: np.asarray(cv2.bitwise_and(m, free), np.uint8) for c, m in every.items()}
        cands = candidates(masks, self.r_small_px)
        found = edges(image, cands, 2.6 * self.r_small_px, blocked)
        every_row = np.arange(len(cands))
        fits = _dedupe([f for f in self._fit(found, every_row, WINK_THICKNESS_MM) if f is not None])
        fits = self._one_colour_each(fits, masks)
        circ = [(f.x, f.y, f.size / 2, WINK_THICKNESS_MM) for f in fits]
        on = relations.stack(circ, [f.colour for f in fits], masks, grey, self.cal)
        levels = relations.pile_levels(len(fits), on)
        for lv in sorted(set(levels) - {0}):  # winks on winks: their faces are higher
            at = [i for i, v in enumerate(levels) if v == lv]
            rows = np.array([fits[i].row for i in at])
            for i, f in zip(at, self._fit(found, rows, WINK_THICKNESS_MM * (lv + 1)), strict=True):
                fits[i] = f or fits[i]
        pot_view = None
        if pot is not None:
            pot_view = PotView(pot.x, pot.y, pot.rim, potted(every, self.cal, pot, spec))
        return MatObservation(
            tuple(self._seen(i, f, on, levels, pot) for i, f in enumerate(fits)),
            pot_view, self.cal.rms_mm)  # fmt: skip

    def _fit(self, es: EdgeSet, rows: NDArray[np.int64], z: float) -> list[_Fit | None]:
        """Circles for the candidates ``rows`` of ``es``, their faces ``z`` up."""
        pts = self.cal.to_mat(es.points[rows].reshape(-1, 2), z).reshape(len(rows), RAYS, 2)
        ok = es.ok[rows]
        count = ok.sum(axis=1)
        cx, cy, r = kasa_all(pts, ok)
        res = np.where(
            ok, np.hypot(pts[..., 0] - cx[:, None], pts[..., 1] - cy[:, None]) - r[:, None], 0.0
        )
        rms = np.sqrt((res**2).sum(axis=1) / np.maximum(count, 1))
        whole = (rms < 0.35) & (count >= 0.9 * RAYS) & (r > 6.0) & (r < 13.5)
        mean = (pts * ok[..., None]).sum(axis=1) / np.maximum(count, 1)[:, None]
        start = np.where(((r > 6) & (r < 14))[:, None], np.column_stack([cx, cy]), mean)
        by_size = {size: fixed_all(pts, ok, start, size / 2) for size in (22, 16)}
        out: list[_Fit | None] = []
        for i, row in enumerate(rows):
            colour, depth = es.cands[row].colour, es.cands[row].depth_px
            if count[i] < 8:
                out.append(None)
            elif whole[i]:  # the whole edge seen
                size = 22 if r[i] > 9.5 else 16
                x, y, e, n = float(cx[i]), float(cy[i]), float(rms[i]), int(count[i])
                out.append(_Fit(colour, size, x, y, e, True, int(row), depth, n))
            else:
                n, size = max((int(f[2][i]), -float(f[3][i]), s) for s, f in by_size.items())[::2]
                x, y, _, e = (float(v[i]) for v in by_size[size])
                out.append(
                    None if n < 8 else _Fit(colour, size, x, y, e, False, int(row), depth, n)
                )
        return out

    def _one_colour_each(self, fits: list[_Fit], masks: dict[Colour, Mask]) -> list[_Fit]:
        """Two fits of different colours on nearly one circle are one wink
        (where two colours meet, their blend can pass for a third colour and
        start rays that find the wink's edge): keep the colour filling more
        of the part of the disc that no other wink covers."""
        gone: set[int] = set()
        circ = [(f.x, f.y, f.size / 2, WINK_THICKNESS_MM) for f in fits]
        for i, j in itertools.combinations(range(len(fits)), 2):
            a, b = fits[i], fits[j]
            if a.size != b.size or np.hypot(a.x - b.x, a.y - b.y) > SAME_MM:
                continue
            others = [c for k, c in enumerate(circ) if k not in (i, j)]
            fill_a, fill_b = (relations.fill(masks[f.colour], self.cal, circ[k], others)
                              for k, f in ((i, a), (j, b)))  # fmt: skip
            gone.add(j if fill_a >= fill_b else i)
        return [f for k, f in enumerate(fits) if k not in gone]

    def _seen(
        self, i: int, f: _Fit, on: dict[int, set[int]], levels: list[int], pot: Pot | None
    ) -> SeenWink:
        spec = self.layout.spec
        px, py = near(pot, spec)
        probe = Wink("b1" if f.size == 22 else "b3", Place.FIELD, f.x, f.y)
        here = replace(spec, pot_x_mm=px, pot_y_mm=py)
        covered = any(i in below for below in on.values())
        return SeenWink(f.colour, f.size, f.x, f.y, i, tuple(sorted(on[i])), covered, levels[i],
                        geo_in_field(spec, probe), geo_on_mat(spec, probe),
                        geo_pot_distance(here, probe), f.rms)  # fmt: skip


def _mean(pts: np.ndarray) -> tuple[float, float]:
    return float(pts[:, 0].mean()), float(pts[:, 1].mean())


def _dedupe(fits: list[_Fit]) -> list[_Fit]:
    """One fit per wink: two candidates of one colour fitted to nearly the
    same circle are one wink. A whole circle beats a partial one, a close
    fit (RMS under :data:`CLOSE_MM`) a loose one (a candidate between two
    winks of one colour fits neither); then the deeper candidate's (a sliver
    of colour at a wink's rim, left over from its blob, starts rays that can
    close round the wink's dark edge instead of its face), then the closer fit."""
    out: list[_Fit] = []
    for f in sorted(fits, key=lambda f: (not f.whole, f.rms > CLOSE_MM, -f.depth, f.rms)):
        if any(
            o.colour is f.colour
            and np.hypot(o.x - f.x, o.y - f.y) < 0.5 * min(o.size, f.size) / 2 * 2
            for o in out
        ):
            continue
        out.append(f)
    return out


def analyse(
    frame: Frame,
    calibration: MatCalibration | None = None,
    layout: MatLayout | None = None,
    hfov_deg: float = DEFAULT_HFOV_DEG,
) -> MatObservation:
    """The mat in ``frame``; calibrates from the frame's markers when no
    calibration is given."""
    layout = layout or MatLayout()
    cal = calibration or calibrate_mat(frame, layout, hfov_deg)
    return MatAnalyser(cal, layout).analyse(frame)


__all__ = ["MatAnalyser", "MatSpec", "analyse"]
