"""From camera to engine: a settled coin becomes a ``landed`` input, a lost
camera a health event, and every decision keeps its evidence beside the journal.

The camera never guesses a point: a landing it cannot tell (face below the
confidence margin, flat-or-leaning unclear, too near the line, no coin found)
becomes ``face = "unknown"``, and the engine asks the spotter (2.6.1).

>>> from vision.model import Observation, CoinFace, Posture, Zone
>>> obs = Observation(found=True, face=CoinFace.TAILS, posture=Posture.FLAT,
...     zone=Zone.INSIDE, x_mm=700.0, y_mm=650.0, confidence=0.3)
>>> landed_from(obs, t_ns=5).face.value
'tails'
>>> landed_from(Observation(found=False), t_ns=5).face.value
'unknown'

With a second floor camera (``[camera.second]``) the scene's settling is
watched on the first camera's preview; then both take a still, each is
judged by its own :class:`~vision.analyse.Analyser` (its own calibration
and references) and :func:`vision.fuse.fuse` makes the landing. Evidence is
kept for both: ``landing-<t>-first.*``, ``landing-<t>-second.*`` and the
fused ``landing-<t>.json``, which names which camera saw what. While the
first camera gives no frames, the second's preview is watched instead (its
own settle detector, told its own empty floor at Go) and the landing is its
still's alone, the first named in the evidence as giving no frames; the
first camera's next preview takes the watch back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from controller.games.heads_and_tails.events import Face, Landed
from controller.model import Event
from vision.analyse import Analyser
from vision.fuse import fuse
from vision.link import CAMERA_SENSOR, CameraLink
from vision.locate import SettleDetector
from vision.model import Frame, Observation, VisionError
from vision.sources import FrameSource

__all__ = [
    "CAMERA_SENSOR",
    "CameraWatch",
    "SecondCamera",
    "evidence_dir",
    "landed_from",
    "save_evidence",
    "save_views",
]
FIRST, SECOND = "first", "second"
"""The cameras' names in evidence (as in the config: ``[camera]``, ``[camera.second]``)."""
_FACES = {"heads": Face.HEADS, "tails": Face.TAILS, "edge": Face.EDGE}


def landed_from(obs: Observation, t_ns: int, evidence: str = "") -> Landed:
    """The engine's input for what the camera saw."""
    verdict = obs.verdict
    if verdict == "outside":
        return Landed(
            t_ns=t_ns,
            face=_FACES.get(obs.face.value, Face.UNKNOWN),
            in_area=False,
            evidence=evidence,
        )
    face = _FACES.get(verdict, Face.UNKNOWN)
    return Landed(t_ns=t_ns, face=face, in_area=True, evidence=evidence)


def evidence_dir(journal: Path) -> Path:
    """Where a journal's evidence goes: a folder beside it."""
    return journal.with_name(journal.stem + "-evidence")


def save_evidence(
    folder: Path, stem: str, obs: Observation, base: Path, extra: dict[str, object] | None = None
) -> str:
    """Write the crop (PNG) and the observation (JSON, with ``extra``) as
    ``folder/stem.*``; returns the JSON's path relative to ``base`` (the
    journal's folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = obs.summary() | (extra or {})
    if obs.picture is not None:
        (folder / f"{stem}.png").write_bytes(obs.crop)
        doc["crop"] = f"{stem}.png"
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


def save_views(
    folder: Path,
    stem: str,
    views: Sequence[tuple[str, Observation | None]],
    fused: Observation,
    base: Path,
) -> str:
    """Each camera's evidence as ``stem-<name>.*`` (None: that camera gave
    no frames) and the fused landing's as ``stem.*``, whose JSON names
    which camera saw what; returns that JSON's path relative to ``base``."""
    cameras: dict[str, object] = {}
    for name, obs in views:
        if obs is None:
            cameras[name] = {"evidence": None, "verdict": None, "why": "no frames"}
            continue
        cameras[name] = {
            "evidence": save_evidence(folder, f"{stem}-{name}", obs, folder),
            "verdict": obs.verdict,
            "face": obs.face.value,
            "posture": obs.posture.value,
            "confidence": round(obs.confidence, 4),
        }
    return save_evidence(folder, stem, fused, base, {"fused": True, "cameras": cameras})


