"""Time to classify one crop: a flat coin and coins leaning 30/45/60 degrees,
this tree against another (e.g. main), interleaved in one run.

Run: ``.venv/bin/python -m bench.vision_time [--against DIR] [--rounds R] [--repeats N]``.
``DIR`` holds the other version's ``vision`` package, e.g. made by
``git archive main vision | tar -x -C DIR``. Each round runs a worker process
per tree, alternating which goes first; each worker renders the same scenes
(seed 1's timing rig, as ``bench.vision``: the coin 80 px across at
(700, 800) mm, with the empty floor's preview and still) and times, per scene:

- ``locate``: the candidates in the 1280x720 preview;
- ``classify``: the judgement of one crop at the located point (rectify,
  outline, silhouette against the empty still, face, evidence picture; since
  session 9 its PNG is encoded when the evidence is saved, not here), timed
  on its own: never negative, and locate is not in it;
- ``whole``: ``Analyser.analyse`` (locate + classify).

One more scene, ``rimflat`` (whatever ``--seed``): a flat coin whose shadow
measures 0.1-0.3 beyond a flat coin's, seen over 0.2 off vertical, so its
classify takes the silhouette against the empty still for the rim band
(``vision.rimband.by_band``), which the scenes above do not reach:
``bench.vision --seed 100``'s landing 100019#0 (``RIM_SCENE``: tuning rig
100019, its first landing, rendered as ``vision.synth.trial.trials`` does).

``--full-frame`` hands the analyser each still as a whole sensor frame
instead of a window around the coin. The benches' stills are windows (as a
camera with a region-of-interest readout gives them, and quick to render),
while the product's sources (Picamera2 stills, V4L2, files) deliver whole
frames; this shows any cost that grows with the still (session 24 withdrew a
crop warp that was faster on windows and slower on whole frames). Rendering
a whole still takes minutes (the timing rig's still camera is 14488 x 8149
px), so the window is rendered and padded out to the sensor's size with its
edge pixels (:func:`full_frame`): the coin's pixels are the same, the verdicts
too, and only the still's size differs (~350 MB a still).

Prints p50 / p95 of all samples per tree and the load average before and after.
``--clock cpu`` times each call by the CPU time the process spent on it
(``time.process_time``: every thread's, OpenCV's workers included) instead of
the wall clock: on a machine other sessions load to 10-30 runnable processes
the wall clock mostly measures waiting for a CPU, the CPU time much less so
(it is the work, not the latency: on an idle machine OpenCV's parallel parts
make the wall time shorter than this).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.analyse import Analyser
    from vision.model import Frame

SCENES = {"flat": 0.0, "lean30": 30.0, "lean45": 45.0, "lean60": 60.0}
RIM_SCENE = ("rimflat", 100019, 0)
"""A scene's name, the tuning rig and its landing (0: the first) whose flat
coin takes the rim band's silhouette (see the module's text)."""


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def worker(
    repeats: int, seed: int, clock: str = "wall", full_frame: bool = False
) -> dict[str, dict[str, list[float]]]:
    """Time each scene ``repeats`` times in this process; the samples in seconds.
    ``full_frame``: the stills are whole sensor frames (:func:`whole`)."""
    from vision.analyse import Analyser, Settings
    from vision.calibration import calibrate
    from vision.synth.art import CoinDesign
    from vision.synth.scene import Landing, Rig, render, still_window
    from vision.synth.trial import register

    rig = Rig.make(seed, coin_px=80.0)
    rng = np.random.default_rng(seed)
    empty = render(rig, None, None, seed=1)
    analyser = Analyser(calibrate(empty, rig.layout), settings=Settings())
    design = CoinDesign.make(seed)
    analyser.references = register(analyser, rig, design, empty, rng)
    out: dict[str, dict[str, list[float]]] = {}
    for name, tilt in SCENES.items():
        land = Landing(700.0, 800.0, "heads", rotation_deg=33.0, tilt_deg=tilt, tilt_dir_deg=20.0)
        window = still_window(rig, land, np.random.default_rng(seed + 1))
        preview = render(rig, design, land, seed=2)
        still = render(rig, design, land, seed=3, still=True, window=window)
        empty_still = render(rig, None, None, seed=4, still=True, window=window)
        if full_frame:
            still, empty_still = whole(still), whole(empty_still)
        out[name] = _time_scene(analyser, empty, preview, still, empty_still, repeats, clock)
    name, rig_seed, landing = RIM_SCENE
    out[name] = _time_scene(*rig_scene(rig_seed, landing, full_frame), repeats, clock)
    return out


def rig_scene(
    rig_seed: int, landing: int, full_frame: bool = False
) -> tuple[Analyser, Frame, Frame, Frame, Frame]:
    """Landing ``landing`` (0: the first) of ``bench.vision``'s rig ``rig_seed``,
    rendered as :func:`vision.synth.trial.trials` renders it: the analyser,
    the empty floor's preview, the preview, the still and the empty still
    (``full_frame``: as whole sensor frames, :func:`whole`)."""
    from vision.synth.scene import Landing, render, still_window
    from vision.synth.trial import prepared

    rig, rng, analyser, design, background = prepared(rig_seed)
    for _ in range(landing + 1):
        land = Landing.make(rng, rig.layout, cleet=0.2, near_line=0.3)
        shot = int(rng.integers(1 << 30))  # (the renders draw on no stream)
        seed = int(rng.integers(1 << 30))
        window = still_window(rig, land, rng)
    preview = render(rig, design, land, seed=shot)
    still = render(rig, design, land, seed=seed, still=True, window=window)
    empty_still = render(rig, None, None, seed=seed + 1, still=True, window=window)
    if full_frame:
        still, empty_still = whole(still), whole(empty_still)
    return analyser, background, preview, still, empty_still


def whole(frame: Frame) -> Frame:
    """A windowed still as the whole sensor frame: the window at its place,
    the rest its edge pixels repeated (see the module's text)."""
    from vision.model import Frame

    if frame.sensor is None:
        return frame
    (x0, y0), (w, h), (sw, sh) = frame.origin, frame.size, frame.sensor
    pad = (y0, sh - y0 - h, x0, sw - x0 - w)
    image = np.asarray(cv2.copyMakeBorder(frame.image, *pad, cv2.BORDER_REPLICATE), np.uint8)
    return Frame(image, t_ns=frame.t_ns)


def _time_scene(
    analyser: Analyser,
    empty: Frame,
    preview: Frame,
    still: Frame,
    empty_still: Frame,
    repeats: int,
    clock: str = "wall",
) -> dict[str, list[float]]:
    cands = analyser.candidates(preview, empty)
    on_sensor = np.array([[cands[0].x + preview.origin[0], cands[0].y + preview.origin[1]]])
    x, y = (float(v) for v in analyser.calibration.to_floor(on_sensor, preview.full_size)[0])
    steps: dict[str, Callable[[], object]] = {
        "locate": lambda: analyser.candidates(preview, empty),
        # ``_judge`` is in every version of the analyser: the classify step.
        "classify": lambda: analyser._judge(still, x, y, [], empty, empty_still),
        "whole": lambda: analyser.analyse(preview, still, empty, empty_still),
    }
    return {k: _samples(fn, repeats, CLOCKS[clock]) for k, fn in steps.items()}


def _samples(
    fn: Callable[[], object], repeats: int, now: Callable[[], float] = time.perf_counter
) -> list[float]:
    fn()  # warm
    times = []
    for _ in range(repeats):
        start = now()
        fn()
        times.append(now() - start)
    return times


def _run(
    tree: Path,
    script: Path,
    repeats: int,
    seed: int,
    clock: str = "wall",
    full_frame: bool = False,
) -> dict[str, dict[str, list[float]]]:
    """One worker with ``tree``'s ``vision`` package: ``script`` (a copy of
    this file alone in a scratch folder, so nothing of this tree shadows the
    other's) run with ``tree`` first on the path. Nothing is written into
    ``tree``: the bench once copied itself into the tree it was compared
    against, overwriting that tree's own ``bench/vision_time.py``."""
    cmd = [sys.executable, str(script), "--worker", f"--repeats={repeats}"]
    cmd += [f"--seed={seed}", f"--clock={clock}"] + (["--full-frame"] if full_frame else [])
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=True)
    data: dict[str, dict[str, list[float]]] = json.loads(done.stdout.splitlines()[-1])
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="a tree with the other version's vision/")
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="worker runs per tree, alternating which goes first (default 4)",
    )
    parser.add_argument(
        "--repeats", type=int, default=25, help="timings of each scene per worker run (default 25)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="the timing rig: Rig.make(SEED), as bench.vision's timing (default 1)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall clock, or the process's CPU time for a loaded machine (default wall)",
    )
    parser.add_argument(
        "--full-frame",
        action="store_true",
        help="stills as whole sensor frames (as the product's sources give them), "
        "not windows around the coin (~350 MB each, slow to render)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.repeats, args.seed, args.clock, args.full_frame)))
        return
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here}
    if args.against is not None:
        if not (args.against / "vision" / "__init__.py").is_file():
            parser.error(f"--against {args.against}: no vision/ package there")
        trees = {"other": args.against.resolve(), "this": here}
    with tempfile.TemporaryDirectory(prefix="vision_time-") as scratch:
        script = Path(scratch) / "vision_time.py"
        shutil.copy(Path(__file__), script)
        samples = _rounds(trees, script, args)
    _table(trees, samples)


