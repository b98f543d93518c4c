"""The winks one picture shows: candidates, edges and circles, one fit per
wink, and which lies on which. The same steps read the video frame and, for
a second look at a pile, a crop of a full-resolution still
(:mod:`vision.mat.closer`); each picture has its own calibration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import Colour
from vision.mat import faint, onefit, relations, resize, rings, tangent
from vision.mat.beyond import second_circles
from vision.mat.camera import MatCalibration
from vision.mat.fit import RAYS, EdgeSet, edges, fixed_all, kasa_all
from vision.mat.hints import SHOWS
from vision.mat.hints import above as _above
from vision.mat.hints import rescue as _rescue
from vision.mat.hints import seeded as _seeded
from vision.mat.hints import seeds as _seeds
from vision.mat.layout import WINK_THICKNESS_MM
from vision.mat.onefit import CLOSE_MM
from vision.mat.segment import Mask, candidates, colour_masks
from vision.mat.voting import VOTED_APART_MM
from vision.mat.voting import held as _held
from vision.mat.voting import revote as _revoted
from vision.mat.voting import vote as _voted
from vision.mat.wink_fit import Fit as Fit


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of (part of) the mat and how to read it."""

    image: NDArray[np.uint8]
    cal: MatCalibration
    region: Mask
    """Where winks are looked for."""
    blocked: Mask
    """What the pot hides."""
    r_small_px: float
    """A small wink's radius here, px."""
    apart_mm: tuple[float, float] = (8.0, 8.0)
    """Two fits of one colour closer than this (sizes alike, sizes unlike)
    are one wink: at video resolution partial fits can be millimetres out;
    in a still two winks squopped can be told apart closer."""
    loose_mm: float = 1.0
    """Partial fits with edge points further than this (RMS) from their
    circle are dropped (in a still, a circle fitted across two winks),
    unless another candidate's rays found the same circle."""
    hints: tuple[Fit, ...] = ()
    """Winks another picture found here (a still's crop: the video's fits of
    the pile): each one this picture's own fits leave out is fitted again
    from where the other picture saw it (:func:`_rescue`)."""
    reread: bool = True
    """Read the piles again with each face at its height (a video frame
    whose piles a still will look at again need not)."""
    grey: NDArray[np.uint8] | None = None
    """``image`` in grey, when the caller has it already (else made here)."""


@dataclass(frozen=True, slots=True)
class Found:
    """The winks of one picture: fits, the winks each lies on, levels."""

    fits: list[Fit]
    on: dict[int, set[int]]
    levels: list[int]
    masks: dict[Colour, Mask]
    doubted: frozenset[int] = frozenset()
    """The rows of fits that stood for a close fit of another circle of
    their colour (:func:`~vision.mat.onefit.doubted`), or for a fit of
    another colour on nearly their circle (:func:`~vision.mat.onefit.two_colours`):
    perhaps two winks."""


