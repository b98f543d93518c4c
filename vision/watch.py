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
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from controller.games.heads_and_tails.events import Face, Landed
from controller.model import Event
from vision.analyse import Analyser
from vision.link import CAMERA_SENSOR, CameraLink
from vision.locate import SettleDetector
from vision.model import Frame, Observation, VisionError
from vision.sources import FrameSource

__all__ = ["CAMERA_SENSOR", "CameraWatch", "evidence_dir", "landed_from", "save_evidence"]
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


def save_evidence(folder: Path, stem: str, obs: Observation, base: Path) -> str:
    """Write the crop (PNG) and the observation (JSON) as ``folder/stem.*``;
    returns the JSON's path relative to ``base`` (the journal's folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = obs.summary()
    if obs.picture is not None:
        (folder / f"{stem}.png").write_bytes(obs.crop)
        doc["crop"] = f"{stem}.png"
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


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
    ) -> None:
        self.link = CameraLink(open_source, faulty)
        self.analyser = analyser
        self._evidence = evidence
        self._base = base or Path.cwd()
        self._settle = SettleDetector()
        self._background: Frame | None = None
        self._empty_still: Frame | None = None

    def _capture(self, t_ns: int, still: bool) -> tuple[Frame | None, list[Event]]:
        return self.link.capture(t_ns, still)

    def start(self, t_ns: int) -> list[Event]:
        """Open the camera; a missing one is reported at once."""
        return self._capture(t_ns, still=False)[1]

    def empty_floor(self, t_ns: int) -> list[Event]:
        """Take the reference of the empty square (after Go, before the toss):
        a preview to find the coin in, a still to outline it against."""
        frame, events = self._capture(t_ns, still=False)
        if frame is not None:
            self._background = frame
            still, more = self._capture(t_ns, still=True)
            events += more
            self._empty_still = still
        return events

    def poll(self, t_ns: int) -> list[Event]:
        """One preview frame; once the scene settles, the landing it shows."""
        frame, events = self._capture(t_ns, still=False)
        if frame is None or not self._settle.feed(frame.image):
            return events
        still, more = self._capture(t_ns, still=True)
        events += more
        if still is not None:
            events.append(self.judge(frame, still, t_ns))
        return events

    def judge(self, preview: Frame, still: Frame, t_ns: int) -> Landed:
        """Analyse one landing and keep its evidence."""
        try:
            obs = self.analyser.analyse(preview, still, self._background, self._empty_still)
        except VisionError as exc:
            obs = Observation(found=False, reasons=(str(exc),))
        evidence = ""
        if self._evidence is not None:
            evidence = save_evidence(self._evidence, f"landing-{t_ns}", obs, self._base)
        return landed_from(obs, t_ns, evidence)
