"""Mat scenes with ground truth: where each of the 24 winks is, at what
level (0 on the mat, 1 on a wink, ...), or in the pot.

A wink squops every wink below it that its plan view overlaps (6(a)): the
truth's :meth:`MatScene.on`. :func:`random_scene` builds scenes with the
hard cases on purpose: winks merely touching (gap 0-0.25 mm), squops with at
least 2 mm of overlap, piles of three, winks tucked against the pot, winks
behind their baselines, winks over a boundary, potted winks.

>>> scene = random_scene(np.random.default_rng(4))
>>> len(scene.winks)
24
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from controller.games.tiddlywinks.geometry import (
    COLOURS,
    WINK_IDS,
    Mat,
    MatSpec,
    Place,
    Wink,
    baseline_depth,
    in_field,
    wink_colour,
    wink_size,
)
from vision.mat.layout import POT_WALL_MM

SQUOP_MIN_MM = 2.0
"""The least overlap of a squop the generator makes (the engine's tolerance
for the camera is 0.5 mm; a real squop overlaps by more)."""
SHOW_MM = 6.0
"""Every wink shows at least this thick a part of itself from above (a wink
hidden more than that is a matter for the umpire, not the camera)."""
CLEAR_MM = 1.0
"""Winks neither touching nor stacked are at least this far apart."""


@dataclass(frozen=True, slots=True)
class TrueWink:
    """One wink's ground truth: centre (mat mm; in the pot for a potted wink)
    and level (stacked winks: 0 rests on the mat or the pot's floor)."""

    id: str
    x: float
    y: float
    level: int = 0
    potted: bool = False

    @property
    def radius(self) -> float:
        """Half the diameter, mm."""
        return wink_size(self.id) / 2


def overlap(a: TrueWink, b: TrueWink) -> float:
    """How far the plan views overlap (negative: the gap)."""
    return a.radius + b.radius - math.hypot(a.x - b.x, a.y - b.y)


@dataclass(frozen=True, slots=True)
class MatScene:
    """Every wink of a game, and the mat and pot they are on."""

    winks: tuple[TrueWink, ...]
    spec: MatSpec = field(default_factory=MatSpec)

    def field(self) -> list[TrueWink]:
        """The winks not potted, lowest first."""
        return sorted((w for w in self.winks if not w.potted), key=lambda w: w.level)

    def potted(self) -> list[TrueWink]:
        """The potted winks, lowest first."""
        return sorted((w for w in self.winks if w.potted), key=lambda w: w.level)

    def on(self, wink: TrueWink) -> tuple[str, ...]:
        """The winks ``wink`` lies over (squops), in id order."""
        under = [o for o in self.field() if o.level < wink.level and overlap(wink, o) > 0]
        return tuple(sorted((o.id for o in under), key=WINK_IDS.index))

    def covered(self, wink: TrueWink) -> bool:
        """True when some wink lies over part of this one."""
        return any(o.level > wink.level and overlap(o, wink) > 0 for o in self.field())

    def unplayed(self, wink: TrueWink) -> bool:
        """True for a wink behind its own baseline (never played)."""
        depth = baseline_depth(self.spec, wink_colour(wink.id), wink.x, wink.y)
        return not wink.potted and depth > -wink.radius

    def mat(self) -> Mat:
        """The scene as the engine's mat (unplayed winks behind baselines)."""
        out = []
        for w in self.winks:
            if w.potted:
                out.append(Wink(w.id, Place.POTTED))
            elif self.unplayed(w):
                out.append(Wink(w.id, Place.BASELINE, w.x, w.y))
            else:
                out.append(Wink(w.id, Place.FIELD, w.x, w.y, self.on(w)))
        return tuple(sorted(out, key=lambda w: WINK_IDS.index(w.id)))


def shows(w: TrueWink, winks: list[TrueWink]) -> float:
    """How thick (mm) the widest part of ``w`` seen from above is."""
    above = [o for o in winks if o.level > w.level and overlap(o, w) > 0]
    if not above:
        return 2 * w.radius
    step = 0.25
    xs = np.arange(-w.radius, w.radius + step, step)
    gx, gy = np.meshgrid(xs + w.x, xs + w.y)
    seen = np.hypot(gx - w.x, gy - w.y) <= w.radius
    for o in above:
        seen &= np.hypot(gx - o.x, gy - o.y) > o.radius
    if not seen.any():
        return 0.0
    import cv2  # only here: the scene itself needs no OpenCV

    depth = cv2.distanceTransform(np.pad(seen, 1).astype(np.uint8), cv2.DIST_L2, 5)
    return float(2 * depth.max() * step)


class _Placer:
    """Rejection sampling of wink positions that keep the scene physical."""

    def __init__(self, rng: np.random.Generator, spec: MatSpec) -> None:
        self.rng, self.spec, self.placed = rng, spec, list[TrueWink]()

    def fits(self, w: TrueWink, friends: tuple[str, ...] = ()) -> bool:
        for o in self.placed:
            ov = overlap(w, o)
            if o.id in friends:
                continue
            if o.level == w.level and ov > -CLEAR_MM:
                return False
            if o.level != w.level and -CLEAR_MM < ov < SQUOP_MIN_MM:
                return False
            if o.level > w.level and ov > 0:
                return False  # nothing may go under a wink already placed
        gap = math.hypot(w.x - self.spec.pot_x_mm, w.y - self.spec.pot_y_mm) - w.radius - 19
        return gap >= 0.3

    def add(self, w: TrueWink, friends: tuple[str, ...] = ()) -> bool:
        if not self.fits(w, friends):
            return False
        self.placed.append(w)
        under = [o for o in self.placed if o.level < w.level and overlap(w, o) > 0]
        if all(shows(o, self.placed) >= SHOW_MM for o in under):
            return True
        self.placed.pop()
        return False

    def anywhere(self, wid: str, level: int = 0) -> TrueWink:
        hx, hy = self.spec.length_mm / 2 - 30, self.spec.width_mm / 2 - 30
        x, y = self.rng.uniform(-hx, hx), self.rng.uniform(-hy, hy)
        return TrueWink(wid, float(x), float(y), level)

    def near(self, base: TrueWink, wid: str, dist: float, level: int) -> TrueWink:
        a = self.rng.uniform(0, 2 * math.pi)
        return TrueWink(wid, base.x + dist * math.cos(a), base.y + dist * math.sin(a), level)


def _free(p: _Placer, wid: str) -> None:
    for _ in range(400):
        w = p.anywhere(wid)
        if in_field(p.spec, Wink(wid, Place.FIELD, w.x, w.y)) and p.add(w):
            return


def _touching(p: _Placer, a: str, b: str) -> None:
    for _ in range(200):
        wa = p.anywhere(a)
        if not p.fits(wa):
            continue
        rb = wink_size(b) / 2
        wb = p.near(wa, b, wa.radius + rb + float(p.rng.uniform(0.0, 0.25)), 0)
        if p.fits(wb) and p.fits(wa):
            p.placed += [wa]
            if p.add(wb, (a,)):
                return
            p.placed.pop()


def _squop(p: _Placer, lower: str, upper: str, on: TrueWink | None = None) -> TrueWink | None:
    for _ in range(200):
        wl = on or p.anywhere(lower)
        if on is None and not p.fits(wl):
            continue
        ru, rl = wink_size(upper) / 2, wl.radius
        least = max(0.0, ru - rl + SHOW_MM)
        d = float(p.rng.uniform(least, ru + rl - SQUOP_MIN_MM))
        wu = p.near(wl, upper, d, wl.level + 1)
        if on is None:
            p.placed.append(wl)
        if p.add(wu, (wl.id,)):
            return wu
        if on is None:
            p.placed.pop()
    return None


def _behind(p: _Placer, wid: str) -> None:
    cx, cy = p.spec.corner(wink_colour(wid))
    r = wink_size(wid) / 2
    for _ in range(300):
        x = cx - math.copysign(float(p.rng.uniform(r + 5, 250)), cx)
        y = cy - math.copysign(float(p.rng.uniform(r + 5, 250)), cy)
        w = TrueWink(wid, x, y)
        if baseline_depth(p.spec, wink_colour(wid), x, y) > r + 1 and p.add(w):
            return


def _off(p: _Placer, wid: str) -> None:
    hx, hy = p.spec.length_mm / 2, p.spec.width_mm / 2
    for _ in range(200):
        along = float(p.rng.uniform(-hx + 300, hx - 300))
        out = float(p.rng.uniform(-5, 25))
        w = TrueWink(wid, along, math.copysign(hy + out, p.rng.uniform(-1, 1)))
        if p.add(w):
            return


def _near_pot(p: _Placer, wid: str) -> None:
    r = wink_size(wid) / 2
    for _ in range(200):
        a, gap = float(p.rng.uniform(0, 2 * math.pi)), float(p.rng.uniform(0.5, 6.0))
        d = 19 + r + gap
        if p.add(
            TrueWink(wid, p.spec.pot_x_mm + d * math.cos(a), p.spec.pot_y_mm + d * math.sin(a))
        ):
            return


def _potted(
    rng: np.random.Generator, ids: list[str], spec: MatSpec, out: list[TrueWink] | None = None
) -> list[TrueWink]:
    out = list(out or [])
    floor = 24.0 - POT_WALL_MM - 5.0  # the inside of the base, less the concave wall
    for wid in ids:
        r = wink_size(wid) / 2
        a, d = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, max(floor - r, 0.0)))
        w = TrueWink(wid, spec.pot_x_mm + d * math.cos(a), spec.pot_y_mm + d * math.sin(a), 0, True)
        level = max((o.level + 1 for o in out if overlap(w, o) > 0), default=0)
        out.append(TrueWink(w.id, w.x, w.y, level, True))
    return out


