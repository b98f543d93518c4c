"""Why squop relations are missed or made up: each missed relation and each
false squop of ``bench.mat`` with its geometry and a cause.

For a missed relation "upper on lower": the true overlap (mm), sizes and
colours, the pile's depth, whether the video's fits were grouped for the
still's second look, what the video alone saw of the pair, and what the
final observation saw (either wink not found, their fitted circles not
overlapping past :data:`~vision.mat.relations.SQUOP_OVERLAP_MM`, or read
the other way up). A pair seen with neither on the other is "open, overlap
hidden" where less than :data:`~vision.mat.synth.compare.DECIDABLE_MM2` of
the true overlap shows past the winks above it (undecidable from above: the
engine asks the umpire, 14), else "not linked".

For a false squop "upper on lower" (seen, not true), the same columns, and
as its cause what is true of the pair: the other wink is on top ("upside
down"), the two merely touch (true overlap -0.3-0 mm), they overlap with
neither on the other, or they lie apart; the video column says whether the
video alone saw the same false squop ("false too").

Then the frames' relations right, colour and size right on uncovered winks,
winks missed and false winks (each wink got wrong listed as by ``--wrong``).

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
from vision.mat.synth.compare import (
    DECIDABLE_MM2,
    Tally,
    match,
    overlap_shows,
    seen_pairs,
    tally,
)
from vision.mat.synth.scene import MatScene, TrueWink, overlap, random_scene
from vision.mat.winks import Fit, Picture, find_winks


@dataclass(frozen=True, slots=True)
class Miss:
    """One missed relation and what the analysis made of it."""

    seed: int
    kind: str
    """"missed" (a true relation not seen) or "false" (seen, not true)."""
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
        tag = "" if self.kind == "missed" else "FALSE "
        return (f"[{self.seed}] {tag}{self.upper} on {self.lower}: "
                f"overlap {self.overlap_mm:.1f} mm, "
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
    shows = overlap_shows(up, low, scene.field())
    detail = f"{sizes}, seen overlap {ov:.1f} mm, showing {shows:.2f} mm2"
    if shows < DECIDABLE_MM2:
        return "open, overlap hidden", detail  # undecidable from above: the umpire is asked
    return "not linked", detail


def _false_verdict(obs: MatObservation, scene: MatScene, up: TrueWink, low: TrueWink,
                   m: dict[int, TrueWink]) -> tuple[str, str]:  # fmt: skip
    """What is true of a pair ``obs`` saw as "up on low" (not true), and its numbers."""
    seen = {tw.id: obs.winks[i] for i, tw in m.items()}
    a, b = seen[up.id], seen[low.id]
    ov = a.radius + b.radius - math.hypot(a.x - b.x, a.y - b.y)
    errors = f"errors {_off(a, up)}/{_off(b, low)}"
    detail = f"seen {a.size}/{b.size}, {errors}, seen overlap {ov:.1f} mm"
    true_ov = overlap(up, low)
    if up.id in scene.on(low):
        return "upside down", detail
    if -0.3 <= true_ov <= 0 and up.level == low.level:
        return "touching", detail
    return ("overlapping, neither on the other" if true_ov > 0 else "apart"), detail


def _off(w: SeenWink, t: TrueWink) -> str:
    return f"{math.hypot(w.x - t.x, w.y - t.y):.1f} mm"


def _nearest(fits: list[Fit], t: TrueWink) -> int:
    """The video fit of ``t``'s colour within 6 mm of it (-1: none)."""
    near = (k for k, f in enumerate(fits)
            if f.colour is wink_colour(t.id) and math.hypot(f.x - t.x, f.y - t.y) < 6)  # fmt: skip
    return next(near, -1)


def misses(seed: int, still_of: bool = True, t: Tally | None = None) -> list[Miss]:
    """The missed relations and false squops of one benchmark frame; with
    ``t``, the frame's tally is added to it and each wink it gets wrong is
    printed (:func:`wink_lines`)."""
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
    if t is not None:
        tally(obs, scene, t, f"[{seed}] ", rig.eye)
        for line in wink_lines(seed, scene, obs):
            print(line)
    video = analyser.analyse(frame)
    cal = analyser.cal
    grey = np.asarray(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), np.uint8)
    pot = find_pot(grey, cal, analyser.layout.spec)
    blocked = pot_mask(cal, pot, analyser.layout.spec) if pot else np.zeros_like(grey)
    pic = Picture(frame.image, cal, analyser.region, blocked, analyser.r_small_px)
    return listed(seed, scene, obs, video, find_winks(pic).fits)


