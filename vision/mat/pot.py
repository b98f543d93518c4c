"""The pot: its rim fitted in the plane 38 mm up, the region it hides, and
the winks seen through its opening."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import COLOURS, Colour, MatSpec
from vision.mat.camera import MatCalibration
from vision.mat.fit import fixed_fit, kasa
from vision.mat.layout import POT_FLOOR_MM, POT_HEIGHT_MM, POT_WALL_MM, WINK_THICKNESS_MM
from vision.mat.segment import Mask, candidates, sample

Floats = NDArray[np.float64]


def circle(cx: float, cy: float, r: float, n: int = 72) -> Floats:
    """Points round a circle, mm."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


def polygon_mask(size: tuple[int, int], pixels: Floats) -> Mask:
    """A filled polygon (255 inside)."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    hull = cv2.convexHull(np.round(pixels).astype(np.int32))
    cv2.fillPoly(mask, [hull], 255)
    return mask


@dataclass(frozen=True, slots=True)
class Pot:
    """The pot as fitted: centre and rim radius (mm)."""

    x: float
    y: float
    rim: float


def find_pot(grey: NDArray[np.uint8], cal: MatCalibration, spec: MatSpec) -> Pot | None:
    """The rim, searched from where the pot should be (the dark cup on the felt)."""
    rim = spec.pot_rim_mm / 2
    z = POT_HEIGHT_MM
    ang = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    radii = np.linspace(0.6 * rim, 1.8 * rim, 97)
    ring = np.stack([spec.pot_x_mm + radii[None, :] * np.cos(ang)[:, None],
                     spec.pot_y_mm + radii[None, :] * np.sin(ang)[:, None]], axis=-1)  # fmt: skip
    prof = sample(grey, cal.to_pixels(ring.reshape(-1, 2), z)).reshape(len(ang), len(radii))
    inside = float(np.median(prof[:, (radii > 0.85 * rim) & (radii < 0.95 * rim)]))
    outside = float(np.median(prof[:, radii > 1.5 * rim]))
    if outside - inside < 25:
        return None
    level = (inside + outside) / 2
    edge = []
    for i, row in enumerate(prof):
        k = int(np.argmax(row > level))
        if k == 0 or row[k] <= level:
            continue
        frac = (level - row[k - 1]) / (row[k] - row[k - 1])
        r = radii[k - 1] + frac * (radii[k] - radii[k - 1])
        edge.append(ring[i, 0] + (ring[i, 1] - ring[i, 0]) / (radii[1] - radii[0]) * (r - radii[0]))
    if len(edge) < 12:
        return None
    points = np.array(edge)
    cx, cy, _ = kasa(points)
    cx, cy, n, _ = fixed_fit(points, (cx, cy), rim)
    if n < 12:
        return None
    _, _, r = kasa(points[np.abs(np.hypot(points[:, 0] - cx, points[:, 1] - cy) - rim) < 0.7])
    return Pot(cx, cy, r)


def pot_mask(cal: MatCalibration, pot: Pot, spec: MatSpec) -> Mask:
    """What the pot hides, with a little margin."""
    top = cal.to_pixels(circle(pot.x, pot.y, spec.pot_rim_mm / 2 + 1.5), POT_HEIGHT_MM)
    base = cal.to_pixels(circle(pot.x, pot.y, spec.pot_base_mm / 2 + 1.5), 0.0)
    return polygon_mask(cal.size, np.vstack([top, base]))


def potted(
    masks: dict[Colour, Mask], cal: MatCalibration, pot: Pot, spec: MatSpec
) -> dict[Colour, int]:
    """Winks of each colour seen through the opening (each counted once
    when a fair part of it shows)."""
    opening = cal.to_pixels(circle(pot.x, pot.y, spec.pot_rim_mm / 2 - POT_WALL_MM - 0.5),
                            POT_HEIGHT_MM)  # fmt: skip
    x0, y0 = np.floor(opening.min(axis=0)).astype(int)
    x1, y1 = np.ceil(opening.max(axis=0)).astype(int) + 1
    window = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(window, [np.round(opening - [x0, y0]).astype(np.int32)], 255)
    crops: dict[Colour, Mask] = {
        c: np.asarray(cv2.bitwise_and(m[y0:y1, x0:x1], window), np.uint8) for c, m in masks.items()
    }
    r_small = 8.0 * cal.px_per_mm(pot.x, pot.y, POT_FLOOR_MM + WINK_THICKNESS_MM)
    counts = dict.fromkeys(COLOURS, 0)
    for c in candidates(crops, r_small):
        if c.depth_px >= 0.55 * r_small:
            counts[c.colour] += 1
    return counts


def near(pot: Pot | None, spec: MatSpec) -> tuple[float, float]:
    """The pot's centre: as seen, else where it should be."""
    return (spec.pot_x_mm, spec.pot_y_mm) if pot is None else (pot.x, pot.y)


__all__ = ["Pot", "circle", "find_pot", "near", "polygon_mask", "pot_mask", "potted"]
