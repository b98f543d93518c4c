"""Two or more floor cameras' observations of one landing, made one.

Each camera is calibrated to the same floor millimetres and has its own
registered references, so each :class:`~vision.analyse.Analyser` judges the
landing on its own; :func:`fuse` then gives the table one observation.

Why a second camera: a coin leaning towards a camera by about twice the
angle that camera sees it at looks round to it (docs/vision.md, the cleet
goal by view angle); a second camera elsewhere sees the same coin as an
oval. It also doubles the pixels across the coin where each camera looks
at its own half of the square.

The rule (measured by ``bench.vision --cameras 2``; bench/RESULTS.md,
session 17, b-pair):

- not found by any camera: not found, every camera's reasons kept;
- leaning as soon as one camera sees the coin leaning (a cleet is a retake,
  2.7.4; a cleet called a face is a wrong point), unless another camera
  reads a face on a flat coin and every camera that sees it lean sees it
  smaller than :data:`SMALL_PX` across: then flat or leaning is the
  spotter's. A small coin's silhouette in a blurred still is dented where
  the floor matches its soft border, and reads flat coins as ovals
  (docs/vision.md, "ragged_hull"); on tuning seeds 100 and 110 (2,000
  landings) the class "a face read by one camera, leaning to the other"
  held 11 flat coins and 12 cleets, and the flat coins' leaning views
  were all but one under 50 px across, the cleets' all but two over;
- flat when every camera that found it sees it flat, or when one reads a
  face on it flat and the others leave flat or leaning open (the same
  2,000 landings: 46 flat coins, no cleet); otherwise the spotter's
  (indeterminate);
- the face from the most confident camera whose face is decided, and only
  when no other camera reads the other face;
- the position the mean of the cameras' that found it; the zone only when
  they agree on in or out (inside and on the line are both in).

>>> from vision.model import Zone
>>> a = Observation(found=True, face=CoinFace.HEADS, posture=Posture.FLAT,
...     zone=Zone.INSIDE, x_mm=700.0, y_mm=700.0, confidence=0.3, coin_px=70.0)
>>> b = replace(a, face=CoinFace.INDETERMINATE, confidence=0.02, x_mm=702.0)
>>> one = fuse([a, b])
>>> one.verdict, one.x_mm, one.coin_px
('heads', 701.0, 70.0)
>>> fuse([a, replace(b, posture=Posture.LEANING)]).verdict
'edge'
>>> fuse([a, replace(b, posture=Posture.LEANING, coin_px=40.0)]).verdict
'indeterminate'
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace

from vision.model import CoinFace, Observation, Posture, Zone

__all__ = ["SMALL_PX", "fuse"]

SMALL_PX = 50.0
"""A camera that sees the coin leaning but smaller than this across (its
full-resolution still) does not overrule another camera that reads a face
on it flat: the spotter decides. Chosen on tuning seeds 100 and 110 (45-55
give the same calls there but one); see the module's docstring."""

FLAT_OR_LEANING = "one camera reads a face, another sees a small coin leaning: flat or leaning?"


def _named(views: Sequence[Observation]) -> list[tuple[str, Observation]]:
    return [(f"camera {k + 1}", v) for k, v in enumerate(views)]


def _reasons(
    named: Sequence[tuple[str, Observation]], extra: Sequence[str] = ()
) -> tuple[str, ...]:
    return (*(f"{name}: {why}" for name, v in named for why in v.reasons), *extra)


def _reads_face(v: Observation) -> bool:
    return v.posture is Posture.FLAT and v.face is not CoinFace.INDETERMINATE


def _posture(found: Sequence[Observation]) -> Posture:
    """Flat, leaning or the spotter's, from the cameras that found the coin
    (the rule in the module's docstring)."""
    leaning = [v for v in found if v.posture is Posture.LEANING]
    if leaning:
        if any(_reads_face(v) for v in found) and all(v.coin_px < SMALL_PX for v in leaning):
            return Posture.INDETERMINATE
        return Posture.LEANING
    if all(v.posture is Posture.FLAT for v in found) or any(_reads_face(v) for v in found):
        return Posture.FLAT
    return Posture.INDETERMINATE


def _zone(zones: Sequence[Zone | None]) -> Zone | None:
    """The zone the cameras agree on: inside and on the line are both in
    the area (a coin touching the line is in, 1.4.3), so one camera seeing
    it touch the line and another not is agreement (on the line); in
    against out, or a camera too close to call, is not.

    >>> _zone([Zone.INSIDE, Zone.ON_LINE]), _zone([Zone.INSIDE, Zone.OUTSIDE])
    (<Zone.ON_LINE: 'on_line'>, None)
    """
    if None in zones or (Zone.OUTSIDE in zones and len(set(zones)) > 1):
        return None
    return Zone.ON_LINE if Zone.ON_LINE in zones else zones[0]


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
    leaning = [v for v in found if v.posture is Posture.LEANING]
    if leaning and posture is Posture.INDETERMINATE:
        why.append(FLAT_OR_LEANING)
    zone = _zone([v.zone for v in found])
    if zone is None and any(v.zone is not None for v in found):
        why.append("the cameras disagree on in or out: the spotter's call")
    xs = [v.x_mm for v in found if v.x_mm is not None]
    ys = [v.y_mm for v in found if v.y_mm is not None]
    # The view the evidence comes from: a leaning coin's from the camera that
    # saw it lean, a flat coin's from the most confident decided face.
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
    first = leaning if posture is Posture.LEANING else read
    best = (first or read or sorted(found, key=lambda v: v.coin_px, reverse=True))[0]
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
