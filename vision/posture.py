"""Flat or leaning: the analysis's thresholds, and which outline the posture
is judged by (the edge fit or the silhouette against the empty still).

>>> s = Settings()
>>> edge, shape = Ellipse(100, 100, 96, 93, 0), Ellipse(110, 100, 96, 60, 90)
>>> choose_outline(edge, shape, s) == (shape, True)  # a round edge, a half silhouette
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from vision.coinface import Ellipse
from vision.model import Image, Posture
from vision.silhouette import Segmented


@dataclass(frozen=True, slots=True)
class Posed:
    """An outline in crop pixels and the posture judged from it."""

    outline: Ellipse
    posture: Posture
    note: str = ""
    """Why a coin was ruled otherwise than its outline says, for the reasons."""
    doubt: str = ""
    """Why flat or leaning is the spotter's call, when it is."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The analysis thresholds (the ``[camera]`` table sets the first three)."""

    coin_diameter_mm: float = 24.0
    margin: float = 0.08
    """Face: the winning face's score must beat the other's by this much."""
    tolerance_mm: float = 2.0
    """In/out: closer than this to the boundary, the spotter decides."""
    min_score: float = 0.2
    flat_ratio: float = 0.89
    leaning_ratio: float = 0.88
    """Posture by the edge's axis ratio: flat at or above, leaning at or below."""
    flat_silhouette: float = 0.94
    leaning_silhouette: float = 0.92
    """Posture by the silhouette against the empty still: a flat coin's,
    rim band included, measures 0.95-1 (the edge's less, with its shadow or
    a line merged in), a coin leaning 30 degrees about 0.9 seen from above."""
    coarse_edges: float = 0.04
    """:func:`by_edges` asks the hull of a coin's new sharp edges at the
    crop's resolution only when the hull at half resolution is none or
    within this of ``flat_silhouette`` (0.90 or rounder): only then can the
    full one reach 0.94. The half hull's vertices lie on pixels twice as
    coarse, so each side of it may lie up to a crop pixel off and each axis
    up to 2 px: for a coin about 100 px across at 0.94 that moves the axis
    ratio by up to 2 (1 + 0.94) / 100, 0.04. On tuning seeds 100, 130, 150
    and 200 (2,000 landings, 371 asks; 346 skipped) the five hulls that made
    a coin flat measured 0.956-0.979 at half resolution, the roundest full
    hull skipped 0.907, and the full hull exceeded the half one by at most
    0.042 where it was 0.8 or more (0.023 but for 150004#32: 0.825, 0.783)."""
    min_fill: float = 0.7
    """A silhouette less filled than this is no silhouette (see ``segment_outline``)."""
    disagree: float = 0.06
    """The edge and the silhouette against the empty still differ by more
    than this in axis ratio: flat or leaning is the spotter's call."""
    round_edge: float = 0.93
    """An edge fit at least this round with a silhouette below
    ``flat_silhouette``: the two disagree (a leaning coin's edge, even merged
    with its rim band, rarely measures this round; a flat coin's silhouette
    reads less round than it is where part of it matches the floor), so flat
    or leaning is the spotter's call, not a cleet. Chosen on rigs 50000-50019
    and 80000-80019 (not the benchmark's): the lowest edge ratio at which no
    coin ruled leaning there went to the spotter instead."""
    blob_edge: float = 1.18
    """A clean round edge more than this many coin diameters across is no
    flat coin's even when a face reads inside it: a flat coin's shadow
    reaches at most 2.9 mm beyond it (``far_shadow``) and the still's blur
    0.1-0.6 mm each side, 28.1 mm in all, 1.17 diameters. Measured: up to
    1.15 under low light (rig 60008), 1.168 on tuning seed 170 (170005#88,
    camera 2: a flat coin outside the square's far corner); the leaning
    coins and shadows this was made for, 1.19 and 1.22 (220005#26, 130016#2).
    Its silhouette is asked (:func:`coin_and_shadow`)."""
    coin_thickness_mm: float = 2.0
    """Only to place a leaning coin's middle (see :func:`under_middle`)."""
    far_shadow: float = 0.72
    """A coin that looks flat is leaning when the floor beyond where a flat
    coin's shadow can reach (``vision.shadow``) is darker than the empty
    still by more than this (log ratio times mm in its darkest sector): a
    shadow 30 % deep (0.36) reaching 2 mm farther. On the tuning rigs
    (50000-50019, 80000-80019: 2,321 flat coins with a face read) a flat
    coin's measured at most 0.57; 3 of the 11 cleets called a face there
    measured more (0.83-3.5)."""
    doubt_shadow: float = 0.5
    doubt_ratio: float = 0.85
    """A coin whose outline, at least ``doubt_ratio`` round, leaves flat or
    leaning open is leaning when its shadow reaches beyond a flat coin's by
    more than ``doubt_shadow`` (as ``far_shadow``, less: the outline
    already says it may lean)."""
    ragged_hull: float = 0.94
    """A silhouette that says leaning (``leaning_silhouette`` or less) whose
    convex hull's ellipse is at least this round is dented, not oval: parts
    of a flat coin matched the floor (a small silver coin on a grey floor,
    blurred: rig 100004's flat coins read 0.74-0.92, their hulls up to
    0.99), while a leaning coin's silhouette is a solid ellipse, its hull
    as oval. Flat or leaning is then the spotter's call."""
    band_offset_mm: float = 0.3
    band_shadow: float = 0.4
    band_doubt: float = 0.3
    """A coin that looks flat is leaning when its edge fit's centre lies more
    than ``band_offset_mm`` beyond its silhouette's, away from the camera
    (:func:`band_offset`: a flat coin's rim band, in the silhouette, is on
    the side towards the camera's floor point, a coin tilted towards the
    camera shows it on the far side) and its shadow reaches beyond a flat
    coin's by more than ``band_shadow`` (short of ``far_shadow``); flat or
    leaning is the spotter's call when the shadow measures more than
    ``band_doubt`` only. On tuning seeds 100-130 (``bench.vision_rim``'s
    class: 582 flat coins and 365 tilted ones called flat; and 2,000
    ordinary landings of seed 100): no flat coin beyond both cuts, 31 tilted
    ones; one flat coin (0.46 mm, 0.31) and 12 tilted between the two."""
    ring_shadow: float = 0.1
    ring_band: float = 0.1
    ring_across: float = 1.5
    ring_view: float = 0.2
    """A coin that looks flat, seen at least ``ring_view`` off vertical (the
    tangent of the view angle: nearer, the band is too narrow to read) is
    leaning when its rim band is on the far side by two measures: the
    edge fit's centre beyond its silhouette's by more than
    ``band_offset_mm`` and the ring just inside the silhouette darker on
    the far side (:func:`~vision.rimband.rim_harmonics`) by more than
    ``ring_band`` and by more than ``ring_across`` times the harmonic across
    (the face's border, shaded by the light, adds one along the light's
    direction, the band only along the camera's), with its shadow beyond a
    flat coin's by more than ``ring_shadow`` (a tenth of ``far_shadow``).
    On tuning seeds 100 and 110 (ordinary landings) and ``bench.vision_rim``'s
    class on seeds 120 and 130: no flat coin beyond all four cuts."""
    ring_offset_far_mm: float = 0.2
    """With a shadow beyond ``band_shadow`` (flat coins measure that
    rarely: 13 of about 2,930 judged flat with a silhouette on tuning seeds
    100 and 110), the ring's two cuts and an edge-fit offset beyond this
    (short of ``band_offset_mm``) make the coin leaning. On those seeds no
    flat coin with a shadow of 0.3-0.72 passed the ring's cuts (30: their
    ring reads the band on the near side), two cleets did; this adds
    110009#64 (shadow 0.60, offset 0.26 mm, ring 0.15 along, 0.08 across;
    ``bench.vision_band``)."""
    sliver: tuple[float, float, float] = (0.8, 1.6, 0.6)
    """No outline found, but what changed against the empty still is one
    solid blob this long (shortest, longest) and at most this wide, in coin
    diameters: a coin on edge, its sliver and shadow
    (:func:`~vision.silhouette.changed_sliver`)."""
    crop_px: int = 96
    extent: float = 1.6
    """The crop reaches this many diameters from the located centre."""

    def posture(self, outline: Ellipse, silhouette: bool = False) -> Posture:
        """Flat, leaning or the spotter's call by ``outline``'s axis ratio,
        with the edge's cuts or (``silhouette``) the silhouette's."""
        flat, leaning = (
            (self.flat_silhouette, self.leaning_silhouette)
            if silhouette
            else (self.flat_ratio, self.leaning_ratio)
        )
        if outline.ratio >= flat:
            return Posture.FLAT
        if outline.ratio <= leaning:
            return Posture.LEANING
        return Posture.INDETERMINATE


