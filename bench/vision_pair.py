"""Benchmark: two floor cameras against one, on the same rendered landings.

Run: ``.venv/bin/python -m bench.vision --cameras 2 [--landings N] [--per-rig K]
[--seed S] [--cleet F] [--save FILE]``, or ``--load FILE`` to fuse saved
observations again (no rendering: for studying the fuse rule).

Each rig's first camera is exactly ``bench.vision``'s for the same seed (its
rig, landings and renders), so "camera 1 alone" is the one-camera baseline
on the same landings. The second camera is ``Rig.other_view``: the same
table seen from 600-1000 mm away across the square's middle, calibrated
from its own rendered empty floor through the real ArUco path, with its
own registration of the same coin. Every landing is rendered from both and
analysed by each camera's analyser; ``vision.fuse.fuse`` makes the table's
observation. Printed: the
full accuracy table for camera 1 alone, camera 2 alone and fused; cleet
recall and false flags by the view angle at the coin of camera 1 (alone and
fused); the analysis time per landing (both analyses one after the other,
plus the fuse; and the estimate for a Pi 5 running the two on two of its
four cores: the slower of the two, plus the fuse, times 3).
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from dataclasses import dataclass, replace
from pathlib import Path

from bench.vision import cleet_arg, summarise, summarise_views, view_angle
from vision.fuse import fuse
from vision.model import Observation
from vision.synth.scene import Rig
from vision.synth.trial import Trial, pair_trials

Place = tuple[float, float, float] | None


@dataclass(frozen=True, slots=True)
class Seen:
    """One landing seen by both cameras, kept to fuse again (no pictures)."""

    first: Trial
    second: Trial
    angles: tuple[float, float]
    """The true view angle at the coin from each camera (degrees)."""
    fuse_seconds: float
    cameras: tuple[Place, Place] = (None, None)
    """Where each camera's calibration puts it (``Calibration.camera()``:
    what a live table knows, not the rig's truth). Runs saved before
    session 17 b-orient do not load right: ``Observation`` has gained
    ``axis_deg`` (pickles of slotted dataclasses are by position)."""

    def fused(self) -> Observation:
        """The two observations fused by the current rule."""
        return fuse([self.first.observation, self.second.observation], cameras=self.cameras)


def _bare(t: Trial) -> Trial:
    return replace(t, observation=replace(t.observation, picture=None))


def run(seed: int, landings: int, per_rig: int, cleet: float, fov: bool = False) -> list[Seen]:
    """Render and analyse ``landings`` landings, ``per_rig`` a rig, on rigs
    ``seed * 1000`` onwards (as ``bench.vision``; ``fov``: its ``--hfov``)."""
    out: list[Seen] = []
    for r in range(max(1, landings // per_rig)):
        rig_seed = seed * 1000 + r
        rig = Rig.make(rig_seed)
        spots = (rig.camera.position, rig.other_view(rig_seed).camera.position)
        for pair in pair_trials(rig_seed, per_rig, cleet=cleet, fov=fov):
            x, y = pair.first.landing.x_mm, pair.first.landing.y_mm
            rest = pair.fused.seconds - pair.first.seconds - pair.second.seconds
            out.append(
                Seen(
                    _bare(pair.first),
                    _bare(pair.second),
                    (view_angle(spots[0], x, y), view_angle(spots[1], x, y)),
                    rest,
                    pair.cameras,
                )
            )
    return out


def report(seen: list[Seen]) -> None:
    """The three tables, the view-angle breakdowns and the times."""
    first = [s.first for s in seen]
    second = [s.second for s in seen]
    fused = [replace(s.first, observation=s.fused()) for s in seen]
    for name, results in (
        ("camera 1 alone (the one-camera baseline)", first),
        ("camera 2 alone", second),
        ("fused", fused),
    ):
        print(f"\n#### {name}\n")
        summarise(results)
    angles = [s.angles[0] for s in seen]
    print("\n#### by camera 1's view angle: camera 1 alone")
    summarise_views(first, angles)
    print("\n#### by camera 1's view angle: fused")
    summarise_views(fused, angles)
    print("\n#### by camera 2's view angle: camera 2 alone")
    summarise_views(second, [s.angles[1] for s in seen])
    timing(seen)


def timing(seen: list[Seen]) -> None:
    """Median times per landing (whole analyses: locate, rectify, outline,
    face) of each camera and of the fused analysis."""
    ms = 1000.0

    def med(values: list[float]) -> str:
        return f"{statistics.median(values) * ms:.2f} ms"

    one = [s.first.seconds for s in seen]
    two = [s.second.seconds for s in seen]
    both = [a + b + s.fuse_seconds for a, b, s in zip(one, two, seen, strict=True)]
    side = [max(a, b) + s.fuse_seconds for a, b, s in zip(one, two, seen, strict=True)]
    print("\n| time per landing (median) | here | Pi 5 estimate (3x) |\n| --- | --- | --- |")
    print(f"| camera 1's analysis | {med(one)} | |")
    print(f"| camera 2's analysis | {med(two)} | |")
    print(f"| fuse | {med([s.fuse_seconds for s in seen])} | |")
    print(
        f"| fused, one after the other | {med(both)} | {3 * statistics.median(both) * ms:.0f} ms |"
    )
    print(
        f"| fused, the two analyses in parallel (Pi 5: 4 cores) | {med(side)} | "
        f"{3 * statistics.median(side) * ms:.0f} ms |"
    )


def add_args(parser: argparse.ArgumentParser) -> None:
    """The two-camera options and ``--cleet`` (``bench.vision`` has the landing options)."""
    cleet_arg(parser)
    parser.add_argument("--save", default="", help="two cameras: keep every observation in FILE")
    parser.add_argument(
        "--load", default="", help="two cameras: fuse the observations saved in FILE again"
    )


def main(args: argparse.Namespace) -> None:
    """``bench.vision --cameras 2``."""
    if args.load:
        seen: list[Seen] = pickle.loads(Path(args.load).read_bytes())
        print(f"{len(seen)} landings from {args.load}")
    else:
        start = time.perf_counter()
        seen = run(args.seed, args.landings, args.per_rig, args.cleet, args.hfov)
        took = time.perf_counter() - start
        rigs = max(1, args.landings // args.per_rig)
        print(f"{len(seen)} landings on {rigs} rigs, two cameras, in {took:.0f} s")
        if args.save:
            Path(args.save).write_bytes(pickle.dumps(seen))
    report(seen)
