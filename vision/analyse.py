"""``analyse(frame) -> Observation``: the landed coin, located at low
resolution, judged on a rectified crop of the full-resolution still.

1. Locate: in the preview, against the empty-floor reference when there is
   one (any posture), else as a circle (flat coins).
2. Rectify: a crop of the still around it, resampled onto the floor plane at
   ``crop_px`` pixels per coin diameter.
3. Outline: an ellipse fitted to the coin's edge (a Hough circle refined on
   rays; for a coin that is not a clean circle also the edge contour, and,
   with an empty-floor still, the coin's silhouette against it, which leaves
   the shadow out: a leaning coin's edge is often broken or merged with its
   rim band, a seam or a line); its axis ratio says flat or leaning (a
   cleet), its centre the position in mm, hence the zone.
4. Face: a flat coin in the area is compared with the two registered faces;
   below the confidence margin it is indeterminate and the spotter decides.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision import tape
from vision.calibration import Calibration
from vision.coinface import CLEAN, Ellipse, Outlines
from vision.facecrop import face_crop, on_sensor
from vision.facecrop import reference_crop as reference_crop
from vision.floor import scaled, translate
from vision.halves import STILL_STEP as STILL_STEP
from vision.halves import Halves
from vision.locate import Candidate, find_changed, find_circles, find_slivers
from vision.model import CoinFace, Frame, Image, Observation, Posture, Zone
from vision.posture import Posed as _Posed
from vision.posture import Settings as Settings
from vision.posture import (
    by_edges,
    coin_and_shadow,
    floor_point,
    near_middle,
    shadow_from,
    under_middle,
)
from vision.posture import choose_outline as choose_outline
from vision.references import References
from vision.rimband import by_band
from vision.settings import CameraSettings
from vision.shadow import far_shadow
from vision.silhouette import changed_sliver, edge_silhouette, segment_outline


def settings_of(camera: CameraSettings) -> Settings:
    """The analysis settings a ``[camera]`` table gives: the coin's diameter,
    the face's confidence margin and the in/out line tolerance."""
    return Settings(
        coin_diameter_mm=camera.coin_diameter_mm,
        margin=camera.margin,
        tolerance_mm=camera.tolerance_mm,
    )


_Read = tuple[CoinFace, float, dict[str, float], tuple[str, ...]]
"""A face read inside an outline: the face, the confidence, the scores and
why it is not read (:meth:`Analyser._face`)."""

MASK_STEP = 4
"""The coin is told from the empty floor at a quarter of the crop's resolution."""


