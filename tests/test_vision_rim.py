"""The rim band measurement (``bench.vision_rim``) and the geometry it rests
on: a coin tilted towards the camera by twice the angle the camera sees it
at looks round on the floor plane, its rim band on the far side."""

from __future__ import annotations

import math

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from bench.vision_rim import band, towards  # noqa: E402
from vision.coinface import Ellipse  # noqa: E402
from vision.synth.scene import Landing, Rig, _rims  # noqa: E402


def _drawn(band_towards: float) -> tuple[np.ndarray, Ellipse]:
    """A grey floor, a coin 96 px across (4 px a mm) and a rim band 3 px
    wide on the side at angle ``band_towards`` (radians): the face, 93 px
    across, shifted away from it."""
    img = np.full((300, 300, 3), 90, np.uint8)
    cv2.circle(img, (150, 150), 48, (80, 80, 80), -1)  # the band's metal, 0.55 x
    dx, dy = -1.5 * math.cos(band_towards), -1.5 * math.sin(band_towards)
    cv2.circle(
        img,
        (round((150 + dx) * 16), round((150 + dy) * 16)),
        round(46.5 * 16),
        (150,) * 3,
        -1,
        16,
        4,
    )
    return img, Ellipse(150, 150, 96, 96, 0)


def test_the_band_measure_says_on_which_side_the_band_is() -> None:
    toward = math.radians(30)
    near, coin = _drawn(toward)
    far, _ = _drawn(toward + math.pi)
    assert band(near, coin, toward, 4.0) < -0.15
    assert band(far, coin, toward, 4.0) > 0.15


def _projected(land: Landing, camera: tuple[float, float, float]) -> np.ndarray:
    """Both rim circles projected from the camera onto the floor plane."""
    top, bottom = _rims(land, 360)
    both = np.vstack([top, bottom])
    k = camera[2] / (camera[2] - both[:, 2])
    return np.asarray(camera[:2] + (both[:, :2] - camera[:2]) * k[:, None])


def test_a_coin_tilted_towards_the_camera_looks_round_with_its_band_on_the_far_side() -> None:
    rig = Rig.make(50001)
    camera = rig.camera.position
    rng = np.random.default_rng(1)
    for _ in range(5):
        tilted = towards(rig, rng, tilted=True)
        view = math.degrees(
            math.atan(math.hypot(tilted.x_mm - camera[0], tilted.y_mm - camera[1]) / camera[2])
        )
        if not 30 < 2 * view < 45:
            continue
        exact = Landing(tilted.x_mm, tilted.y_mm, "heads", 0.0, 2 * view, tilted.tilt_dir_deg)
        flat = Landing(tilted.x_mm, tilted.y_mm, "heads")
        toward = np.array(camera[:2]) - [tilted.x_mm, tilted.y_mm]
        toward /= np.linalg.norm(toward)
        bands = []
        for land in (flat, exact):
            hull = _projected(land, camera)
            face = hull[:360]  # the upper rim: the face's outline
            along, across = hull @ toward, hull @ [-toward[1], toward[0]]
            ratio = np.ptp(across) / np.ptp(along)
            assert 0.95 < ratio < 1.0  # both look round (0.97-0.98 here)
            # The band: the hull beyond the face, towards the camera's floor
            # point and away from it, in mm.
            face_along = face @ toward
            bands.append((along.max() - face_along.max(), face_along.min() - along.min()))
        (flat_near, flat_far), (tilted_near, tilted_far) = bands
        thickness = 2 * math.tan(math.radians(view))
        assert flat_near == pytest.approx(thickness, rel=0.05) and flat_far < 0.01
        assert tilted_near < 0.01 and tilted_far == pytest.approx(thickness, rel=0.1)
        return
    pytest.fail("no landing viewed 15-22.5 degrees off vertical")