def find_winks(pic: Picture) -> Found:
    """Every wink ``pic`` shows, and which lies on which."""
    strong = colour_masks(pic.image, pic.region)
    every = faint.mended(pic.image, pic.region, strong, pic.r_small_px)  # dim corners
    free = cv2.bitwise_not(pic.blocked)
    masks = {c: np.asarray(cv2.bitwise_and(m, free), np.uint8) for c, m in every.items()}
    cands = candidates(masks, pic.r_small_px)
    own = len(cands)  # the seeds after them serve only to rescue their hints
    if pic.hints:
        cands += _seeds(pic, masks, cands)
    # A still's rays need no finer steps: r / 20, 53 of them out to 2.6 r (fit.ray_steps)
    step = 0.25 * max(1.0, pic.r_small_px / 5.0)
    found = edges(pic.image, cands, 2.6 * pic.r_small_px, pic.blocked, step)
    fits = [f for f in fit(pic.cal, found, np.arange(own), 0) if f is not None]
    grey = pic.grey
    if grey is None:
        grey = np.asarray(cv2.cvtColor(pic.image, cv2.COLOR_BGR2GRAY), np.uint8)
    if pic.loose_mm < 1.0:
        found, fits = _revoted(pic.cal, found, fits, pic.loose_mm)
        found, fits = resize.resized(pic.cal, found, fits, pic.loose_mm)
        fits += second_circles(pic.cal, found, fits, pic.loose_mm, pic.apart_mm)
        found, fits = tangent.retake(pic.cal, pic.image, grey, masks, found, fits, pic.loose_mm)
        fits = tangent.arcs(pic.cal, found, fits, pic.loose_mm)
    fitted = [f for f in fits if onefit.kept(f, fits, pic.loose_mm)]
    fits = onefit.dedupe(fitted, pic.apart_mm)
    doubted = onefit.doubted(fitted, fits, pic.apart_mm)
    if pic.loose_mm < 1.0:
        found, fits, more = _unexplained(pic.cal, found, fits, masks, pic.loose_mm, pic.apart_mm,
                                         own)  # fmt: skip
        fits += more
    one = onefit.one_colour_each(pic.cal, fits, masks)
    doubted |= onefit.two_colours(fits, one)
    fits = one
    fits, saved = _rescue(pic, found, fits, masks)
    if saved and pic.loose_mm < 1.0:  # the hints refitted: the same misfit as the fits' own
        found, both = tangent.retake(pic.cal, pic.image, grey, masks, found, fits + saved,
                                     pic.loose_mm, looked=saved)  # fmt: skip
        saved = both[len(fits) :]
    fits = onefit.mis_sized(pic.cal, fits, masks, pic.hints, pic.apart_mm) + saved
    known: list[tuple[int, int]] = []
    if pic.loose_mm < 1.0:  # a still: its rings show small winks on large ones
        for ring, lower in _ringed(pic.cal, pic.image, grey, fits, masks):
            known.append((len(fits), lower))
            fits.append(ring)
    lifted, on, levels = _piled(pic, found, fits, masks, grey, known, saved)
    for _ in range(3):  # one wink fitted twice, or a pile read round in a circle: read it again
        drop = onefit.twins(fits, lifted) or onefit.unhinted(fits, on, pic.hints,
                                                             {a for a, _ in known})  # fmt: skip
        if not drop:
            break
        keep = [k for k in range(len(fits)) if k not in drop]
        index = {k: n for n, k in enumerate(keep)}
        fits = [fits[k] for k in keep]
        known = [(index[a], index[b]) for a, b in known if a in index and b in index]
        lifted, on, levels = _piled(pic, found, fits, masks, grey, known, saved)
    return Found(lifted, on, levels, every, frozenset(doubted))


def _piled(pic: Picture, found: EdgeSet, fits: list[Fit], masks: dict[Colour, Mask],
           grey: NDArray[np.uint8], known: list[tuple[int, int]], saved: list[Fit],
           ) -> tuple[list[Fit], dict[int, set[int]], list[int]]:  # fmt: skip
    """Which of ``fits`` lies on which, their levels, and the fits refitted
    with each face at its level."""
    colours = [f.colour for f in fits]
    on = relations.stack([f.circle() for f in fits], colours, masks, grey, pic.cal, known)
    levels = relations.pile_levels(len(fits), on)
    lifted = _lift(pic.cal, found, fits, levels, saved)
    if pic.reread and any(levels):  # read the piles again with each face where its level puts it
        circ = [f.circle(v) for f, v in zip(lifted, levels, strict=True)]
        on = relations.kept(on, relations.stack(circ, colours, masks, grey, pic.cal, known), circ)
        again = relations.pile_levels(len(fits), on)
        lifted = lifted if again == levels else _lift(pic.cal, found, fits, again, saved)
        levels = again
    return lifted, on, levels