def choose_outline(
    edge: Ellipse | None, shape: Ellipse | None, settings: Settings
) -> tuple[Ellipse | None, bool]:
    """The outline to judge the posture by, from the edge fit and the
    silhouette against the empty still, and whether they disagree: the
    silhouette when there is one (a shadow only dims the floor, so it is left
    out; an edge merged with the shadow or a line measures a flat coin too
    oval, one merged with a leaning coin's rim band too round). When the edge
    says flat and the silhouette much less round, part of the coin matches
    the floor (silver on a white line) or the edge is a ghost: unsure; so
    too when the edge is round (``round_edge``) and the silhouette says
    anything but flat."""
    if shape is None:
        return edge, False
    unsure = edge is not None and (
        (edge.ratio >= settings.flat_ratio and edge.ratio - shape.ratio > settings.disagree)
        or (edge.ratio >= settings.round_edge and shape.ratio < settings.flat_silhouette)
    )
    return shape, unsure


def by_edges(
    posed: Posed,
    edges: Callable[[], Ellipse | None],
    settings: Settings,
    coarse: Callable[[], Ellipse | None] | None = None,
) -> Posed:
    """``posed``, unless it is leaning by its outline alone (no ``note``)
    while the convex hull of the coin's new sharp edges (``edges()``, asked
    only then: :func:`~vision.silhouette.edge_silhouette`) is as round as a
    flat coin's silhouette (``flat_silhouette``): then flat, outlined by
    that hull. ``coarse()``, when given, is that hull at half resolution,
    asked first: ``edges()`` (at the crop's resolution, about half of a
    leaning coin's time) is not asked when it is further than
    ``coarse_edges`` below ``flat_silhouette`` (a coin clearly leaning).
    On the white line a grey or dim part of a flat coin is darker than the
    tape by one factor, as a shadow is, so the silhouette against the empty
    still loses it (dented: 0.83-0.92) or is none, and
    the edge fit merges with the coin's shadow on the tape; the coin's own
    sharp edges still run round it. A leaning coin's edges are as oval as
    it is (its shadow's edge is soft). The shadow and the rim band are
    asked after, as for any coin that looks flat.

    >>> s, oval = Settings(), Ellipse(100, 100, 96, 82, 0)
    >>> by_edges(Posed(oval, Posture.LEANING), lambda: Ellipse(100, 100, 98, 95, 0), s).posture
    <Posture.FLAT: 'flat'>
    >>> by_edges(Posed(oval, Posture.LEANING), lambda: Ellipse(100, 100, 96, 88, 0), s).posture
    <Posture.LEANING: 'leaning'>
    >>> def unasked() -> Ellipse:
    ...     raise AssertionError("asked")
    >>> by_edges(Posed(oval, Posture.LEANING), unasked, s, lambda: oval).posture
    <Posture.LEANING: 'leaning'>
    """
    if posed.posture is not Posture.LEANING or posed.note:
        return posed
    first = None if coarse is None else coarse()
    if first is not None and first.ratio < settings.flat_silhouette - settings.coarse_edges:
        return posed
    hull = edges()
    if hull is None or hull.ratio < settings.flat_silhouette:
        return posed
    note = f"outline {posed.outline.ratio:.2f}, its sharp edges {hull.ratio:.2f}: flat"
    return Posed(hull, Posture.FLAT, note=note)


