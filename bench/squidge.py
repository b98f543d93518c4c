"""The camera's squidge-off (5(a)) against the renderer's ground truth.

For each rig (:meth:`vision.mat.render.MatRig.make`) and run: a line-up of
every colour's six winks behind its baseline, then each colour squidges one
wink (mostly near the pot, sometimes anywhere, now and then into the pot:
:func:`vision.mat.synth.lineup.squidge_run`). Both are rendered with fresh
noise, calibrated from the markers, analysed, and read by
:class:`~controller.games.tiddlywinks.camera_squidge.SquidgeWatch`.

A run is **right** when the squidge is judged and its nearest colours are
the true ones (a tie: the same tied colours), **wrong** when judged
otherwise, **undecided** when it is left pending (a notice: the umpire looks).
Two-wink runs (one colour squidges two winks) must be refused (pending).

Run from the repository root:
    .venv/bin/python -m bench.squidge --rigs 30-39 --runs 5 [--twice]
"""

from __future__ import annotations

import argparse

import numpy as np

from controller.games.tiddlywinks.camera_squidge import SquidgeWatch
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    MatSpec,
    Place,
    Wink,
    squidge_nearest,
)
from vision.mat.camera import MatView
from vision.mat.render import MatRig, render
from vision.mat.synth.lineup import squidge_run
from vision.mat.synth.scene import MatScene


def judged(rig: MatRig, view: MatView, seed: int, twice: bool) -> tuple[str, str]:
    """('right' | 'wrong' | 'undecided' | 'refused', what the watch said)."""
    rng = np.random.default_rng(seed)
    run = squidge_run(rng, twice=Colour(COLOURS[seed % 4]) if twice else None)
    watch = SquidgeWatch(MatSpec())
    watch.look(view.analyse(render(rig, run.before, seed=seed * 7 + 1)), 0, COLOURS)
    squidge = watch.look(view.analyse(render(rig, run.after, seed=seed * 7 + 2)), 1, COLOURS)
    if squidge is None:
        return "undecided", "no squidge"
    if squidge.pending:
        return ("refused" if twice else "undecided"), "; ".join(squidge.pending)
    entries = [
        (Wink(s.id, Place.POTTED if s.potted else Place.FIELD, s.x or 0.0, s.y or 0.0), s.off)
        for s in squidge.winks
    ]
    nearest = squidge_nearest(MatSpec(), entries)
    return ("right" if nearest == run.winners else "wrong"), (
        f"{[c.value for c in nearest]} vs {[c.value for c in run.winners]}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rigs", default="30-39", help="first-last rig seeds")
    ap.add_argument("--runs", type=int, default=5, help="runs per rig")
    ap.add_argument("--twice", action="store_true", help="one colour squidges two winks")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    first, last = (int(v) for v in args.rigs.split("-"))
    counts: dict[str, int] = {}
    for r in range(first, last + 1):
        rig = MatRig.make(r)
        view = MatView.calibrate(render(rig, MatScene(()), seed=1), hfov_deg=rig.hfov_deg)
        for k in range(args.runs):
            seed = r * 1000 + k
            verdict, why = judged(rig, view, seed, args.twice)
            counts[verdict] = counts.get(verdict, 0) + 1
            if args.verbose or verdict in ("wrong", "undecided"):
                print(f"rig {r} run {k}: {verdict}: {why}")
    total = sum(counts.values())
    print(f"rigs {args.rigs}, {total} runs{' (two winks of one colour)' if args.twice else ''}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))  # fmt: skip


if __name__ == "__main__":
    main()
