"""Settled-mat detection on synthetic preview streams: rendered mats
(``vision.mat.render``), a wink sliding and stopping, camera noise, light
flicker. The detector must say "settled" once, after the motion stops and
never before, and never for noise or flicker alone."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import cv2
import numpy as np
import pytest

from controller.games.tiddlywinks.events import Sighting
from controller.games.tiddlywinks.geometry import MatSpec, new_mat
from controller.games.tiddlywinks.observe import place_winks
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import MatCalibration
from vision.mat.render import MatRig, render
from vision.mat.settle import MatSettle, ShotWatch, mat_region
from vision.mat.synth.scene import MatScene, TrueWink
from vision.model import Frame

FRAME_NS = 100_000_000  # a 10 frames/s preview
PREVIEW = (640, 360)
REST = (TrueWink("g1", 250.0, -120.0), TrueWink("r4", -80.0, 200.0))


@cache
def _rig() -> MatRig:
    return MatRig.make(seed=21, noise=(3.0, 3.0))


@cache
def _still(x: float, y: float, wink: str = "b3") -> np.ndarray:
    """The preview (640x360) of the mat with ``wink`` at (x, y): one render per place."""
    image = render(_rig(), MatScene((*REST, TrueWink(wink, x, y))), seed=7).image
    return np.asarray(cv2.resize(image, PREVIEW, interpolation=cv2.INTER_AREA))


def _stream(places: Iterable[tuple[float, float]], *, seed: int, noise: float = 3.0,
            flicker: float = 0.0) -> list[np.ndarray]:  # fmt: skip
    """A frame per place: fresh sensor noise on each, and the light's gain
    and level wandering by up to ``flicker`` (0.1: +-10 %, +-10 grey levels)."""
    rng = np.random.default_rng(seed)
    out = []
    for x, y in places:
        frame = _still(round(x, 2), round(y, 2)).astype(np.float32)
        gain = 1.0 + flicker * rng.uniform(-1, 1)
        frame = frame * gain + 100 * flicker * rng.uniform(-1, 1)
        frame += noise * rng.standard_normal(frame.shape, dtype=np.float32)
        out.append(np.clip(frame, 0, 255).astype(np.uint8))
    return out


Point = tuple[float, float]


def _slide(start: Point, end: Point, steps: int) -> list[Point]:
    """A wink decelerating evenly from ``start`` to rest at ``end``."""
    fractions = 1 - (1 - np.arange(1, steps + 1) / steps) ** 2
    return [(start[0] + f * (end[0] - start[0]), start[1] + f * (end[1] - start[1]))
            for f in fractions]  # fmt: skip


def _fired(frames: list[np.ndarray], detector: MatSettle | None = None) -> list[int]:
    detector = detector or MatSettle()
    return [i for i, f in enumerate(frames) if detector.feed(f, i * FRAME_NS)]


def test_a_wink_sliding_then_stopping_settles_once_after_the_hold() -> None:
    places = [(-500.0, 100.0)] * 5 + _slide((-500.0, 100.0), (-300.0, 60.0), 12)
    last_move = len(places) - 1
    places += [places[-1]] * 15
    # hold 400 ms and 3 quiet frames: the 4th frame after the last move
    assert _fired(_stream(places, seed=1)) == [last_move + 4]


def test_a_wink_creeping_to_rest_is_still_moving() -> None:
    # a slide, then 8 frames of 0.6 mm each: too little between two frames,
    # but the anchor (the frame of the last motion) sees it add up
    places = [(-500.0, 100.0)] * 3 + _slide((-500.0, 100.0), (-320.0, 60.0), 8)
    places += [(-320.0 + 0.6 * k, 60.0) for k in range(1, 9)]
    last_creep = len(places) - 1
    places += [places[-1]] * 12
    fired = _fired(_stream(places, seed=2))
    assert len(fired) == 1 and fired[0] > last_creep


def test_camera_noise_alone_never_settles_or_moves() -> None:
    detector = MatSettle()
    assert _fired(_stream([(-300.0, 60.0)] * 40, seed=3, noise=6.0), detector) == []
    assert not detector.moving


@pytest.mark.parametrize("flicker", [0.05, 0.15])
def test_light_flicker_is_not_motion(flicker: float) -> None:
    detector = MatSettle()
    assert _fired(_stream([(-300.0, 60.0)] * 40, seed=4, flicker=flicker), detector) == []
    assert not detector.moving


def test_a_slide_under_flickering_light_settles_once_after_it_stops() -> None:
    places = [(200.0, -300.0)] * 4 + _slide((200.0, -300.0), (40.0, -150.0), 10)
    last_move = len(places) - 1
    places += [places[-1]] * 12
    fired = _fired(_stream(places, seed=5, flicker=0.1))
    assert fired == [last_move + 4]


def test_each_shot_settles_once() -> None:
    first = [(-500.0, 100.0)] * 3 + _slide((-500.0, 100.0), (-300.0, 60.0), 8)
    one = len(first) - 1
    first += [first[-1]] * 10
    second = _slide(first[-1], (-150.0, 0.0), 8)
    two = len(first) + len(second) - 1
    frames = _stream([*first, *second, *[second[-1]] * 10], seed=6)
    assert _fired(frames) == [one + 4, two + 4]


def test_motion_off_the_mat_region_is_ignored() -> None:
    rig = _rig()
    calibration = MatCalibration.from_projection(rig.projection(), rig.size)
    region = cv2.resize(mat_region(calibration, MatSpec()).astype(np.uint8), PREVIEW) > 0
    frames = _stream([(-300.0, 60.0)] * 20, seed=8)
    away = cv2.distanceTransform((~region).astype(np.uint8), cv2.DIST_L2, 3)
    y, x = (int(v) for v in np.unravel_index(int(np.argmax(away)), away.shape))
    assert away[y, x] > 40  # a pixel well off the mat (by the markers, say)
    for k, frame in enumerate(frames[5:12]):  # a hand moving about there
        frame[max(0, y - 10) : y + 10, max(0, x - 10 + 3 * k) : x + 10 + 3 * k] = 30
    assert _fired(frames, MatSettle(region=region)) == []
    assert _fired(frames) == [12 + 4]  # watched whole: it moves until the hand leaves


def test_a_shot_button_without_visible_motion_settles_after_the_hold() -> None:
    detector = MatSettle()
    frames = _stream([(-300.0, 60.0)] * 12, seed=9)
    for i, frame in enumerate(frames[:3]):
        assert not detector.feed(frame, i * FRAME_NS)
    detector.expect_motion(3 * FRAME_NS)
    fired = [i for i, f in enumerate(frames[3:], 3) if detector.feed(f, i * FRAME_NS)]
    assert fired == [3 + 4]


def test_the_settled_still_becomes_the_shot_named_from_the_engines_mat() -> None:
    rig = _rig()
    analyser = MatAnalyser(MatCalibration.from_projection(rig.projection(), rig.size))
    before = place_winks(MatSpec(), new_mat(), [Sighting(w.id, w.x, w.y) for w in REST])
    before = place_winks(MatSpec(), before, [Sighting("b5", -500.0, 100.0)])
    end = (-300.0, 60.0)
    places = [(-500.0, 100.0)] * 3 + _slide((-500.0, 100.0), end, 8) + [end] * 8
    stills: list[int] = []

    def still() -> Frame:  # the full-resolution picture, taken when asked
        stills.append(len(stills))
        return render(rig, MatScene((*REST, TrueWink("b3", *end))), seed=8)

    watch = ShotWatch(analyser.analyse)
    shots = [
        (i, shot)
        for i, image in enumerate(_stream(places, seed=10))
        if (shot := watch.preview(image, i * FRAME_NS, still, before, "b5")) is not None
    ]
    assert len(shots) == 1 and len(stills) == 1 and shots[0][0] == 10 + 4
    shot = shots[0][1]
    seen = {s.id: s for s in shot.winks}
    # the 16 mm blue wink is b5, the one that was played, not b3 as drawn
    assert shot.wink == "b5" and "b3" not in seen
    assert seen["b5"].x == pytest.approx(end[0], abs=1.0)
    assert seen["b5"].y == pytest.approx(end[1], abs=1.0)
    assert {"g1", "r4"} <= set(seen)
    # the shot button ends a shot at once, moving or not
    pressed = watch.button(99 * FRAME_NS, still, before, "b5")
    assert pressed.t_ns == 99 * FRAME_NS and {s.id for s in pressed.winks} == set(seen)
