"""The ``frame`` scenario input: an image run through the real pipeline,
becoming the ``landed`` input the camera would give.

```toml
[camera]
source = "file"
device = "frames"                 # unused by the harness, needed by the table
calibration = "calibration.json"  # from tableref calibrate
references = "coin"               # from tableref coin register

[[input]]
at = 4.9
type = "frame"
path = "frames/landing.png"       # the full-resolution still, relative to this file
background = "frames/empty.png"   # optional: the empty square before the toss
```

With a second camera (``[camera.second]``) a frame input gives one still per
camera, ``frames = ["frames/first.png", "frames/second.png"]`` (and
optionally ``backgrounds = [...]``): each is judged by its own camera's
calibration and references and the two are fused (``vision.fuse``).

With a synthetic camera (``source = "synthetic"``, and ``[camera.second]``
too for two) a frame input drops a ``coin`` on the rendered table instead:
``coin = { x_mm = 700, y_mm = 640, face = "heads" }`` (and optionally
``rotation_deg``, ``tilt_deg`` 0-90, ``tilt_dir_deg``); the table's cameras
watch it settle and judge it (``vision.synth.table``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from controller.errors import ScenarioError, TablerefError
from controller.games.heads_and_tails.events import Landed
from controller.strict import Table
from vision.settings import CameraSettings

if TYPE_CHECKING:
    from vision.model import Observation

FRAME_INPUT = "frame"


@functools.lru_cache(maxsize=8)
def _analyser(
    calibration: Path,
    references: Path,
    coin_mm: float,
    margin: float,
    tolerance: float,
    hfov_deg: float | None,
) -> object:
    from vision.analyse import Analyser, Settings
    from vision.calibration import Calibration
    from vision.references import References

    settings = Settings(coin_diameter_mm=coin_mm, margin=margin, tolerance_mm=tolerance)
    cal = Calibration.load(calibration).with_hfov(hfov_deg)
    return Analyser(cal, References.load(references), settings)


def parse_frame(table: Table, t_ns: int, camera: CameraSettings | None, folder: Path) -> Landed:
    """A ``frame`` input whose ``type`` and ``at`` were read."""
    if camera is not None and camera.source.value == "synthetic":
        return _synthetic(table, t_ns, camera)
    if table.has("coin"):
        raise table.fail("coin", "a coin is dropped on a synthetic camera's table only "
                         "([camera] source = \"synthetic\"); give the image's path")  # fmt: skip
    if camera is not None and camera.second is not None:
        return _two(table, t_ns, camera, folder)
    if table.has("frames") or table.has("backgrounds"):
        key = "frames" if table.has("frames") else "backgrounds"
        raise table.fail(key, "one image per camera, for a [camera.second] table; one camera "
                         "takes path (and background)")  # fmt: skip
    path = folder / table.string("path")
    background = table.string("background", None)
    table.finish()
    if camera is None:
        raise table.fail("type", "a frame input needs a [camera] table (calibration, references)")
    _need_vision(table)
    from vision.watch import landed_from

    try:
        obs, _ = _observe(camera, path, None if background is None else folder / background)
    except TablerefError as exc:
        raise table.fail("path", str(exc)) from None
    where = "" if obs.x_mm is None else f" at ({obs.x_mm:.0f}, {obs.y_mm:.0f}) mm"
    seen = f"{table.string('path')}: {obs.verdict}, confidence {obs.confidence:.2f}{where}"
    return landed_from(obs, t_ns, seen)


def _need_vision(table: Table) -> None:
    try:
        import vision.analyse  # noqa: F401
    except ImportError as exc:
        raise table.fail(
            "type", f"frame inputs need OpenCV and numpy (tableref[vision]): {exc}"
        ) from None


def _observe(
    camera: CameraSettings, path: Path, background: Path | None
) -> tuple[Observation, tuple[float, float, float] | None]:
    """One camera's still (and its empty floor) through its analyser, and
    where its calibration puts the camera."""
    from vision.analyse import Analyser
    from vision.sources import read_image, shrink

    analyser = _analyser(
        camera.calibration,
        camera.references,
        camera.coin_diameter_mm,
        camera.margin,
        camera.tolerance_mm,
        camera.hfov_deg,
    )
    assert isinstance(analyser, Analyser)
    still = read_image(path)
    preview = shrink(still, analyser.calibration.size)
    empty = None if background is None else shrink(read_image(background), preview.size)
    return analyser.analyse(preview, still, empty), analyser.calibration.camera()


def _two(table: Table, t_ns: int, camera: CameraSettings, folder: Path) -> Landed:
    """``frames = [first, second]``: each camera's still through its own
    analyser, fused (``backgrounds``: their empty floors, optional)."""
    for key in ("path", "background"):
        if table.has(key):
            raise table.fail(key, "two cameras ([camera.second]): give frames = [first, "
                             "second] (and backgrounds = [first, second])")  # fmt: skip
    frames: list[str] = table.strings("frames")
    backgrounds: list[str] | None = table.strings("backgrounds", None)
    for key, names in (("frames", frames), ("backgrounds", backgrounds)):
        if names is not None and len(names) != 2:
            raise table.fail(key, f"one image per camera, [first, second]: got {len(names)}")
    table.finish()
    _need_vision(table)
    from vision.fuse import fuse
    from vision.watch import describe_views, landed_from

    views: list[tuple[str, Observation | None]] = []
    seen, places = [], []
    for k, (name, cam) in enumerate((("first", camera), ("second", camera.second))):
        assert cam is not None
        empty = None if backgrounds is None else folder / backgrounds[k]
        try:
            obs, place = _observe(cam, folder / frames[k], empty)
        except TablerefError as exc:
            raise table.fail("frames", f"the {name} camera's: {exc}") from None
        views.append((name, obs))
        seen.append(obs)
        places.append(place)
    fused = fuse(seen, cameras=places)  # (a frame always gives an observation)
    return landed_from(fused, t_ns, f"{', '.join(frames)}: {describe_views(views, fused)}")


def _synthetic(table: Table, t_ns: int, camera: CameraSettings) -> Landed:
    """A coin dropped on the synthetic table, as its cameras judge it."""
    if table.has("path") or table.has("background"):
        key = "path" if table.has("path") else "background"
        raise table.fail(key, "a synthetic camera renders its frames: give the coin instead")
    if not isinstance(table.raw("coin"), dict):
        raise table.fail("coin", "expected a table: { x_mm = ..., y_mm = ..., face = ... }")
    coin = Table(table.raw("coin"), table.source, f"{table.where}: coin", ScenarioError)
    x = coin.number("x_mm", minimum=-2000.0, maximum=10000.0)
    y = coin.number("y_mm", minimum=-2000.0, maximum=10000.0)
    face = coin.string("face")
    if face not in ("heads", "tails"):
        raise coin.fail("face", f"the upper face: 'heads' or 'tails', got {face!r}")
    turn = coin.number("rotation_deg", 0.0, minimum=-360.0, maximum=360.0)
    tilt = coin.number("tilt_deg", 0.0, minimum=0.0, maximum=90.0)
    towards = coin.number("tilt_dir_deg", 0.0, minimum=-360.0, maximum=360.0)
    coin.finish()
    table.finish()
    try:
        from vision.synth.scene import Landing
        from vision.synth.table import land
    except ImportError as exc:
        raise table.fail(
            "type", f"frame inputs need OpenCV and numpy (tableref[vision]): {exc}"
        ) from None
    landing = Landing(x, y, face, rotation_deg=turn, tilt_deg=tilt, tilt_dir_deg=towards,
                      diameter_mm=camera.coin_diameter_mm)  # fmt: skip
    return land(camera, landing, t_ns)
