"""Evidence stills of a live tiddlywinks table: the picture each shot and
each squidge-off was read from, kept beside the journal
(docs/tiddlywinks.md, "Evidence stills").

Each still goes to ``<journal>-evidence/{shot,squidge}-<MONO_NS>.jpg``: a
JPEG of quality :data:`QUALITY`, shrunk so that its long side is at most
:data:`LONG_SIDE` pixels, written to a temporary file and renamed into place
(a crash never leaves half a picture under the real name). When the
cross-check by conservation weighed the pot for a wink seen nowhere (and
named it potted, or could not), the pot's opening cut from the still before the shot
and from the shot's own goes beside it too, ``pot-before-<MONO_NS>.jpg``
and ``pot-after-<MONO_NS>.jpg``, and the umpire's note names them
(:func:`pot_notes`). The path
(relative to the journal's folder) goes in the input's ``evidence`` field,
so the game record and the rulings name it; a replay never reads it.

Shrinking and encoding a full-resolution still takes tens of milliseconds
(65 ms for 4608x2592 on the benchmark VM), so it is done on one writer
thread, not in the service loop: :meth:`Evidence.save` names the file at
once and the ruling goes out without waiting for it. At most
:data:`BACKLOG` stills wait to be written; one more is not kept. A still
that cannot be written, or is not kept, is logged (naming the file) and
counted (:attr:`Evidence.failures`), and the game goes on without it.
:meth:`Evidence.close` (the service's shutdown) waits for the stills
still being written.

>>> import tempfile, numpy as np
>>> from vision.model import Frame
>>> folder = Path(tempfile.mkdtemp())
>>> ev = Evidence(folder / "journal.sqlite")
>>> ev.save("shot", 42, Frame(np.zeros((720, 1280, 3), np.uint8)))
'journal-evidence/shot-42.jpg'
>>> ev.flush()
>>> (folder / "journal-evidence" / "shot-42.jpg").read_bytes()[:2]
b'\\xff\\xd8'
>>> ev.close()
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.model import Frame
from vision.watch import evidence_dir

log = logging.getLogger(__name__)

QUALITY = 85
"""JPEG quality: a wink's edge stays sharp enough for the umpire to judge."""
LONG_SIDE = 1920
"""A larger still is shrunk to this many pixels along its long side."""
OPENING_SIDE = 320
"""A crop of the pot's opening (about 50 mm across: 90 px in a 4608 px
still) is enlarged by a whole factor to at least this many pixels along
its long side, each pixel a square block, so that the JPEG's halved
colour resolution does not blur the colours the umpire judges."""
BACKLOG = 8
"""Stills that may wait for the writer; more means the card cannot keep up
(a still is about 40 MB in memory at 4608x2592, so the wait is bounded)."""


def encode_jpeg(image: np.ndarray) -> bytes:
    """``image`` as a JPEG (quality :data:`QUALITY`, long side at most :data:`LONG_SIDE`)."""
    h, w = image.shape[:2]
    if max(w, h) > LONG_SIDE:
        f = LONG_SIDE / max(w, h)
        size = (max(1, round(w * f)), max(1, round(h * f)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    if not ok:
        raise OSError("the still could not be encoded as JPEG")
    return bytes(buf.tobytes())


class Evidence:
    """Saves stills beside ``journal`` on a writer thread; :meth:`save` never raises."""

    def __init__(self, journal: Path) -> None:
        self.folder = evidence_dir(journal)  # as Heads & Tails keeps its crops
        self.base = journal.parent
        self.failures = 0
        """Stills that could not be written or were not kept (writer behind)."""
        self.saved = 0
        """Stills written."""
        self._lock = threading.Lock()
        self._waiting: set[concurrent.futures.Future[None]] = set()
        self._writer: concurrent.futures.ThreadPoolExecutor | None = None

    def save(self, kind: str, mono: int, still: Frame) -> str:
        """Queue ``still`` to be written as ``<kind>-<mono>.jpg``; its path
        relative to the journal's folder, or "" when it cannot be kept
        (logged): the folder cannot be made or :data:`BACKLOG` stills wait.
        The camera hands over a new image per still, so it is not copied."""
        name = f"{kind}-{mono}.jpg"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._failed(name, exc)
            return ""
        with self._lock:
            behind = len(self._waiting) >= BACKLOG
            if not behind:
                if self._writer is None:
                    self._writer = concurrent.futures.ThreadPoolExecutor(
                        1, thread_name_prefix="evidence"
                    )
                job = self._writer.submit(self._write, name, np.asarray(still.image))
                self._waiting.add(job)
        if behind:
            self._failed(name, f"{BACKLOG} stills still waiting to be written")
            return ""
        job.add_done_callback(self._done)
        path = self.folder / name
        try:
            return str(path.relative_to(self.base))
        except ValueError:
            return str(path)

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every still queued so far is written (or has failed)."""
        with self._lock:
            waiting = list(self._waiting)
        concurrent.futures.wait(waiting, timeout=timeout)

    def close(self) -> None:
        """Write what waits, then stop the writer thread."""
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)

    def _done(self, job: concurrent.futures.Future[None]) -> None:
        with self._lock:
            self._waiting.discard(job)

    def _write(self, name: str, image: np.ndarray) -> None:
        """On the writer thread: encode, write beside, rename into place."""
        path = self.folder / name
        tmp = self.folder / f".{name}.tmp"
        try:
            data = encode_jpeg(image)
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except Exception as exc:  # the writer thread's boundary: anything is logged and counted
            self._failed(name, exc)
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            return
        with self._lock:
            self.saved += 1

    def _failed(self, name: str, why: object) -> None:
        with self._lock:
            self.failures += 1
            failures = self.failures
        log.warning("mat camera: evidence %s not written (%d so far): %s", name, failures, why)


Openings = tuple[np.ndarray | None, np.ndarray | None]


def pot_notes(evidence: Evidence, mono: int, notes: Sequence[str], weighed: Sequence[bool],
              openings: Openings) -> tuple[str, ...]:  # fmt: skip
    """``notes`` (a shot's, :attr:`vision.mat.settle.ShotWatch.notes`) with
    each one where the cross-check by conservation weighed the pot
    (``weighed``, one flag a note: ``"<id> not seen (...; its colour in the
    pot's opening +6 mm2)"``, ``"<id> potted: ... 120 mm2 more ..."``:
    :func:`vision.mat.convert.to_sightings` with a pot before) naming the
    crops of the pot's opening before and after the shot (``openings``;
    either may be None: not seen, or no still before), saved beside the
    journal as ``pot-before-<mono>.jpg`` and
    ``pot-after-<mono>.jpg``. Unchanged when no note is about the pot or no
    crop could be kept."""
    if not any(weighed):
        return tuple(notes)
    saved = []
    for when, crop in zip(("before", "after"), openings, strict=True):
        if crop is None:
            continue
        path = evidence.save(f"pot-{when}", mono, Frame(_enlarged(crop)))
        if path:
            saved.append(f"{when} the shot: {path}")
    if not saved:
        return tuple(notes)
    where = f" (the pot's opening {'; '.join(saved)})"
    return tuple(n + where if a else n for n, a in zip(notes, weighed, strict=True))


def _enlarged(crop: np.ndarray) -> np.ndarray:
    """``crop`` enlarged by a whole factor to :data:`OPENING_SIDE` or more."""
    f = math.ceil(OPENING_SIDE / max(1, *crop.shape[:2]))
    if f <= 1:
        return np.ascontiguousarray(crop)
    return np.asarray(cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_NEAREST))