def _lift(cal: MatCalibration, es: EdgeSet, fits: list[Fit], levels: list[int],
          saved: list[Fit]) -> list[Fit]:  # fmt: skip
    """``fits`` refitted with each face at its level (winks on winks: their
    faces are higher, and seen from off the axis, shifted). A partial refit
    of the other size is refitted at the first fit's size from where that
    lay (session 12: tuning seed 40129, a 16 mm crescent refitted one level
    up as a 22 mm circle 3.3 mm off round the wink under it, which then read
    as lying on it)."""
    out = list(fits)
    at: list[int] = []
    maps = []
    for lv in sorted(set(levels) - {0}):  # mapped a level at a time, as before; fitted in one call
        here = [i for i, v in enumerate(levels) if v == lv and fits[i].row >= 0]
        rows = np.array([fits[i].row for i in here], np.int64)
        new = [k for k, i in enumerate(here) if fits[i] not in saved]  # the others: from a hint
        at += [here[k] for k in new]
        maps.append(_mapped(cal, es, rows, lv)[new])
    if at:
        rows = np.array([fits[i].row for i in at], np.int64)
        for i, f in zip(at, _circles(es, rows, np.concatenate(maps)), strict=True):
            if f and not f.whole and f.size != fits[i].size:
                f = _seeded(cal, es, fits[i], levels[i])  # resized: from where it lay
            out[i] = f or fits[i]
    for i, lv in enumerate(levels):
        if lv and fits[i].row >= 0 and fits[i] in saved:
            out[i] = _seeded(cal, es, fits[i], lv) or fits[i]
    return out


def fit(cal: MatCalibration, es: EdgeSet, rows: NDArray[np.int64], level: int) -> list[Fit | None]:
    """Circles for the candidates ``rows`` of ``es``, their faces ``level``
    winks up."""
    return _circles(es, rows, _mapped(cal, es, rows, level))


def _mapped(
    cal: MatCalibration, es: EdgeSet, rows: NDArray[np.int64], level: int
) -> NDArray[np.float64]:
    """The edge points of the candidates ``rows`` on the mat, ``level`` winks up."""
    z = WINK_THICKNESS_MM * (level + 1)
    return cal.to_mat(es.points[rows].reshape(-1, 2), z).reshape(len(rows), RAYS, 2)


def _circles(es: EdgeSet, rows: NDArray[np.int64], pts: NDArray[np.float64]) -> list[Fit | None]:
    """:func:`fit` of the candidates ``rows`` from their edge points ``pts``
    (mm on the mat, each at its own level: each row's circle is fitted
    alone, to the bit, whatever rows are fitted with it)."""
    ok = es.ok[rows]
    count = ok.sum(axis=1)
    cx, cy, r = kasa_all(pts, ok)
    res = np.where(ok, np.hypot(pts[..., 0] - cx[:, None], pts[..., 1] - cy[:, None])
                   - r[:, None], 0.0)  # fmt: skip
    rms = np.sqrt((res**2).sum(axis=1) / np.maximum(count, 1))
    whole = (rms < CLOSE_MM) & (count >= 0.9 * RAYS) & (r > 6.0) & (r < 13.5)
    mean = (pts * ok[..., None]).sum(axis=1) / np.maximum(count, 1)[:, None]
    start = np.where(((r > 6) & (r < 14))[:, None], np.column_stack([cx, cy]), mean)
    part = np.flatnonzero((count >= 8) & ~whole)  # only these need a circle of either size
    n = len(part)
    twice = np.concatenate([part, part])
    both = fixed_all(pts[twice], ok[twice], start[twice], np.repeat([11.0, 8.0], n))
    at = np.zeros(len(rows), np.int64)
    at[part] = np.arange(n)
    by_size = {22: tuple(v[:n] for v in both), 16: tuple(v[n:] for v in both)}
    out: list[Fit | None] = []
    for i, row in enumerate(rows):
        colour, depth, blob = es.cands[row].colour, es.cands[row].depth_px, es.cands[row].blob
        if count[i] < 8:
            out.append(None)
        elif whole[i]:  # the whole edge seen
            size = 22 if r[i] > 9.5 else 16
            out.append(Fit(colour, size, float(cx[i]), float(cy[i]), float(rms[i]), True,
                           int(row), depth, blob))  # fmt: skip
        else:
            j = at[i]
            n, size = max((int(f[2][j]), -float(f[3][j]), s) for s, f in by_size.items())[::2]
            x, y, _, e = (float(v[j]) for v in by_size[size])
            out.append(None if n < 8 else Fit(colour, size, x, y, e, False, int(row), depth, blob))
    return out


