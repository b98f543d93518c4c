"""The ``[camera]`` table of a config or scenario file, read strictly.

Pure Python (no OpenCV): a config can be checked on a machine without it.

>>> from controller.strict import Table
>>> cam = parse_camera(Table({"source": "v4l2", "device": 0, "coin_diameter_mm": 28.4},
...     "t.toml", "[camera]"), Path("/etc/tableref"))
>>> cam.source.value, cam.device, cam.calibration
('v4l2', '0', PosixPath('/etc/tableref/camera-calibration.json'))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from controller.strict import Table


class SourceKind(StrEnum):
    """Where frames come from."""

    PICAMERA2 = "picamera2"  # a CSI camera module on a Pi (libcamera)
    V4L2 = "v4l2"  # a USB webcam through OpenCV
    FILE = "file"  # one image file (replay)
    FOLDER = "folder"  # the images of a folder, in name order (replay)
    SYNTHETIC = "synthetic"  # the renderer (demonstrations, tests)


DEFAULT_PREVIEW = (1280, 720)
DEFAULT_STILL = (4608, 2592)
DEFAULT_HFOV_DEG = 66.0
"""The Raspberry Pi Camera Module 3 (the wide one: 102)."""
HFOV_RANGE_DEG = (20.0, 170.0)
DEFAULT_SETTLE_MS = 400
SETTLE_RANGE_MS = (100, 5000)
COIN_KEYS = ("calibration", "references", "coin_diameter_mm", "confidence_margin",
             "line_tolerance_mm", "square_mm", "line_mm", "marker_mm")  # fmt: skip
"""Keys of the floor camera (Heads & Tails) only."""
MAT_KEYS = ("settle_ms",)
"""Keys of the mat camera (tiddlywinks) only."""
COIN_RANGE_MM = (10.0, 60.0)
MARGIN_RANGE = (0.0, 1.0)


@dataclass(frozen=True, slots=True)
class CameraSettings:
    """A validated ``[camera]`` table (paths resolved against the file's folder)."""

    source: SourceKind
    device: str
    still: tuple[int, int] = DEFAULT_STILL
    preview: tuple[int, int] = DEFAULT_PREVIEW
    calibration: Path = Path("camera-calibration.json")
    references: Path = Path("coin-references")
    coin_diameter_mm: float = 24.0
    margin: float = 0.08
    tolerance_mm: float = 2.0
    seed: int = 0
    square_mm: float = 1500.0
    line_mm: float = 50.0
    marker_mm: float = 150.0
    hfov_deg: float | None = DEFAULT_HFOV_DEG
    """The lens's horizontal field of view. The mat camera's is always set
    (its calibration needs it); the floor camera's is optional (None: the
    focal length is estimated from the markers' perspective, which a camera
    nearly straight over the square cannot give)."""
    settle_ms: int = DEFAULT_SETTLE_MS
    """Mat camera: the mat has settled once still this long after the last motion."""

    @property
    def mat_hfov_deg(self) -> float:
        """The mat camera's field of view (its parse always sets one)."""
        return DEFAULT_HFOV_DEG if self.hfov_deg is None else self.hfov_deg


def _size(table: Table, key: str, default: tuple[int, int]) -> tuple[int, int]:
    raw = table.raw(key, list(default))
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise table.fail(key, f"expected [width, height] in pixels, got {raw!r}")
    w, h = raw
    if not (16 <= w <= 20000 and 16 <= h <= 20000):
        raise table.fail(key, f"{w}x{h} is not a camera resolution (16..20000 a side)")
    return int(w), int(h)


def _device(table: Table, source: SourceKind, folder: Path) -> str:
    raw = table.raw("device", 0 if source is SourceKind.V4L2 else "")
    if source is SourceKind.V4L2:
        if isinstance(raw, bool) or not isinstance(raw, int | str) or raw == "":
            raise table.fail("device", "expected a V4L2 index (0) or a path (/dev/video0)")
        return str(raw)
    if source in (SourceKind.FILE, SourceKind.FOLDER):
        if not isinstance(raw, str) or not raw.strip():
            raise table.fail("device", f"a {source.value} source needs the path of its images")
        return str(folder / raw)
    if raw not in ("", 0):
        raise table.fail("device", f"a {source.value} source takes no device")
    return ""


def _only(table: Table, keys: tuple[str, ...], which: str) -> None:
    for key in keys:
        if table.has(key):
            raise table.fail(key, f"only for {which}")


def parse_camera(table: Table, folder: Path, *, mat: bool = False) -> CameraSettings:
    """Validate a ``[camera]`` table; paths are relative to ``folder``.
    ``mat``: the mat camera of a tiddlywinks table (else the floor camera
    of Heads & Tails); each refuses the other's keys.

    >>> from controller.strict import Table
    >>> parse_camera(Table({"source": "v4l2", "hfov_deg": 102}, "t.toml", "[camera]"),
    ...     Path("."), mat=True).hfov_deg
    102.0
    >>> parse_camera(Table({"source": "v4l2", "settle_ms": 500}, "t.toml", "[camera]"), Path("."))
    Traceback (most recent call last):
    ...
    controller.errors.InputError: t.toml: [camera]: field 'settle_ms': only for a tiddlywinks table
    >>> print(parse_camera(Table({"source": "v4l2"}, "t.toml", "[camera]"), Path(".")).hfov_deg)
    None
    """
    if mat:
        _only(table, COIN_KEYS, "a heads-and-tails table (the floor camera)")
    else:
        _only(table, MAT_KEYS, "a tiddlywinks table")
    source = table.choice("source", SourceKind)
    device = _device(table, source, folder)
    still = _size(table, "resolution", DEFAULT_STILL)
    preview = _size(table, "preview", DEFAULT_PREVIEW)
    if preview[0] > still[0] or preview[1] > still[1]:
        raise table.fail("preview", f"{preview} is larger than the resolution {still}")
    calibration = folder / table.string("calibration", "camera-calibration.json")
    references = folder / table.string("references", "coin-references")
    low, high = COIN_RANGE_MM
    coin = table.number("coin_diameter_mm", 24.0, minimum=low, maximum=high)
    margin = table.number(
        "confidence_margin", 0.08, minimum=MARGIN_RANGE[0], maximum=MARGIN_RANGE[1]
    )
    tolerance = table.number("line_tolerance_mm", 2.0, minimum=0.0, maximum=50.0)
    seed = table.integer("seed", 0, minimum=0)
    square = table.number("square_mm", 1500.0, minimum=100.0, maximum=5000.0)
    line = table.number("line_mm", 50.0, minimum=0.0, maximum=square / 4)
    marker = table.number("marker_mm", 150.0, minimum=20.0, maximum=square / 2)
    hfov: float | None = None
    if mat or table.has("hfov_deg"):
        hfov = table.number("hfov_deg", DEFAULT_HFOV_DEG, minimum=HFOV_RANGE_DEG[0],
                            maximum=HFOV_RANGE_DEG[1])  # fmt: skip
    settle = table.integer("settle_ms", DEFAULT_SETTLE_MS, minimum=SETTLE_RANGE_MS[0])
    if settle > SETTLE_RANGE_MS[1]:
        raise table.fail("settle_ms", f"must be at most {SETTLE_RANGE_MS[1]}, got {settle}")
    table.finish()
    return CameraSettings(
        source,
        device,
        still,
        preview,
        calibration,
        references,
        coin,
        margin,
        tolerance,
        seed,
        square,
        line,
        marker,
        hfov,
        settle,
    )