def coin_and_shadow(
    posed: Posed,
    silhouette: Callable[[], Segmented | None],
    edges: Callable[[], Ellipse | None],
    settings: Settings,
) -> Posed:
    """``posed`` (flat, by a clean round edge inside which a face reads),
    unless the edge is larger than any flat coin's with its shadow
    (``blob_edge``) and the silhouette against the empty still
    (``silhouette()``, asked only then) is a solid oval inside it: it says
    leaning (``leaning_silhouette`` or less), its convex hull does too
    (under ``ragged_hull``: not a flat coin's dented silhouette) and so does
    the hull of the coin's new sharp edges (``edges()``: under
    ``flat_silhouette``, as :func:`by_edges` asks). Then the round edge is a
    leaning coin and its shadow as one blob, and the face read inside it is
    the coin's own, foreshortened, among the shadow's pixels: leaning,
    outlined by the silhouette. Fresh seed 220, 220005#26 (leaning 38
    degrees, called heads by both cameras: a wrong point): camera 1's edge
    0.99 round and 1.19 diameters across, heads by a margin of 0.105 (best
    score 0.25), silhouette 0.78, its hull 0.78, the sharp edges' 0.79 (0.73
    by the geometry). Without the size cut (any edge over 1.08 diameters) the
    rule ruled 18 flat coins' views leaning on tuning seeds 100 and 130
    (edges 1.08-1.15 across, silhouettes 0.26-0.92 with hulls 0.56-0.93:
    small or line-dented coins whose faces read at 0.38-0.74) and one cleet
    more (130017#23, 1.09); with it no flat coin's and one cleet's
    (130016#2: 1.22 across, tails at 0.22). The margin is thin: a flat
    coin's clean edge measured 1.168 on seed 170 (``blob_edge``).

    >>> s = Settings()
    >>> edge = Posed(Ellipse(100, 100, 114, 113, 0), Posture.FLAT)
    >>> oval = Ellipse(100, 100, 108, 84, 0)
    >>> coin_and_shadow(edge, lambda: Segmented(oval, oval), lambda: oval, s).posture
    <Posture.LEANING: 'leaning'>
    >>> round_hull = Ellipse(100, 100, 98, 96, 0)
    >>> coin_and_shadow(edge, lambda: Segmented(oval, round_hull), lambda: oval, s).posture
    <Posture.FLAT: 'flat'>
    >>> flat_size = Posed(Ellipse(100, 100, 108, 107, 0), Posture.FLAT)
    >>> coin_and_shadow(flat_size, lambda: Segmented(oval, oval), lambda: oval, s).posture
    <Posture.FLAT: 'flat'>
    """
    edge = posed.outline
    if posed.posture is not Posture.FLAT or edge.major <= settings.blob_edge * settings.crop_px:
        return posed
    found = silhouette()
    if found is None or found.fit.ratio > settings.leaning_silhouette:
        return posed
    if math.hypot(found.fit.x - edge.x, found.fit.y - edge.y) > edge.major / 2:
        return posed  # (not the coin inside that blob)
    if found.hull.ratio >= settings.ragged_hull:
        return posed
    sharp = edges()
    if sharp is not None and sharp.ratio >= settings.flat_silhouette:
        return posed
    note = (
        f"a round edge {edge.major / settings.crop_px:.2f} diameters across"
        f" around a solid oval silhouette {found.fit.ratio:.2f} (hull {found.hull.ratio:.2f}):"
        " coin and shadow, leaning"
    )
    return Posed(found.fit, Posture.LEANING, note=note)


