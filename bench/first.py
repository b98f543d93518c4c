"""The first-played wink from the previews, against the truth, and what it
costs per preview.

Each run: a rendered mat (:class:`vision.mat.source.MatSource`, rig = seed)
with six winks apart on the field, watched by the live
:class:`vision.mat.settle.ShotWatch` at 10 previews a second (640x360):

- **slide** (rigs 30-49): one wink slides in three previews and stops;
- **hit** (rigs 30-49): one wink slides up to another, which then slides on;
- **same** (rigs 50-59): two winks change in the same preview (must be None);
- **hand** (rigs 50-59): a hand comes over the mat, then a wink slides
  (must be None).

Time: every run is watched twice, by this branch's ShotWatch with the
first-wink watcher and by main's (``vision/mat/settle.py`` as the ``main``
branch has it, read with ``git show``), in alternating order, and the
preview time (ms, p50/p95) of quiet/moving previews and of the settling one
(which reads the still) is reported for both.

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
from controller.games.tiddlywinks.geometry import WINK_IDS, MatSpec, new_mat
from controller.games.tiddlywinks.observe import place_winks
from vision.mat import settle as branch_settle
from vision.mat.camera import MatView
from vision.mat.layout import MatLayout
from vision.mat.source import MatSource
from vision.mat.synth.scene import MatScene, TrueWink


@cache
def _main_settle() -> Any:
    """``vision/mat/settle.py`` as on the ``main`` branch, as a module."""
    src = subprocess.run(["git", "show", "main:vision/mat/settle.py"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    module = types.ModuleType("main_settle")
    sys.modules["main_settle"] = module
    exec(compile(src, "main:vision/mat/settle.py", "exec"), module.__dict__)
    return module


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
        if first:
            self.watch.first = FirstWink(view.calibration, PREVIEW, settle.settings)
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


def run(
    kind: str, rig: int, timing: dict[str, dict[str, list[float]]]
) -> tuple[str | None, str, str]:
    """(the wink found, the true first wink or '-', the note)."""
    rng = np.random.default_rng(rig * 10 + len(kind))
    source = MatSource.from_seed(rig, MatLayout(), PREVIEW)
    places = _places(rng)
    initial = dict(places)
    ids = list(places)
    a, b = ids[0], ids[1]

    def show() -> None:
        source.show(MatScene(tuple(TrueWink(w, x, y) for w, (x, y) in places.items())))

    show()
    view = MatView.calibrate(source.still(), hfov_deg=source.rig.hfov_deg)
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
    elif kind == "hit":
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
    found: str | None = None
    note = ""
    order = (True, False) if rig % 2 else (False, True)
    for first in order:
        w = Watch(source, view, first, initial)
        for image in frames:
            w.frame(image)
        key = "branch" if first else "main"
        timing[key]["quiet"] += w.quiet
        timing[key]["settling"] += w.settling
        if first:
            found = w.shot.wink if w.shot is not None else "no shot"
            note = w.watch.first_note
    return found, truth, note


def main() -> None:
    timing: dict[str, dict[str, list[float]]] = {
        k: {"quiet": [], "settling": []} for k in ("main", "branch")
    }
    tally: dict[str, list[int]] = {}
    for kind, rigs in (("slide", range(30, 50)), ("hit", range(30, 50)), ("same", range(50, 60)),
                       ("hand", range(50, 60))):  # fmt: skip
        for rig in rigs:
            found, truth, note = run(kind, rig, timing)
            t = tally.setdefault(kind, [0, 0, 0])
            if truth == "-":
                t[0 if found is None else 1] += 1
            else:
                t[0 if found == truth else (2 if found is None else 1)] += 1
            if (truth == "-") != (found is None) or (truth != "-" and found != truth):
                print(f"{kind} rig {rig}: found {found}, truth {truth}: {note}")
    for kind, (ok, wrong, none) in tally.items():
        what = "left out (None)" if kind in ("same", "hand") else "right"
        print(f"{kind}: {ok}/{ok + wrong + none} {what}, {wrong} wrong, {none} None")
    for key in ("main", "branch"):
        for part in ("quiet", "settling"):
            v = sorted(timing[key][part])
            p95 = v[min(len(v) - 1, int(0.95 * len(v)))]
            print(f"{key:6} {part:8} previews {len(v):4}: p50 {statistics.median(v):.1f} ms, "
                  f"p95 {p95:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
