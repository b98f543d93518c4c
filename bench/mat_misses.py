"""Why squop relations are missed: each missed relation of ``bench.mat``
with its geometry and a cause.

For a missed relation "upper on lower": the true overlap (mm), sizes and
colours, the pile's depth, whether the video's fits were grouped for the
still's second look, what the video alone saw of the pair, and what the
final observation saw (either wink not found, their fitted circles not
overlapping past :data:`~vision.mat.relations.SQUOP_OVERLAP_MM`, or read
the other way up).

Run from the repository root:  .venv/bin/python -m bench.mat --misses [--frames N] [--first S]
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from controller.games.tiddlywinks.geometry import wink_colour, wink_size
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import calibrate_mat
from vision.mat.closer import Still, groups
from vision.mat.model import MatObservation, SeenWink
from vision.mat.pot import find_pot, pot_mask
from vision.mat.relations import SQUOP_OVERLAP_MM
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import match
from vision.mat.synth.scene import MatScene, TrueWink, overlap, random_scene
from vision.mat.winks import Fit, Picture, find_winks


@dataclass(frozen=True, slots=True)
class Miss:
    """One missed relation and what the analysis made of it."""

    seed: int
    upper: str
    lower: str
    overlap_mm: float
    pile: int
    """The pile's height in winks (2: a plain squop)."""
    grouped: bool
    """The video's fits of the two winks were in one group for the still."""
    video: str
    cause: str
    detail: str

    def line(self) -> str:
        """One line of the listing."""
        sizes = f"{wink_size(self.upper)}/{wink_size(self.lower)}"
        colours = f"{wink_colour(self.upper).value}/{wink_colour(self.lower).value}"
        return (f"[{self.seed}] {self.upper} on {self.lower}: overlap {self.overlap_mm:.1f} mm, "
                f"sizes {sizes}, {colours}, pile {self.pile}, "
                f"still {'yes' if self.grouped else 'no'}, video {self.video}: "
                f"{self.cause} ({self.detail})")  # fmt: skip


def _pile(scene: MatScene, w: TrueWink) -> int:
    field = scene.field()
    group, todo = {w.id}, [w]
    while todo:
        a = todo.pop()
        for b in field:
            if b.id not in group and b.level != a.level and overlap(a, b) > 0:
                group.add(b.id)
                todo.append(b)
    return 1 + max(b.level for b in field if b.id in group)


def _verdict(obs: MatObservation, scene: MatScene, up: TrueWink, low: TrueWink) -> tuple[str, str]:
    """What ``obs`` made of "up on low": a cause and its numbers."""
    m = match(obs, scene)
    seen = {tw.id: obs.winks[i] for i, tw in m.items()}
    if up.id not in seen or low.id not in seen:
        gone = [t for t in (up, low) if t.id not in seen]
        near = [w for w in obs.winks for t in gone if math.hypot(w.x - t.x, w.y - t.y) < 12]
        what = ", ".join(f"{w.colour.value} {w.size} at {_off(w, gone[0])}" for w in near)
        return "wink missed", f"{' and '.join(t.id for t in gone)} not found; near: {what or '-'}"
    a, b = seen[up.id], seen[low.id]
    ov = a.radius + b.radius - math.hypot(a.x - b.x, a.y - b.y)
    sizes = f"seen {a.size}/{b.size}, errors {_off(a, up)}/{_off(b, low)}"
    if b.index in a.on:
        return "right", sizes
    if a.index in b.on:
        return "upside down", f"{sizes}, seen overlap {ov:.1f} mm"
    if ov <= SQUOP_OVERLAP_MM:
        return "fits apart", f"{sizes}, seen overlap {ov:.1f} mm"
    return "not linked", f"{sizes}, seen overlap {ov:.1f} mm"


def _off(w: SeenWink, t: TrueWink) -> str:
    return f"{math.hypot(w.x - t.x, w.y - t.y):.1f} mm"


def _nearest(fits: list[Fit], t: TrueWink) -> int:
    """The video fit of ``t``'s colour within 6 mm of it (-1: none)."""
    near = (k for k, f in enumerate(fits)
            if f.colour is wink_colour(t.id) and math.hypot(f.x - t.x, f.y - t.y) < 6)  # fmt: skip
    return next(near, -1)


def misses(seed: int, still_of: bool = True) -> list[Miss]:
    """The missed relations of one benchmark frame."""
    rig = MatRig.make(seed=seed)
    scene = random_scene(np.random.default_rng(seed))
    frame = render(rig, scene, seed=seed)
    analyser = MatAnalyser(calibrate_mat(frame))
    cache: dict[tuple[int, int, int, int], object] = {}

    def still(box: tuple[int, int, int, int]) -> object:
        if box not in cache:
            cache[box] = render(rig.still(box), scene, seed=seed + 100_000)
        return cache[box]

    look: Still | None = still if still_of else None  # type: ignore[assignment]
    obs = analyser.analyse(frame, look)
    video = analyser.analyse(frame)
    m = match(obs, scene)
    got = {(m[w.index].id, m[b].id) for w in obs.winks for b in w.on if w.index in m and b in m}
    by_id = {w.id: w for w in scene.winks}
    cal = analyser.cal
    grey = np.asarray(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), np.uint8)
    pot = find_pot(grey, cal, analyser.layout.spec)
    blocked = pot_mask(cal, pot, analyser.layout.spec) if pot else np.zeros_like(grey)
    pic = Picture(frame.image, cal, analyser.region, blocked, analyser.r_small_px)
    fits = find_winks(pic).fits
    out = []
    for w in scene.field():
        for below in scene.on(w):
            if (w.id, below) in got:
                continue
            low = by_id[below]
            near = [_nearest(fits, t) for t in (w, low)]
            grouped = any(near[0] in g and near[1] in g for g in groups(fits)) and -1 not in near
            cause, detail = _verdict(obs, scene, w, low)
            vcause, _ = _verdict(video, scene, w, low)
            out.append(Miss(seed, w.id, below, overlap(w, low), _pile(scene, w), grouped, vcause,
                            cause, detail))  # fmt: skip
    return out


def report(first: int, frames: int) -> None:
    """List every miss and count them by cause."""
    every: list[Miss] = []
    for seed in range(first, first + frames):
        found = misses(seed)
        for miss in found:
            print(miss.line())
        every += found
    print(f"{len(every)} missed relations")
    kinds = Counter((m.cause, m.pile, wink_colour(m.upper) is wink_colour(m.lower)) for m in every)
    for (cause, pile, same), n in kinds.most_common():
        print(f"  {n:3d}  {cause}, pile of {pile}, {'one colour' if same else 'two colours'}")