def dented(silhouette: Ellipse, settings: Settings) -> bool:
    """Whether ``silhouette`` (against the empty still) is less round than
    a flat coin's (``flat_silhouette``): then it may have lost part of the
    coin, and what is measured against it is off by the dent. On the white
    line a grey or dim part of a flat coin is darker than the tape by one
    factor, as a shadow is, so the silhouette loses it. The rim band
    (:func:`~vision.rimband.by_band`: both its cues measure the band against
    the silhouette) is then not read (tuning seed 150, 150004#2: a round edge
    0.99 around a silhouette of 0.90, "rim band 0.88 mm on the far side",
    ruled leaning; the cleets the band ruled on tuning seeds 100, 110, 130
    and 150 had silhouettes of 0.96-0.99: a coin tilted towards the camera
    looks round to both), and the shadow is measured beyond its hull
    (:func:`shadow_from`).

    >>> s = Settings()
    >>> dented(Ellipse(0, 0, 100, 90, 0), s), dented(Ellipse(0, 0, 100, 96, 0), s)
    (True, False)
    """
    return silhouette.ratio < settings.flat_silhouette


def shadow_from(
    outline: Ellipse, silhouette: Callable[[], Segmented | None], settings: Settings
) -> Ellipse:
    """The outline a coin's shadow is measured beyond
    (:func:`~vision.shadow.far_shadow`): ``outline``, unless it is a dented
    silhouette against the empty still (``silhouette()``, asked only when
    ``outline`` is :func:`dented`) whose convex hull is as round as
    ``ragged_hull``; then that hull. On the
    white line a grey or dim part of a flat coin is darker than the tape by
    one factor, as a shadow is, and the silhouette loses it: measured beyond
    the dent, the coin's own dim side and its short shadow read as a shadow
    reaching past a flat coin's (tuning seed 100, 100014#61: silhouette
    0.92, hull 0.99, shadow 0.69 beyond it and 0.04 beyond the hull, ruled
    leaning). The hull runs round the coin. A leaning coin's silhouette is a
    solid ellipse, its hull as oval: the cleets the shadow ruled leaning
    from a silhouette below 0.94 on tuning seeds 100, 110, 130 and 150 had
    hulls of 0.91-0.936, so for them nothing changes.

    >>> s, hull = Settings(), Ellipse(100, 100, 98, 97, 0)
    >>> dent = Ellipse(100, 100, 92, 84, 0)
    >>> shadow_from(dent, lambda: Segmented(dent, hull), s) == hull
    True
    >>> shadow_from(dent, lambda: None, s) == dent
    True
    """
    if not dented(outline, settings):
        return outline
    found = silhouette()
    if found is None or found.fit != outline or found.hull.ratio < settings.ragged_hull:
        return outline
    return found.hull


