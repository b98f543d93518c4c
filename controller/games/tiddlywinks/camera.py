"""The mat camera of a live tiddlywinks table (``[camera]``; docs/tiddlywinks.md).

A shot ends "when all winks have come to rest" (5(b)): when the camera sees
the mat settle, or when the player presses the shot button. The service loop
drives a :class:`MatCamera` (a :class:`~controller.camera.TableCamera`) in
``mono_ns``:

- at start-up it opens the source and calibrates the mat once from the
  markers of a still (:class:`vision.mat.camera.MatView`);
- while a shot is due (the game is in play) it asks to be polled every
  :data:`~controller.camera.POLL_NS` (10 Hz) and feeds each preview to
  :class:`vision.mat.settle.ShotWatch` with the engine's mat before the shot;
  a settled mat on which a wink moved is the :class:`Shot` it returns, which
  the service journals (as its sightings: a replay never reads a frame) and
  applies like any input;
- a press of the ``shot`` line ends the shot at once, from a still taken then;
- before play, in the squidge-off (5(a)), it watches the same way and reads
  each settled still (or the shot button's, at once) against the line-up
  (:class:`~controller.games.tiddlywinks.camera_squidge.SquidgeWatch`): the
  ``squidge`` input it gives is journaled like a shot, and the line-up as a
  ``lineup`` input, which a restarted service resumes the round against;
- the wink a shot was played with is the first seen to move in the previews
  (:mod:`~controller.games.tiddlywinks.camera_first`), when that is clear;
- the still each shot and squidge was read from is kept beside the journal
  (:mod:`~controller.games.tiddlywinks.camera_evidence`), its path in the
  input's ``evidence``; when the pot leaves a wink unnamed, the pot's
  opening before and after the shot too, named in the umpire's note
  (the shot's ``notes``: journaled with it, given as a 14 notice, logged);
- every still is checked against the calibration: markers more than
  :data:`~vision.mat.camera.MOVED_MM` from where they were (the camera
  knocked, the mat pushed) recalibrate the mat from that still before it is
  read, with a warning in the log;
- a camera that cannot open, stops giving frames, or whose markers cannot be
  seen is a ``camera`` health event (a ``suspended`` ruling: shots are then
  entered by command), and its first good frame again the recovery
  (:class:`vision.link.CameraLink`). A shot that settled while the still
  could not be taken is looked for again once frames come back.

OpenCV is imported only here, when a tiddlywinks table has a camera.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from controller.camera import POLL_NS
from controller.games.tiddlywinks.camera_evidence import Evidence, pot_notes
from controller.games.tiddlywinks.camera_first import FirstWink
from controller.games.tiddlywinks.camera_squidge import SquidgeWatch
from controller.games.tiddlywinks.events import Lineup, Shot, Squidge
from controller.games.tiddlywinks.geometry import MatSpec
from controller.games.tiddlywinks.state import Phase, State
from controller.model import Event
from controller.sensors.lines import Role
from vision.link import CameraLink
from vision.mat.camera import MatView
from vision.mat.layout import MatLayout
from vision.mat.model import PotView
from vision.mat.pool import CropPool, default_workers
from vision.mat.pot import Pot, opening_crop
from vision.mat.settle import Crop, MatSettle, Opening, SettleSettings, ShotWatch, mat_region
from vision.model import Frame, VisionError
from vision.settings import CameraSettings, SourceKind
from vision.sources import FrameSource, open_source

log = logging.getLogger(__name__)
_Read = TypeVar("_Read", Shot, Squidge, Lineup)


def open_mat_source(settings: CameraSettings, spec: MatSpec | None = None) -> FrameSource:
    """The configured camera; ``synthetic`` is the mat renderer (an empty mat)."""
    if settings.source is SourceKind.SYNTHETIC:
        from vision.mat.source import MatSource

        return MatSource.from_seed(settings.seed, MatLayout(spec or MatSpec()), settings.preview)
    return open_source(settings)


def _opening(view: MatView) -> Opening:
    """Cuts the pot's opening out of a still of ``view`` (the umpire's evidence)."""

    def cut(still: Frame, pot: PotView) -> Crop | None:
        spot = Pot(pot.x, pot.y, pot.rim_mm)
        return opening_crop(still.image, view.calibration, spot, view.layout.spec)

    return cut


class _NoStill(Exception):
    """The still could not be taken (the link has reported it)."""


def shot_due(state: State) -> bool:
    """Whether the engine is waiting for a shot (the game is in play)."""
    return state.phase is Phase.PLAY


def squidge_due(state: State) -> bool:
    """Whether the engine is waiting for the squidge-off (5(a))."""
    return state.phase is Phase.SQUIDGE_OFF


def watching(state: State) -> bool:
    """Whether the camera watches the mat: a shot or the squidge-off is due."""
    return shot_due(state) or squidge_due(state)


class MatCamera:
    """Shots from the settled mat and the shot button; everything in ``mono_ns``."""

    def __init__(
        self,
        settings: CameraSettings,
        open_camera: Callable[[], FrameSource] | None = None,
        journal: Path | None = None,
    ) -> None:
        """``open_camera`` replaces the configured source (a test's renderer);
        ``journal``: evidence stills are kept beside it (None: none kept)."""
        self.settings = settings
        self.link = CameraLink(open_camera or (lambda: open_mat_source(settings)))
        self.view: MatView | None = None
        self.watch: ShotWatch | None = None
        self.squidge: SquidgeWatch | None = None
        self.evidence = None if journal is None else Evidence(journal)
        workers = settings.crop_workers
        self.pool = CropPool(default_workers() if workers is None else workers)
        """Reads a still's crops side by side (``crop_workers``), for every view."""
        self._taken: Frame | None = None
        self._next: int | None = None

    # -- the TableCamera protocol ------------------------------------------------
    def start(self, mono: int, state: Any, faulty: bool = False) -> list[Event]:
        """Open the camera and calibrate the mat; trouble is a health event."""
        self.link.faulty = faulty
        events = self._ready(mono, state)
        return events + self.update(mono, state, "")

    def update(self, mono: int, state: Any, kind: str) -> list[Event]:
        """Poll while a shot or the squidge-off is due."""
        if not watching(state):
            self._next = None
        elif self._next is None:
            self._next = mono + POLL_NS
        return []

    def due(self) -> int | None:
        return self._next

    def poll(self, mono: int, state: Any) -> list[Event]:
        """One preview frame; the shot once the mat has settled."""
        self._next = mono + POLL_NS if watching(state) else None
        events = self._ready(mono, state)
        if self.watch is None:
            return events
        frame, more = self.link.capture(mono, still=False)
        events += more
        if frame is None:
            return events
        watch = self.watch
        if watch.settle.size != frame.size:  # the first preview: watch the mat's pixels
            assert self.view is not None
            region = mat_region(self.view.calibration, watch.spec, size=frame.size)
            watch.settle = MatSettle(watch.settle.settings, region, frame.size)
            watch.first = FirstWink(self.view.calibration, frame.size, watch.settle.settings)
        if squidge_due(state):
            return events + self._squidge(mono, state, frame.image, events)
        try:
            shot = watch.preview(frame.image, mono, self._still(mono, events), state.mat)
        except _NoStill:
            watch.settle.expect_motion(mono)  # look again once frames come back
            return events
        if shot is None:
            self._look(mono, state, events)
            return events
        kept = self._kept("shot", mono, shot)
        return [*events, self._noted(mono, kept)]

    def press(self, role: str, mono: int, state: Any) -> list[Event]:
        """The shot button: the shot ends now, the mat taken as it lies."""
        if role != Role.SHOT.value or not watching(state):
            return []
        events = self._ready(mono, state)
        if self.watch is None:
            return events
        if squidge_due(state):
            return events + self._squidge(mono, state, None, events)
        try:
            shot = self.watch.button(mono, self._still(mono, events), state.mat)
            kept = self._kept("shot", mono, shot)
            return [*events, self._noted(mono, kept)]
        except _NoStill:
            return events

    def close(self) -> None:
        """Finish writing the evidence stills, then release the camera and
        end the crop pool's workers."""
        if self.evidence is not None:
            self.evidence.close()
        self.link.drop()
        self.pool.close()

    # -- inside ----------------------------------------------------------------
    def _look(self, mono: int, state: Any, events: list[Event]) -> None:
        """Read a still of the mat once it is quiet (not in mid-shot), before
        the next shot, when the shot could not be judged from the previews
        and the last still (:meth:`ShotWatch.wants_look`): after a restart,
        a recalibration, the squidge-off or an umpire's change, no still has
        shown where the unplayed winks lie behind their baselines (a shot
        played from there is named from the previews), or the pot with the
        engine's potted winks (the cross-check by conservation and the
        umpire's crop of the pot's opening before the shot need it)."""
        watch = self.watch
        if watch is None or not watch.settle.quiet or not watch.wants_look(state.mat):
            return
        try:
            still = self._still(mono, events)()
        except _NoStill:
            return  # tried again at the next quiet preview
        self._taken = None  # (no input is read from it: no evidence to keep)
        watch.look(still, state.mat)

    def _squidge(self, mono: int, state: Any, image: Any, events: list[Event]) -> list[Event]:
        """The squidge-off: a preview ``image`` (None: the shot button, read at
        once). A still is read at a round's first preview (the line-up, which
        is journaled), when the mat settles, and on the button. After a
        restart the round goes on against the journaled line-up, read at once
        if a squidge was pending."""
        squidge = self.squidge
        assert squidge is not None
        fresh = squidge.begin(state.contenders)
        again: list[Event] = []
        if squidge.lineup is not None and squidge.handed and not state.squidge_lineup:
            # a tie between the same colours (all of them): the round goes on
            # against the same line-up, journaled again for a restart
            again.append(Lineup(t_ns=mono, winks=squidge.lineup_winks()))
        return again + self._squidge_read(mono, state, image, events, fresh)

    def _squidge_read(
        self, mono: int, state: Any, image: Any, events: list[Event], fresh: bool
    ) -> list[Event]:
        """The squidge-off's still, when one is due (:meth:`_squidge`);
        ``fresh``: a round has just begun."""
        watch, squidge = self.watch, self.squidge
        assert watch is not None and squidge is not None
        resumed = squidge.lineup is None and bool(state.squidge_lineup)
        if resumed:
            squidge.resume(state.contenders, state.squidge_lineup)
            # read at once only if the round was under way (a squidge pending):
            # after a tie the winks still lying out would be judged again
            resumed = bool(state.squidge_pending)
        button = image is None
        settled = not button and watch.settle.feed(image, mono)
        if not (button or settled or resumed or (fresh and squidge.lineup is None)):
            return []
        if button:
            watch.settle.moving = False
        try:
            still = self._still(mono, events)()
        except _NoStill:
            if settled or resumed:
                watch.settle.expect_motion(mono)  # look again once frames come back
            squidge.contenders = () if fresh and not resumed else squidge.contenders
            return []  # (a fresh round takes its line-up again)
        taking = squidge.lineup is None
        obs = watch.analyse(still)
        if watch.first is not None:  # the winks behind the baselines, for the first shot
            watch.first.saw(obs, watch.spec)
        found = squidge.look(obs, mono, state.contenders, again=button)
        if taking and squidge.lineup is not None:
            squidge.handed = True
            return [self._kept("lineup", mono, Lineup(t_ns=mono, winks=squidge.lineup_winks()))]
        return [] if found is None else [self._kept("squidge", mono, found)]

    def _noted(self, mono: int, shot: Shot) -> Shot:
        """``shot`` with its notes for the umpire (journaled with it, and
        given as a 14 notice), naming the crops of the pot's opening when the
        cross-check weighed the pot (:meth:`_notes`)."""
        self._notes(mono, shot.evidence)
        watch = self.watch
        if watch is None or not watch.notes:
            return shot
        return dataclasses.replace(shot, notes=tuple(watch.notes))

    def _notes(self, mono: int, still: str) -> None:
        """The shot's notes for the umpire, naming the crops of the pot's
        opening when the cross-check weighed the pot (:func:`pot_notes`),
        kept beside the shot's ``still`` (none when it could not be kept:
        one failure is counted once); logged."""
        watch = self.watch
        if watch is None or not watch.notes:
            return
        if self.evidence is not None and still:
            watch.notes = pot_notes(self.evidence, mono, watch.notes, watch.weighed, watch.openings)
        for note in watch.notes:
            log.info("mat camera: the shot at %d: %s", mono, note)

    def _kept(self, kind: str, mono: int, read: _Read) -> _Read:
        """``read`` with the still it was read from saved as its evidence."""
        still, self._taken = self._taken, None
        if self.evidence is None or still is None:
            return read
        path = self.evidence.save(kind, mono, still)
        return dataclasses.replace(read, evidence=path) if path else read

    def _still(self, mono: int, events: list[Event]) -> Callable[[], Frame]:
        def still() -> Frame:
            frame, more = self.link.capture(mono, still=True)
            events.extend(more)
            if frame is None:
                raise _NoStill
            self._check_moved(mono, frame, events)
            self._taken = frame
            return frame

        return still

    def _check_moved(self, mono: int, still: Frame, events: list[Event]) -> None:
        """Recalibrate from ``still`` if its markers have moved; a still whose
        markers then give no calibration is a camera fault (no shot read)."""
        view, watch = self.view, self.watch
        assert view is not None and watch is not None
        shift = view.moved(still)
        if shift is None:
            return
        try:
            new = MatView.calibrate(still, view.layout, self.settings.mat_hfov_deg, self.pool)
        except VisionError as exc:
            events.extend(self.link.health(mono, False, f"camera: moved, and the markers: {exc}"))
            raise _NoStill from None
        log.warning("mat camera: markers %.1f mm off the calibration: recalibrated", shift)
        self.view = new
        watch.analyse = new.analyse
        watch.opening = _opening(new)
        watch.settle = MatSettle(watch.settle.settings)  # the mat's pixels again, next preview
        watch.first = None  # and its discs, from the new calibration

    def _ready(self, mono: int, state: Any) -> list[Event]:
        """Calibrate from a still's markers unless done for this mat; after a
        fault the camera may have been moved, so it is done again."""
        spec: MatSpec = state.settings.mat
        if self.link.faulty:
            self.view = self.watch = None
        if self.view is not None and self.view.layout.spec == spec:
            return []
        frame, events = self.link.capture(mono, still=True, recovered=None)
        if frame is None:
            return events
        try:
            view = MatView.calibrate(frame, MatLayout(spec), self.settings.mat_hfov_deg, self.pool)
        except VisionError as exc:
            return events + self.link.health(mono, False, f"camera: the mat's markers: {exc}")
        self.view = view
        if view.closer:  # its workers started now, not at the first shot
            self.pool.start()
        settle = MatSettle(SettleSettings(hold_ms=self.settings.settle_ms))
        self.watch = ShotWatch(view.analyse, settle, spec, _opening(view))
        self.squidge = SquidgeWatch(spec, state.settings.squidge_tie_mm)
        return events + self.link.health(mono, True, "camera: frames again, mat calibrated")
