"""Benchmark: when the floor camera's settle detector says the coin has come to rest.

Run: ``.venv/bin/python -m bench.vision_settle [--first 100100] [--rigs 20]``.

On each rendered table (``SyntheticSource.from_seed``: the standard 1.5 m
square filling a 1280x720 preview) 15 frames of the empty floor, then at
three places a toss: the coin rolls in (4 frames, 30 mm a frame, on edge),
spins and wobbles in place from 85 to 22 degrees of tilt (8 frames), then
rests flat (12 frames). Counted for the detector told the empty floor
(``expect``, as the live watch does after Go) and, as the baseline in the
same run, for the 320 px copy's motion alone (no empty floor): settled after
the rest, while the coin still moved (a still taken of a wobbling coin), more
than once, or never; settles on the empty floor; how many frames after the
rest; the time of one ``feed`` (median).
"""

from __future__ import annotations

import argparse
import statistics
import time

from vision.floor import local_scale
from vision.locate import SettleDetector
from vision.synth.scene import Landing
from vision.synth.source import SyntheticSource

PLACES = ((750.0, 750.0), (300.0, 1200.0), (1200.0, 300.0))
REST_AT = 12
"""The toss's first frame at rest."""


def toss(x: float, y: float) -> list[Landing]:
    """Rolling in, wobbling in place, then at rest (see the module's docstring)."""
    rolling = [Landing(x - 30 * (4 - k), y, "heads", 40.0 * k, 80.0, 90.0) for k in range(4)]
    wobbling = [Landing(x, y, "heads", 30.0 * k, 85.0 - 9 * k, 50.0 * k) for k in range(8)]
    return rolling + wobbling + [Landing(x, y, "heads", 210.0, 1.0, 350.0)] * 12


class Tally:
    """One detector's counts."""

    def __init__(self) -> None:
        self.after = self.early = self.twice = self.never = self.empty = 0
        self.delay: list[int] = []
        self.seconds: list[float] = []

    def toss(self, fired: list[int]) -> None:
        self.twice += len(fired) > 1
        if not fired:
            self.never += 1
        elif fired[0] < REST_AT:
            self.early += 1
        else:
            self.after += 1
            self.delay.append(fired[0] - REST_AT)

    def line(self, name: str, tosses: int, empties: int) -> str:
        delay = (
            f"{min(self.delay)}-{max(self.delay)} (median {statistics.median(self.delay):g})"
            if self.delay
            else "-"
        )
        return (
            f"| {name} | {self.after} of {tosses} | {self.early} | {self.twice} | {self.never} "
            f"| {self.empty} of {empties} | {delay} "
            f"| {1000 * statistics.median(self.seconds):.2f} ms |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=100100, help="first rig seed (tuning: >= 100)")
    parser.add_argument("--rigs", type=int, default=20, help="how many rigs")
    args = parser.parse_args()
    told, plain = Tally(), Tally()
    empties = tosses = 0
    for seed in range(args.first, args.first + args.rigs):
        src = SyntheticSource.from_seed(seed)
        mid = src.rig.layout.side_mm / 2
        coin_px = 24.0 * local_scale(src.rig.camera.floor_homography(), mid, mid)
        floor = src.preview().image
        places: list[tuple[float, float] | None] = [None, *PLACES]
        for place in places:
            detectors = ((told, SettleDetector()), (plain, SettleDetector()))
            detectors[0][1].expect(floor, coin_px)
            frames: list[Landing | None] = (
                [None] * 15 if place is None else [None, None, *toss(*place)]
            )
            fired: dict[int, list[int]] = {0: [], 1: []}
            for k, land in enumerate(frames):
                src.drop(land)
                image = src.preview().image
                for i, (tally, detector) in enumerate(detectors):
                    start = time.perf_counter()
                    if detector.feed(image):
                        fired[i].append(k - 2)
                    tally.seconds.append(time.perf_counter() - start)
            for i, (tally, _) in enumerate(detectors):
                if place is None:
                    tally.empty += len(fired[i])
                else:
                    tally.toss(fired[i])
            empties += 15 if place is None else 0
            tosses += place is not None
        src.drop(None)
        print(f"rig {seed}: done", flush=True)
    print(f"\n{tosses} tosses on {args.rigs} rigs from {args.first}, {empties} empty frames\n")
    print(
        "| detector | settled after the rest | while moving | more than once | never "
        "| on the empty floor | frames after the rest | feed, median |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(told.line("told the empty floor", tosses, empties))
    print(plain.line("baseline: the 320 px copy alone", tosses, empties))


if __name__ == "__main__":
    main()
