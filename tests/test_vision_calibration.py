"""Calibration: markers to a floor homography, its error in millimetres."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.calibration import (  # noqa: E402
    Calibration,
    calibrate,
    charuco_board,
    lens_calibrate,
)
from vision.floor import apply  # noqa: E402
from vision.model import Frame, VisionError  # noqa: E402
from vision.synth.scene import Rig, render  # noqa: E402


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reprojection_error_is_small_and_the_homography_is_true(seed: int) -> None:
    rig = Rig.make(seed)
    cal = calibrate(render(rig, None, None, seed=seed), rig.layout)
    assert cal.markers == (0, 1, 2, 3)
    assert cal.rms_mm < 2.0
    # Against the renderer's own camera: points over the square land within 3 mm.
    floor = np.array([[0.0, 0.0], [1500.0, 0.0], [750.0, 750.0], [300.0, 1200.0]])
    pixels = apply(rig.camera.floor_homography(), floor)
    back = cal.to_floor(pixels, (1280, 720))
    assert np.abs(back - floor).max() < 3.0


def test_the_rendered_markers_lie_where_the_layout_says() -> None:
    # The error above scatters both ways; a bias common to every point and rig
    # is a convention slip (it was half a texel, 0.5 mm, before the texture's
    # texels were placed by their centres) that shifts every position measured.
    floor = np.array([[x, y] for x in (200.0, 750.0, 1300.0) for y in (200.0, 750.0, 1300.0)])
    bias = []
    for seed in (50000, 50003, 80001):
        rig = Rig.make(seed, coin_px=80.0)
        empty = render(rig, None, None, seed=1)
        cal = calibrate(empty, rig.layout)
        back = cal.to_floor(apply(rig.camera.floor_homography(), floor), empty.full_size)
        bias.append((back - floor).mean(axis=0))
    assert np.hypot(*np.mean(bias, axis=0)) < 0.3


def test_saved_and_loaded_alike(tmp_path: Path) -> None:
    rig = Rig.make(4)
    cal = calibrate(render(rig, None, None, seed=1), rig.layout)
    cal.save(tmp_path / "cal.json")
    again = Calibration.load(tmp_path / "cal.json")
    assert np.allclose(again.homography, cal.homography)
    assert again.size == cal.size and again.rms_mm == cal.rms_mm


def test_missing_markers_are_named() -> None:
    blank = Frame(np.full((720, 1280, 3), 128, np.uint8))
    with pytest.raises(VisionError, match="missing: 0, 1, 2, 3"):
        calibrate(blank)


def test_a_bad_calibration_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "cal.json").write_text("{}")
    with pytest.raises(VisionError, match="not a calibration file"):
        Calibration.load(tmp_path / "cal.json")
    with pytest.raises(VisionError, match="no such calibration file"):
        Calibration.load(tmp_path / "missing.json")


def test_lens_from_a_charuco_board() -> None:
    board = charuco_board()
    art = board.generateImage((700, 500), marginSize=20)
    frames = []
    for dx, dy, k in ((0, 0, 0.0), (60, -30, 0.0004), (-50, 40, -0.0003), (30, 50, 0.0002)):
        src = np.array([[0, 0], [700, 0], [700, 500], [0, 500]], np.float32)
        dst = np.array(
            [
                [150 + dx, 100 + dy],
                [850 + dx + 400 * k * 100, 120 + dy],
                [830 + dx, 620 + dy],
                [170 + dx, 600 + dy - 400 * k * 100],
            ],
            np.float32,
        )
        h = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(art, h, (1000, 720), borderValue=255)
        frames.append(Frame(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)))
    lens = lens_calibrate(frames)
    assert lens.rms_px < 1.0
    assert lens.size == (1000, 720)


@pytest.mark.parametrize("seed", [50000, 50002, 50007])
def test_the_camera_is_placed_from_the_homography(seed: int) -> None:
    # (Rigs of the vision tuning set; 50007 is the worst of 50000-50009.)
    rig = Rig.make(seed)
    camera = calibrate(render(rig, None, None, seed=1), rig.layout).camera()
    assert camera is not None
    x, y, height = rig.camera.position
    assert abs(camera[0] - x) < 20 and abs(camera[1] - y) < 20
    assert abs(camera[2] / height - 1) < 0.05


def test_a_camera_looking_straight_down_without_a_lens_is_not_placed() -> None:
    # A pure scale and shift: no perspective, so no focal length to find.
    h = np.array([[0.4, 0.0, 340.0], [0.0, 0.4, 60.0], [0.0, 0.0, 1.0]])
    assert Calibration(h, (1280, 720)).camera() is None


@pytest.mark.xfail(
    strict=True,
    reason="A camera nearly straight over the square (tuning rig 100008: its floor point "
    "96 mm from the square's middle, 2.13 m up) leaves the focal length to the homography's "
    "noise: Calibration.camera puts it 5.7-6.4 m up. The two constraints on f then disagree "
    "(the least-squares f leaves 0.84 of them unmet, against at most 0.17 on 59 other "
    "tuning rigs), which could say 'no estimate'; not fixed in session 13 (b-cleet4)",
)
def test_a_camera_nearly_straight_down_is_placed_or_not_at_all() -> None:
    rig = Rig.make(100008)
    camera = calibrate(render(rig, None, None, seed=1), rig.layout).camera()
    height = rig.camera.position[2]
    assert camera is None or abs(camera[2] / height - 1) < 0.1
