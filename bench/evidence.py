"""Size of the mat camera's evidence stills (JPEG q85, long side <= 1920 px:
:mod:`controller.games.tiddlywinks.camera_evidence`) on rendered game
positions: the 1280x720 frame the synthetic camera gives, and a 1920x1080
still (the same rig read at 1.5 times the video's pixels).

Run from the repository root:  .venv/bin/python -m bench.evidence [--rigs 30-39]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from controller.games.tiddlywinks.camera_evidence import encode_jpeg
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import random_scene


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rigs", default="30-39", help="first-last rig seeds")
    args = ap.parse_args()
    first, last = (int(v) for v in args.rigs.split("-"))
    sizes: dict[str, list[float]] = {"1280x720": [], "1920x1080": []}
    for seed in range(first, last + 1):
        rig = MatRig.make(seed)
        scene = random_scene(np.random.default_rng(seed))
        video = render(rig, scene, seed=seed).image
        sizes["1280x720"].append(len(encode_jpeg(video)) / 1000)
        big = render(rig.still((0, 0, 1920, 1080), scale=1.5), scene, seed=seed).image
        sizes["1920x1080"].append(len(encode_jpeg(big)) / 1000)
    for name, kb in sizes.items():
        print(f"{name}: {len(kb)} stills, {min(kb):.0f}-{max(kb):.0f} kB, "
              f"median {statistics.median(kb):.0f} kB; 100 shots ~ "
              f"{statistics.mean(kb) * 100 / 1000:.1f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
