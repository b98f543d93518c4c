"""The first-played wink from the previews, against the truth, and what it
costs per preview.

Each run: a rendered mat (:class:`vision.mat.source.MatSource`, rig = seed)
with six winks apart on the field, watched by the live
:class:`vision.mat.settle.ShotWatch` at 10 previews a second (640x360):

- **slide** (rigs 30-49): one wink slides in three previews and stops;
- **hit** (rigs 30-49): one wink slides up to another, which then slides on;
- **same** (rigs 50-59): two winks change in the same preview (must be None);
- **hand** (rigs 50-59): a hand comes over the mat, then a wink slides
  (must be None);
- **behind** (rigs 60-79): the other 18 winks lie behind their baselines
  (unplayed: the engine has no place for them; the camera read a still of
  the mat before the shot), and one of them slides out onto the field;
- **behind-hit** (rigs 60-79): one slides out up to a wink in play, which
  slides on.

For the two ``behind`` kinds the wink right is the id the shot gave the wink
that came out (which of a colour's 16 mm winks behind the baseline is ``b3``
is the naming's choice).

Every run is watched twice, by this branch's ShotWatch and first-wink
watcher and by main's (``vision/mat/settle.py`` and
``controller/games/tiddlywinks/camera_first.py`` as the ``main`` branch has
them, read with ``git show``), in alternating order: the first wink each
finds is tallied (right / None / wrong), and the preview time (ms, p50/p95)
of quiet/moving previews and of the settling one (which reads the still) is
reported for both.

Run from the repository root:  .venv/bin/python -m bench.first
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import time
import types
from functools import cache
from typing import Any

import numpy as np

from controller.games.tiddlywinks.camera_first import FirstWink
from controller.games.tiddlywinks.events import Shot, Sighting
from controller.games.tiddlywinks.geometry import (
    WINK_IDS,
    MatSpec,
    Place,
    new_mat,
    wink_colour,
    wink_size,
)
from controller.games.tiddlywinks.observe import place_winks
from vision.mat import settle as branch_settle
from vision.mat.camera import MatView
from vision.mat.layout import MatLayout
from vision.mat.settle import moved_ids
from vision.mat.source import MatSource
from vision.mat.synth.lineup import lineup
from vision.mat.synth.scene import MatScene, TrueWink


@cache
def _main(path: str) -> Any:
    """``path`` as on the ``main`` branch, as a module."""
    src = subprocess.run(["git", "show", f"main:{path}"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    name = "main_" + path.replace("/", "_").removesuffix(".py")
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(src, f"main:{path}", "exec"), module.__dict__)
    return module


def _main_settle() -> Any:
    return _main("vision/mat/settle.py")


def _main_first() -> Any:
    return _main("controller/games/tiddlywinks/camera_first.py").FirstWink


PREVIEW = (640, 360)
FRAME_NS = 100_000_000


def _places(rng: np.random.Generator) -> dict[str, tuple[float, float]]:
    ids = [str(i) for i in rng.choice(WINK_IDS, 6, replace=False)]
    out: dict[str, tuple[float, float]] = {}
    for wid in ids:
        while True:
            x, y = float(rng.uniform(-600, 600)), float(rng.uniform(-330, 330))
            if math.hypot(x, y) > 80 and all(
                math.hypot(x - a, y - b) > 60 for a, b in out.values()
            ):
                out[wid] = (x, y)
                break
    return out


class Watch:
    def __init__(
        self, source: MatSource, view: MatView, first: bool, places: dict[str, tuple[float, float]]
    ) -> None:
        code: Any = branch_settle if first else _main_settle()
        region = code.mat_region(view.calibration, MatSpec(), size=PREVIEW)
        settle = code.MatSettle(code.SettleSettings(), region, PREVIEW)
        self.watch = code.ShotWatch(view.analyse, settle, MatSpec())
        watcher: Any = FirstWink if first else _main_first()
        self.watch.first = watcher(view.calibration, PREVIEW, settle.settings)
        self.mat = place_winks(
            MatSpec(), new_mat(), [Sighting(w, x, y) for w, (x, y) in places.items()]
        )
        self.source = source
        self.t = 0
        self.quiet: list[float] = []
        self.settling: list[float] = []
        self.shot: Shot | None = None

    def frame(self, image: np.ndarray) -> None:
        self.t += FRAME_NS
        t0 = time.perf_counter()
        shot = self.watch.preview(image, self.t, self.source.still, self.mat)
        ms = (time.perf_counter() - t0) * 1000
        if self.watch.settle.settled_ns == self.t:
            self.settling.append(ms)
        else:
            self.quiet.append(ms)
        if shot is not None:
            self.shot = shot


def _out_to(rng: np.random.Generator, places: dict[str, tuple[float, float]],
            wid: str) -> tuple[float, float]:  # fmt: skip
    """A place on the field in front of ``wid``'s baseline, clear of the others."""
    cx, cy = MatSpec().corner(wink_colour(wid))
    while True:
        f = float(rng.uniform(0.15, 0.6))
        x, y = cx * f + float(rng.uniform(-80, 80)), cy * f + float(rng.uniform(-80, 80))
        if all(math.hypot(x - a, y - b) > 45 for w, (a, b) in places.items() if w != wid):
            return x, y


