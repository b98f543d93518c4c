"""Where to put two floor cameras: the share of cleets that look round to
them, by geometry alone (no rendering).

A coin seen through a camera and mapped onto the floor plane (as the
analysis rectifies it) is, for a small coin, its disc projected along the
ray onto the floor: an ellipse whose axis ratio is the ratio of the
projection's singular values. A flat coin's is 1; so is a coin tilted
towards the camera by twice the view angle (the class one camera cannot
see, docs/vision.md). On the rendered landings of ``bench.vision --cameras
2`` this predicts the measured ratio of leaning coins to within about 0.1
(measured a little rounder: the coin's thickness).

Run: ``.venv/bin/python -m bench.placement`` prints, for cameras at one
height over the square's middle line, ``apart`` mm from each other, the
share of cleets (tilted 30-90 degrees any way, anywhere in the square)
that look round (axis ratio >= ``ROUND``) to one camera, to the other, and
to both.

>>> round(float(axis_ratio(0.0, 0.0, (0.0, 0.0, 2000.0), 100.0, 0.0)), 3)
1.0
>>> round(float(axis_ratio(60.0, 0.0, (0.0, 0.0, 2000.0), 0.0, 0.0)), 3)
0.5
>>> round(float(axis_ratio(90.0, 180.0, (0.0, 0.0, 2000.0), 2000.0, 0.0)), 3)  # 45 deg off
1.0
"""

from __future__ import annotations

import argparse

import numpy as np
from numpy.typing import NDArray

from vision.tilt import ellipse

ROUND = 0.93
"""At or above this axis ratio a coin looks round (``Settings.round_edge``)."""

Floats = NDArray[np.float64]


def axis_ratio(
    tilt_deg: Floats | float,
    toward_deg: Floats | float,
    camera: tuple[float, float, float],
    x: Floats | float,
    y: Floats | float,
) -> Floats:
    """The axis ratio on the floor plane of a coin at (x, y) tilted
    ``tilt_deg`` with its normal leaning towards azimuth ``toward_deg``,
    seen from ``camera`` (floor mm and height): ``vision.tilt.ellipse``'s,
    which gives the major axis's direction too (``vision.fuse`` asks it)."""
    return ellipse(tilt_deg, toward_deg, camera, x, y)[0]


def shares(
    apart_mm: float, height_mm: float, n: int = 200_000, seed: int = 1, side: float = 1500.0
) -> tuple[float, float, float]:
    """The share of cleets round to camera 1, to camera 2, to both, for
    cameras ``apart_mm`` apart on the square's middle line, symmetric about
    its middle, ``height_mm`` up."""
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(0, side, n), rng.uniform(0, side, n)
    tilt, toward = rng.uniform(30, 90, n), rng.uniform(0, 360, n)
    mid = side / 2
    one = axis_ratio(tilt, toward, (mid - apart_mm / 2, mid, height_mm), x, y) >= ROUND
    two = axis_ratio(tilt, toward, (mid + apart_mm / 2, mid, height_mm), x, y) >= ROUND
    return float(one.mean()), float(two.mean()), float((one & two).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heights", default="2000,2600", help="camera heights, mm")
    parser.add_argument("--apart", default="0,300,600,1000,1500,2000", help="separations, mm")
    args = parser.parse_args()
    print("| height | apart | round to camera 1 | to camera 2 | to both |")
    print("| --- | --- | --- | --- | --- |")
    for h in (float(v) for v in args.heights.split(",")):
        for a in (float(v) for v in args.apart.split(",")):
            one, two, both = shares(a, h)
            cells = (f"{100 * v:.2f} %" for v in (one, two, both))
            print(f"| {h:.0f} | {a:.0f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
