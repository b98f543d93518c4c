"""``[camera.second]``: a second floor camera in a Heads & Tails config, read
as strictly as the first (issue 6), and chosen with ``--camera second``."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.config import ConfigError, describe, load_config
from vision.settings import SourceKind

TABLE = """[table]
venue = "v"
id = "t1"
game = "{game}"
[match]
{match}
[camera]
{camera}
"""
MATCHES = {
    "heads-and-tails": 'players = ["ann", "ben"]\nplays = 2',
    "tiddlywinks": 'format = "singles"\nplayers = ["ann", "ben"]',
}


def _config(tmp_path: Path, camera: str, game: str = "heads-and-tails") -> Path:
    path = tmp_path / "table.toml"
    path.write_text(TABLE.format(game=game, match=MATCHES[game], camera=camera.strip()))
    return path


def _refused(tmp_path: Path, camera: str, game: str = "heads-and-tails") -> str:
    path = _config(tmp_path, camera, game)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(str(path)), message  # the file is named
    return message


def test_without_a_second_table_there_is_one_camera(tmp_path: Path) -> None:
    camera = load_config(_config(tmp_path, 'source = "v4l2"')).camera
    assert camera is not None and camera.second is None


def test_two_camera_modules_on_a_pi_5_take_cameras_0_and_1(tmp_path: Path) -> None:
    camera = load_config(
        _config(
            tmp_path,
            """
source = "picamera2"
coin_diameter_mm = 28.4
confidence_margin = 0.1
square_mm = 1200
[camera.second]
source = "picamera2"
resolution = [2304, 1296]
hfov_deg = 102
""",
        )
    ).camera
    assert camera is not None and camera.second is not None
    second = camera.second
    assert (camera.device, second.device) == ("", "1")  # Picamera2(camera_num=0 / 1)
    assert second.still == (2304, 1296) and second.hfov_deg == 102.0 and camera.hfov_deg is None
    # The table's keys are the first camera's, for both.
    assert (second.coin_diameter_mm, second.margin, second.square_mm) == (28.4, 0.1, 1200.0)
    # Its own files by default: never the first camera's.
    assert second.calibration == tmp_path / "camera-calibration-second.json"
    assert second.references == tmp_path / "coin-references-second"
    assert camera.calibration == tmp_path / "camera-calibration.json"
    assert second.second is None


def test_the_first_camera_on_module_1_leaves_module_0_to_the_second(tmp_path: Path) -> None:
    camera = load_config(
        _config(tmp_path, 'source = "picamera2"\ndevice = 1\n[camera.second]\nsource = "picamera2"')
    ).camera
    assert camera is not None and camera.second is not None
    assert (camera.device, camera.second.device) == ("1", "0")


def test_a_webcam_and_a_synthetic_pair_and_paths_relative_to_the_file(tmp_path: Path) -> None:
    camera = load_config(
        _config(
            tmp_path,
            """
