"""The mat's frame time with a still's crops read in worker processes
(:mod:`vision.mat.pool`) against all in the frame's process, on the same
frames in one run, and what handing a crop over costs.

Each frame is analysed with the pool and without, in turns (pooled first on
even seeds, serial first on odd ones), each once warm, then timed: the wall
clock, and the CPU time of the frame's process plus the CPU time the
workers reported for the crops they read (their unpickling and the pipes
not counted: ``handover`` measures that apart). On a loaded host the wall
figures mostly measure waiting for a CPU; the CPU figures say what the pool
costs in work.

Run from the repository root::

    .venv/bin/python -m bench.mat --frames 200 --first 40000 --workers 1 --against-serial
    .venv/bin/python -m bench.mat_pool handover --frames 30 --first 40000
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import time
from collections.abc import Iterator, Sequence
from multiprocessing.reduction import ForkingPickler

import numpy as np

from bench.mat import _still
from vision.mat import closer
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import calibrate_mat
from vision.mat.pool import CropPool
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import percentile
from vision.mat.synth.scene import random_scene
from vision.mat.winks import Found
from vision.model import Frame

Times = dict[str, list[float]]


def _frames(frames: int, first: int) -> Iterator[tuple[int, Frame, MatAnalyser, closer.Still]]:
    """Each seed's frame, an analyser calibrated on it and its still, as
    ``bench.mat`` makes them."""
    for seed in range(first, first + frames):
        rig = MatRig.make(seed=seed)
        scene = random_scene(np.random.default_rng(seed))
        frame = render(rig, scene, seed=seed)
        yield seed, frame, MatAnalyser(calibrate_mat(frame)), _still(rig, scene, seed)


def _timed(analyser: MatAnalyser, frame: Frame, look: closer.Still,
           pool: CropPool | None) -> tuple[float, float, float]:  # fmt: skip
    """One analysis: wall time, this process's CPU time and the workers', s."""
    analyser.pool = pool
    worker = pool.worker_cpu_s if pool is not None else 0.0
    w0, c0 = time.perf_counter(), time.process_time()
    analyser.analyse(frame, look)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return wall, cpu, (pool.worker_cpu_s - worker if pool is not None else 0.0)


def against_serial(frames: int, first: int, pool: CropPool) -> Times:
    """Per frame, wall and CPU times pooled and serial (s), in turns; pooled,
    the CPU time of the frame's process alone too (``pool main cpu``: with
    idle cores, the least its wall time can be)."""
    keys = ("pool wall", "pool cpu", "pool main cpu", "serial wall", "serial cpu")
    out: Times = {k: [] for k in keys}
    pool.start()
    for seed, frame, analyser, look in _frames(frames, first):
        turns = [("pool", pool), ("serial", None)]
        for name, p in turns if seed % 2 == 0 else turns[::-1]:
            _timed(analyser, frame, look, p)  # warm (and the still's crops rendered)
            wall, cpu, workers = _timed(analyser, frame, look, p)
            out[f"{name} wall"].append(wall)
            out[f"{name} cpu"].append(cpu + workers)
            if p is not None:
                out["pool main cpu"].append(cpu)
    return out


def report(times: Times, pool: CropPool) -> None:
    """p50 / p95 / mean of each, ms, and the per-frame ratios."""
    for key, values in times.items():
        ms = [1000 * v for v in values]
        print(f"{key:13s} p50 {percentile(ms, 50):6.1f}  p95 {percentile(ms, 95):6.1f}  "
              f"mean {statistics.fmean(ms):6.1f}  max {max(ms):6.1f} ms")  # fmt: skip
    for clock in ("wall", "cpu"):
        ratio = [p / s for p, s in zip(times[f"pool {clock}"], times[f"serial {clock}"],
                                       strict=True)]  # fmt: skip
        print(f"pooled / serial {clock}, per frame: median {statistics.median(ratio):.3f}, "
              f"mean {statistics.fmean(ratio):.3f}")  # fmt: skip
    print(f"crops read by workers: {pool.handed}; pool failures: {pool.failures}")


def handover(frames: int, first: int) -> None:
    """What pickling the first round's crops and their readings both ways
    costs (as the executor pickles them; the least of 3), against reading
    them."""
    costs, sizes, reads = [], [], []
    for _, frame, analyser, look in _frames(frames, first):
        analyser.pool = kept = _Kept()
        analyser.analyse(frame, look)
        for crop in kept.crops:
            t0 = time.process_time()
            found = closer.read(crop)
            reads.append(time.process_time() - t0)
            each = []
            for _ in range(3):  # the least of 3: a loaded host's spikes left out
                t0 = time.process_time()
                there = ForkingPickler.dumps(crop)
                pickle.loads(there)
                back = ForkingPickler.dumps((found, 0.0))
                pickle.loads(back)
                each.append(time.process_time() - t0)
            costs.append(min(each))
            sizes.append(len(there) + len(back))
    print(f"{len(costs)} crops of frames {first}-{first + frames - 1}: pickled both ways "
          f"p50 {1000 * statistics.median(costs):.3f} ms, "
          f"mean {1000 * statistics.fmean(costs):.3f} ms, "
          f"{statistics.fmean(sizes) / 1000:.0f} kB; a crop's reading mean "
          f"{1000 * statistics.fmean(reads):.2f} ms")  # fmt: skip


class _Kept(CropPool):
    """Reads every crop here, and keeps the first round's (those a pool hands over)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.crops: list[closer.Crop] = []

    def read(self, crops: Sequence[closer.Crop]) -> list[Found]:
        self.crops += crops
        return super().read(crops)


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("compare", "handover"):
        s = sub.add_parser(name)
        s.add_argument("--frames", type=int, default=30)
        s.add_argument("--first", type=int, default=40000)
        s.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.cmd == "handover":
        handover(args.frames, args.first)
        return
    print(f"load before: {os.getloadavg()}")
    with CropPool(args.workers) as pool:
        report(against_serial(args.frames, args.first, pool), pool)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
