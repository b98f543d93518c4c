"""Mat analysis against the renderer's ground truth, and its speed.

For each seed: a random rig (camera height, tilt, field of view 62-70
degrees, light, blur, noise) and a random game position (touching winks,
squops, piles of three, winks by the pot, behind baselines, over an edge,
potted), rendered at 1280x720, calibrated from its own markers (the
analysis assumes the nominal 66 degree lens, as a table without a lens
calibration would), then analysed.

Reports: centre error (mm) of uncovered and of covered winks, p50/p95;
colour and size on uncovered winks; squop precision and recall, recall
over the relations decidable from above (overlap showing at least 0.3 mm²
past the winks higher than both; the rest are listed), and false squops
among winks merely touching; potted counts per frame; time per frame
against a baseline measured in the same run (a bare ``cv2.cvtColor`` to HSV
plus a 5x5 Gaussian blur of the same frame).

Run from the repository root:  .venv/bin/python -m bench.mat [--frames 200]
(``--clock cpu``: each frame timed by the CPU time the process spent on it,
``time.process_time``, instead of the wall clock, which on a loaded machine
mostly measures waiting for a CPU; ``--misses``: each missed squop
relation and each false squop and why, :mod:`bench.mat_misses`;
``--potted``: potted counts only, fast; ``--wrong``: each wink missed, made
up, or seen at the wrong colour or size, :func:`bench.mat_misses.wink_lines`;
``--workers N``: the still's crops read in ``N`` worker processes besides
this one, :mod:`vision.mat.pool`, by default as the product does;
``--against-serial``: each frame timed with them and without, in turns,
wall and CPU, :mod:`bench.mat_pool`)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

from bench.mat_misses import wink_lines
from bench.vision_time import CLOCKS
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import calibrate_mat
from vision.mat.closer import Still
from vision.mat.pool import CropPool, default_workers
from vision.mat.pot import find_pot
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import (
    Tally,
    percentile,
    potted_bounds,
    potted_shows,
    tally,
    visible_potted,
)
from vision.mat.synth.scene import MatScene, random_scene
from vision.model import Frame

Clock = Callable[[], float]


def _baseline(frame: Frame, clock: Clock = time.perf_counter) -> float:
    t0 = clock()
    hsv = cv2.cvtColor(frame.image, cv2.COLOR_BGR2HSV)
    cv2.GaussianBlur(hsv, (5, 5), 0)
    return clock() - t0


def _still(rig: MatRig, scene: MatScene, seed: int) -> Still:
    """The camera's full-resolution still, rendered by the same rig (once per
    crop, before the clock starts: taking the still is the camera's work; the
    analysis of every crop is timed)."""
    crops: dict[tuple[int, int, int, int], Frame] = {}

    def still(box: tuple[int, int, int, int]) -> Frame:
        if box not in crops:
            crops[box] = render(rig.still(box), scene, seed=seed + 100_000)
        return crops[box]

    return still


def run(
    frames: int,
    first: int,
    closer: bool = True,
    clock: Clock = time.perf_counter,
    wrong: bool = False,
    pool: CropPool | None = None,
) -> tuple[Tally, list[float], list[float], list[float]]:
    """Analyse ``frames`` renders; the tally, analysis, baseline and calibration
    times (s, by ``clock``); ``wrong``: print each wink got wrong as its frame
    is done (:func:`bench.mat_misses.wink_lines`); ``pool``: the still's
    crops read in its workers (:mod:`vision.mat.pool`)."""
    t = Tally()
    times, base, calib = [], [], []
    for seed in range(first, first + frames):
        rig = MatRig.make(seed=seed)
        scene = random_scene(np.random.default_rng(seed))
        frame = render(rig, scene, seed=seed)
        t0 = clock()
        cal = calibrate_mat(frame)
        calib.append(clock() - t0)
        analyser = MatAnalyser(cal, pool=pool)
        look = _still(rig, scene, seed) if closer else None
        analyser.analyse(frame, look)  # warm: the first call pays for imports and caches
        t0 = clock()
        obs = analyser.analyse(frame, look)
        times.append(clock() - t0)
        base.append(min(_baseline(frame, clock) for _ in range(3)))
        tally(obs, scene, t, f"[{seed}] ", rig.eye)
        for line in wink_lines(seed, scene, obs) if wrong else ():
            print(line, flush=True)
    return t, times, base, calib


def _ms(values: list[float], q: float) -> str:
    return f"{1000 * percentile(values, q):.1f} ms"


def report(t: Tally, times: list[float], base: list[float], calib: list[float]) -> None:
    """Print the figures and which goals are met."""
    print(f"machine: {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, opencv {cv2.__version__}")  # fmt: skip
    n_err = len(t.errors_mm)
    p95 = percentile(t.errors_mm, 95)
    print(f"centre error, uncovered winks (n={n_err}): p50 {percentile(t.errors_mm, 50):.3f} mm, "
          f"p95 {p95:.3f} mm, max {max(t.errors_mm):.3f} mm")  # fmt: skip
    print(f"centre error, covered winks (n={len(t.errors_covered_mm)}): "
          f"p50 {percentile(t.errors_covered_mm, 50):.3f} mm, "
          f"p95 {percentile(t.errors_covered_mm, 95):.3f} mm")  # fmt: skip
    print(f"colour and size right on uncovered winks: {t.whole_right}/{t.whole}")
    print(f"winks missed: {len(t.missed)}, false winks: {t.false_winks}")
    precision = t.squops_right / max(t.squops_seen, 1)
    recall = t.squops_right / max(t.squops_true, 1)
    print(f"squops: {t.squops_true} true, {t.squops_seen} seen, {t.squops_right} right: "
          f"precision {precision:.3f}, recall {recall:.3f}")  # fmt: skip
    decidable = t.squops_decidable_right / max(t.squops_decidable, 1)
    print(f"squops decidable from above (overlap showing >= 0.3 mm2): {t.squops_decidable} true, "
          f"{t.squops_decidable_right} right: recall {decidable:.3f}; "
          f"{len(t.hidden)} excluded: {', '.join(t.hidden) or '-'}")  # fmt: skip
    print(f"touching pairs: {t.touching_pairs}, seen as squops: {t.touching_false}")
    print(f"potted counts right: {t.potted_right}/{t.potted_frames} frames "
          f"(between the winks showing >= 6 mm and those showing at all; "
          f"against the old exact truth: {t.potted_right_old})")  # fmt: skip
    ratio = statistics.median(times) / statistics.median(base)
    print(f"time per frame 1280x720: p50 {_ms(times, 50)}, p95 {_ms(times, 95)}, "
          f"max {_ms(times, 100)}; baseline p50 {_ms(base, 50)}; "
          f"ratio p50 {ratio:.1f}")  # fmt: skip
    print(f"calibration (once per camera set-up): p50 {_ms(calib, 50)}")
    goals = {
        "centre error p95 <= 0.5 mm": p95 <= 0.5,
        "colour and size always right on uncovered winks": t.whole_right == t.whole,
        "squop relations >= 99 % right": min(precision, recall) >= 0.99,
        "no false squops on touching winks": t.touching_false == 0,
        "whole mat <= 40 ms (p95)": percentile(times, 95) <= 0.040,
    }
    for goal, met in goals.items():
        print(f"goal {'MET' if met else 'NOT MET'}: {goal}")


def potted_counts(rig: MatRig, scene: MatScene, seed: int, closer: bool = True) -> dict[str, int]:
    """One frame's potted counts by colour name, as ``--potted`` reads them:
    the pot found in the video frame, the counts from the still's crop of its
    opening (``closer``) or the video's; {} when no pot is found."""
    frame = render(rig, scene, seed=seed)
    analyser = MatAnalyser(calibrate_mat(frame))
    grey = np.asarray(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), np.uint8)
    pot = find_pot(grey, analyser.cal, analyser.layout.spec)
    if pot is None:
        return {}
    look = _still(rig, scene, seed) if closer else None
    return {c.value: n for c, n in analyser.potted(frame, look, pot).items()}