source = "v4l2"
[camera.second]
source = "v4l2"
device = "/dev/video2"
calibration = "cal/two.json"
references = "coin2"
""",
        )
    ).camera
    assert camera is not None and camera.second is not None
    assert camera.second.device == "/dev/video2"
    assert camera.second.calibration == tmp_path / "cal" / "two.json"
    assert camera.second.references == tmp_path / "coin2"
    pair = load_config(
        _config(
            tmp_path, 'source = "synthetic"\nseed = 100042\n[camera.second]\nsource = "synthetic"'
        )
    ).camera
    assert pair is not None and pair.second is not None
    assert pair.second.source is SourceKind.SYNTHETIC and pair.second.seed == 100042


@pytest.mark.parametrize(
    ("second", "key", "why"),
    [
        (
            'source = "v4l2"\ndevice = 2\ncoin_diameter_mm = 30',
            "coin_diameter_mm",
            "set it in [camera]",
        ),
        (
            'source = "v4l2"\ndevice = 2\nconfidence_margin = 0.1',
            "confidence_margin",
            "the table's",
        ),
        ('source = "v4l2"\ndevice = 2\nsquare_mm = 1000', "square_mm", "set it in [camera]"),
        ('source = "v4l2"\ndevice = 2\nsettle_ms = 500', "settle_ms", "set it in [camera]"),
        ('source = "v4l2"\ndevice = 2\nlens = true', "lens", "unknown key"),
        ('source = "v4l2"\ndevice = 2\nsecond = {}', "second", "unknown key"),
        ("device = 2", "source", "missing"),
        ('source = "webcam"', "source", "is not one of"),
        ('source = "v4l2"', "device", "needs its own device"),
        ('source = "v4l2"\ndevice = 0', "device", "the first camera's device too"),
        (
            'source = "v4l2"\ndevice = 2\nresolution = [640]',
            "resolution",
            "expected [width, height]",
        ),
        ('source = "v4l2"\ndevice = 2\nhfov_deg = 5', "hfov_deg", "at least 20"),
        ('source = "v4l2"\ndevice = 2\nseed = -1', "seed", "at least 0"),
        (
            'source = "v4l2"\ndevice = 2\ncalibration = "camera-calibration.json"',
            "calibration",
            "the first camera's calibration too",
        ),
        (
            'source = "v4l2"\ndevice = 2\nreferences = "coin-references"',
            "references",
            "the first camera's references too",
        ),
        ('source = "synthetic"', "source", "[camera] source must be synthetic too"),
        ('source = "file"', "device", "needs the path of its images"),
    ],
)
def test_a_bad_second_camera_names_the_file_the_table_and_the_key(
    tmp_path: Path, second: str, key: str, why: str
) -> None:
    message = _refused(tmp_path, f'source = "v4l2"\n[camera.second]\n{second}')
    assert f"[camera.second]: field '{key}'" in message, message
    assert why in message, message


def test_a_picamera2_device_is_a_camera_number(tmp_path: Path) -> None:
    for bad in ('"/dev/video0"', "9", "true", "-1"):
        message = _refused(
            tmp_path, f'source = "picamera2"\n[camera.second]\nsource = "picamera2"\ndevice = {bad}'
        )
        assert "[camera.second]: field 'device': a picamera2 source takes the camera number" in (
            message
        )
    message = _refused(
        tmp_path, 'source = "picamera2"\n[camera.second]\nsource = "picamera2"\ndevice = 0'
    )
    assert "the first camera's device too" in message


def test_a_synthetic_first_camera_needs_a_synthetic_second(tmp_path: Path) -> None:
    message = _refused(tmp_path, 'source = "synthetic"\n[camera.second]\nsource = "v4l2"')
    assert "[camera.second]: field 'source'" in message and "synthetic too" in message


def test_second_must_be_a_table(tmp_path: Path) -> None:
    message = _refused(tmp_path, 'source = "v4l2"\nsecond = "v4l2"')
    assert "[camera]: field 'second': expected a table" in message, message


def test_a_tiddlywinks_table_has_one_mat_camera(tmp_path: Path) -> None:
    message = _refused(
        tmp_path, 'source = "v4l2"\n[camera.second]\nsource = "v4l2"\ndevice = 2', "tiddlywinks"
    )
    assert "[camera]: field 'second'" in message and "[camera.second]" in message
    assert "only for a heads-and-tails table" in message


def test_check_config_describes_both_cameras(tmp_path: Path) -> None:
    config = load_config(
        _config(tmp_path, 'source = "picamera2"\n[camera.second]\nsource = "picamera2"')
    )
    line = next(x for x in describe(config).splitlines() if x.strip().startswith("camera"))
    assert "calibration " + str(tmp_path / "camera-calibration.json") in line
    assert "; second camera picamera2 1, " in line
    assert str(tmp_path / "camera-calibration-second.json") in line


def test_camera_second_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--camera second`` needs a ``[camera.second]``, and a config to find it in."""
    one = _config(tmp_path, 'source = "v4l2"')
    assert main(["calibrate", "--config", str(one), "--camera", "second"]) == 2
    assert "no [camera.second] table" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="--camera second needs --config"):
        main(["calibrate", "--image", str(tmp_path / "x.png"), "--camera", "second"])
    with pytest.raises(SystemExit):
        main(["coin", "register", "--camera", "third", "--face", "heads"])
    assert "invalid choice: 'third'" in capsys.readouterr().err