EXPLAINED_MM = (-0.5, 1.0)
"""An edge point this far (mm) outside (inside: negative) a kept fit's rim
is that wink's edge (its face's rim, or its dark edge beyond it)."""
EXPLAINED_MIN = 12
"""The least edge points a fit refitted from the unexplained ones must keep."""


def _unexplained(cal: MatCalibration, es: EdgeSet, fits: list[Fit], masks: dict[Colour, Mask],
                 loose_mm: float, apart_mm: tuple[float, float], own: int,
                 ) -> tuple[EdgeSet, list[Fit], list[Fit]]:  # fmt: skip
    """Candidates no close fit came from (none, or a fit further than
    ``loose_mm`` from its points), fitted again without the edge points that
    lie on another kept fit's rim (a crescent between two winks: its rays
    stop at the upper winks' edges as often as at its own, and a circle
    through all of them fits neither). A refit is kept when it fits within
    ``loose_mm`` through :data:`EXPLAINED_MIN` points or more, is no wink
    found already (``apart_mm``) and shows :data:`SHOWS` of its colour where
    no other fit covers it; it replaces its candidate's loose fit, if any (a
    circle across two winks). A refit that an earlier candidate's own loose
    fit holds more of the two candidates' points than (:func:`_holds_more`)
    gives way to that fit, kept as the refit would be. Returns the edge set
    with those points left out of the rows refitted, the fits less those
    replaced, and the refits."""
    used = {f.row for f in fits if f.whole or f.voted or f.rms <= loose_mm}
    rows = np.array([k for k in range(own) if k not in used], np.int64)  # the first ``own``
    if not len(rows) or not fits:
        return es, fits, []
    pts = cal.to_mat(es.points[rows].reshape(-1, 2), WINK_THICKNESS_MM).reshape(len(rows), RAYS, 2)
    on_rim = np.zeros(pts.shape[:2], bool)
    for f in fits:  # a loose fit's own row is fitted again without it
        d = np.hypot(pts[..., 0] - f.x, pts[..., 1] - f.y) - f.size / 2
        on_rim |= (d > EXPLAINED_MM[0]) & (d < EXPLAINED_MM[1]) & (rows != f.row)[:, None]
    ok = es.ok.copy()
    ok[rows] &= ~on_rim
    rows = rows[ok[rows].sum(axis=1) >= EXPLAINED_MIN]  # the others cannot be kept
    if not len(rows):
        return es, fits, []
    trial = EdgeSet(es.cands, es.points, ok)
    clear = ok.copy()  # each row's points before its circle narrows them
    loose: list[Fit] = []  # the rows' own fits too loose to keep, so far
    out: list[Fit] = []
    for row, first in zip(rows, fit(cal, trial, rows, 0), strict=True):
        g = _voted(cal, trial, int(row), first)
        rival = None if g is None else next(
            (o for o in loose if _holds_more(cal, es, clear, o, g, apart_mm)), None)  # fmt: skip
        if rival is not None:  # g is the arc of a wink its own candidate fitted loosely
            rest = [o for o in (*fits, *out) if o.row != rival.row]
            if rival not in out and _new(cal, rival, rest, masks, apart_mm):
                mine = cal.to_mat(es.points[rival.row], WINK_THICKNESS_MM)
                ok[rival.row] = clear[rival.row] & _held(mine, rival)
                out.append(rival)
            continue
        if g is not None and not g.voted and g.rms > loose_mm:
            loose.append(g)
        second = None
        rest = [o for o in (*fits, *out) if o.row != row]
        if g is not first and g is not None:  # only its circle's points: refitted a level up alike
            if any(o.colour is g.colour and o.size != g.size
                   and math.hypot(o.x - g.x, o.y - g.y) < VOTED_APART_MM
                   for o in rest):  # fmt: skip
                continue
            held = _held(cal.to_mat(es.points[row], WINK_THICKNESS_MM), g)
            second = _second(cal, es, ok, int(row), held, g, rest, masks, loose_mm, apart_mm)
            ok[row] &= held
        if g is None or (not g.voted and g.rms > loose_mm):  # voted: any RMS (47720, 54165)
            continue
        if _new(cal, g, rest, masks, apart_mm):
            out += [g, second] if second else [g]  # the second only with the voted circle kept
    keep = es.ok.copy()
    for f in out:
        if f.row >= 0:
            keep[f.row] = ok[f.row]
    refitted = {f.row for f in out} - {-1}
    return EdgeSet(es.cands, es.points, keep), [f for f in fits if f.row not in refitted], out