def describe_views(views: Sequence[tuple[str, Observation | None]], fused: Observation) -> str:
    """One line: what each camera saw and the landing they make.

    >>> from vision.model import CoinFace, Posture, Zone
    >>> a = Observation(found=True, face=CoinFace.TAILS, posture=Posture.FLAT,
    ...     zone=Zone.INSIDE, x_mm=700.0, y_mm=650.0, confidence=0.3)
    >>> describe_views([("first", a), ("second", None)], a)
    'first: tails 0.30, second: no frames; landing: tails at (700, 650) mm'
    """
    seen = ", ".join(
        f"{name}: no frames" if obs is None else f"{name}: {obs.verdict} {obs.confidence:.2f}"
        for name, obs in views
    )
    where = "" if fused.x_mm is None else f" at ({fused.x_mm:.0f}, {fused.y_mm:.0f}) mm"
    return f"{seen}; landing: {fused.verdict}{where}"


@dataclass
class SecondCamera:
    """The second floor camera as the watch drives it: its link (health
    events under its own sensor name), its analyser, its empty floor and
    its settle detector (fed only while the first camera gives no frames)."""

    link: CameraLink
    analyser: Analyser
    background: Frame | None = None
    empty_still: Frame | None = None
    settle: SettleDetector = field(default_factory=SettleDetector)

    def frames(
        self, t_ns: int, settling: bool = False
    ) -> tuple[tuple[Frame, Frame] | None, list[Event]]:
        """A preview and a still now (None when it gives no frames);
        ``settling``: the preview is fed to :attr:`settle` first, and the
        still taken only if the scene has just settled (else None)."""
        preview, events = self.link.capture(t_ns, still=False)
        if preview is None or (settling and not self.settle.feed(preview.image)):
            return None, events
        still, more = self.link.capture(t_ns, still=True)
        return (None if still is None else (preview, still)), events + more


