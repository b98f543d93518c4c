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
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from vision.analyse import Analyser, Settings, reference_crop
from vision.calibration import calibrate
from vision.fuse import fuse
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
    spotter would (the coin nudged by a few millimetres), and only the last
    shot falls back on the fainter colour search (rig 210015's second
    camera needs it; rigs that register by the grey search keep exactly
    their references and random draws of before session 20)."""
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
            return reference_crop(analyser, preview, still, empty, faint=attempt == 3)
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
    design = CoinDesign.make(rig_seed + 104729)
    return _ready(rig, rng, design, settings, fov)


def _ready(
    rig: Rig, rng: np.random.Generator, design: CoinDesign, settings: Settings | None, fov: bool
) -> Prepared:
    """One camera made ready: calibrated from its own rendered empty floor,
    the coin registered through its own view, its empty preview."""
    hfov = rig.camera.hfov_deg if fov else None
    analyser = set_up(rig, rng, design, settings or Settings(), hfov)
    background = render(rig, None, None, seed=int(rng.integers(1 << 30)))
    return Prepared(rig, rng, analyser, design, background)


def set_up(
    rig: Rig,
    rng: np.random.Generator,
    design: CoinDesign,
    settings: Settings,
    hfov_deg: float | None,
) -> Analyser:
    """One camera's analyser, as a table is set up: calibrated from its
    rendered empty floor (the real ArUco path; ``hfov_deg``: the lens's
    field of view, None: estimated) and the coin registered through it."""
    empty = render(rig, None, None, seed=int(rng.integers(1 << 30)))
    analyser = Analyser(calibrate(empty, rig.layout, hfov_deg=hfov_deg), settings=settings)
    analyser.references = register(analyser, rig, design, empty, rng)
    return analyser


def second_camera(
    first: Prepared, rig_seed: int, settings: Settings | None = None, fov: bool = False
) -> Prepared:
    """The second camera of ``first``'s table (``Rig.other_view(rig_seed)``),
    made ready as the first is (its own calibration and registration, the
    same coin), on its own random stream: the first camera's landings are
    those of a one-camera run."""
    rig = first.rig.other_view(rig_seed)
    return _ready(rig, np.random.default_rng([rig_seed, 3]), first.design, settings, fov)


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
    ready = prepared(rig_seed, coin_px, settings, fov)
    for _ in range(count):
        land = Landing.make(ready.rng, ready.rig.layout, cleet=cleet, near_line=near_line)
        yield seen(ready, land)


def trial_at(rig_seed: int, index: int, *, cleet: float = 0.2, near_line: float = 0.3) -> Trial:
    """Landing ``index`` (from 0) of :func:`trials` on that rig: the same
    landing, renders and observation, without rendering or analysing the
    landings before it (they only draw on the rig's stream, as
    :func:`seen` does: :func:`_draws`)."""
    ready = prepared(rig_seed, None, None, False)
    for _ in range(index):
        _draws(ready, Landing.make(ready.rng, ready.rig.layout, cleet=cleet, near_line=near_line))
    return seen(ready, Landing.make(ready.rng, ready.rig.layout, cleet=cleet, near_line=near_line))


def _draws(ready: Prepared, land: Landing) -> tuple[int, int, tuple[int, int, int, int]]:
    """What :func:`seen` draws on the camera's stream for ``land``, in
    order: the preview's noise seed, the still's, and the still's window."""
    preview_seed = int(ready.rng.integers(1 << 30))
    seed = int(ready.rng.integers(1 << 30))
    return preview_seed, seed, still_window(ready.rig, land, ready.rng)


def seen(ready: Prepared, land: Landing) -> Trial:
    """``land`` rendered by one camera (preview, still window, the empty
    floor's still in that window, each with noise drawn from the camera's
    stream) and analysed by that camera's analyser."""
    rig, _, analyser, design, background = ready
    preview_seed, seed, window = _draws(ready, land)
    preview = render(rig, design, land, seed=preview_seed)
    still = render(rig, design, land, seed=seed, still=True, window=window)
    empty_still = render(rig, None, None, seed=seed + 1, still=True, window=window)
    start = time.perf_counter()
    obs = analyser.analyse(preview, still, background, empty_still)
    took = time.perf_counter() - start
    clearance = rig.layout.in_out_clearance(land.x_mm, land.y_mm, land.diameter_mm / 2)
    return Trial(land, land.truth(rig.layout), clearance, obs, took, analyser.calibration.rms_mm)


CameraPlaces = tuple[tuple[float, float, float] | None, tuple[float, float, float] | None]
"""Where each of two cameras' calibrations puts it (None: not found)."""


class Pair(NamedTuple):
    """One landing seen by two cameras: each camera's trial and the fused one
    (its ``seconds`` both analyses and the fuse, one after the other)."""

    first: Trial
    second: Trial
    fused: Trial
    cameras: CameraPlaces
    """Where each camera's calibration puts it (what a live table knows)."""


def pair_trials(
    rig_seed: int,
    count: int,
    *,
    settings: Settings | None = None,
    cleet: float = 0.2,
    near_line: float = 0.3,
    fov: bool = False,
) -> Iterator[Pair]:
    """``count`` landings on one random rig seen by two cameras: the first
    exactly as :func:`trials` (same rig, landings and renders), the second
    :func:`second_camera`; the fused observation ``vision.fuse.fuse``'s."""
    one = prepared(rig_seed, None, settings, fov)
    two = second_camera(one, rig_seed, settings, fov)
    cameras = (one.analyser.calibration.camera(), two.analyser.calibration.camera())
    for _ in range(count):
        land = Landing.make(one.rng, one.rig.layout, cleet=cleet, near_line=near_line)
        yield _pair(one, two, land, cameras)


def pair_at(rig_seed: int, index: int, *, cleet: float = 0.2, near_line: float = 0.3) -> Pair:
    """Landing ``index`` (from 0) of :func:`pair_trials` on that rig, as
    :func:`trial_at` is of :func:`trials`: the landings before it only draw
    on each camera's stream (:func:`_draws`), nothing is rendered for them."""
    one = prepared(rig_seed, None, None, False)
    two = second_camera(one, rig_seed, None, False)
    cameras = (one.analyser.calibration.camera(), two.analyser.calibration.camera())
    for _ in range(index):
        land = Landing.make(one.rng, one.rig.layout, cleet=cleet, near_line=near_line)
        _draws(one, land)
        _draws(two, land)
    land = Landing.make(one.rng, one.rig.layout, cleet=cleet, near_line=near_line)
    return _pair(one, two, land, cameras)


def _pair(one: Prepared, two: Prepared, land: Landing, cameras: CameraPlaces) -> Pair:
    """``land`` seen by both cameras and fused (the fused trial's time: both
    analyses and the fusing)."""
    first, second = seen(one, land), seen(two, land)
    start = time.perf_counter()
    obs = fuse([first.observation, second.observation], cameras=cameras)
    took = first.seconds + second.seconds + time.perf_counter() - start
    return Pair(first, second, replace(first, observation=obs, seconds=took), cameras)