def _new(cal: MatCalibration, f: Fit, rest: list[Fit], masks: dict[Colour, Mask],
         apart_mm: tuple[float, float]) -> bool:  # fmt: skip
    """Whether :func:`_unexplained` keeps ``f``: no wink found already
    (``rest``, ``apart_mm``), and :data:`SHOWS` of its colour where no other
    fit covers it."""
    if any(o.colour is f.colour and math.hypot(o.x - f.x, o.y - f.y) < apart_mm[o.size != f.size]
           for o in rest):  # fmt: skip
        return False
    return relations.fill(masks[f.colour], cal, f.circle(), _above(cal, f, rest, masks)) >= SHOWS


def _holds_more(cal: MatCalibration, es: EdgeSet, clear: NDArray[np.bool_], o: Fit, g: Fit,
                apart_mm: tuple[float, float]) -> bool:  # fmt: skip
    """Whether ``o``, one candidate's own fit too loose to keep, stands for
    the wink rather than ``g``, another candidate's refit in
    :func:`_unexplained`: of one colour and close enough that one would
    turn the other away (``apart_mm``, or :data:`~vision.mat.voting.VOTED_APART_MM`
    for the other size), with ``o`` holding more of the two candidates'
    edge points (``clear``: before either was narrowed to its circle).
    The still drops a partial fit looser than its 0.25 mm as a circle across
    two winks, but a wink's own edge, blurred, can fit that loosely through
    nearly all its points, and another candidate's circle through a part
    of them then stood for it, millimetres off (tuning seed 43702: g3's own
    16 mm fit, 0.2 mm off, held 40 of its 46 points with RMS 0.36; row 1's
    voted circle, 4.0 mm off through 23 of 42, RMS 0.32, was kept and read
    y5 on g3, a false squop. 50981: g4's own fit, 0.9 mm off, 26 of 30
    points, RMS 0.30; row 2's 22 mm fit, 4.5 mm off through 8 of 19, RMS
    0.22, kept, and g4 on g6 was not found)."""
    d = math.hypot(o.x - g.x, o.y - g.y)
    if o.colour is not g.colour or o.row == g.row:
        return False
    if d >= apart_mm[o.size != g.size] and (o.size == g.size or d >= VOTED_APART_MM):
        return False
    both = np.array([o.row, g.row], np.int64)
    pts = cal.to_mat(es.points[both][clear[both]], WINK_THICKNESS_MM)
    return int(_held(pts, o).sum()) > int(_held(pts, g).sum())


def _second(cal: MatCalibration, es: EdgeSet, ok: NDArray[np.bool_], row: int,
            held: NDArray[np.bool_], g: Fit, rest: list[Fit], masks: dict[Colour, Mask],
            loose_mm: float, apart_mm: tuple[float, float]) -> Fit | None:  # fmt: skip
    """A second wink of candidate ``row``'s colour whose edge points are
    among those (``ok``) its voted circle ``g`` does not hold (``held``):
    the circle :func:`_voted` starts where :data:`EXPLAINED_MIN` or more of
    them vote for, if it fits within ``loose_mm``, is no wink found already
    (``g`` or ``rest``, ``apart_mm``) and shows :data:`SHOWS` of its colour
    clear of the fits that may lie over it. It has no candidate of its own
    (row -1: not refitted one level up). Two winks of one colour lying
    closer than a wink's radius make one peak in their blob, and one
    candidate (tuning seed 40581: b3 under b6, on b4, 6.1 mm from b6; the
    candidate's voted circle was b6's, and of its 34 points clear of b4's
    rim 15 lay on b3's arc, 0.3 mm from its true circle); b3 was lost with
    both its relations."""
    left = ok[row] & ~held
    if left.sum() < EXPLAINED_MIN:
        return None
    only = ok.copy()
    only[row] = left
    f = _voted(cal, EdgeSet(es.cands, es.points, only), row, None)
    if f is None or (not f.voted and f.rms > loose_mm):  # voted: any RMS, as the first
        return None
    return replace(f, row=-1) if _new(cal, f, [*rest, g], masks, apart_mm) else None


