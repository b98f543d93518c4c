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
  were all but one under 50 px across, the cleets' all but two over.
  Given where the cameras are (``fuse(views, cameras=...)``), the spotter
  decides too when a camera reads a face on it flat and every camera that
  sees it lean sees a clear oval (:data:`CLEAR_OVAL`) that no tilted coin
  can make while the face-reading camera sees it round
  (:func:`explained`): an oval's ratio and direction say how far and which
  way the coin would lean, and so what the other camera must see
  (session 17, b-orient: false flags 8 -> 6 on tuning seeds 100, 110 and
  140, 12 -> 11 on fresh seed 130, no cleet changed);
  and when a camera reads a face on it flat and sees it round
  (:data:`vision.tilt.ROUND`), every camera that sees it lean sees a mild
  oval (rounder than :data:`CLEAR_OVAL`) and the cameras agree the coin
  lies on the painted line (:data:`MILD_ON_LINE`): on the white line a
  flat coin's outline reads a mild oval (session 18: of the false flags on
  tuning seeds 100, 110, 130 and 150, 45 of 49 lay on the line or across
  its inner edge; this sends 20 of them to the spotter and 1 of 1,164
  cleets);
- flat when every camera that found it sees it flat, or when one reads a
  face on it flat and the others leave flat or leaning open (the same
  2,000 landings: 46 flat coins, no cleet); but the spotter's when, given
  where the cameras are, the cameras agree the coin is in, every camera
  that leaves it open places it clear of the painted line (inside) and
  sees it at least :data:`SMALL_PX` across, and one tilted coin explains
  every outline (:data:`OPEN_OFF_LINE`: session 21, tuning seeds 230 and
  240: 3 cleets called a face, 2 flat coins; session 23: the camera that
  reads the face may place it on the line, 250004#35);
  otherwise the spotter's (indeterminate);
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
from vision.tilt import ROUND, Place, one_coin

__all__ = [
    "CLEAR_OVAL",
    "MILD_ON_LINE",
    "NO_ONE_COIN",
    "OPEN_OFF_LINE",
    "SMALL_PX",
    "explained",
    "fuse",
]

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


CLEAR_OVAL = (0.7, 0.8)
"""A leaning view whose axis ratio is in this range is asked whether one
tilted coin explains it and the other cameras' (:func:`explained`). Above
0.8 the oval is mild: a small tilt, or the outline's bias (measured ratios
run 0.04-0.1 rounder than the disc's), allows nearly every tilt and way;
below 0.7 it is more oval than a flat coin's dented silhouette reads
(0.74-0.92, docs/vision.md), so a mismatch is the other camera's outline
(a leaning coin's ghost round edge) and the coin leans. On tuning seeds
100, 110 and 140 (3,000 landings) an upper end of 0.85 sent one cleet
more to the spotter (0.8: none, and the same two flat coins), 0.93 two;
a lower end of 0 made the same calls as 0.7. On the painted line a flat
coin's outline reads lower still (0.36-0.62 on tuning seed 330, rigs
330008 and 330014), but a lower end of 0 there only (session 25, b-flat;
tuning seeds 310-330, the rigs rendered) sent one flat coin to the
spotter (330014#43: heads read at 0.94, the other camera 0.60) and one
cleet (330000#89, leaning 72 degrees: one camera read heads on a round
ghost outline, 0.96, the other 0.12): not kept."""

ROUND_SLACK = 0.05
"""How much rounder than the disc a round view may measure
(:func:`vision.tilt.one_coin`; 0.03-0.1 gave the same calls on the tuning
seeds)."""

NO_ONE_COIN = (
    "one camera reads a face, another sees the coin leaning, and no tilted coin"
    " explains both outlines: flat or leaning?"
)


MILD_ON_LINE = (
    "one camera reads a face, another sees a mild oval on the painted line: flat or leaning?"
)
"""Why the spotter decides when the only cameras that see the coin lean see
a mild oval (axis ratio over :data:`CLEAR_OVAL`'s upper end), another reads
a face on it and sees it round, and it lies on the painted line (module
docstring). Off the line such a view still overrules the face: there it is
a cleet's more often than a flat coin's (tuning seeds 100-150: 9 cleets, 2
flat coins); so it does where the face-reading camera sees the coin less
than round (two small cleets of seed 170, 0.91)."""


OPEN_OFF_LINE = (
    "one camera reads a face, another leaves flat or leaning open off the painted line,"
    " and one tilted coin explains both outlines: flat or leaning?"
)
"""Why the spotter decides when one camera reads a face on the coin flat,
every other camera that found it leaves flat or leaning open, sees it at
least :data:`SMALL_PX` across and places it clear of the painted line
(inside), the cameras agree it is in and one coin tilted 20 degrees or
more explains every camera's outline (:func:`explained`); otherwise such
a coin is flat (the module docstring). On tuning seeds 230 and 240 (4,000 landings) the
class "one reads a face, another leaves it open" held 75 flat coins on the
line and no cleet (there a flat coin's outline reads a mild oval:
:data:`MILD_ON_LINE`); off it 3 cleets leaning 31-33 degrees, each called
a face (230007#12, 230011#67, 240008#51: open views 0.92-0.93 and 56-104
px, one tilted coin explains both outlines) and 9 flat coins, of which one
tilted coin explains 3 (one of them seen 36 px across, small). A small
coin's silhouette in a blurred still is dented (:data:`SMALL_PX`): tuning
landing 110006#4 (flat, open view 0.90 and 46 px, explained) stays tails.

What is asked of the line is the open views' own zone (session 23): it is
their oval that says the coin may lean, and on the tape a flat coin's
outline reads a mild oval (its silver parts match the white), so an open
view on the line is left to the face read. The camera that reads the face
may place the coin on the line: tuning landing 250004#35, a cleet leaning
42 degrees 2.6 mm clear of the line's inner edge, was placed on it by
camera 1 (outlined by a silhouette 0.96 round, tails read, its centre
2.7 mm out from the truth) and inside by camera 2 (open, 0.87; the
geometry 0.87): the pair called it tails. On
tuning seeds 230, 240 and 250 (6,000 landings) that sent 250004#35 and
one flat coin to the spotter (240010#90: open 0.92 at 59 px, explained):
the class "one reads a face, another leaves it open, on the line" held 36,
40 and 20 landings, of which three flat coins and the cleet had every open
view inside (two flat coins no tilted coin explains: the face, as
before). Fresh seeds 290 (2,000) and 300 (1,000): no landing changed
(bench/RESULTS.md, session 23, b-cleet)."""


def explained(found: Sequence[Observation], places: Sequence[Place | None]) -> bool | None:
    """Whether one tilted coin explains every camera's outline (its axis
    ratio and direction, and where that camera is: :func:`vision.tilt.one_coin`),
    at the cameras' mean position; None when it cannot be asked (a camera's
    place or an outline unknown)."""
    outlines: list[tuple[float, float, Place]] = []
    for v, c in zip(found, places, strict=True):
        if c is None or v.axis_ratio is None or v.axis_deg is None:
            return None
        outlines.append((v.axis_ratio, v.axis_deg, c))
    xs = [v.x_mm for v in found if v.x_mm is not None]
    ys = [v.y_mm for v in found if v.y_mm is not None]
    if not xs or not ys:
        return None
    x, y = statistics.fmean(xs), statistics.fmean(ys)
    return one_coin(outlines, x, y, round_slack=ROUND_SLACK)


def _posture(
    found: Sequence[Observation], zone: Zone | None, places: Sequence[Place | None] | None = None
) -> tuple[Posture, str | None]:
    """Flat, leaning or the spotter's (with why), from the cameras that
    found the coin, the zone they agree on (:func:`_zone`) and where they
    are (the rule in the module's docstring)."""
    leaning = [v for v in found if v.posture is Posture.LEANING]
    if leaning:
        if not any(_reads_face(v) for v in found):
            return Posture.LEANING, None
        if all(v.coin_px < SMALL_PX for v in leaning):
            return Posture.INDETERMINATE, FLAT_OR_LEANING
        lo, hi = CLEAR_OVAL
        clear = all(v.axis_ratio is not None and lo <= v.axis_ratio <= hi for v in leaning)
        if clear and places is not None and explained(found, places) is False:
            return Posture.INDETERMINATE, NO_ONE_COIN
        mild = all(v.axis_ratio is not None and v.axis_ratio > hi for v in leaning)
        round_face = any(
            _reads_face(v) and v.axis_ratio is not None and v.axis_ratio >= ROUND for v in found
        )
        if mild and round_face and zone is Zone.ON_LINE:
            return Posture.INDETERMINATE, MILD_ON_LINE
        return Posture.LEANING, None
    if all(v.posture is Posture.FLAT for v in found):
        return Posture.FLAT, None
    if any(_reads_face(v) for v in found):
        unsure = [v for v in found if v.posture is Posture.INDETERMINATE]
        if (
            zone is not None
            and all(v.zone is Zone.INSIDE and v.coin_px >= SMALL_PX for v in unsure)
            and places is not None
            and explained(found, places)
        ):
            return Posture.INDETERMINATE, OPEN_OFF_LINE
        return Posture.FLAT, None
    return Posture.INDETERMINATE, None


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


def fuse(
    views: Sequence[Observation],
    *,
    cameras: Sequence[tuple[float, float, float] | None] | None = None,
) -> Observation:
    """One observation from each camera's of the same landing (in camera
    order); ``cameras``: where each camera is, in the same order (each
    analyser's ``calibration.camera()``, None where unknown), for asking
    whether one tilted coin explains the views (:func:`explained`); without
    them that is never asked."""
    if not views:
        raise ValueError("fuse needs at least one camera's observation")
    if len(views) == 1:
        return views[0]
    named = _named(views)
    found = [v for v in views if v.found]
    if not found:
        return Observation(found=False, reasons=_reasons(named))
    places = None
    if cameras is not None:
        places = [c for v, c in zip(views, cameras, strict=True) if v.found]
    zone = _zone([v.zone for v in found])
    posture, doubt = _posture(found, zone, places)
    why = [] if doubt is None else [doubt]
    leaning = [v for v in found if v.posture is Posture.LEANING]
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
