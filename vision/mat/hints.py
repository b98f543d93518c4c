"""A still's crop read against the video's fits of its pile (the hints,
:attr:`~vision.mat.winks.Picture.hints`): each hint that no fit of the
crop's own stands for is fitted again from where the video saw it
(:func:`rescue`). Used by :func:`~vision.mat.winks.find_winks`."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat import relations
from vision.mat.camera import MatCalibration
from vision.mat.fit import EdgeSet, fixed_all
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.segment import Candidate, Mask, sample
from vision.mat.voting import held

if TYPE_CHECKING:
    from vision.mat.winks import Fit, Picture


def rescue(pic: Picture, es: EdgeSet, fits: list[Fit],
            masks: dict[Colour, Mask]) -> tuple[list[Fit], list[Fit]]:  # fmt: skip
    """The hints that no fit of their colour lies near (within the picture's
    ``apart_mm``), each fitted again: of this picture's candidates of its
    colour inside it, the one whose edge points a circle of its size,
    started at the hint, fits best (in a crescent left between two winks, a
    fit started anywhere may take the arc of the wink over it for the
    crescent's own edge), if it fits (:data:`RESCUE_MM`, :data:`SHOWS`).

    Such a misfit of the crescent's own candidate, a partial fit of the
    hint's colour over the hint's fit showing less than :data:`SHOWS` of its
    colour, is no wink: it does not hide the hint's fit, and gives way to
    it. A second circle (:func:`~vision.mat.beyond.second_circles`) of the other size near the hint
    does not stand for it (it is another wink's arc, or this one's given the
    wrong size), and gives way to the hint's fit if that shows too little of
    its colour with it (:func:`_second`). A voted one does (the second wink
    :func:`~vision.mat.winks._unexplained` finds among a candidate's points,
    voted as any candidate's loose fit is: the video can take a 16 mm wink
    for a 22 mm circle, as a fit of the crop's own candidate of the other
    size stands for such a hint; tuning seed 40720 with a still's rays 53
    steps long: b4, 16 mm, in the middle of a one-colour pile, was found
    only as such a circle, 0.7 mm off, and the video's 22 mm hint there was
    rescued as a false 22 mm wink through b4's arc, which closed a cycle in
    the pile, and b6 on top was dropped with it). Returns ``fits`` less the
    misfits given way, and the fits rescued."""
    out: list[Fit] = []
    gone: list[Fit] = []
    for h in pic.hints:
        here = [f for f in (*fits, *out) if f not in gone and f.colour is h.colour
                and math.hypot(f.x - h.x, f.y - h.y)
                < pic.apart_mm[f.size != h.size] + abs(f.size - h.size) / 2
                and (f.size == h.size or f.row >= 0 or f.voted)]  # fmt: skip
        resized = _resized(pic.cal, es, h, here)
        if here and not resized:
            continue  # here (a circle of the other size holding it is the same wink)
        got = resized or _refits(pic, es, h, [f for f in (*fits, *out) if f not in gone], masks)
        best = min(got, key=lambda g: g.rms, default=None)
        if best is None or best.rms > RESCUE_MM:
            continue
        rest = [f for f in (*fits, *out) if f not in gone and not (resized and f in here)]
        misfit = [f for f in rest if _misfit(pic.cal, f, best, rest, masks)] + here * bool(resized)
        second = _second(h, rest, pic.apart_mm)
        for more in ([], second) if second else ([],):  # the second circle gives way if need be
            others = above(pic.cal, best, [f for f in rest if f not in misfit + more], masks)
            if relations.fill(masks[h.colour], pic.cal, best.circle(), others,
                              pic.blocked) >= SHOWS:  # fmt: skip
                out.append(best)
                gone += misfit + more
                break
    return [f for f in fits if f not in gone], out


def seeds(pic: Picture, masks: dict[Colour, Mask], cands: list[Candidate]) -> list[Candidate]:
    """A candidate for each hint that none of ``cands`` of its colour lies
    inside: the point of its disc deepest in its colour's mask, if any of
    its colour shows there. In a dark, noisy still a crescent's mask can be
    so broken that no peak of it lies :data:`~vision.mat.segment.candidates`'
    least depth inside (tuning seed 40731: g2 under b2, its crescent 16 px
    wide, 272 px of green in the crop, no green candidate), and
    :func:`rescue` had no candidate to fit the hint from. A seed serves
    only :func:`rescue` (:func:`~vision.mat.winks.find_winks` fits only the
    picture's own candidates): fitted on its own, a seed for a video fit
    the crop rightly dropped (a circle across a crescent) made a false wink
    (tuning seed 40012: a 16 mm fit 3.4 mm from g1's centre, under y5)."""
    out: list[Candidate] = []
    dist: dict[Colour, NDArray[np.float32]] = {}
    for h in pic.hints:
        own = [(c.u, c.v) for c in cands if c.colour is h.colour]
        if own:
            at = pic.cal.to_mat(np.array(own), WINK_THICKNESS_MM)
            if (np.hypot(at[:, 0] - h.x, at[:, 1] - h.y) < h.size / 2).any():
                continue
        if h.colour not in dist:
            dist[h.colour] = np.asarray(cv2.distanceTransform(masks[h.colour], cv2.DIST_L2, 5),
                                        np.float32)  # fmt: skip
        disc = np.zeros(masks[h.colour].shape, np.uint8)
        u, v = pic.cal.to_pixels(np.array([[h.x, h.y]]), WINK_THICKNESS_MM)[0]
        r_px = h.size / 2 * pic.r_small_px / 8.0  # r_small_px: a 16 mm wink's radius
        cv2.circle(disc, (round(float(u)), round(float(v))), round(r_px), 255, -1)
        _, depth, _, (px, py) = cv2.minMaxLoc(dist[h.colour], disc)
        if depth >= 1.0:
            out.append(Candidate(h.colour, float(px), float(py), float(depth)))
    return out


def _refits(pic: Picture, es: EdgeSet, h: Fit, fits: list[Fit],
            masks: dict[Colour, Mask]) -> list[Fit]:  # fmt: skip
    """The hint ``h`` fitted to each candidate of its colour inside it,
    started at its centre, at its size; if none of those fits within the
    picture's ``loose_mm``, at the other size too, those that do (the video
    may give a small wink in a one-colour pile the large size: tuning seed
    40530, b6 under b2, which the still fitted at 22 mm 3.7 mm off with RMS
    0.31, at 16 mm 0.25 mm off with RMS 0.14; but a large wink's crescent
    can fit a little closer at 16 mm, seed 40147: 0.26 against 0.28). A fit
    of the other size that lands on a fit of its colour and size already
    kept (``apart_mm``) is that wink. The other size must fit closer by
    :data:`OTHER_SIZE` (seed 32451: g5, 16 mm, touching g2, refitted at 16
    mm with RMS 0.28 and at 22 mm with 0.25, 3.2 mm off: a false wink), or
    fit no looser while holding more of the candidate's edge points
    (:func:`holds`) than the best refit at the hint's size (session 15,
    tuning seed 51842: b5, 16 mm, under b1 on y1, which the video saw as a
    22 mm circle: refitted at 22 mm, RMS 0.29 through 17 of 40 points, 3.3
    mm off; at 16 mm, RMS 0.26, over the still's 0.25, through all 40)."""
    out: list[Fit] = []
    for size in (h.size, 38 - h.size):
        own = min(out, key=lambda g: g.rms, default=None)
        limit = math.inf if own is None else own.rms
        if limit <= pic.loose_mm:
            break
        for k in (k for k, c in enumerate(es.cands) if c.colour is h.colour):
            g = seeded(pic.cal, es, replace(h, row=k, size=size), 0)
            if g is None or math.hypot(g.x - h.x, g.y - h.y) >= _reach(h):
                continue
            closer = g.rms <= min(pic.loose_mm, OTHER_SIZE * limit) or (
                own is not None
                and g.rms <= limit
                and holds(pic.cal, es, g) > holds(pic.cal, es, own)
            )
            if size == h.size or (closer and not any(
                    f.colour is g.colour and f.size == size
                    and math.hypot(f.x - g.x, f.y - g.y) < pic.apart_mm[0]
                    for f in fits) and (size > h.size
                    or ring_share(masks[g.colour], pic.cal, g, fits) < RING_MAX)):  # fmt: skip
                out.append(g)
    return out


def ring_share(mask: Mask, cal: MatCalibration, g: Fit, fits: list[Fit]) -> float:
    """The share of the ring round ``g`` (a 16 mm fit) out to a 22 mm
    wink's rim, 0.5 mm in from both rims and clear of ``fits`` (0.5 mm
    past theirs), that ``mask`` covers (0: no ring clear of them)."""
    r0, r1 = 8.5, 10.5
    xs = np.arange(-r1, r1 + 0.01, 0.5)
    gx, gy = np.meshgrid(xs + g.x, xs + g.y)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    d = np.hypot(grid[:, 0] - g.x, grid[:, 1] - g.y)
    keep = (d >= r0) & (d <= r1)
    for o in fits:
        keep &= np.hypot(grid[:, 0] - o.x, grid[:, 1] - o.y) > o.size / 2 + 0.5
    if not keep.any():
        return 0.0
    return float(sample(mask, cal.to_pixels(grid[keep], WINK_THICKNESS_MM)).mean()) / 255


def _reach(h: Fit) -> float:
    """How far from the hint ``h`` a refit of it may lie, mm: a quarter of
    its size, or :data:`WHOLE_OFF_MM` for a wink the video saw whole."""
    return WHOLE_OFF_MM if h.whole else h.size / 4


WHOLE_OFF_MM = 2.0
"""A refit further than this from a hint the video fitted whole (its whole
outline, the centre to a few tenths of a millimetre) is a circle through
other edge points (tuning seed 91259: g2, 22 mm, alone in the dim far
corner and seen whole; the still's green mask full of holes gave one
candidate 2.8 px deep, whose rays ended 3-8 mm from the centre: refitted
4.8 mm off at 22 mm, 2.2 mm off at 16 mm, and read 16 mm). With no refit,
and no fit of the crop's own there, the video's fit stays."""
RING_MAX = 0.5
"""A 16 mm refit of a 22 mm hint is a small wink only where less than this
share of the ring a 22 mm wink would add round it shows its colour (as
:data:`SHOWS`: more is the large wink's face). The still's dim, noisy face
can end rays short of a large wink's rim, and a 16 mm circle through a
part of them fits them closer (tuning seed 88152: g1, 22 mm, on g3, its
own refit through 40 of 45 points with RMS 0.28, a 16 mm one 2.7 mm off
through 12 with 0.15; its ring 0.63 green). Small winks rightly refitted
so, 40530's b6 and 51842's b5: 0.09-0.11; 61036's g4 on g6 (16 mm each,
one 22 mm circle in video): 0.35, g6's face (0.3 read g6 22 mm, found,
but on g3 wrongly: a false squop). Not tuned on: 91819's g2, 22 mm, under
g5 (16 mm) 3.7 mm off centre, refitted 16 mm through 15 of 32 points and
missed, 0.55."""


def holds(cal: MatCalibration, es: EdgeSet, f: Fit) -> int:
    """How many of its candidate's (``f.row``) edge points ``f`` holds
    (:func:`~vision.mat.voting.held`)."""
    return int(held(cal.to_mat(es.points[f.row][es.ok[f.row]], WINK_THICKNESS_MM), f).sum())


OTHER_SIZE = 0.6
"""A hint is refitted at the other size only where that fits its points
within this share of the RMS of its best refit at its own size (tuning:
0.46 for 40530's b6; 0.89 for 32451's g5, a false wink, 0.92 for 40147's
b1, a 22 mm crescent, and 0.70 for 34197's g2, a 22 mm wink that a 16 mm
one lies on nearly concentrically: at 16 mm the refit took the small
wink's edge and g2 was lost; 0.75 until then)."""


def _resized(cal: MatCalibration, es: EdgeSet, h: Fit, here: list[Fit]) -> list[Fit]:
    """The hint ``h`` fitted at its size to the edge points of the one fit
    standing for it, a partial fit of the other size, if that fits them
    closer (tuning seed 32736: r4, 16 mm, a crescent on b2 under y4, fitted
    as a 22 mm circle 2.9 mm off with RMS 0.238 mm, where the video saw a
    16 mm one; at 16 mm from the video's centre the crop's points fit within
    0.214 mm, 0.4 mm off); else nothing. Not where the refit holds fewer
    of the points (:func:`holds`): a circle closer only over fewer of them
    is not the closer fit (session 15, tuning seed 46749: b6, 16 mm, under r2
    on y2, its own fit 0.3 mm off through 32 points with RMS 0.295, over the
    still's 0.25 but kept as two candidates' circle, was replaced by the
    hint's 22 mm through 21 of them with RMS 0.275, 3.5 mm off), nor where
    it holds only as many: two circles through the same arc, which a short
    arc's RMS does not tell apart (session 15, tuning seed 53394: y3, 16 mm,
    under y4 on y2, all yellow, which the video saw as a 22 mm circle; the
    crop's own 16 mm fit, 0.6 mm off, held 23 of 39 points with RMS 0.130,
    the hint's 22 mm refit the same 23 with RMS 0.080, 2.4 mm off, and read
    y2 on y3: a false squop)."""
    if len(here) != 1 or here[0].size == h.size or here[0].whole or here[0].voted:
        return []  # voted: perhaps a second circle (row -1), with no points of its own
    g = seeded(cal, es, replace(h, row=here[0].row), 0)
    if (g is None or g.rms >= here[0].rms
            or math.hypot(g.x - h.x, g.y - h.y) >= h.size / 4):  # fmt: skip
        return []
    if holds(cal, es, g) <= holds(cal, es, here[0]):
        return []  # closer only over no more of the points
    return [g]


def _second(h: Fit, fits: list[Fit], apart_mm: tuple[float, float]) -> list[Fit]:
    """The second circles (:func:`~vision.mat.beyond.second_circles`: no candidate of their own) of
    ``h``'s colour but not its size, near enough to stand for it: the size
    a short arc was given (tuning seed 32247: a 22 mm circle through the
    arc of a 16 mm wink squopped by one of its colour, RMS 0.14 mm, where
    the video and the wink's own candidate saw a 16 mm one).

    Only a 22 mm second circle stands for a 16 mm hint, as in
    :func:`~vision.mat.onefit.dedupe`: a 16 mm one beside a 22 mm hint is a
    small wink reaching past the rim of a wink of its colour, which the
    video took, with its pile, for one 22 mm circle (tuning seed 40478: b5,
    the top of a one-colour pile of three, its second circle 0.5 mm off
    with RMS 0.04 mm, gave way to the hint refitted at 22 mm 3.9 mm off with
    RMS 0.37, and read b3 on b5)."""
    near = apart_mm[1] + 3.0  # as in rescue: the two sizes' radii differ by 3 mm
    return [f for f in fits if f.row < 0 and f.colour is h.colour and (f.size, h.size) == (22, 16)
            and math.hypot(f.x - h.x, f.y - h.y) < near]  # fmt: skip


def above(cal: MatCalibration, g: Fit, fits: list[Fit],
           masks: dict[Colour, Mask]) -> list[relations.Circle]:  # fmt: skip
    """The circles of ``fits`` that may lie over ``g``: all but those of
    another colour whose overlap with ``g`` shows ``g``'s colour (they lie
    under it). A crescent between two winks of another colour can lie
    wholly inside the plan view of the one it rests on; counted as covering
    it, that one would leave nothing of it to show its colour."""
    out = []
    a = g.circle()
    for o in fits:
        b = o.circle()
        if o.colour is not g.colour and relations.overlap(a, b) > 0:
            third = [x.circle() for x in fits if x is not o]  # the lens clear of the rest
            share, n = relations.lens_share(masks[g.colour], masks[o.colour], cal, a, b, third)
            if n >= 6 and share >= 0.75:
                continue
        out.append(b)
    return out


def _misfit(cal: MatCalibration, f: Fit, best: Fit, fits: list[Fit],
            masks: dict[Colour, Mask]) -> bool:  # fmt: skip
    """``f``, a partial fit of ``best``'s colour lying over it, shows less
    than :data:`SHOWS` of its colour where no wink of another colour covers
    it (fits of its own colour, ``best`` among them, would each explain
    away the other's colour: they do not count)."""
    if f.whole or f.colour is not best.colour or relations.overlap(f.circle(), best.circle()) <= 0:
        return False
    others = [o.circle() for o in fits if o.colour is not f.colour]
    return relations.fill(masks[f.colour], cal, f.circle(), others) < SHOWS


RESCUE_MM = 0.5
"""A hint's fit in this picture is kept when its edge points lie this close
(RMS) to it, and :data:`SHOWS` of it is its colour."""
SHOWS = 0.5
"""The least share of a hint's disc, less what the other fits cover, that
must show its colour (a video's fit across two winks of one colour, which
the still rightly dropped, lies mostly on the mat and shows next to none).
In :func:`rescue`, less what the pot hides too (the picture's ``blocked``
pixels, whose colour is never read; :func:`~vision.mat.shows.fill`): a
wink against the pot's base lies partly under its rim's overhang (tuning
seed 95102: r5, 16 mm, under g3, refitted 0.4 mm off with RMS 0.15 mm,
showed 0.31 of its disc, 78 of the 114 samples under the pot, and was
dropped with g3 on r5, which the video alone read; 0.95 of what the pot
leaves)."""


def seeded(cal: MatCalibration, es: EdgeSet, f: Fit, level: int) -> Fit | None:
    """The circle of ``f``'s size through the edge points of its candidate
    (``f.row``), started at ``f``'s centre, its face ``level`` winks up
    (None: under 8 edge points on it, or the candidate not inside ``f``)."""
    z = WINK_THICKNESS_MM * (level + 1)
    c = es.cands[f.row]
    inside = cal.to_mat(np.array([[c.u, c.v]]), z)[0]
    if math.hypot(inside[0] - f.x, inside[1] - f.y) > f.size / 2:
        return None
    pts = cal.to_mat(es.points[f.row], z)
    x, y, n, rms = fixed_all(pts[None], es.ok[f.row][None], np.array([[f.x, f.y]]), f.size / 2)
    if n[0] < 8:
        return None
    return replace(f, x=float(x[0]), y=float(y[0]), rms=float(rms[0]), whole=False,
                   depth=c.depth_px, voted=False)  # fmt: skip
