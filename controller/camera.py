"""The floor camera in the live service (Heads & Tails, ``[camera]``).

The service loop owns it, like the sensor pipeline: after each input it is
told what the engine state is now, and while a toss is in the air it polls a
preview frame every :data:`POLL_NS`. Once the scene settles, the still it
takes is judged (``vision.watch.CameraWatch``) and the ``landed`` input it
gives, with its evidence saved beside the journal, is applied like any other
input. A camera that cannot be opened or stops giving frames is a ``camera``
health event, hence a ``suspended`` ruling, and the spotter enters landings.

OpenCV is imported only here, when a table has a camera.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from controller.errors import TablerefError
from controller.model import Event

if TYPE_CHECKING:
    from vision.settings import CameraSettings

POLL_NS = 100_000_000
"""How often the preview is looked at while a coin is in the air (10 Hz: the
settle detector wants several frames of a still scene)."""


class LiveCamera:
    """Polls the camera while a toss is in flight; everything in ``mono_ns``."""

    def __init__(self, settings: CameraSettings, journal: Path) -> None:
        """Raises :class:`TablerefError` naming the file when the calibration
        or the coin's references cannot be read: calibrate and register first."""
        from vision.analyse import Analyser, Settings
        from vision.calibration import Calibration
        from vision.model import VisionError
        from vision.references import References
        from vision.sources import open_source
        from vision.watch import CameraWatch, evidence_dir

        try:
            analyser = Analyser(
                Calibration.load(settings.calibration),
                References.load(settings.references),
                Settings(
                    coin_diameter_mm=settings.coin_diameter_mm,
                    margin=settings.margin,
                    tolerance_mm=settings.tolerance_mm,
                ),
            )
        except (OSError, ValueError, VisionError) as exc:
            raise TablerefError(
                f"[camera]: {exc} (run 'tableref calibrate' and 'tableref coin register' "
                "first: docs/vision.md)"
            ) from None
        self.watch = CameraWatch(
            lambda: open_source(settings), analyser, evidence_dir(journal), journal.parent
        )
        self._next: int | None = None

    def start(self, mono: int) -> list[Event]:
        """Open the camera; a missing one is a health event at once."""
        return self.watch.start(mono)

    def update(self, mono: int, go: bool, in_flight: bool) -> list[Event]:
        """After an input: ``go`` when it opened a toss window (the empty floor
        is taken then, the coin still in the hand); ``in_flight`` while a toss
        is in the air (the camera watches for it to settle)."""
        events = self.watch.empty_floor(mono) if go else []
        if in_flight and self._next is None:
            self._next = mono + POLL_NS
        elif not in_flight:
            self._next = None
        return events

    def due(self) -> int | None:
        """When :meth:`poll` should next run."""
        return self._next

    def poll(self, mono: int) -> list[Event]:
        """One preview frame; a settled scene gives the landing (and stops polling)."""
        self._next = mono + POLL_NS
        return self.watch.poll(mono)