def random_scene(rng: np.random.Generator, spec: MatSpec | None = None) -> MatScene:
    """A random game position with every hard case at least once in a while."""
    spec = spec or MatSpec()
    ids = list(WINK_IDS)
    rng.shuffle(ids)
    p = _Placer(rng, spec)
    potted = _potted(rng, [ids.pop() for _ in range(int(rng.integers(0, 6)))], spec)
    for _ in range(int(rng.integers(1, 4))):
        _touching(p, ids.pop(), ids.pop())
    for _ in range(int(rng.integers(1, 4))):
        _squop(p, ids.pop(), ids.pop())
    if rng.random() < 0.6:  # a pile of three: c on b on a
        mid = _squop(p, ids.pop(), ids.pop())
        if mid is not None:
            _squop(p, mid.id, ids.pop(), on=mid)
    for _ in range(int(rng.integers(0, 3))):
        _near_pot(p, ids.pop())
    for _ in range(int(rng.integers(0, 2))):
        _off(p, ids.pop())
    while ids:
        wid = ids.pop()
        (_behind if rng.random() < 0.3 else _free)(p, wid)
    placed = {w.id for w in p.placed} | {w.id for w in potted}
    missing = [i for i in WINK_IDS if i not in placed]
    if missing:  # a crowded mat: the rest go in the pot
        potted = _potted(rng, missing, spec, potted)
    winks = sorted([*p.placed, *potted], key=lambda w: WINK_IDS.index(w.id))
    return MatScene(tuple(winks), spec)


def colour_counts(winks: list[TrueWink]) -> dict[str, int]:
    """How many winks of each colour."""
    return {c.value: sum(wink_colour(w.id) is c for w in winks) for c in COLOURS}