def potted_only(frames: int, first: int, closer: bool = True) -> None:
    """Potted counts only (``--potted``): the pot found in the video, the
    counts read from the still's crop of its opening (or the video's)."""
    right = old = 0
    wrong: list[str] = []
    colours = ("blue", "green", "red", "yellow")
    for seed in range(first, first + frames):
        rig, scene = MatRig.make(seed=seed), random_scene(np.random.default_rng(seed))
        seen = potted_counts(rig, scene, seed, closer)
        bounds = potted_bounds(scene, rig.eye)
        if all(bounds.get(c, (0, 0))[0] <= seen.get(c, 0) <= bounds.get(c, (0, 0))[1]
               for c in colours):  # fmt: skip
            right += 1
        else:
            shows = {k: round(v, 1) for k, v in potted_shows(scene, rig.eye).items()}
            wrong.append(f"[{seed}] seen {seen} want {bounds} (mm showing: {shows})")
        want = visible_potted(scene)
        old += all(seen.get(c, 0) == want.get(c, 0) for c in colours)
    for line in wrong:
        print(line)
    print(f"potted counts right: {right}/{frames} frames (seeds {first}-{first + frames - 1}; "
          f"against the old exact truth: {old})")  # fmt: skip


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=200,
                        help="frames to render and analyse (default 200)")  # fmt: skip
    parser.add_argument("--first", type=int, default=1000,
                        help="the first frame's seed (default 1000; evaluation frames are "
                        "1000-1199 and odd thousands 5000-19199, tune on 32000-34999 and "
                        "40000 up)")  # fmt: skip
    parser.add_argument("--video-only", action="store_true",
                        help="no second look at piles in a full-resolution still")  # fmt: skip
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time frames by the wall clock or the process's CPU time")  # fmt: skip
    parser.add_argument("--misses", action="store_true",
                        help="each missed squop relation and false squop, and why")  # fmt: skip
    parser.add_argument("--wrong", action="store_true",
                        help="each wink missed, made up, or of a wrong colour or size")  # fmt: skip
    parser.add_argument("--potted", action="store_true",
                        help="potted counts only (fast)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="read the still's crops in this many worker processes besides "
                        "this one (vision.mat.pool; default as the product: one fewer than "
                        f"the cores, at most 3, here {default_workers()}; 0: none)")  # fmt: skip
    parser.add_argument("--against-serial", action="store_true",
                        help="each frame timed with the workers and without, in turns, wall "
                        "and CPU (bench.mat_pool)")  # fmt: skip
    args = parser.parse_args()
    if args.potted:
        potted_only(args.frames, args.first, not args.video_only)
        return
    if args.misses:
        from bench import mat_misses

        mat_misses.report(args.first, args.frames)
        return
    print(f"clock: {args.clock}; crop workers: {args.workers}; load before: {os.getloadavg()}")
    with CropPool(args.workers) as pool:
        if args.against_serial:
            from bench import mat_pool

            mat_pool.report(mat_pool.against_serial(args.frames, args.first, pool), pool)
        else:
            pool.start()  # as a service does, before its first frame
            report(*run(args.frames, args.first, not args.video_only, CLOCKS[args.clock],
                        args.wrong, pool))  # fmt: skip
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
