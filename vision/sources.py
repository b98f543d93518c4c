"""Frame sources behind one interface: Picamera2, V4L2 webcams, image files
and folders, and the synthetic renderer.

Every source gives a low-resolution ``preview()`` (to see when the scene has
settled, and to locate the coin) and a full-resolution ``still()`` (to judge
it). A source that cannot deliver raises :class:`CameraError`; the
:class:`~vision.watch.CameraWatch` turns that into a health event.

Picamera2 is imported only when a Picamera2 source is opened: it exists only
on a Pi (from apt, in a venv with system site packages). A Pi 5 drives two
camera modules: ``device`` is the camera number (``Picamera2(camera_num=N)``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.floor import FloorLayout
from vision.model import CameraError, Frame
from vision.settings import CameraSettings, SourceKind

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


class FrameSource(Protocol):
    """The one interface every camera implements."""

    def preview(self) -> Frame:
        """A low-resolution frame of the whole view, as fast as possible."""
        ...

    def still(self) -> Frame:
        """A full-resolution frame of the same view."""
        ...

    def close(self) -> None:
        """Release the camera."""
        ...


def read_image(path: Path) -> Frame:
    """An image file as a frame; :class:`CameraError` if it cannot be read."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CameraError(f"{path}: cannot read the image (missing, or not an image)")
    return Frame(np.asarray(image, np.uint8))


def shrink(frame: Frame, size: tuple[int, int]) -> Frame:
    """The frame at ``size`` (a preview made from a still)."""
    if frame.size == size:
        return frame
    small = cv2.resize(frame.image, size, interpolation=cv2.INTER_AREA)
    return Frame(np.asarray(small, np.uint8), frame.t_ns)


class ImageSource:
    """Replays image files: one file, or a folder's images in name order
    (each :meth:`still` moves on to the next; the preview is that still made small)."""

    def __init__(self, path: Path, preview_size: tuple[int, int]) -> None:
        if path.is_dir():
            self._files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            self._files = [path]
        if not self._files or not self._files[0].exists():
            raise CameraError(f"{path}: no images to replay")
        self._next = 0
        self._preview = preview_size
        self._current: Frame | None = None

    def still(self) -> Frame:
        if self._next >= len(self._files):
            raise CameraError(f"no more images after {self._files[-1]}")
        self._current = read_image(self._files[self._next])
        self._next += 1
        return self._current

    def preview(self) -> Frame:
        return shrink(self._current or read_image(self._files[self._next]), self._preview)

    def close(self) -> None:
        self._files = []


class V4L2Source:
    """A USB webcam through OpenCV's V4L2 backend (not for CSI camera modules)."""

    def __init__(self, device: str, still_size: tuple[int, int], preview_size: tuple[int, int]):
        index: int | str = int(device) if device.isdigit() else device
        self._cap = cv2.VideoCapture(index, cv2.CAP_V4L2)
        if not self._cap.isOpened():
            raise CameraError(f"V4L2 camera {device!r}: cannot open it (unplugged? in use?)")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, still_size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, still_size[1])
        self._device = device
        self._preview = preview_size

    def still(self) -> Frame:
        ok, image = self._cap.read()
        if not ok or image is None:
            raise CameraError(f"V4L2 camera {self._device!r}: no frame (disconnected?)")
        return Frame(np.asarray(image, np.uint8))

    def preview(self) -> Frame:
        return shrink(self.still(), self._preview)

    def close(self) -> None:
        self._cap.release()


class Picamera2Source:
    """A CSI camera module: a low-resolution stream and full-resolution stills."""

    def __init__(
        self, still_size: tuple[int, int], preview_size: tuple[int, int], camera_num: int = 0
    ) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]  # Pi only
        except ImportError as exc:
            raise CameraError(
                f"picamera2 is not installed (it comes from apt on a Pi): {exc}"
            ) from None
        try:
            self._cam: Any = Picamera2(camera_num=camera_num)
            config = self._cam.create_still_configuration(
                main={"size": still_size, "format": "BGR888"},
                lores={"size": preview_size, "format": "YUV420"},
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # libcamera raises many kinds; all mean "no camera"
            raise CameraError(f"camera module {camera_num} did not start: {exc}") from None

    def still(self) -> Frame:
        try:
            return Frame(np.asarray(self._cam.capture_array("main"), np.uint8))
        except Exception as exc:
            raise CameraError(f"still capture failed: {exc}") from None

    def preview(self) -> Frame:
        try:
            yuv = self._cam.capture_array("lores")
        except Exception as exc:
            raise CameraError(f"preview capture failed: {exc}") from None
        h = yuv.shape[0] * 2 // 3  # YUV420: the first h rows are the luminance
        return Frame(np.asarray(yuv[:h], np.uint8))

    def close(self) -> None:
        self._cam.close()


def open_source(settings: CameraSettings) -> FrameSource:
    """The configured source; :class:`CameraError` when it is missing."""
    kind = settings.source
    if kind is SourceKind.PICAMERA2:
        return Picamera2Source(settings.still, settings.preview, int(settings.device or 0))
    if kind is SourceKind.V4L2:
        return V4L2Source(settings.device, settings.still, settings.preview)
    if kind in (SourceKind.FILE, SourceKind.FOLDER):
        return ImageSource(Path(settings.device), settings.preview)
    from vision.synth.source import SyntheticSource

    return SyntheticSource.from_seed(settings.seed, layout(settings))


def layout(settings: CameraSettings) -> FloorLayout:
    """The landing square the settings describe (a synthetic camera renders it)."""
    return FloorLayout(settings.square_mm, settings.line_mm, settings.marker_mm)


Opener = Callable[[], FrameSource]


def openers(settings: CameraSettings) -> tuple[Opener, Opener | None]:
    """How to open the first camera and the second (None: no ``[camera.second]``).

    Each is called at start and again after a failure. Two synthetic cameras
    are one rendered table seen twice (the second is
    :meth:`~vision.synth.source.SyntheticSource.other_view` of the first),
    made once, so that a coin dropped on it is seen by both and stays there
    through a camera's fault."""
    second = settings.second
    if second is None:
        return (lambda: open_source(settings)), None
    if settings.source is SourceKind.SYNTHETIC and second.source is SourceKind.SYNTHETIC:
        from vision.synth.source import SyntheticSource

        table = SyntheticSource.from_seed(settings.seed, layout(settings))
        other = table.other_view(second.seed)
        return (lambda: table), (lambda: other)
    return (lambda: open_source(settings)), (lambda: open_source(second))
