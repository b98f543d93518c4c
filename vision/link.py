"""A camera as a sensor of the table: frames, or a health fault.

Every camera the service watches (the floor camera of Heads & Tails, the
mat camera of tiddlywinks) is reached through one :class:`CameraLink`: the
source is opened on first use and again after a failure, and a
:class:`~vision.model.CameraError` on opening or capturing is a ``camera``
:class:`~controller.sensors.health.HealthEvent` (the engine's ``suspended``
ruling), reported once; the next good frame is its recovery.

>>> class Dead:
...     def preview(self): raise CameraError("unplugged")
>>> link = CameraLink(lambda: Dead())
>>> frame, events = link.capture(5, still=False)
>>> frame, [(e.sensor, e.ok, e.detail) for e in events]
(None, [('camera', False, 'camera: unplugged')])
>>> link.capture(6, still=False)[1]  # still failing: said once
[]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.camera import CAMERA_SENSOR
from controller.model import Event
from controller.sensors.health import HealthEvent
from vision.model import CameraError, Frame

if TYPE_CHECKING:
    from vision.sources import FrameSource

__all__ = ["CAMERA_SENSOR", "CameraLink"]


class CameraLink:
    """Opens ``open_source`` when needed and turns its failures into health events."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        faulty: bool = False,
        sensor: str = CAMERA_SENSOR,
    ) -> None:
        """``faulty``: the match already holds the camera faulty (a restart),
        so the first good frame is reported as its recovery. ``sensor``: the
        name its health events carry (a second floor camera has its own, so
        that one camera's recovery does not end the other's fault)."""
        self._open = open_source
        self._source: FrameSource | None = None
        self.faulty = faulty
        self.sensor = sensor

    @property
    def source(self) -> FrameSource | None:
        """The source while it is open (None before the first capture and
        after a failure): a synthetic table's, to drop a coin on."""
        return self._source

    def health(self, t_ns: int, ok: bool, detail: str) -> list[Event]:
        """A health event when the camera's state changes, else nothing."""
        if ok == (not self.faulty):
            return []
        self.faulty = not ok
        return [HealthEvent(t_ns=t_ns, sensor=self.sensor, ok=ok, detail=detail)]

    def capture(
        self, t_ns: int, still: bool, recovered: str | None = ""
    ) -> tuple[Frame | None, list[Event]]:
        """A preview (or a full-resolution still) frame, and any health event.
        ``recovered`` is the detail of the recovery a good frame reports (""
        for "<sensor>: frames again"; None:
        the caller checks the frame first and reports it with :meth:`health`)."""
        try:
            if self._source is None:
                self._source = self._open()
            frame = self._source.still() if still else self._source.preview()
        except CameraError as exc:
            self.drop()
            return None, self.health(t_ns, False, f"{self.sensor}: {exc}")
        if recovered is None:
            return frame, []
        return frame, self.health(t_ns, True, recovered or f"{self.sensor}: frames again")

    def drop(self) -> None:
        """Forget the source (closing it): the next capture opens it again."""
        source, self._source = self._source, None
        if source is not None:
            # A failing camera may fail to close too; it is gone either way.
            with contextlib.suppress(Exception):
                source.close()
