"""Calibration: markers to a floor homography, its error in millimetres."""

from __future__ import annotations

import json
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
    assert again.hfov_deg is None
    with_fov = calibrate(render(rig, None, None, seed=1), rig.layout, hfov_deg=71.5)
    with_fov.save(tmp_path / "fov.json")
    assert Calibration.load(tmp_path / "fov.json").hfov_deg == 71.5
    # The config's field of view wins over the one saved; none keeps it.
    assert Calibration.load(tmp_path / "fov.json").with_hfov(66.0).hfov_deg == 66.0
    assert Calibration.load(tmp_path / "fov.json").with_hfov(None).hfov_deg == 71.5


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
    rig = Rig.make(4)
    calibrate(render(rig, None, None, seed=1), rig.layout).save(tmp_path / "good.json")
    doc = json.loads((tmp_path / "good.json").read_text())
    for bad in (0, 180, "wide", True):
        (tmp_path / "bad.json").write_text(json.dumps(doc | {"hfov_deg": bad}))
        with pytest.raises(VisionError, match=r"bad.json: .*hfov_deg .* is not a field of view"):
            Calibration.load(tmp_path / "bad.json")


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


def test_a_camera_nearly_straight_down_is_placed_or_not_at_all() -> None:
    # Tuning rig 100008: the camera's floor point 96 mm from the square's
    # middle, 2.13 m up. The markers' perspective leaves its focal length to
    # their corners' noise: the estimate put it 6.4 m up (session 13). Its
    # two constraints on f disagree by 0.80 there (at most 0.15 on 89 other
    # tuning rigs), so now it is not placed at all.
    rig = Rig.make(100008)
    cal = calibrate(render(rig, None, None, seed=1), rig.layout)
    assert cal.camera() is None and cal.focal_px() is None


@pytest.mark.parametrize("seed", [100008, 50007, 100013])
def test_a_configured_field_of_view_places_any_camera(seed: int) -> None:
    # With the lens's field of view (a table's [camera] hfov_deg) the focal
    # length is known and the camera is placed, nearly straight down or not;
    # 100013's estimate was 9.6 % high, 50007 the worst of 50000-50009.
    rig = Rig.make(seed)
    cal = calibrate(render(rig, None, None, seed=1), rig.layout, hfov_deg=rig.camera.hfov_deg)
    camera = cal.camera()
    assert camera is not None
    x, y, height = rig.camera.position
    assert abs(camera[0] - x) < 15 and abs(camera[1] - y) < 15
    assert abs(camera[2] / height - 1) < 0.02, (camera, rig.camera.position)


def test_calibrate_says_when_the_camera_cannot_be_placed() -> None:
    # No perspective and no field of view: `tableref calibrate` says the
    # camera is not placed and which setting places it.
    from vision.cli import _placed

    h = np.array([[0.4, 0.0, 340.0], [0.0, 0.4, 60.0], [0.0, 0.0, 1.0]])
    said = _placed(Calibration(h, (1280, 720)))
    assert "not placed from the markers' perspective" in said and "hfov_deg" in said
    said = _placed(Calibration(h, (1280, 720), hfov_deg=66.0))
    assert "focal length from a field of view of 66 deg" in said
