"""A game's camera in the live service (``[camera]``), and the floor camera
of Heads & Tails.

The service loop owns a :class:`TableCamera`, like the sensor pipeline; the
game module makes it (:meth:`~controller.gamemodule.GameModule.live_camera`),
so the service names no game. After each input it is told what the engine
state is now; it says when it wants polling (:meth:`TableCamera.due`); a
button line it owns (tiddlywinks' ``shot``) is handed to it; whatever it
returns (inputs stamped in ``mono_ns``) is applied like any other input.

The floor camera (:class:`LiveCamera`): while a toss is in the air it polls a
preview frame every :data:`POLL_NS`. Once the scene settles, the still it
takes is judged (``vision.watch.CameraWatch``) and the ``landed`` input it
gives, with its evidence saved beside the journal, is applied like any other
input. A camera that cannot be opened or stops giving frames is a ``camera``
health event, hence a ``suspended`` ruling, and the spotter enters landings.
A second floor camera (``[camera.second]``) is opened, watched and reported
the same way under its own sensor name (:data:`SECOND_CAMERA_SENSOR`); the
landing is the two cameras' judgements fused (``vision.fuse``). While the
first gives no frames, the second's preview is watched for the coin to
settle and its still alone is the landing.

OpenCV is imported only here, when a table has a camera.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from controller.errors import TablerefError
from controller.model import Event

if TYPE_CHECKING:
    from vision.analyse import Analyser
    from vision.settings import CameraSettings

CAMERA_SENSOR = "camera"
"""The sensor name of a table's camera in health events and ``suspended`` rulings."""
SECOND_CAMERA_SENSOR = "camera.second"
"""The second floor camera's sensor name (its own: one camera coming back
must not end the other's fault)."""
CAMERA_SENSORS = frozenset({CAMERA_SENSOR, SECOND_CAMERA_SENSOR})
"""Every camera sensor name: the cameras report their own recovery (the
service's start-up reconciliation of the lines must leave them all out)."""
POLL_NS = 100_000_000
"""How often the preview is looked at while a coin is in the air (10 Hz: the
settle detector wants several frames of a still scene)."""


class TableCamera(Protocol):
    """A game's camera as the service loop drives it; every time is ``mono_ns``
    and every input returned is stamped in ``mono_ns``."""

    def start(self, mono: int, state: Any, faulty: bool) -> list[Event]:
        """Open the camera at start-up; ``faulty``: the journal holds it
        faulty (its first good frame is then reported as the recovery)."""
        ...

    def update(self, mono: int, state: Any, kind: str) -> list[Event]:
        """After an input of journal type ``kind``: the engine ``state`` now."""
        ...

    def due(self) -> int | None:
        """When :meth:`poll` should next run (None: not now)."""
        ...

    def poll(self, mono: int, state: Any) -> list[Event]:
        """Look at the camera now."""
        ...

    def press(self, role: str, mono: int, state: Any) -> list[Event]:
        """A button line of the camera's (``[[sensors.line]]`` ``role``) was pressed."""
        ...

    def close(self) -> None:
        """At shutdown: finish writing evidence and release the camera."""
        ...


class LiveCamera:
    """Polls the camera while a toss is in flight; everything in ``mono_ns``."""

    def __init__(
        self, settings: CameraSettings, journal: Path, in_flight: Callable[[Any], bool]
    ) -> None:
        """Raises :class:`TablerefError` naming the file when the calibration
        or the coin's references cannot be read: calibrate and register first.
        ``in_flight`` reads from the engine state whether a toss is in the air."""
        from vision.link import CameraLink
        from vision.sources import openers
        from vision.watch import CameraWatch, SecondCamera, evidence_dir

        first, other = openers(settings)
        second = None
        if settings.second is not None and other is not None:
            link = CameraLink(other, sensor=SECOND_CAMERA_SENSOR)
            second = SecondCamera(link, _analyser(settings.second, "[camera.second]"))
        self.watch = CameraWatch(
            first,
            _analyser(settings, "[camera]"),
            evidence_dir(journal),
            journal.parent,
            second=second,
        )
        self._in_flight = in_flight
        self._next: int | None = None

    def start(self, mono: int, state: Any, faulty: bool = False) -> list[Event]:
        """Open the camera (and the second); a missing one is a health event
        at once. A second camera the match holds faulty (``state.suspended``)
        reports its first good frame as its recovery, like the first."""
        self.watch.link.faulty = faulty
        if self.watch.second is not None:
            out: frozenset[str] = getattr(state, "suspended", frozenset())
            self.watch.second.link.faulty = SECOND_CAMERA_SENSOR in out
        return self.watch.start(mono)

    def update(self, mono: int, state: Any, kind: str) -> list[Event]:
        """After an input: a ``go`` opened a toss window (the empty floor is
        taken then, the coin still in the hand); while a toss is in the air
        the camera watches for it to settle."""
        events = self.watch.empty_floor(mono) if kind == "go" else []
        in_flight = self._in_flight(state)
        if in_flight and self._next is None:
            self._next = mono + POLL_NS
        elif not in_flight:
            self._next = None
        return events

    def due(self) -> int | None:
        """When :meth:`poll` should next run."""
        return self._next

    def poll(self, mono: int, state: Any) -> list[Event]:
        """One preview frame; a settled scene gives the landing (and stops polling)."""
        self._next = mono + POLL_NS
        return self.watch.poll(mono)

    def press(self, role: str, mono: int, state: Any) -> list[Event]:
        """The floor camera owns no button."""
        return []

    def close(self) -> None:
        """Release the cameras (their evidence is written as it is judged)."""
        self.watch.link.drop()
        if self.watch.second is not None:
            self.watch.second.link.drop()
        self.watch.close()


def _analyser(settings: CameraSettings, where: str) -> Analyser:
    """One camera's analyser: its calibration and references, the table's
    coin and margins. Raises :class:`TablerefError` naming ``where`` and the
    file when they cannot be read."""
    from vision.analyse import Analyser, settings_of
    from vision.calibration import Calibration
    from vision.model import VisionError
    from vision.references import References

    try:
        return Analyser(
            Calibration.load(settings.calibration).with_hfov(settings.hfov_deg),
            References.load(settings.references),
            settings_of(settings),
        )
    except (OSError, ValueError, VisionError) as exc:
        camera = " --camera second" if where == "[camera.second]" else ""
        raise TablerefError(
            f"{where}: {exc} (run 'tableref calibrate{camera}' and 'tableref coin register"
            f"{camera}' first: docs/vision.md)"
        ) from None
