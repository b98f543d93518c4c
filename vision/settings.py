"""The ``[camera]`` table of a config or scenario file, read strictly.

Pure Python (no OpenCV): a config can be checked on a machine without it.

>>> from controller.strict import Table
>>> cam = parse_camera(Table({"source": "v4l2", "device": 0, "coin_diameter_mm": 28.4},
...     "t.toml", "[camera]"), Path("/etc/tableref"))
>>> cam.source.value, cam.device, cam.calibration
('v4l2', '0', PosixPath('/etc/tableref/camera-calibration.json'))

A Heads & Tails table may have a second floor camera, ``[camera.second]``
(a Raspberry Pi 5 drives two camera modules): its own source, calibration
and references; the coin, the square and the margins are the table's.

>>> two = parse_camera(Table({"source": "picamera2", "second": {"source": "picamera2"}},
...     "t.toml", "[camera]"), Path("/t"))
>>> two.device, two.second.device, two.second.calibration.name, two.second.references.name
('', '1', 'camera-calibration-second.json', 'coin-references-second')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
SECOND_KEY = "second"
"""``[camera.second]``: the second floor camera (Heads & Tails only)."""
CAMERA_KEYS = ("source", "device", "resolution", "preview", "calibration", "references",
               "hfov_deg", "seed")  # fmt: skip
"""The keys each floor camera has its own of; the others are the table's."""
SECOND_DEFAULTS = ("camera-calibration-second.json", "coin-references-second")
"""The second camera's calibration file and references folder when not set:
never the first camera's defaults."""
PICAMERA2_MAX = 7
"""The highest Picamera2 camera number accepted (a Pi 5 has two: 0 and 1)."""
MAT_KEYS = ("settle_ms", "crop_workers")
"""Keys of the mat camera (tiddlywinks) only."""
CROP_WORKERS_MAX = 16
"""The most worker processes ``crop_workers`` may ask for."""
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
    crop_workers: int | None = None
    """Mat camera: the worker processes that read a still's crops beside
    the service's own (:mod:`vision.mat.pool`; 0: none); None: one fewer
    than the machine's cores, at most 3 (:func:`vision.mat.pool.default_workers`)."""
    second: CameraSettings | None = None
    """Heads & Tails: the second floor camera (``[camera.second]``), whose
    coin, square and margin keys are this one's; None: one camera."""

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


def _device(table: Table, source: SourceKind, folder: Path, picamera: int | None = None) -> str:
    """The device as a string; ``picamera``: the Picamera2 camera number when
    not set (None: the library's default, 0, shown as "")."""
    raw = table.raw("device", 0 if source is SourceKind.V4L2 else "")
    if source is SourceKind.PICAMERA2:
        if raw == "":
            return "" if picamera is None else str(picamera)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= PICAMERA2_MAX:
            raise table.fail(
                "device",
                f"a picamera2 source takes the camera number (0 to {PICAMERA2_MAX}, as "
                f"'rpicam-hello --list-cameras' lists them), got {raw!r}",
            )
        return "" if raw == 0 and picamera is None else str(raw)
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
        if table.has(SECOND_KEY):
            raise table.fail(
                SECOND_KEY,
                "[camera.second], a second floor camera, is only for a heads-and-tails "
                "table: a tiddlywinks table has one mat camera",
            )
    else:
        _only(table, MAT_KEYS, "a tiddlywinks table")
    own = _own(table, folder, mat=mat)
    low, high = COIN_RANGE_MM
    coin = table.number("coin_diameter_mm", 24.0, minimum=low, maximum=high)
    margin = table.number(
        "confidence_margin", 0.08, minimum=MARGIN_RANGE[0], maximum=MARGIN_RANGE[1]
    )
    tolerance = table.number("line_tolerance_mm", 2.0, minimum=0.0, maximum=50.0)
    square = table.number("square_mm", 1500.0, minimum=100.0, maximum=5000.0)
    line = table.number("line_mm", 50.0, minimum=0.0, maximum=square / 4)
    marker = table.number("marker_mm", 150.0, minimum=20.0, maximum=square / 2)
    settle = table.integer("settle_ms", DEFAULT_SETTLE_MS, minimum=SETTLE_RANGE_MS[0])
    if settle > SETTLE_RANGE_MS[1]:
        raise table.fail("settle_ms", f"must be at most {SETTLE_RANGE_MS[1]}, got {settle}")
    workers = _crop_workers(table)
    first = CameraSettings(
        own.source,
        own.device,
        own.still,
        own.preview,
        own.calibration,
        own.references,
        coin,
        margin,
        tolerance,
        own.seed,
        square,
        line,
        marker,
        own.hfov_deg,
        settle,
        workers,
    )
    second = None if mat else _second(table, folder, first)
    table.finish()
    return first if second is None else replace(first, second=second)