def listed(seed: int, scene: MatScene, obs: MatObservation, video: MatObservation,
           fits: list[Fit]) -> list[Miss]:  # fmt: skip
    """The relations of ``scene`` that ``obs`` misses, then the squops it sees
    that are not true; ``video``: the video frame's observation alone,
    ``fits``: its fits (the still's groups are made of them)."""
    m = match(obs, scene)
    got = seen_pairs(obs, m)
    by_id = {w.id: w for w in scene.winks}
    every_group = groups(fits)

    def grouped(up: TrueWink, low: TrueWink) -> bool:
        near = [_nearest(fits, t) for t in (up, low)]
        return any(near[0] in g and near[1] in g for g in every_group) and -1 not in near

    truth = [(w.id, below) for w in scene.field() for below in scene.on(w)]  # in field order
    out = []
    for up_id, low_id in (p for p in truth if p not in got):
        w, low = by_id[up_id], by_id[low_id]
        cause, detail = _verdict(obs, scene, w, low)
        vcause, _ = _verdict(video, scene, w, low)
        out.append(Miss(seed, "missed", w.id, low_id, overlap(w, low), _pile(scene, w),
                        grouped(w, low), vcause, cause, detail))  # fmt: skip
    for up_id, low_id in sorted(got - set(truth)):
        w, low = by_id[up_id], by_id[low_id]
        cause, detail = _false_verdict(obs, scene, w, low, m)
        vcause = _video_saw(video, scene, w, low)
        out.append(Miss(seed, "false", w.id, low_id, overlap(w, low), _pile(scene, w),
                        grouped(w, low), vcause, cause, detail))  # fmt: skip
    return out


def _video_saw(video: MatObservation, scene: MatScene, up: TrueWink, low: TrueWink) -> str:
    """What the video alone saw of a false squop "up on low"."""
    cause, _ = _verdict(video, scene, up, low)
    return {"right": "false too", "upside down": "right way up"}.get(cause, cause)


def report(first: int, frames: int) -> None:
    """List every miss and false squop, and count them by cause."""
    every: list[Miss] = []
    t = Tally()
    for seed in range(first, first + frames):
        found = misses(seed, t=t)
        for miss in found:
            print(miss.line())
        every += found
    for kind, title in (("missed", "missed relations"), ("false", "false squops")):
        these = [m for m in every if m.kind == kind]
        print(f"{len(these)} {title}")
        kinds = Counter((m.cause, m.pile, wink_colour(m.upper) is wink_colour(m.lower))
                        for m in these)  # fmt: skip
        for (cause, pile, same), n in kinds.most_common():
            print(f"  {n:3d}  {cause}, pile of {pile}, {'one colour' if same else 'two colours'}")
    print(f"relations right: {t.squops_right}/{t.squops_true}; "
          f"colour and size right on uncovered winks: {t.whole_right}/{t.whole}; "
          f"winks missed: {len(t.missed)}, false winks: {t.false_winks}")  # fmt: skip


def wink_lines(seed: int, scene: MatScene, obs: MatObservation) -> list[str]:
    """``bench.mat --wrong``: each wink ``obs`` gets wrong, one line each.

    ``SIZE``: an uncovered wink matched (its colour, within
    :data:`~vision.mat.synth.compare.MATCH_MM`) but seen at another size;
    ``COLOUR``: an uncovered wink matched by none while a wink of another
    colour was seen within 6 mm of it (the tally counts it as a wink missed
    and a false wink, not in "colour and size right"); ``MISSED``: a wink
    matched by none, nothing of another colour near; ``FALSE``: a seen wink
    matched to none (and not already told as a ``COLOUR``), with the true
    wink nearest it.
    """
    m = match(obs, scene)
    field = scene.field()
    seen_ids = {t.id for t in m.values()}
    out = [f"[{seed}] SIZE {t.id} seen as {w.size} mm at {_off(w, t)}"
           for w in obs.winks if (t := m.get(w.index)) is not None
           and not scene.covered(t) and w.size != wink_size(t.id)]  # fmt: skip
    told: set[int] = set()
    for t in (t for t in field if t.id not in seen_ids):
        near = [w for w in obs.winks if w.index not in m and math.hypot(w.x - t.x, w.y - t.y) < 6]
        what = ", ".join(f"{w.colour.value} {w.size} at {_off(w, t)}" for w in near)
        cover = "covered" if scene.covered(t) else "uncovered"
        tag = "COLOUR" if near and cover == "uncovered" else "MISSED"
        out.append(f"[{seed}] {tag} {t.id} ({cover}, level {t.level}, "
                   f"at {t.x:.1f}, {t.y:.1f}): seen {what or '-'}")  # fmt: skip
        told |= {w.index for w in near} if tag == "COLOUR" else set()
    for w in obs.winks:
        if w.index in m or w.index in told:
            continue
        t = min(field, key=lambda t: math.hypot(w.x - t.x, w.y - t.y))
        out.append(f"[{seed}] FALSE {w.colour.value} {w.size} at {w.x:.1f}, {w.y:.1f}: "
                   f"nearest true {t.id} at {_off(w, t)}")  # fmt: skip
    return out