def _rounds(
    trees: dict[str, Path], script: Path, args: argparse.Namespace
) -> dict[str, dict[str, dict[str, list[float]]]]:
    """Every worker's samples by tree, scene and step."""
    stills = "whole sensor frames" if args.full_frame else "windows around the coin"
    print(f"clock: {args.clock}; stills: {stills}; load before: {os.getloadavg()}")
    samples: dict[str, dict[str, dict[str, list[float]]]] = {}
    for r in range(args.rounds):
        order = list(trees.items())
        for name, tree in order if r % 2 == 0 else order[::-1]:
            got = _run(tree, script, args.repeats, args.seed, args.clock, args.full_frame)
            for scene, steps in got.items():
                for step, ts in steps.items():
                    samples.setdefault(name, {}).setdefault(scene, {}).setdefault(step, [])
                    samples[name][scene][step] += ts
    print(f"load after: {os.getloadavg()}")
    return samples


def _table(trees: dict[str, Path], samples: dict[str, dict[str, dict[str, list[float]]]]) -> None:
    """p50 / p95 ms of each tree, scene and step, as a Markdown table."""
    print("| scene | step | " + " | ".join(f"{n} p50 / p95 ms" for n in trees) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in trees) + " |")
    for scene in [*SCENES, RIM_SCENE[0]]:
        for step in ("locate", "classify", "whole"):
            cells = []
            for name in trees:
                ms = np.array(samples[name][scene][step]) * 1000
                cells.append(f"{np.percentile(ms, 50):.2f} / {np.percentile(ms, 95):.2f}")
            print(f"| {scene} | {step} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