def _crop_workers(table: Table) -> int | None:
    """``crop_workers``: 0 to :data:`CROP_WORKERS_MAX`; None when not set.

    >>> from controller.strict import Table
    >>> _crop_workers(Table({"crop_workers": 17}, "t.toml", "[camera]"))
    Traceback (most recent call last):
    ...
    controller.errors.InputError: t.toml: [camera]: field 'crop_workers': must be at most 16 \
(worker processes reading a still's crops; 0: none), got 17
    """
    if not table.has("crop_workers"):
        return None
    workers = int(table.integer("crop_workers", minimum=0))
    if workers > CROP_WORKERS_MAX:
        raise table.fail("crop_workers", f"must be at most {CROP_WORKERS_MAX} (worker processes "
                         f"reading a still's crops; 0: none), got {workers}")  # fmt: skip
    return workers


def _own(
    table: Table,
    folder: Path,
    *,
    mat: bool = False,
    defaults: tuple[str, str] = ("camera-calibration.json", "coin-references"),
    picamera: int | None = None,
) -> CameraSettings:
    """The keys a camera has its own of (:data:`CAMERA_KEYS`), as settings
    whose other fields are left at their defaults."""
    source = table.choice("source", SourceKind)
    device = _device(table, source, folder, picamera)
    still = _size(table, "resolution", DEFAULT_STILL)
    preview = _size(table, "preview", DEFAULT_PREVIEW)
    if preview[0] > still[0] or preview[1] > still[1]:
        raise table.fail("preview", f"{preview} is larger than the resolution {still}")
    calibration = folder / table.string("calibration", defaults[0])
    references = folder / table.string("references", defaults[1])
    seed = table.integer("seed", 0, minimum=0)
    hfov: float | None = None
    if mat or table.has("hfov_deg"):
        hfov = table.number("hfov_deg", DEFAULT_HFOV_DEG, minimum=HFOV_RANGE_DEG[0],
                            maximum=HFOV_RANGE_DEG[1])  # fmt: skip
    return CameraSettings(source, device, still, preview, calibration, references,
                          seed=seed, hfov_deg=hfov)  # fmt: skip


def _second(camera: Table, folder: Path, first: CameraSettings) -> CameraSettings | None:
    """``[camera.second]``: its own :data:`CAMERA_KEYS`, the rest ``first``'s.

    A key that is the table's (the coin, the square, the margins) is refused
    there, and so is anything that would make the two cameras one: the same
    calibration file, references folder or device."""
    if not camera.has(SECOND_KEY):
        return None
    if not isinstance(camera.raw(SECOND_KEY), dict):
        raise camera.fail(SECOND_KEY, "expected a table: [camera.second] with its own keys")
    table = camera.table(SECOND_KEY)
    assert table is not None
    table.where = camera.where[:-1] + "." + SECOND_KEY + "]" if camera.where else SECOND_KEY
    for key in table.names():
        if key not in CAMERA_KEYS:
            why = (
                f"set it in {camera.where or '[camera]'}: it is the table's, the same for both "
                "cameras"
                if key in (*COIN_KEYS, *MAT_KEYS)
                else f"unknown key (a camera's own keys: {', '.join(CAMERA_KEYS)})"
            )
            raise table.fail(key, why)
    webcams = first.source is SourceKind.V4L2 and table.raw("source", "") == "v4l2"
    if webcams and not table.has("device"):
        raise table.fail(
            "device",
            "a second v4l2 camera needs its own device (the first's default is 0, and one "
            "webcam may have two /dev/video nodes)",
        )
    picamera = 1 if first.source is SourceKind.PICAMERA2 and first.device in ("", "0") else 0
    own = _own(table, folder, defaults=SECOND_DEFAULTS, picamera=picamera)
    if not table.has("seed"):
        own = replace(own, seed=first.seed)
    _apart(table, first, own)
    table.finish()
    return replace(first, source=own.source, device=own.device, still=own.still,
                   preview=own.preview, calibration=own.calibration,
                   references=own.references, seed=own.seed, hfov_deg=own.hfov_deg)  # fmt: skip


def _apart(table: Table, first: CameraSettings, second: CameraSettings) -> None:
    """Refuse a second camera that shares a file, a folder or a device with
    the first, or a synthetic camera on only one side (the synthetic second
    camera is another view of the first camera's rendered table)."""
    for key in ("calibration", "references"):
        if getattr(first, key) == getattr(second, key):
            raise table.fail(key, f"{getattr(second, key)} is the first camera's {key} too: "
                             "each camera has its own")  # fmt: skip
    devices = first.source is second.source and second.source in (
        SourceKind.PICAMERA2,
        SourceKind.V4L2,
    )
    if devices and (first.device or "0") == (second.device or "0"):
        raise table.fail(
            "device", f"{second.device or '0'} is the first camera's device too: each camera "
            "is its own device"
        )  # fmt: skip
    synthetic = (first.source is SourceKind.SYNTHETIC, second.source is SourceKind.SYNTHETIC)
    if synthetic == (False, True):
        raise table.fail("source", "a synthetic second camera views the first camera's "
                         "rendered table: [camera] source must be synthetic too")  # fmt: skip
    if synthetic == (True, False):
        raise table.fail("source", "the first camera is synthetic (a rendered table): the "
                         "second must be synthetic too, to see the same coin")  # fmt: skip
