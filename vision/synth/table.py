"""A synthetic floor-camera table for the headless harness.

A scenario whose ``[camera]`` is ``source = "synthetic"`` (and, with a
second camera, ``[camera.second]`` too) drops coins on the rendered table
with a ``frame`` input that gives a ``coin`` instead of an image ``path``.
The table is set up the way a real one is: each camera calibrated from its
rendered empty floor (the real ArUco path) and the coin registered with it
(both faces at four turns, :func:`vision.synth.trial.register`). Each
landing then runs the live code: a :class:`~vision.watch.CameraWatch` takes
the empty floor, then each camera's preview and still of the coin at rest,
judges each with its own analyser and fuses them.

The settle detector is not run here, as it is not for an image ``frame``:
the input is the coin at rest (the detector is measured on its own,
``bench.vision_settle``).

Deterministic: every landing renders on fresh sources (the same seeds), so a
scenario's rulings do not depend on what ran before it in the process.
"""

from __future__ import annotations

import functools

import numpy as np

from controller.camera import SECOND_CAMERA_SENSOR
from controller.games.heads_and_tails.events import Landed
from vision.analyse import Analyser, settings_of
from vision.link import CameraLink
from vision.settings import CameraSettings, SourceKind
from vision.sources import layout
from vision.synth.scene import Landing
from vision.synth.source import SyntheticSource
from vision.synth.trial import set_up
from vision.watch import CameraWatch, SecondCamera


def synthetic(settings: CameraSettings | None) -> bool:
    """Whether the scenario's camera is the renderer.

    >>> synthetic(CameraSettings(SourceKind.SYNTHETIC, ""))
    True
    """
    return settings is not None and settings.source is SourceKind.SYNTHETIC


def sources(settings: CameraSettings) -> tuple[SyntheticSource, SyntheticSource | None]:
    """The rendered table's cameras (fresh: nothing on the floor)."""
    first = SyntheticSource.from_seed(settings.seed, layout(settings))
    second = settings.second
    return first, None if second is None else first.other_view(second.seed)


def _analyser(source: SyntheticSource, settings: CameraSettings, seed: int) -> Analyser:
    """One camera calibrated from its rendered empty floor, the coin registered."""
    rng = np.random.default_rng([seed, 7919])
    return set_up(source.rig, rng, source.design, settings_of(settings), settings.hfov_deg)


@functools.lru_cache(maxsize=4)
def analysers(settings: CameraSettings) -> tuple[Analyser, Analyser | None]:
    """Each camera's analyser, set up once per table (about a second a camera)."""
    first, second = sources(settings)
    one = _analyser(first, settings, settings.seed)
    if second is None or settings.second is None:
        return one, None
    return one, _analyser(second, settings.second, settings.second.seed + 1)


def land(settings: CameraSettings, landing: Landing, t_ns: int) -> Landed:
    """The ``landed`` input the table's cameras give for ``landing``, dated ``t_ns``."""
    first, second = sources(settings)
    one, two = analysers(settings)
    other = None
    if second is not None and two is not None:
        other = SecondCamera(CameraLink(lambda: second, sensor=SECOND_CAMERA_SENSOR), two)
    watch = CameraWatch(lambda: first, one, second=other)
    watch.start(t_ns)
    watch.empty_floor(t_ns)  # after Go: the empty square
    first.drop(landing)  # (seen by both cameras: one floor)
    for event in watch.look(t_ns):
        if isinstance(event, Landed):
            return event  # (its evidence: what each camera saw, and the landing)
    raise AssertionError("a synthetic camera always gives frames")