class CameraWatch:
    """Watches the landing square: polled with preview frames by the service loop.

    ``open_source`` is called at start and again after a failure; a
    :class:`~vision.model.CameraError` there or in a capture is a ``camera``
    health fault (a ``suspended`` ruling), and the next good frame its
    recovery (:class:`~vision.link.CameraLink`).
    """

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        analyser: Analyser,
        evidence: Path | None = None,
        base: Path | None = None,
        faulty: bool = False,
        second: SecondCamera | None = None,
    ) -> None:
        """``second``: the second floor camera, if the table has one."""
        self.link = CameraLink(open_source, faulty)
        self.analyser = analyser
        self.second = second
        self.seen: list[tuple[str, Observation | None]] = []
        """What each camera saw of the last landing judged (first, then second)."""
        self._evidence = evidence
        self._base = base or Path.cwd()
        self._settle = SettleDetector()
        self._background: Frame | None = None
        self._empty_still: Frame | None = None
        # The second camera's still is judged on a thread of its own while
        # the first's is judged here (OpenCV and numpy release the GIL):
        # 0.63 of the time one after the other on 2 vCPUs, the same verdicts.
        self._beside = ThreadPoolExecutor(1, "second-camera") if second is not None else None

    def close(self) -> None:
        """Let the second camera's judging thread go (at shutdown)."""
        if self._beside is not None:
            self._beside.shutdown()

    def _capture(self, t_ns: int, still: bool) -> tuple[Frame | None, list[Event]]:
        return self.link.capture(t_ns, still)

    def start(self, t_ns: int) -> list[Event]:
        """Open the camera (and the second); a missing one is reported at once."""
        events = self._capture(t_ns, still=False)[1]
        if self.second is not None:
            events += self.second.link.capture(t_ns, still=False)[1]
        return events

    def empty_floor(self, t_ns: int) -> list[Event]:
        """Take the reference of the empty square (after Go, before the toss):
        a preview to find the coin in, a still to outline it against."""
        frame, events = self._capture(t_ns, still=False)
        if frame is not None:
            self._background = frame
            self._settle.expect(frame.image, self.analyser.coin_px(frame))
            still, more = self._capture(t_ns, still=True)
            events += more
            self._empty_still = still
        if self.second is not None:
            cam = self.second
            frames, more = cam.frames(t_ns)
            events += more
            if frames is not None:
                cam.background, cam.empty_still = frames
                cam.settle.expect(frames[0].image, cam.analyser.coin_px(frames[0]))
        return events

    def poll(self, t_ns: int) -> list[Event]:
        """One preview frame; once the scene settles, the landing it shows.
        While the first camera gives no frames, the second's preview is
        watched instead, and the landing is the second's still alone."""
        frame, events = self._capture(t_ns, still=False)
        if frame is None:
            return events if self.second is None else events + self._alone(self.second, t_ns)
        if not self._settle.feed(frame.image):
            return events
        return events + self._stills(frame, t_ns)

    def look(self, t_ns: int) -> list[Event]:
        """The landing the cameras show now, taken as settled: the harness's
        synthetic ``frame`` input, which (like an image ``frame``) is the
        still of a coin at rest and so skips the settle detector."""
        frame, events = self._capture(t_ns, still=False)
        if frame is None:
            if self.second is None:
                return events
            return events + self._alone(self.second, t_ns, settling=False)
        return events + self._stills(frame, t_ns)

    def _stills(self, preview: Frame, t_ns: int) -> list[Event]:
        """The stills (both cameras') and the landing judged on them; the
        second's alone if the first gives no still."""
        still, events = self._capture(t_ns, still=True)
        if still is None and self.second is None:
            return events
        other = None
        if self.second is not None:
            other, more = self.second.frames(t_ns)
            events += more
        if still is None:
            return events if other is None else [*events, self.judge(None, None, t_ns, other)]
        events.append(self.judge(preview, still, t_ns, other))
        return events

    def _alone(self, second: SecondCamera, t_ns: int, settling: bool = True) -> list[Event]:
        """The first camera gave no frames: the second camera's preview (fed
        to its settle detector when ``settling``) and, once settled, the
        landing its still shows alone."""
        frames, events = second.frames(t_ns, settling)
        return events if frames is None else [*events, self.judge(None, None, t_ns, frames)]

    def judge(
        self,
        preview: Frame | None,
        still: Frame | None,
        t_ns: int,
        other: tuple[Frame, Frame] | None = None,
    ) -> Landed:
        """Analyse one landing and keep its evidence; ``other``: the second
        camera's preview and still (None: it has none, or gave no frames).
        ``preview`` and ``still`` None: the first camera gave no frames (the
        second's alone is the landing; one camera cannot judge without them)."""
        beside: Future[Observation] | None = None
        if self.second is not None and other is not None and self._beside is not None:
            cam = self.second
            beside = self._beside.submit(
                _observe, cam.analyser, *other, cam.background, cam.empty_still
            )
        obs = None
        if preview is not None and still is not None:
            obs = _observe(self.analyser, preview, still, self._background, self._empty_still)
        if self.second is None:
            if obs is None:
                raise ValueError("no still to judge")
            self.seen = [(FIRST, obs)]
            evidence = ""
            if self._evidence is not None:
                evidence = save_evidence(self._evidence, f"landing-{t_ns}", obs, self._base)
            return landed_from(obs, t_ns, evidence)
        two = None if beside is None else beside.result()
        if obs is None and two is None:
            raise ValueError("no camera's still to judge")
        self.seen = [(FIRST, obs), (SECOND, two)]
        analysers = {FIRST: self.analyser, SECOND: self.second.analyser}
        kept = [(name, v) for name, v in self.seen if v is not None]
        fused = fuse(
            [v for _, v in kept], cameras=[analysers[n].calibration.camera() for n, _ in kept]
        )
        if self._evidence is not None:
            evidence = save_views(self._evidence, f"landing-{t_ns}", self.seen, fused, self._base)
        else:
            evidence = describe_views(self.seen, fused)
        return landed_from(fused, t_ns, evidence)


def _observe(
    analyser: Analyser,
    preview: Frame,
    still: Frame,
    background: Frame | None,
    empty_still: Frame | None,
) -> Observation:
    """One camera's observation; a step that cannot run is a coin not found."""
    try:
        return analyser.analyse(preview, still, background, empty_still)
    except VisionError as exc:
        return Observation(found=False, reasons=(str(exc),))
