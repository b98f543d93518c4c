"""Whether the rim band tells a flat coin from one tilted towards the camera
(issue 6): a measurement, not a benchmark of the pipeline.

Seen from a camera ``theta`` off vertical, a coin tilted towards the camera
by about ``2 theta`` looks round on the floor plane, and its face reads
(it is a similarity of the flat face there). What differs is the rim band,
the darker metal between face and floor: a flat coin shows it on the side
towards the camera's floor point, ``2 tan theta`` mm wide (its thickness
seen from the side); the tilted coin shows it on the far side. Rendered
landings far from the camera's floor point (``tan theta`` >= ``MIN_TAN``),
half flat, half tilted towards it by ``2 theta`` +- 6 degrees (30-45), and,
for every one the analysis calls flat, two measures of where the band is
and, for comparison, the shadow cue the analysis already has:

- ``band``: the crop's brightness in the outer 1.25 mm inside the outline,
  on the side towards the camera's floor point less the far side's (9 rays
  over +-40 degrees each), over the face's brightness (the median 2.5-4 mm
  inside): a flat coin's band there makes it negative, a tilted one's
  positive.
- ``offset``: the edge fit's centre less the silhouette's (against the
  empty still), along the direction to the camera's floor point, in mm:
  the silhouette holds the band, the edge mostly follows the face.
- ``shadow``: :func:`~vision.shadow.far_shadow` around the edge fit.

The tables give, for cuts on each (and on the offset and the shadow
together), the share of flat coins and of tilted coins beyond them; the
last lines fit each measure by least squares to
the renderer's true light direction (cos, sin of its azimuth from the
camera's) and the truth, as a bound on what learning the light from a rig's
flat coins could give: the truth's coefficient against the residual spread.

Since session 11 the analysis itself rules a coin beyond both cuts of the
offset (0.3 mm) and the shadow (0.4; 0.3-0.4: flat or leaning?) leaning
(``vision.rimband.by_band``), and since session 12 a coin with a shorter
shadow (0.1-0.3) whose ring inside the silhouette is darker on the far side
too, so those are no longer called flat here; run it on the session's start
to see them.

Run: ``.venv/bin/python -m bench.vision_rim --seed S [--rigs N --per-rig K]``
(tuning seeds only: 50, 60, 80, 90, 100 and up).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.analyse import Analyser
from vision.coinface import Ellipse
from vision.halves import STILL_STEP, Halves
from vision.model import Frame, Image, Posture
from vision.posture import band_offset
from vision.shadow import far_shadow
from vision.synth.scene import Landing, Rig, render, still_window
from vision.synth.trial import prepared

MIN_TAN = 0.2
"""Only landings this far from the camera's floor point (over its height):
nearer, twice the view angle is under 23 degrees, and the renderer's
cleets lean 30 or more."""
RAYS = 9
SPREAD_DEG = 40.0
BAND_MM = (-1.25, 0.0)
FACE_MM = (-4.0, -2.5)


@dataclass(frozen=True, slots=True)
class Probe:
    """One landing the analysis called flat: the truth and the measures."""

    tilted: bool
    tilt_deg: float
    view_deg: float
    band: float
    offset_mm: float | None
    shadow: float
    """``far_shadow`` around the edge fit (what ``Analyser._by_shadow`` measures)."""
    light_deg: float
    """The light's azimuth from the direction to the camera's floor point."""


def towards(rig: Rig, rng: np.random.Generator, tilted: bool) -> Landing:
    """A landing at least ``MIN_TAN`` off the camera's floor point: flat, or
    tilted towards that point by about twice the angle the camera sees it at."""
    cx, cy, height = rig.camera.position
    side = rig.layout.side_mm
    while True:
        x, y = (float(v) for v in rng.uniform(0, side, 2))
        d = math.hypot(x - cx, y - cy)
        if d / height >= MIN_TAN:
            break
    view = math.degrees(math.atan(d / height))
    # The renderer tilts the normal towards (sin dir, -cos dir).
    ux, uy = (cx - x) / d, (cy - y) / d
    face = "heads" if rng.random() < 0.5 else "tails"
    turn = float(rng.uniform(0, 360))
    if not tilted:
        return Landing(x, y, face, turn, float(rng.uniform(0, 3)), float(rng.uniform(0, 360)))
    tilt = float(np.clip(2 * view + rng.uniform(-6, 6), 30, 45))
    return Landing(x, y, face, turn, tilt, math.degrees(math.atan2(ux, -uy)))


def _rays(crop: Image, e: Ellipse, toward: float, ppm: float) -> NDArray[np.float32]:
    """Grey profiles (rays x radii, radii every 0.25 mm from 4 mm inside the
    outline to its edge) over +-``SPREAD_DEG`` around direction ``toward``."""
    angles = toward + np.radians(np.linspace(-SPREAD_DEG, SPREAD_DEG, RAYS))
    phi = angles - math.radians(e.angle_deg)
    a, c = e.major / 2, e.minor / 2
    edge = a * c / np.hypot(c * np.cos(phi), a * np.sin(phi))
    r = edge[:, None] + np.arange(FACE_MM[0], BAND_MM[1] + 0.01, 0.25)[None, :] * ppm
    xs = (e.x + np.cos(angles)[:, None] * r).astype(np.float32)
    ys = (e.y + np.sin(angles)[:, None] * r).astype(np.float32)
    bgr = cv2.remap(crop, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(np.asarray(bgr, np.float32).mean(axis=2), np.float32)


def band(crop: Image, e: Ellipse, toward: float, ppm: float) -> float:
    """The ``band`` measure (see the module's docstring)."""
    radii = np.arange(FACE_MM[0], BAND_MM[1] + 0.01, 0.25)
    near, far = _rays(crop, e, toward, ppm), _rays(crop, e, toward + math.pi, ppm)
    inner = radii <= FACE_MM[1]
    face = float(np.median(np.concatenate([near[:, inner].ravel(), far[:, inner].ravel()])))
    outer = radii >= BAND_MM[0]
    return float(near[:, outer].mean() - far[:, outer].mean()) / max(face, 1.0)


def probe(
    analyser: Analyser, still: Frame, empty_still: Frame, x: float, y: float
) -> tuple[float, float | None, float, float] | None:
    """(band, offset mm, shadow, direction to the camera's floor point) of
    the coin outlined at floor point (x, y), or None without an edge, a
    camera or an empty still covering the crop."""
    camera = analyser.calibration.camera()
    s = analyser.settings
    half = s.extent * s.coin_diameter_mm
    crop = analyser.crop(still, x, y, half)
    edge = analyser._edge(crop)
    halves = Halves(analyser, crop, empty_still, x, y, half)
    if camera is None or edge is None or not halves.covered:
        return None
    ppm = s.crop_px / s.coin_diameter_mm
    toward = math.atan2(camera[1] - y, camera[0] - x)
    segmented = halves.segmented
    shape = None if segmented is None else segmented.fit
    shadow = far_shadow(halves.crop, halves.empty, edge, ppm, STILL_STEP)
    offset = None if shape is None else band_offset(edge, shape, toward, ppm)
    return band(crop, edge, toward, ppm), offset, shadow, toward


def probes(rig_seed: int, count: int) -> Iterator[Probe]:
    """``count`` landings on one tuning rig, alternately flat and tilted;
    those the analysis calls flat."""
    rig, rng, analyser, design, background = prepared(rig_seed)
    for k in range(count):
        land = towards(rig, rng, tilted=k % 2 == 1)
        seed = int(rng.integers(1 << 30))
        window = still_window(rig, land, rng)
        preview = render(rig, design, land, seed=seed)
        still = render(rig, design, land, seed=seed + 1, still=True, window=window)
        empty_still = render(rig, None, None, seed=seed + 2, still=True, window=window)
        obs = analyser.analyse(preview, still, background, empty_still)
        if obs.posture is not Posture.FLAT or obs.x_mm is None or obs.y_mm is None:
            continue
        got = probe(analyser, still, empty_still, obs.x_mm, obs.y_mm)
        if got is None:
            continue
        cx, cy, height = rig.camera.position
        light = (rig.light.azimuth_deg - math.degrees(got[3]) + 180) % 360 - 180
        view = math.degrees(math.atan(math.hypot(land.x_mm - cx, land.y_mm - cy) / height))
        yield Probe(land.tilt_deg >= 15, land.tilt_deg, view, *got[:3], light)


def separation(name: str, flat: list[float], tilted: list[float], cuts: list[float]) -> None:
    """Shares of flat and tilted coins above each cut."""
    print(f"\n{name}: {len(flat)} flat, {len(tilted)} tilted called flat")
    print("| above | flat coins | tilted coins |\n| --- | --- | --- |")
    for cut in cuts:
        f = sum(v > cut for v in flat) / max(len(flat), 1)
        t = sum(v > cut for v in tilted) / max(len(tilted), 1)
        print(f"| {cut:+.2f} | {100 * f:.1f} % | {100 * t:.1f} % |")


def joint(found: list[Probe]) -> None:
    """Shares of flat and tilted coins above a cut on both the offset and the shadow."""
    print("\n| offset above, mm | shadow above | flat coins | tilted coins |")
    print("| --- | --- | --- | --- |")
    for cut, most in ((0.3, 0.3), (0.4, 0.3), (0.3, 0.4), (0.5, 0.2)):
        shares = []
        for tilted in (False, True):
            group = [p for p in found if p.tilted is tilted]
            hits = sum((p.offset_mm or 0.0) > cut and p.shadow > most for p in group)
            shares.append(100 * hits / max(len(group), 1))
        print(f"| {cut:.1f} | {most:.1f} | {shares[0]:.1f} % | {shares[1]:.1f} % |")


def light_fit(name: str, found: list[tuple[Probe, float]]) -> None:
    """``value ~ a cos(light) + b sin(light) + c tilted + d``: c against the residual."""
    if len(found) < 5:
        return
    rad = np.radians([p.light_deg for p, _ in found])
    x = np.column_stack(
        [np.cos(rad), np.sin(rad), [float(p.tilted) for p, _ in found], np.ones(len(found))]
    )
    y = np.array([v for _, v in found])
    coef = np.linalg.lstsq(x, y, rcond=None)[0]
    spread = float(np.std(y - x @ coef))
    print(
        f"{name} ~ {coef[0]:+.3f} cos(light) {coef[1]:+.3f} sin(light) "
        f"{coef[2]:+.3f} tilted {coef[3]:+.3f}; residual sd {spread:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed", type=int, default=50, help="rigs SEED*1000 onwards (default 50, a tuning seed)"
    )
    parser.add_argument("--rigs", type=int, default=10, help="how many rigs (default 10)")
    parser.add_argument(
        "--per-rig",
        type=int,
        default=30,
        help="coins rendered on each rig, flat and tilted in turn (default 30)",
    )
    args = parser.parse_args()
    found: list[Probe] = []
    for r in range(args.rigs):
        found.extend(probes(args.seed * 1000 + r, args.per_rig))
        print(f"rig {args.seed * 1000 + r}: {len(found)} called flat", flush=True)
    flat = [p for p in found if not p.tilted]
    tilted = [p for p in found if p.tilted]
    cuts = [-0.1, 0.0, 0.1, 0.2, 0.3]
    separation("band", [p.band for p in flat], [p.band for p in tilted], cuts)
    offsets = [p for p in found if p.offset_mm is not None]
    separation(
        "offset (mm)",
        [p.offset_mm for p in offsets if not p.tilted and p.offset_mm is not None],
        [p.offset_mm for p in offsets if p.tilted and p.offset_mm is not None],
        [0.2, 0.3, 0.4, 0.5, 0.7],
    )
    joint(found)
    separation("shadow", [p.shadow for p in flat], [p.shadow for p in tilted], [0.2, 0.3, 0.4, 0.5])
    print()
    light_fit("band", [(p, p.band) for p in found])
    light_fit("offset", [(p, p.offset_mm) for p in offsets if p.offset_mm is not None])


if __name__ == "__main__":
    main()
