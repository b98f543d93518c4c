"""Size of the mat camera's evidence stills (JPEG q85, long side <= 1920 px:
:mod:`controller.games.tiddlywinks.camera_evidence`) on rendered game
positions: the 1280x720 frame the synthetic camera gives, and a 1920x1080
still (the same rig read at 1.5 times the video's pixels). Then the time a
full-resolution still (4608x2592, the video's picture scaled up) costs the
service loop: the call to ``Evidence.save`` (the write is on its writer
thread) against shrinking, encoding and writing it in the loop as the code
did before (the baseline, measured in the same run).

Run from the repository root:  .venv/bin/python -m bench.evidence [--rigs 30-39]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from controller.games.tiddlywinks.camera_evidence import Evidence, encode_jpeg
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import percentile
from vision.mat.synth.scene import random_scene
from vision.model import Frame


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rigs", default="30-39", help="first-last rig seeds")
    args = ap.parse_args()
    first, last = (int(v) for v in args.rigs.split("-"))
    sizes: dict[str, list[float]] = {"1280x720": [], "1920x1080": []}
    videos = []
    for seed in range(first, last + 1):
        rig = MatRig.make(seed)
        scene = random_scene(np.random.default_rng(seed))
        video = render(rig, scene, seed=seed).image
        videos.append(video)
        sizes["1280x720"].append(len(encode_jpeg(video)) / 1000)
        big = render(rig.still((0, 0, 1920, 1080), scale=1.5), scene, seed=seed).image
        sizes["1920x1080"].append(len(encode_jpeg(big)) / 1000)
    for name, kb in sizes.items():
        print(f"{name}: {len(kb)} stills, {min(kb):.0f}-{max(kb):.0f} kB, "
              f"median {statistics.median(kb):.0f} kB; 100 shots ~ "
              f"{statistics.mean(kb) * 100 / 1000:.1f} MB")  # fmt: skip
    loop_time(videos)


def _ms(values: list[float]) -> str:
    return f"p50 {percentile(values, 50):6.2f} ms, p95 {percentile(values, 95):6.2f} ms"


def loop_time(videos: list[np.ndarray]) -> None:
    """What a 4608x2592 still's evidence costs the service loop, now and
    before: the rendered 1280x720 ``videos`` scaled up."""
    stills = []
    for video in videos:
        big = cv2.resize(video, (4608, 2592), interpolation=cv2.INTER_LINEAR)
        stills.append(np.asarray(big, np.uint8))
    inline: list[float] = []
    call: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        ev = Evidence(base / "journal.sqlite")  # one per service, as in the camera
        for n, image in enumerate(stills * 2):  # alternate the two ways, the same stills
            t = time.perf_counter()
            (base / f"inline-{n}.jpg").write_bytes(encode_jpeg(image))  # the loop's work before
            inline.append((time.perf_counter() - t) * 1e3)
            t = time.perf_counter()
            assert ev.save("shot", n, Frame(image))
            call.append((time.perf_counter() - t) * 1e3)
            ev.flush()  # the writer finishes before the next round is timed
        ev.close()
    print(f"4608x2592 still, {len(call)} saves: in the service loop {_ms(call)}; "
          f"written in the loop (before, baseline) {_ms(inline)}; "
          f"ratio {statistics.median(inline) / statistics.median(call):.0f}x")  # fmt: skip


if __name__ == "__main__":
    main()