@dataclass
class Analyser:
    """Analyses landings on one calibrated table with one registered coin."""

    calibration: Calibration
    references: References | None = None
    settings: Settings = field(default_factory=Settings)

    def analyse(
        self,
        preview: Frame,
        still: Frame | None = None,
        background: Frame | None = None,
        empty_still: Frame | None = None,
    ) -> Observation:
        """The coin in ``preview`` (and ``still``, the same view at full
        resolution; the preview itself when None). ``background`` is the
        empty floor's preview, ``empty_still`` its still (or the window of it
        that ``still`` shows)."""
        still = still or preview
        reasons: list[str] = []
        places = []
        for cand in self.tried(preview, background):
            x, y = self.calibration.to_floor(on_sensor(cand, preview), preview.full_size)[0]
            obs = self._judge(still, float(x), float(y), reasons, background, empty_still)
            if obs is not None:
                return obs
            places.append((float(x), float(y)))
        for x, y in places if empty_still is not None else []:
            # (Only now: a sliver is weaker evidence than any outline.)
            obs = self._on_edge(still, x, y, reasons, empty_still)
            if obs is not None:
                return obs
        return Observation(found=False, reasons=(*reasons, "no coin found"))

    def tried(
        self, preview: Frame, background: Frame | None, faint: bool = True
    ) -> Iterator[Candidate]:
        """The candidates to judge in turn: the best three, then (only when
        none was a coin, and ``faint``) up to three fainter ones. A
        generator: the fainter ones are looked for only if the caller reads
        on."""
        tried = self.candidates(preview, background)[:3]
        yield from tried
        if faint:
            yield from self.faint_candidates(preview, background, tried)[:3]

    def coin_px(self, preview: Frame) -> float:
        """A coin's size in ``preview``'s pixels at the square's middle."""
        cal, side = self.calibration, self.calibration.layout.side_mm
        return self.settings.coin_diameter_mm * cal.px_per_mm(side / 2, side / 2, preview.full_size)

    def candidates(self, preview: Frame, background: Frame | None) -> list[Candidate]:
        """Coin candidates in the preview, best first."""
        px = self.coin_px(preview)
        if background is not None:
            return find_changed(preview.image, background.image, px)
        return find_circles(preview.image, 0.6 * px, 1.5 * px)

    def faint_candidates(
        self, preview: Frame, background: Frame | None, tried: list[Candidate]
    ) -> list[Candidate]:
        """When the candidates found no coin: fainter changes against the
        empty floor (:func:`find_slivers`: a small coin on edge), away from
        those already tried."""
        if background is None:
            return []
        px = self.coin_px(preview)
        return [
            c
            for c in find_slivers(preview.image, background.image, px)
            if all(math.hypot(c.x - t.x, c.y - t.y) > px / 2 for t in tried)
        ]

    def crop(self, still: Frame, x: float, y: float, half_mm: float, step: int = 1) -> Image:
        """The still around floor point (x, y), rectified: ``crop_px / step``
        pixels a diameter."""
        s = self.settings
        ppm = s.crop_px / s.coin_diameter_mm / step
        n = round(2 * half_mm * ppm)
        to_mm = np.array([[1 / ppm, 0, x - half_mm], [0, 1 / ppm, y - half_mm], [0, 0, 1.0]])
        cal = self.calibration
        if cal.lens is None:
            sx, sy = still.full_size[0] / cal.size[0], still.full_size[1] / cal.size[1]
            m = (
                translate(-still.origin[0], -still.origin[1])
                @ scaled(cal.homography, sx, sy)
                @ to_mm
            )
            out = cv2.warpPerspective(
                still.image,
                m,
                (n, n),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
            return np.asarray(out, np.uint8)
        gx, gy = np.meshgrid(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64))
        floor = np.column_stack([gx.ravel() / ppm + x - half_mm, gy.ravel() / ppm + y - half_mm])
        px = cal.to_pixels(floor, still.full_size) - np.array(still.origin)
        maps = px.reshape(n, n, 2).astype(np.float32)
        out = cv2.remap(
            still.image,
            maps[..., 0],
            maps[..., 1],
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return np.asarray(out, np.uint8)

    def _judge(
        self,
        still: Frame,
        x: float,
        y: float,
        reasons: list[str],
        background: Frame | None,
        empty_still: Frame | None = None,
        *,
        again: bool = False,
    ) -> Observation | None:
        """The coin located at floor point (x, y) mm, judged on a crop of
        ``still`` around it; None (with a reason) when no outline is there.
        ``again``: this is the second look, around a silhouette found off
        the first crop's middle."""
        half = self.settings.extent * self.settings.coin_diameter_mm
        crop = self.crop(still, x, y, half)
        halves = Halves(self, crop, empty_still, x, y, half)
        edge = self._edge(crop)

        @functools.cache
        def read(outline: Ellipse) -> _Read:
            # (The face read inside an outline, once a look: the edge's is
            # asked for a clean circle, then again when the coin is observed.)
            notes: list[str] = []
            return (*self._face(crop, outline, notes), tuple(notes))

        @functools.cache
        def faceless() -> bool:
            # (Whether no face reads inside the edge: asked at most once a look.)
            return (
                edge is not None
                and self.references is not None
                and read(edge)[0] is CoinFace.INDETERMINATE
            )

        hull_points: list[np.ndarray] = []

        @functools.cache
        def sharp() -> Ellipse | None:
            # (The hull of the coin's new sharp edges: asked at most once a
            # look; its outline's points kept in ``hull_points``.)
            assert empty_still is not None
            return self._edges_silhouette(crop, empty_still, x, y, half, hull_points)

        clean = self._clean(edge, faceless)
        if empty_still is not None and not clean and halves.covered:
            # (``covered``: a windowed still may not cover the crop.)
            segmented = halves.segmented
            found = None if segmented is None else segmented.fit
            if found is None and (edge is None or edge.ratio >= CLEAN):
                # (A clean circle looked past: a blob larger than a coin.)
                found = sharp()
            shape = near_middle(found, crop, self.settings.crop_px)
            if found is not None and shape is None and not again:
                # The preview located the coin with its shadow: look again
                # around what changed, as a leaning coin's shadow cannot.
                nx, ny = floor_point(found, x, y, half, self.settings)
                return self._judge(still, nx, ny, reasons, background, empty_still, again=True)
            hull = None if segmented is None or shape is not found else segmented.hull
            posed = self._by_silhouette(edge, shape, faceless, hull)
            if posed is not None:
                posed = by_edges(posed, sharp, self.settings, lambda: halves.sharp)
        else:
            posed = self._by_change(crop, edge, background, x, y, half)
            if clean and posed is not None and halves.covered:
                # (A face read inside a round blob larger than a coin?)
                posed = coin_and_shadow(posed, lambda: halves.segmented, sharp, self.settings)
        if posed is None:
            reasons.append(f"no coin outline near ({x:.0f}, {y:.0f}) mm")
            return None
        posed = self._across_tape(posed, halves, x, y, half, sharp, hull_points)
        posed = self._by_shadow(posed, halves, edge)
        return self._observe(still, crop, posed, x, y, half, reasons, read=read)

    def _across_tape(
        self,
        posed: _Posed,
        halves: Halves,
        x: float,
        y: float,
        half: float,
        sharp: Callable[[], Ellipse | None],
        hull_points: list[np.ndarray],
    ) -> _Posed:
        """``posed``, unless it is leaning by its outline alone (no note),
        the outline's centre within 0.65 of its length of a tape edge, and
        the outline fitted again without what the tape made of it is a
        coin's size and as round as a flat coin's by the cut its kind of
        outline is judged by (``flat_silhouette``): then flat or leaning is the spotter's,
        outlined by that fit (its shadow is asked after, as for any open
        outline). What the tape made of it (:mod:`vision.tape`): the
        silhouette against the empty still loses a grey coin's part on the
        tape (darker by one factor, as a shadow is), so its contour is
        fitted again from its points off the tape and its edges; the hull
        of the new sharp edges, when that outlined the coin, cuts a chord
        along the tape's edge, so its outline is fitted again from its
        points off the edge (``sharp()``, ``_judge``'s, keeps them in
        ``hull_points``). An edge fit is left as it is. The points left must run round
        ``tape.MIN_SPAN`` degrees. A leaning coin's outline off the tape
        is as oval as the rest of it."""
        s = self.settings
        if posed.posture is not Posture.LEANING or posed.note:
            return posed
        ppm = s.crop_px / s.coin_diameter_mm
        origin = (x - half, y - half)
        layout, o = self.calibration.layout, posed.outline
        off_edge = tape.distance_at(layout, origin[0] + o.x / ppm, origin[1] + o.y / ppm)
        if off_edge > tape.NEAR * o.major / ppm:
            return posed
        segmented = halves.segmented if halves.covered else None
        if segmented is not None and segmented.fit == o and segmented.points is not None:
            pts, band, what = segmented.points, True, "silhouette"
        elif segmented is None and halves.covered and sharp() == o:
            pts, band, what = hull_points[0], False, "sharp edges"
        else:
            # (The edge fit's rays cast again taking no step on the tape's
            # edge: tried, and it cost a cleet; bench/RESULTS.md, session 26.)
            return posed
        refit = tape.refit(layout, pts, origin, ppm, band)
        if refit is None:
            return posed
        if refit.ratio < s.flat_silhouette or not 0.8 <= refit.major / s.crop_px <= 1.25:
            return posed
        doubt = f"{what} {o.ratio:.2f} across the tape's edge, {refit.ratio:.2f} off it"
        return _Posed(refit, Posture.INDETERMINATE, doubt=doubt)

    def _on_edge(
        self, still: Frame, x: float, y: float, reasons: list[str], empty_still: Frame | None
    ) -> Observation | None:
        """A coin on edge at (x, y) where no outline was found, when what
        changed against the empty still there is a sliver and its shadow
        (:func:`changed_sliver`, ``Settings.sliver``); else None."""
        s = self.settings
        half = s.extent * s.coin_diameter_mm
        crop = self.crop(still, x, y, half)
        halves = Halves(self, crop, empty_still, x, y, half)
        if not halves.covered:
            return None
        found = changed_sliver(halves.crop, halves.empty, s.crop_px / STILL_STEP, s.sliver)
        if found is None:
            return None
        length, width = (v * STILL_STEP / s.crop_px for v in (found.major, found.minor))
        note = f"no round outline, a sliver {length:.2f} x {width:.2f} diameters changed: on edge"
        posed = _Posed(found.enlarged(STILL_STEP), Posture.LEANING, note=note)
        # (Placed less surely than by an outline: the coin stands up to a
        # diameter high, its shadow beside it; so in or out is called only
        # a blob's length farther from the line than for an outline.)
        slack = length * s.coin_diameter_mm
        return self._observe(still, crop, posed, x, y, half, reasons, slack)

    def _clean(self, edge: Ellipse | None, faceless: Callable[[], bool]) -> bool:
        """Whether ``edge`` is a clean circle that no silhouette needs to
        confirm: round, with a face read inside it (``faceless``: the read
        is kept for the observation). A coin leaning with its shadow
        against it can make one round blob, larger than a coin; and a
        clean circle of a coin's size can be a leaning coin's ghost (its
        rim band and shadow): the face inside either matches neither
        registered face. Tuning seed 230, 230009#60: leaning 40 degrees,
        seen from 1 degree off vertical (an oval of 0.75), its edge a
        clean circle 0.96 round and 1.05 diameters across, heads 0.153
        and tails 0.137 inside it, taken at once (only edges over 1.08
        diameters were asked); its silhouette is 0.81. On seeds 230 and
        240 asking every such edge changed the views of 2 cleets (ruled
        leaning) and 2 flat coins (faces unread: flat -> flat or leaning
        open), no other."""
        if edge is None or edge.ratio < CLEAN:
            return False
        return not faceless()

    def _edge(self, crop: Image) -> Ellipse | None:
        """The coin's edge fit near the crop's middle: at half resolution,
        then, when nothing is found there, at full resolution."""
        s = self.settings
        outlines = Outlines(crop, s.crop_px)  # (the second look reuses the first's work)
        outline = near_middle(outlines.find(coarse=True), crop, s.crop_px)
        if outline is None:
            # (An outline found but not round is not searched again at full
            # resolution: that search, a third of a leaning coin's time, only
            # added a second circle guess beside the same edge contour.)
            outline = near_middle(outlines.find(), crop, s.crop_px)
        return outline

    def _edges_silhouette(
        self,
        crop: Image,
        empty_still: Frame,
        x: float,
        y: float,
        half: float,
        outline_points: list[np.ndarray] | None = None,
    ) -> Ellipse | None:
        """Neither an edge nor a filled silhouette: a grey coin on the white
        line, as dark as a shadow; its new edges outline it (at the crop's
        resolution: an edge is a pixel or two wide). ``outline_points``: as
        :func:`~vision.silhouette.edge_silhouette`'s."""
        floor = self.crop(empty_still, x, y, half)
        return edge_silhouette(crop, floor, self.settings.crop_px, outline_points=outline_points)

    def _by_silhouette(
        self,
        edge: Ellipse | None,
        shape: Ellipse | None,
        faceless: Callable[[], bool],
        hull: Ellipse | None = None,
    ) -> _Posed | None:
        """The posture from the edge and the silhouette against the empty
        still (:func:`choose_outline`); when they disagree, the spotter's
        call, unless no face reads inside a round edge (``faceless``). A
        silhouette that says leaning while its convex hull (``hull``) is
        round (``ragged_hull``) is dented, not oval: the spotter's call."""
        s = self.settings
        outline, unsure = choose_outline(edge, shape, s)
        if outline is None:
            return None
        if not (unsure and edge is not None and shape is not None):
            posture = self.settings.posture(outline, shape is not None)
            if posture is Posture.LEANING and hull is not None and hull.ratio >= s.ragged_hull:
                doubt = f"silhouette {outline.ratio:.2f}, its hull {hull.ratio:.2f}: dented"
                return _Posed(outline, Posture.INDETERMINATE, doubt=doubt)
            return _Posed(outline, posture)
        doubt = f"edge {edge.ratio:.2f}, silhouette {shape.ratio:.2f}"
        # (Only a silhouette much less round than the edge: one cut short,
        # or a leaning coin's. A coin tilted towards the camera looks round
        # to both, and its face reads like a flat coin's.)
        if edge.ratio - shape.ratio > s.disagree and self._no_face_inside(shape, faceless):
            return _Posed(
                outline, Posture.LEANING, note=f"{doubt}: leaning, no face reads inside the edge"
            )
        return _Posed(outline, Posture.INDETERMINATE, doubt=doubt)

    def _by_change(
        self,
        crop: Image,
        edge: Ellipse | None,
        background: Frame | None,
        x: float,
        y: float,
        half: float,
    ) -> _Posed | None:
        """The posture from the edge; when it is not a clean circle, from
        what changed since the empty floor's preview when that is less
        round: a coin on edge or leaning has a weak or broken edge (or one
        merged with a seam or a line), and what changed shows it whatever
        its edges."""
        s = self.settings
        outline = edge
        if background is not None and (edge is None or edge.ratio < s.flat_ratio):
            floor = self.crop(background, x, y, half, MASK_STEP)
            coarse = self.calibration.px_per_mm(x, y, background.full_size)
            blur = 0.4 * s.crop_px / MASK_STEP / s.coin_diameter_mm / coarse
            changed = near_middle(segment_outline(crop, floor, s.crop_px, blur), crop, s.crop_px)
            if changed is not None and (edge is None or changed.ratio <= s.leaning_ratio):
                outline = changed
        return None if outline is None else _Posed(outline, self.settings.posture(outline))

    def _by_shadow(self, posed: _Posed, halves: Halves, edge: Ellipse | None = None) -> _Posed:
        """A coin that looks flat, leaning when its shadow reaches beyond a
        flat coin's (a coin tilted towards the camera looks round; its
        shadow does not); one whose outline leaves flat or leaning open
        (``doubt_ratio`` or rounder), leaning by a shorter shadow. A coin
        that looks flat with a short shadow is asked where its rim band is
        (:func:`~vision.rimband.by_band`; ``edge``: the edge fit)."""
        s = self.settings
        if posed.posture is Posture.FLAT:
            most = s.far_shadow
        elif posed.posture is Posture.INDETERMINATE and posed.outline.ratio >= s.doubt_ratio:
            most = s.doubt_shadow
        else:
            return posed
        if not halves.covered:
            return posed
        ppm = s.crop_px / s.coin_diameter_mm
        beyond = shadow_from(posed.outline, lambda: halves.segmented, s)
        reach = far_shadow(halves.crop, halves.empty, beyond, ppm, STILL_STEP)
        if reach <= most:
            if posed.posture is not Posture.FLAT or reach <= min(s.band_doubt, s.ring_shadow):
                return posed
            return by_band(posed, halves, reach, self.calibration.camera(), s, edge)
        said = posed.doubt or f"axis ratio {posed.outline.ratio:.2f}"
        was = "round" if posed.posture is Posture.FLAT else said
        note = f"{was}, but shadow beyond a flat coin's ({reach:.2f}): leaning"
        return replace(posed, posture=Posture.LEANING, note=note, doubt="")

    def _observe(
        self,
        still: Frame,
        crop: Image,
        posed: _Posed,
        x: float,
        y: float,
        half: float,
        reasons: list[str],
        slack: float = 0.0,
        *,
        read: Callable[[Ellipse], _Read] | None = None,
    ) -> Observation:
        """The observation of a coin outlined and posed in the crop around
        (x, y); too close to call in or out within ``tolerance_mm`` plus
        ``slack`` (mm) of the line. ``read``: the face inside an outline of
        ``crop`` (:meth:`_face`, with its notes), when the look keeps it."""
        s, outline = self.settings, posed.outline

        def face_of(outline: Ellipse, why: list[str]) -> tuple[CoinFace, float, dict[str, float]]:
            if read is None:
                return self._face(crop, outline, why)
            face, confidence, scores, notes = read(outline)
            why.extend(notes)
            return face, confidence, scores

        cx, cy = floor_point(outline, x, y, half, s)
        coin_px = s.coin_diameter_mm * self.calibration.px_per_mm(cx, cy, still.full_size)
        if posed.posture is not Posture.FLAT:
            cx, cy = self._under(cx, cy, outline.ratio)
        zone, _ = self.calibration.layout.zone(cx, cy, s.coin_diameter_mm / 2)
        base = Observation(
            found=True,
            posture=posed.posture,
            zone=zone,
            x_mm=cx,
            y_mm=cy,
            coin_px=coin_px,
            axis_ratio=outline.ratio,
            # The crop is the floor plane, x and y as the floor's (floor_point).
            axis_deg=outline.angle_deg % 180.0,
        )
        why = [*reasons, posed.note] if posed.note else list(reasons)
        clearance = self.calibration.layout.in_out_clearance(cx, cy, s.coin_diameter_mm / 2)
        if clearance < s.tolerance_mm + slack:
            # In or out is not known: no zone, so the verdict is the spotter's.
            # The face of a flat coin is still read (the evidence says it, and
            # the benchmark counts it), but it decides nothing.
            why.append(f"{clearance:.1f} mm from the in/out boundary: too close to call")
            near = replace(base, zone=None, picture=crop)
            if posed.posture is Posture.FLAT:
                face, confidence, scores = face_of(outline, why)
                near = replace(near, face=face, confidence=confidence, scores=scores)
            return replace(near, reasons=(*why,))
        if posed.posture is not Posture.FLAT or zone is Zone.OUTSIDE:
            if posed.posture is Posture.INDETERMINATE:
                why.append(f"{posed.doubt or f'axis ratio {outline.ratio:.2f}'}: flat or leaning?")
            return replace(base, reasons=(*why,), picture=crop)
        face, confidence, scores = face_of(outline, why)
        return replace(
            base,
            face=face,
            confidence=confidence,
            scores=scores,
            reasons=(*why,),
            picture=face_crop(crop, outline),
        )

    def _under(self, x: float, y: float, ratio: float) -> tuple[float, float]:
        """:func:`~vision.posture.under_middle` with this table's camera."""
        return under_middle(x, y, ratio, self.calibration.camera(), self.settings)

    def covers(self, frame: Frame, x: float, y: float, half: float) -> bool:
        """Whether ``frame`` shows the floor within ``half`` mm of (x, y)."""
        corners = np.array([[x + dx, y + dy] for dx in (-half, half) for dy in (-half, half)])
        px = self.calibration.to_pixels(corners, frame.full_size) - np.array(frame.origin)
        w, h = frame.size
        return bool(np.all((px >= 0) & (px <= [w - 1, h - 1])))

    def _no_face_inside(self, shape: Ellipse, faceless: Callable[[], bool]) -> bool:
        """When the edge is flat and the silhouette much less round: whether
        it is leaning, as the silhouette says (0.92 or less), because no
        face reads inside the edge. A leaning coin's round edge is a ghost
        (its rim band, shadow, a line) and its face, foreshortened inside
        it, matches neither face; a flat coin's silhouette cut short where
        part of it matches the floor has a whole edge and its face reads
        there. The converse does not hold: a coin leaning 33-36 degrees
        read its face clearly inside the edge on tuning rigs 60002 and 90000,
        so a face that reads leaves it to the spotter."""
        if shape.ratio > self.settings.leaning_silhouette:
            return False
        return faceless()

    def _face(
        self, crop: Image, outline: Ellipse, why: list[str]
    ) -> tuple[CoinFace, float, dict[str, float]]:
        """:meth:`References.read` with this analyser's margins."""
        if self.references is None:
            why.append("no coin registered")
            return CoinFace.INDETERMINATE, 0.0, {}
        s = self.settings
        return self.references.read(crop, outline, s.margin, s.min_score, why)