def band_offset(edge: Ellipse, shape: Ellipse, toward: float, ppm: float) -> float:
    """How far (mm) ``edge``'s centre lies from ``shape``'s in the direction
    ``toward`` (radians, crop axes: the camera's floor point), ``ppm`` crop
    pixels a millimetre. The silhouette holds the rim band, the edge fit
    mostly follows the face: seen from a camera ``theta`` off vertical, a
    flat coin's band is ``2 tan theta`` mm wide on the side towards the
    camera's floor point (negative here), that of a coin tilted towards the
    camera by about ``2 theta`` on the far side (positive).

    >>> edge, shape = Ellipse(100, 100, 96, 96, 0), Ellipse(98, 100, 98, 97, 0)
    >>> band_offset(edge, shape, 0.0, 4.0)  # the silhouette reaches 2 px farther away
    0.5
    >>> band_offset(edge, shape, math.pi, 4.0)
    -0.5
    """
    dx, dy = edge.x - shape.x, edge.y - shape.y
    return (dx * math.cos(toward) + dy * math.sin(toward)) / ppm


def floor_point(
    outline: Ellipse, x: float, y: float, half: float, settings: Settings
) -> tuple[float, float]:
    """The floor point (mm) of ``outline``'s centre in the crop (``half`` mm
    each way) around (x, y)."""
    ppm = settings.crop_px / settings.coin_diameter_mm
    return x - half + outline.x / ppm, y - half + outline.y / ppm


def near_middle(outline: Ellipse | None, crop: Image, diameter: float) -> Ellipse | None:
    """``outline``, unless it lies off where the coin was located (the crop's
    middle) by more than 3/4 of a diameter: then it is a seam, a line or the
    floor's grain, not the coin."""
    if outline is None:
        return None
    h, w = crop.shape[:2]
    off = math.hypot(outline.x - w / 2, outline.y - h / 2)
    return outline if off <= 0.75 * diameter else None


def under_middle(
    x: float, y: float, ratio: float, camera: tuple[float, float, float] | None, settings: Settings
) -> tuple[float, float]:
    """The floor point under the middle of a coin that is not flat, from
    its outline's centre (x, y) on the floor plane: the middle of a coin
    tilted t degrees is r sin t + h/2 cos t up (cos t about the axis
    ratio), and the floor plane puts it farther from the point under the
    ``camera`` (floor point and height, mm) by that height over the
    camera's less it. Left as it is without a camera position."""
    if camera is None:
        return x, y
    s = settings
    cos_t = min(max(ratio, 0.0), 1.0)
    up = s.coin_diameter_mm / 2 * math.sqrt(1 - cos_t * cos_t) + s.coin_thickness_mm / 2 * cos_t
    nx, ny, height = camera
    k = (height - up) / height
    return nx + (x - nx) * k, ny + (y - ny) * k