RING_APART_MM = 5.0
"""A ring this close to a 16 mm fit of its colour is that wink's edge (the
still's :data:`~vision.mat.closer.APART_MM` for winks of one size)."""
RINGED_RMS_MM = 0.2
"""A large wink seen whole is searched for a small one's ring only if its
outline fits its edge points worse than this (RMS): 518 of 585 whole 22 mm
outlines in the still crops of seeds 34000-34599 fit better (none with a
small wink on them), and searching them all cost 2 ms a frame."""


def _ringed(cal: MatCalibration, image: NDArray[np.uint8], grey: NDArray[np.uint8],
            fits: list[Fit], masks: dict[Colour, Mask]) -> list[tuple[Fit, int]]:  # fmt: skip
    """Small winks found by their dark edge on a large wink of their
    colour that no small wink of its colour lies on near its centre
    (:mod:`vision.mat.rings`), each with the index of the wink it lies on.

    Large winks whose outline is a clean circle are looked at too if it
    is not very clean (RMS over :data:`RINGED_RMS_MM`; before session 8 they
    were not looked at): a small wink reaching a fraction of a millimetre
    past the rim leaves the outline within :attr:`Picture.loose_mm` (tuning
    seed 32210: RMS 0.242 mm, its ring scoring 9.4); on clean outlines with
    no wink on them rings scored 4.7 at most (585 fits, seeds 34000-34599).

    A ring is a wink only if :data:`SHOWS` of its disc, clear of the other
    winks, shows the lower wink's colour (session 10): a yellow wink is as
    bright in red as a red face, and the edge of one lying on a red wink
    but not fitted in the crop is a ring in red (tuning seed 32759: 5.2,
    10.5 with the faces sampled clear of the edge's blur).

    Only winks that may lie over the large one (:func:`_above`) cover its
    ring; until session 10 one lying under it did too, and its ring points
    there were left out for nothing (tuning seed 32210: g2 under b1).

    Since session 11 a small wink of its colour overlapping the large one
    stops the search only if it lies within :data:`~vision.mat.rings.REACH_MM`
    of its centre (where it may be the ring itself), and a ring found within
    :data:`RING_APART_MM` of one is its edge (tuning seed 32813: y4 nearly
    concentric on y2, which y5, 9.3 mm off, also lies on; y4's ring scores
    31). Until then any overlapping one stopped it."""
    out = []
    for i, f in enumerate(fits):
        a = f.circle()
        small = [g for g in fits if g.colour is f.colour and g.size == 16]
        if (f.size != 22 or (f.whole and f.rms <= RINGED_RMS_MM)
                or any(math.hypot(g.x - f.x, g.y - f.y) <= rings.REACH_MM
                       for g in small)):  # fmt: skip
            continue
        touching = [g for g in fits if g is not f and relations.overlap(g.circle(), a) > 0]
        others = _above(cal, f, touching, masks)  # winks under it hide none of its ring
        got = rings.find(rings.face_channel(image, grey, f.colour), cal, a, others)
        if got is None or got[2] < (rings.RING_MIN_COVERED if others else rings.RING_MIN):
            continue
        ring = Fit(f.colour, 16, got[0], got[1], 0.0, False, -1, 0.0)
        if any(math.hypot(g.x - ring.x, g.y - ring.y) < RING_APART_MM for g in small):
            continue  # the edge of a small wink found already
        if relations.fill(masks[f.colour], cal, ring.circle(1), others) >= SHOWS:
            out.append((ring, i))
    return out