def _came_out(w: Watch, a: str, end: tuple[float, float]) -> str:
    """The id the wink ``a`` that came out from behind the baseline had before
    the shot: the one unplayed wink of its colour and size the shot moves.
    (The id the shot gives the wink now at ``end`` may differ: the naming can
    swap two winks of a kind, one hit, one come out; printed when it does.)"""
    assert w.shot is not None
    moved = moved_ids(MatSpec(), w.mat, w.shot)
    kind = (wink_colour(a), wink_size(a))
    out = [m.id for m in w.mat if m.id in moved and m.place is Place.BASELINE
           and (m.colour, wink_size(m.id)) == kind]  # fmt: skip
    seen = [s for s in w.shot.winks if s.x is not None and s.y is not None]
    there = min(seen, key=lambda s: math.hypot((s.x or 0) - end[0], (s.y or 0) - end[1])).id
    if len(out) != 1:
        return there
    if out[0] != there:
        print(f"  the naming swapped: {out[0]} came out, {there} is its id where it stopped")
    return out[0]


def run(
    kind: str, rig: int, timing: dict[str, dict[str, list[float]]]
) -> tuple[dict[str, str | None], str, str]:
    """(the wink found by branch and main, the true first wink or '-', the note)."""
    rng = np.random.default_rng(rig * 10 + len(kind))
    source = MatSource.from_seed(rig, MatLayout(), PREVIEW)
    places = _places(rng)
    initial = dict(places)
    ids = list(places)
    a, b = ids[0], ids[1]
    behind = kind.startswith("behind")
    if behind:  # the other winks behind their baselines, unplayed
        placed = [TrueWink(w, x, y) for w, (x, y) in places.items()]
        for t in lineup(rng, MatSpec(), placed=placed):
            places.setdefault(t.id, (t.x, t.y))
        a = str(rng.choice([w for w in WINK_IDS if w not in initial]))

    def show() -> None:
        source.show(MatScene(tuple(TrueWink(w, x, y) for w, (x, y) in places.items())))

    show()
    still = source.still()
    view = MatView.calibrate(still, hfov_deg=source.rig.hfov_deg)
    frames: list[np.ndarray] = [source.preview().image for _ in range(5)]

    def slide(w: str, end: tuple[float, float]) -> None:
        x0, y0 = places[w]
        for k in (1, 2, 3):
            places[w] = (x0 + k / 3 * (end[0] - x0), y0 + k / 3 * (end[1] - y0))
            show()
            frames.append(source.preview().image)

    ax, ay = places[a]
    far = (max(-600.0, min(600.0, -ax * 0.5)), max(-330.0, min(330.0, -ay * 0.5)))
    truth = a
    if kind == "slide":
        slide(a, far)
    elif kind == "behind":
        slide(a, _out_to(rng, places, a))
    elif kind in ("hit", "behind-hit"):  # behind-hit: a comes out from behind the baseline
        bx, by = places[b]
        d = math.hypot(bx - ax, by - ay)
        touch = 20.0 / d
        slide(a, (bx - (bx - ax) * touch, by - (by - ay) * touch))
        slide(b, (bx + (bx - ax) * 60 / d, by + (by - ay) * 60 / d))
    elif kind == "same":
        truth = "-"
        places[b] = (places[b][0] + 30.0, places[b][1])
        slide(a, far)
    else:  # hand
        truth = "-"
        source.hand = (float(rng.uniform(-400, 400)), float(rng.uniform(-200, 200)))
        show()
        frames.append(source.preview().image)
        slide(a, far)
        source.hand = None
        show()
        frames.append(source.preview().image)
    frames += [source.preview().image for _ in range(8)]
    found: dict[str, str | None] = {}
    note = ""
    order = (True, False) if rig % 2 else (False, True)
    for first in order:
        w = Watch(source, view, first, initial)
        if behind:  # the camera has read a still of the mat before the shot
            w.watch.shot(still, 0, w.mat)
        for image in frames:
            w.frame(image)
        key = "branch" if first else "main"
        timing[key]["quiet"] += w.quiet
        timing[key]["settling"] += w.settling
        found[key] = w.shot.wink if w.shot is not None else "no shot"
        if first:
            note = w.watch.first_note
            if behind and w.shot is not None:
                truth = _came_out(w, a, places[a])
    return found, truth, note


def main() -> None:
    timing: dict[str, dict[str, list[float]]] = {
        k: {"quiet": [], "settling": []} for k in ("main", "branch")
    }
    tally: dict[tuple[str, str], list[int]] = {}
    kinds = (("slide", range(30, 50)), ("hit", range(30, 50)), ("same", range(50, 60)),
             ("hand", range(50, 60)), ("behind", range(60, 80)),
             ("behind-hit", range(60, 80)))  # fmt: skip
    only = sys.argv[1:]
    for kind, rigs in kinds:
        if only and kind not in only:
            continue
        for rig in rigs:
            founds, truth, note = run(kind, rig, timing)
            for key, found in founds.items():
                t = tally.setdefault((kind, key), [0, 0, 0])
                if truth == "-":
                    t[0 if found is None else 1] += 1
                else:
                    t[0 if found == truth else (2 if found is None else 1)] += 1
                bad = (truth == "-") != (found is None) or (truth != "-" and found != truth)
                if key == "branch" and bad:
                    print(f"{kind} rig {rig}: found {found}, truth {truth}: {note}")
    for (kind, key), (ok, wrong, none) in tally.items():
        what = "left out (None)" if kind in ("same", "hand") else "right"
        print(f"{key:6} {kind}: {ok}/{ok + wrong + none} {what}, {wrong} wrong, {none} None")
    for key in ("main", "branch"):
        for part in ("quiet", "settling"):
            v = sorted(timing[key][part])
            p95 = v[min(len(v) - 1, int(0.95 * len(v)))]
            print(f"{key:6} {part:8} previews {len(v):4}: p50 {statistics.median(v):.1f} ms, "
                  f"p95 {p95:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
