"""An observation against the ground truth: which seen wink is which true
wink, centre errors, colour and size, squop relations, potted counts.

Seen winks are matched to true winks of the same colour by nearest centre
(within :data:`MATCH_MM`); a seen wink matched to none is a false wink, a
true wink matched by none is missed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import wink_colour, wink_size
from vision.mat.layout import POT_FLOOR_MM, POT_HEIGHT_MM, POT_WALL_MM, WINK_THICKNESS_MM
from vision.mat.model import MatObservation
from vision.mat.synth.scene import MatScene, TrueWink, overlap

MATCH_MM = 6.0
PLAIN_MM = 6.0
"""A potted wink showing a patch at least this thick through the opening
must be counted (:func:`potted_bounds`)."""
EDGE_MM = 0.5
"""A wink's dark edge beyond its face (the renderer's), which hides the
colour of whatever is under it."""
DECIDABLE_MM2 = 0.3
"""A squop whose overlap shows less than this (mm², from above, past the
winks higher than both) cannot be read from the picture: the analyser needs
as much (:data:`vision.mat.relations.SHOWN_MM2`) and reports less with
neither on top, for the umpire."""


@dataclass(slots=True)
class Tally:
    """Counts over many frames."""

    errors_mm: list[float] = field(default_factory=list)
    errors_covered_mm: list[float] = field(default_factory=list)
    whole: int = 0
    whole_right: int = 0
    missed: list[str] = field(default_factory=list)
    false_winks: int = 0
    squops_true: int = 0
    squops_seen: int = 0
    squops_right: int = 0
    squops_decidable: int = 0
    """True relations whose overlap shows at least :data:`DECIDABLE_MM2`."""
    squops_decidable_right: int = 0
    hidden: list[str] = field(default_factory=list)
    """The true relations left out of :attr:`squops_decidable`, with the area showing."""
    touching_pairs: int = 0
    touching_false: int = 0
    potted_frames: int = 0
    potted_right: int = 0
    potted_right_old: int = 0
    """Against the old exact truth (:func:`visible_potted`), for comparison."""
    wrong: list[str] = field(default_factory=list)


def match(obs: MatObservation, scene: MatScene) -> dict[int, TrueWink]:
    """Seen wink index -> true wink."""
    pairs = []
    for w in obs.winks:
        for t in scene.field():
            if wink_colour(t.id) is w.colour:
                d = math.hypot(w.x - t.x, w.y - t.y)
                if d < MATCH_MM:
                    pairs.append((d, w.index, t.id))
    out: dict[int, TrueWink] = {}
    used: set[str] = set()
    by_id = {t.id: t for t in scene.winks}
    for _, i, tid in sorted(pairs):
        if i not in out and tid not in used:
            out[i] = by_id[tid]
            used.add(tid)
    return out


def seen_pairs(obs: MatObservation, m: dict[int, TrueWink]) -> set[tuple[str, str]]:
    """The squops ``obs`` sees, as (upper, lower) true ids, of winks matched
    to the truth (``m``: :func:`match`)."""
    return {(m[w.index].id, m[b].id) for w in obs.winks for b in w.on if w.index in m and b in m}


def true_pairs(scene: MatScene) -> set[tuple[str, str]]:
    """Which wink lies on which, as ``scene`` was rendered: (upper, lower) ids."""
    return {(w.id, below) for w in scene.field() for below in scene.on(w)}


def overlap_shows(upper: TrueWink, lower: TrueWink, winks: list[TrueWink],
                  step: float = 0.05) -> float:  # fmt: skip
    """The area (mm², plan view) of the overlap of ``upper`` on ``lower``
    that shows from above: not under any wink higher than ``upper`` nor its
    dark edge (:data:`EDGE_MM`)."""
    x0, x1 = max(upper.x - upper.radius, lower.x - lower.radius), min(
        upper.x + upper.radius, lower.x + lower.radius)  # fmt: skip
    y0, y1 = max(upper.y - upper.radius, lower.y - lower.radius), min(
        upper.y + upper.radius, lower.y + lower.radius)  # fmt: skip
    if x1 <= x0 or y1 <= y0:
        return 0.0
    gx, gy = np.meshgrid(np.arange(x0, x1, step) + step / 2, np.arange(y0, y1, step) + step / 2)
    keep = (np.hypot(gx - upper.x, gy - upper.y) < upper.radius) & (
        np.hypot(gx - lower.x, gy - lower.y) < lower.radius)  # fmt: skip
    for o in winks:
        if o.level > upper.level and not o.potted:
            keep &= np.hypot(gx - o.x, gy - o.y) > o.radius + EDGE_MM
    return float(keep.sum()) * step * step


def visible_potted(scene: MatScene) -> dict[str, int]:
    """Potted winks of each colour not mostly hidden under other potted winks:
    the benchmark's old exact truth, kept for comparison only. It wrongly
    hides winks that show a plain crescent past the wink above (seed 1039:
    10.6 mm); :func:`potted_bounds` is the truth now."""
    pot = scene.potted()
    out: dict[str, int] = {}
    for w in pot:
        above = [o for o in pot if o.level > w.level and overlap(o, w) > 0.6 * w.radius]
        if not above:
            c = wink_colour(w.id).value
            out[c] = out.get(c, 0) + 1
    return out


Eye = tuple[float, float, float]
"""The camera's centre in mat mm (x, y, height)."""
Grid = NDArray[np.float64]


