"""Benchmark: two cameras' analyses one after the other, and side by side on two threads.

Run: ``.venv/bin/python -m bench.vision_beside [--rig 100003] [--landings 12] [--repeat 3]``.

The live watch (``vision.watch.CameraWatch.judge``) judges the second
camera's still on a thread of its own while it judges the first's; OpenCV and
numpy release the GIL for most of an analysis. Each landing (30 % cleets) is
rendered once from both cameras of tuning rig ``--rig`` (camera 2:
``Rig.other_view``), then analysed both ways in turn, ``--repeat`` times;
the verdicts and positions must agree. Prints the medians and their ratio
(the baseline: one after the other, in the same run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from vision.model import Frame
from vision.synth.scene import Landing, render, still_window
from vision.synth.trial import Prepared, prepared, second_camera


def shots(p: Prepared, land: Landing, seed: int) -> tuple[Frame, Frame, Frame, Frame]:
    """Preview, still, the empty floor's preview and its still, as a trial takes them."""
    preview = render(p.rig, p.design, land, seed=seed)
    window = still_window(p.rig, land, p.rng)
    still = render(p.rig, p.design, land, seed=seed + 1, still=True, window=window)
    empty = render(p.rig, None, None, seed=seed + 2, still=True, window=window)
    return preview, still, p.background, empty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rig", type=int, default=100003, help="rig seed (tuning: >= 100000)")
    parser.add_argument("--landings", type=int, default=12, help="landings (default 12)")
    parser.add_argument("--repeat", type=int, default=3, help="times each is analysed each way")
    args = parser.parse_args()
    one = prepared(args.rig)
    two = second_camera(one, args.rig, None, False)
    cases = []
    for k in range(args.landings):
        land = Landing.make(one.rng, one.rig.layout, cleet=0.3)
        cases.append((shots(one, land, 10 * k), shots(two, land, 10 * k + 5)))
    apart: list[float] = []
    beside: list[float] = []
    with ThreadPoolExecutor(1) as pool:
        for _ in range(args.repeat):
            for a, b in cases:
                start = time.perf_counter()
                seq = (one.analyser.analyse(*a), two.analyser.analyse(*b))
                apart.append(time.perf_counter() - start)
                start = time.perf_counter()
                future = pool.submit(two.analyser.analyse, *b)
                par = (one.analyser.analyse(*a), future.result())
                beside.append(time.perf_counter() - start)
                for s, p in zip(seq, par, strict=True):
                    if (s.verdict, s.x_mm, s.y_mm) != (p.verdict, p.x_mm, p.y_mm):
                        raise SystemExit(f"the threads changed a verdict: {s} against {p}")
    seq_s, par_s = statistics.median(apart), statistics.median(beside)
    print(f"rig {args.rig}, {args.landings} landings x {args.repeat}, {os.cpu_count()} CPUs")
    print(f"one after the other (baseline): median {1000 * seq_s:.1f} ms")
    ratio = par_s / seq_s
    print(f"side by side on two threads:    median {1000 * par_s:.1f} ms (ratio {ratio:.2f})")
    print("verdicts and positions: the same both ways")


if __name__ == "__main__":
    main()
