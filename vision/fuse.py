"""Two or more floor cameras' observations of one landing, made one.

Each camera is calibrated to the same floor millimetres and has its own
registered references, so each :class:`~vision.analyse.Analyser` judges the
landing on its own; :func:`fuse` then gives the table one observation.

Why a second camera: a coin leaning towards a camera by about twice the
angle that camera sees it at looks round to it (docs/vision.md, the cleet
goal by view angle); a second camera elsewhere sees the same coin as an
oval. It also doubles the pixels across the coin where each camera looks
at its own half of the square.

The rule (a first version, to be measured by ``bench.vision --cameras 2``):

- not found by any camera: not found, every camera's reasons kept;
- leaning as soon as one camera sees the coin leaning (a cleet is a retake,
  2.7.4; a cleet called a face is a wrong point);
- flat only when every camera that found it sees it flat; otherwise the
  spotter's (indeterminate);
- the face from the most confident camera whose face is decided, and only
  when no other camera reads the other face;
- the position the mean of the cameras' that found it; the zone only when
  they agree on it (else the spotter's).

>>> from vision.model import Zone
>>> a = Observation(found=True, face=CoinFace.HEADS, posture=Posture.FLAT,
...     zone=Zone.INSIDE, x_mm=700.0, y_mm=700.0, confidence=0.3, coin_px=70.0)
>>> b = replace(a, face=CoinFace.INDETERMINATE, confidence=0.02, x_mm=702.0)
>>> one = fuse([a, b])
>>> one.verdict, one.x_mm, one.coin_px
('heads', 701.0, 70.0)
>>> fuse([a, replace(b, posture=Posture.LEANING)]).verdict
'edge'
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace

from vision.model import CoinFace, Observation, Posture

__all__ = ["fuse"]


def _named(views: Sequence[Observation]) -> list[tuple[str, Observation]]:
    return [(f"camera {k + 1}", v) for k, v in enumerate(views)]


def _reasons(
    named: Sequence[tuple[str, Observation]], extra: Sequence[str] = ()
) -> tuple[str, ...]:
    return (*(f"{name}: {why}" for name, v in named for why in v.reasons), *extra)


def _posture(found: Sequence[Observation]) -> Posture:
    postures = [v.posture for v in found]
    if Posture.LEANING in postures:
        return Posture.LEANING
    if all(p is Posture.FLAT for p in postures):
        return Posture.FLAT
    return Posture.INDETERMINATE


def fuse(views: Sequence[Observation]) -> Observation:
    """One observation from each camera's of the same landing (in camera order)."""
    if not views:
        raise ValueError("fuse needs at least one camera's observation")
    if len(views) == 1:
        return views[0]
    named = _named(views)
    found = [v for v in views if v.found]
    if not found:
        return Observation(found=False, reasons=_reasons(named))
    posture = _posture(found)
    why: list[str] = []
    zones = {v.zone for v in found}
    zone = next(iter(zones)) if len(zones) == 1 else None
    if len(zones) > 1:
        why.append("the cameras disagree on in or out: the spotter's call")
    xs = [v.x_mm for v in found if v.x_mm is not None]
    ys = [v.y_mm for v in found if v.y_mm is not None]
    # The view the evidence comes from: a leaning coin's from the camera that
    # saw it lean, a flat coin's from the most confident decided face.
    leaning = [v for v in found if v.posture is Posture.LEANING]
    read = sorted(
        (v for v in found if v.face is not CoinFace.INDETERMINATE),
        key=lambda v: v.confidence,
        reverse=True,
    )
    face = CoinFace.INDETERMINATE
    if posture is Posture.FLAT and read:
        if len({v.face for v in read}) > 1:
            why.append("the cameras read different faces")
        else:
            face = read[0].face
    best = (leaning or read or sorted(found, key=lambda v: v.coin_px, reverse=True))[0]
    return replace(
        best,
        face=face,
        posture=posture,
        zone=zone,
        x_mm=statistics.fmean(xs) if xs else None,
        y_mm=statistics.fmean(ys) if ys else None,
        coin_px=max(v.coin_px for v in found),
        reasons=_reasons(named, why),
    )