def _ray(gx: Grid, gy: Grid, z: float, h: float, eye: Eye | None) -> tuple[Grid, Grid]:
    """Where the rays from points at height ``z`` to ``eye`` cross height ``h``."""
    if eye is None:
        return gx, gy
    k = (h - z) / (eye[2] - z)
    return gx + k * (eye[0] - gx), gy + k * (eye[1] - gy)


def potted_shows(scene: MatScene, eye: Eye | None = None, step: float = 0.25) -> dict[str, float]:
    """How thick (mm) the widest patch of each potted wink's face is that the
    camera at ``eye`` (straight above each point when None) sees through the
    pot's opening, past the potted winks above it (with their dark edges);
    0.0 for a wink wholly hidden."""
    spec = scene.spec
    pot = scene.potted()
    opening = spec.pot_rim_mm / 2 - POT_WALL_MM
    out: dict[str, float] = {}
    for w in pot:
        z = POT_FLOOR_MM + WINK_THICKNESS_MM * (w.level + 1)
        xs = np.arange(-w.radius, w.radius + step, step)
        gx, gy = np.meshgrid(xs + w.x, xs + w.y)
        seen = np.hypot(gx - w.x, gy - w.y) <= w.radius
        ox, oy = _ray(gx, gy, z, POT_HEIGHT_MM, eye)
        seen &= np.hypot(ox - spec.pot_x_mm, oy - spec.pot_y_mm) < opening
        for o in pot:
            if o.level > w.level:
                ux, uy = _ray(gx, gy, z, POT_FLOOR_MM + WINK_THICKNESS_MM * (o.level + 1), eye)
                seen &= np.hypot(ux - o.x, uy - o.y) > o.radius + EDGE_MM
        if not seen.any():
            out[w.id] = 0.0
            continue
        import cv2  # only here, as in scene.shows

        depth = cv2.distanceTransform(np.pad(seen, 1).astype(np.uint8), cv2.DIST_L2, 5)
        out[w.id] = float(2 * depth.max() * step)
    return out


def potted_bounds(scene: MatScene, eye: Eye | None = None) -> dict[str, tuple[int, int]]:
    """For each colour, the potted counts a camera at ``eye`` may fairly
    report: at least the winks showing a patch :data:`PLAIN_MM` thick through
    the opening, at most the winks showing at all (a wink whose visible part
    is a thin sliver, or hidden under one of its own colour, may be missed;
    a wink wholly hidden cannot be seen)."""
    shows = potted_shows(scene, eye)
    out: dict[str, tuple[int, int]] = {}
    for wid, thick in shows.items():
        c = wink_colour(wid).value
        lo, hi = out.get(c, (0, 0))
        out[c] = (lo + (thick >= PLAIN_MM), hi + (thick > 0))
    return out


def tally(
    obs: MatObservation, scene: MatScene, t: Tally, tag: str = "", eye: Eye | None = None
) -> None:
    """Add one frame's comparison to ``t``."""
    m = match(obs, scene)
    seen_ids = {tw.id for tw in m.values()}
    t.missed += [f"{tag}{w.id}" for w in scene.field() if w.id not in seen_ids]
    t.false_winks += len(obs.winks) - len(m)
    for w in obs.winks:
        tw = m.get(w.index)
        if tw is None:
            continue
        err = math.hypot(w.x - tw.x, w.y - tw.y)
        covered = scene.covered(tw)
        (t.errors_covered_mm if covered else t.errors_mm).append(err)
        if not covered:
            t.whole += 1
            right = w.size == wink_size(tw.id)
            t.whole_right += right
            if not right:
                t.wrong.append(f"{tag}{tw.id} seen as {w.size} mm")
    _squops(obs, scene, m, t, tag)
    seen = {c.value: n for c, n in obs.pot.potted.items()} if obs.pot else {}
    colours = ("blue", "green", "red", "yellow")
    old = visible_potted(scene)
    t.potted_right_old += all(seen.get(c, 0) == old.get(c, 0) for c in colours)
    bounds = potted_bounds(scene, eye)
    t.potted_frames += 1
    if all(bounds.get(c, (0, 0))[0] <= seen.get(c, 0) <= bounds.get(c, (0, 0))[1] for c in colours):
        t.potted_right += 1
    else:
        t.wrong.append(f"{tag}potted seen {seen} want {bounds}")


def _squops(
    obs: MatObservation, scene: MatScene, m: dict[int, TrueWink], t: Tally, tag: str
) -> None:
    truth, seen = true_pairs(scene), seen_pairs(obs, m)
    t.squops_true += len(truth)
    t.squops_seen += len(seen)
    t.squops_right += len(truth & seen)
    field = scene.field()
    by_id = {w.id: w for w in field}
    for a, b in sorted(truth):
        area = overlap_shows(by_id[a], by_id[b], field)
        if area >= DECIDABLE_MM2:
            t.squops_decidable += 1
            t.squops_decidable_right += (a, b) in seen
        else:
            t.hidden.append(f"{tag}{a} on {b} ({area:.2f} mm2 showing)")
    for a, b in sorted(seen - truth):
        t.wrong.append(f"{tag}false squop {a} on {b}")
    for a, b in sorted(truth - seen):
        t.wrong.append(f"{tag}missed squop {a} on {b}")
    for i, wa in enumerate(field):
        for wb in field[i + 1 :]:
            if wa.level == wb.level and -0.3 <= overlap(wa, wb) <= 0:
                t.touching_pairs += 1
                t.touching_false += (wa.id, wb.id) in seen or (wb.id, wa.id) in seen


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank), NaN for no values."""
    if not values:
        return math.nan
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]
