"""Evidence stills of a live tiddlywinks table: the picture each shot and
each squidge-off was read from, kept beside the journal
(docs/tiddlywinks.md, "Evidence stills").

Each still goes to ``<journal>-evidence/{shot,squidge}-<MONO_NS>.jpg``: a
JPEG of quality :data:`QUALITY`, shrunk so that its long side is at most
:data:`LONG_SIDE` pixels, written to a temporary file and renamed into place
(a crash never leaves half a picture under the real name). The path
(relative to the journal's folder) goes in the input's ``evidence`` field,
so the game record and the rulings name it; a replay never reads it. A
still that cannot be written is logged and counted (:attr:`Evidence.failures`),
and the game goes on without it.

>>> import tempfile, numpy as np
>>> from vision.model import Frame
>>> folder = Path(tempfile.mkdtemp())
>>> ev = Evidence(folder / "journal.sqlite")
>>> ev.save("shot", 42, Frame(np.zeros((720, 1280, 3), np.uint8)))
'journal-evidence/shot-42.jpg'
>>> (folder / "journal-evidence" / "shot-42.jpg").read_bytes()[:2]
b'\\xff\\xd8'
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

import cv2
import numpy as np

from vision.model import Frame

log = logging.getLogger(__name__)

QUALITY = 85
"""JPEG quality: a wink's edge stays sharp enough for the umpire to judge."""
LONG_SIDE = 1920
"""A larger still is shrunk to this many pixels along its long side."""


def evidence_folder(journal: Path) -> Path:
    """Where a journal's evidence goes: ``<journal stem>-evidence`` beside it."""
    return journal.with_name(journal.stem + "-evidence")


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
    """Saves stills beside ``journal``; :meth:`save` never raises."""

    def __init__(self, journal: Path) -> None:
        self.folder = evidence_folder(journal)
        self.base = journal.parent
        self.failures = 0
        """Stills that could not be written."""
        self.saved = 0

    def save(self, kind: str, mono: int, still: Frame) -> str:
        """Write ``still`` as ``<kind>-<mono>.jpg``; its path relative to the
        journal's folder, or "" when it could not be written (logged)."""
        name = f"{kind}-{mono}.jpg"
        path = self.folder / name
        tmp = self.folder / f".{name}.tmp"
        try:
            data = encode_jpeg(np.asarray(still.image))
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except (OSError, cv2.error) as exc:
            self.failures += 1
            log.warning("mat camera: evidence %s not written (%d so far): %s", name,
                        self.failures, exc)  # fmt: skip
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            return ""
        self.saved += 1
        try:
            return str(path.relative_to(self.base))
        except ValueError:
            return str(path)
