"""Rendered landings against the real pipeline, scored with the ground truth
(used by the tests and by ``bench/vision.py``).

Per rig: calibrate from a rendered empty floor (the real ArUco path), register
the coin (each face at four rotations, under the table's own light), then
drop coins and compare the analysis with the truth. Each landing also has the
empty floor's preview and its still (the same window as the landing's still:
a camera takes the empty square after Go, before the toss).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from vision.analyse import Analyser, Settings, reference_crop
from vision.calibration import calibrate
from vision.model import Frame, Image, Observation, VisionError
from vision.references import References
from vision.synth.art import CoinDesign
from vision.synth.scene import Landing, Rig, render, still_window, with_light

REGISTER_TURNS = 4


@dataclass(frozen=True, slots=True)
class Trial:
    """One landing: the truth, what the pipeline said, how long it took."""

    landing: Landing
    truth: str
    clearance_mm: float
    observation: Observation
    seconds: float
    calibration_rms_mm: float

    @property
    def outcome(self) -> str:
        """``right``, ``wrong`` or ``indeterminate``."""
        verdict = self.observation.verdict
        if verdict == "indeterminate":
            return "indeterminate"
        return "right" if verdict == self.truth else "wrong"


def register(
    analyser: Analyser, rig: Rig, design: CoinDesign, empty: Frame, rng: np.random.Generator
) -> References:
    """Both faces at ``REGISTER_TURNS`` rotations, as the spotter would show them."""
    light = with_light(rig, azimuth_deg=rig.light.azimuth_deg + float(rng.uniform(-15, 15)))
    crops: dict[str, list[Image]] = {}
    mid = rig.layout.side_mm / 2
    for face in ("heads", "tails"):
        crops[face] = []
        for k in range(REGISTER_TURNS):
            turn = 360 * k / REGISTER_TURNS + float(rng.uniform(0, 20))
            crops[face].append(
                _shot(
                    analyser, light, design, Landing(mid, mid, face, rotation_deg=turn), empty, rng
                )
            )
    return References(crops)


def _shot(
    analyser: Analyser,
    rig: Rig,
    design: CoinDesign,
    land: Landing,
    empty: Frame,
    rng: np.random.Generator,
) -> Image:
    """One reference crop; a shot the pipeline rejects is taken again, as a
    spotter would (the coin nudged by a few millimetres)."""
    for attempt in range(4):
        nudged = Landing(
            land.x_mm + 3 * attempt, land.y_mm, land.face, rotation_deg=land.rotation_deg
        )
        preview = render(rig, design, nudged, seed=int(rng.integers(1 << 30)))
        still = render(
            rig,
            design,
            nudged,
            seed=int(rng.integers(1 << 30)),
            still=True,
            window=still_window(rig, nudged, rng),
        )
        try:
            return reference_crop(analyser, preview, still, empty)
        except VisionError:
            if attempt == 3:
                raise
    raise AssertionError("unreachable")


class Prepared(NamedTuple):
    """A rig made ready for landings: its random stream (drawn on by each
    landing), the analyser calibrated from its empty floor with the coin
    registered, the coin's design and the empty floor's preview."""

    rig: Rig
    rng: np.random.Generator
    analyser: Analyser
    design: CoinDesign
    background: Frame


def prepared(
    rig_seed: int,
    coin_px: float | None = None,
    settings: Settings | None = None,
    fov: bool = False,
) -> Prepared:
    """Rig ``rig_seed`` (``coin_px``: the coin's size in the preview) calibrated
    and its random coin registered, as :func:`trials` starts each rig;
    ``fov``: the lens's field of view configured (else estimated from the
    markers)."""
    rig = Rig.make(rig_seed, coin_px=coin_px)
    rng = np.random.default_rng(rig_seed + 7919)
    empty = render(rig, None, None, seed=int(rng.integers(1 << 30)))
    hfov = rig.camera.hfov_deg if fov else None
    analyser = Analyser(
        calibrate(empty, rig.layout, hfov_deg=hfov), settings=settings or Settings()
    )
    design = CoinDesign.make(rig_seed + 104729)
    analyser.references = register(analyser, rig, design, empty, rng)
    background = render(rig, None, None, seed=int(rng.integers(1 << 30)))
    return Prepared(rig, rng, analyser, design, background)


def trials(
    rig_seed: int,
    count: int,
    *,
    coin_px: float | None = None,
    settings: Settings | None = None,
    cleet: float = 0.2,
    near_line: float = 0.3,
    fov: bool = False,
) -> Iterator[Trial]:
    """``count`` landings on one random rig with one random coin (``fov``: as
    :func:`prepared`)."""
    rig, rng, analyser, design, background = prepared(rig_seed, coin_px, settings, fov)
    for _ in range(count):
        land = Landing.make(rng, rig.layout, cleet=cleet, near_line=near_line)
        preview = render(rig, design, land, seed=int(rng.integers(1 << 30)))
        seed = int(rng.integers(1 << 30))
        window = still_window(rig, land, rng)
        still = render(rig, design, land, seed=seed, still=True, window=window)
        empty_still = render(rig, None, None, seed=seed + 1, still=True, window=window)
        start = time.perf_counter()
        obs = analyser.analyse(preview, still, background, empty_still)
        took = time.perf_counter() - start
        clearance = rig.layout.in_out_clearance(land.x_mm, land.y_mm, land.diameter_mm / 2)
        yield Trial(land, land.truth(rig.layout), clearance, obs, took, analyser.calibration.rms_mm)
