"""The mat's calibration: ArUco markers give the homography from mat mm to
pixels; a focal length (from the lens's field of view, or a lens calibration)
turns it into the camera's pose, so that points above the mat (a wink's top
face 1.5 mm up, the pot's rim 38 mm up) map to mm without parallax.

Marker detection is :func:`vision.calibration.detect_markers` (the
``cv2.aruco.ArucoDetector`` class).

>>> import numpy as np
>>> from vision.mat.render import MatRig
>>> rig = MatRig.make(seed=3)
>>> cal = MatCalibration.from_projection(rig.projection(), rig.size)
>>> p = cal.to_pixels(np.array([[100.0, 50.0]]), z=1.5)
>>> [round(float(v), 6) for v in cal.to_mat(p, z=1.5)[0]]
[100.0, 50.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.calibration import detect_markers
from vision.floor import Matrix, Points, apply, hfov_focal_px, pinhole
from vision.mat.layout import MatLayout
from vision.mat.markers import refine
from vision.model import Frame, VisionError

if TYPE_CHECKING:
    from vision.mat.model import MatObservation
    from vision.mat.pool import CropPool

DEFAULT_HFOV_DEG = 66.0
"""The Raspberry Pi Camera Module 3's horizontal field of view (the wide
version is 102 degrees: set ``hfov_deg``)."""
MIN_MARKERS = 3
MOVED_MM = 2.0
"""Markers this far (mm on the mat) from where the calibration puts them mean
the camera or the mat has moved; a calibration whose own fit is looser
allows twice its worst residual (:meth:`MatView.moved`)."""


def intrinsics(size: tuple[int, int], hfov_deg: float) -> Matrix:
    """An ideal camera's matrix: square pixels, principal point in the middle."""
    return pinhole(size, hfov_focal_px(size[0], hfov_deg))


def pose_projection(homography: Matrix, k: Matrix) -> Matrix:
    """The 3x4 projection of mat (x, y, z) mm from the z = 0 homography and
    the intrinsics: ``K [r1 r2 r3 t]`` with r3 the mat's up direction."""
    m = np.linalg.inv(k) @ homography
    scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    m = m / scale
    if m[2, 2] < 0:  # the mat's origin must lie in front of the camera
        m = -m
    r1 = m[:, 0] / np.linalg.norm(m[:, 0])
    r2 = m[:, 1] - (m[:, 1] @ r1) * r1
    r2 /= np.linalg.norm(r2)
    r3 = np.cross(r1, r2)
    if r3[2] > 0:  # up must come towards the camera (depth falls as z rises)
        r3 = -r3
    return np.asarray(k @ np.column_stack([r1, r2, r3, m[:, 2]]), np.float64)


def zoom(scale: float, x0: float, y0: float) -> Matrix:
    """Video pixels to the pixels of a still ``scale`` times finer, cropped
    at (x0, y0) of the still (pixel centres at integers in both)."""
    c = 0.5 * scale - 0.5
    return np.array([[scale, 0.0, c - x0], [0.0, scale, c - y0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True, slots=True)
class MatCalibration:
    """Mat mm (at any height) to pixels of a ``size`` frame, and the fit."""

    projection: Matrix
    size: tuple[int, int]
    markers: tuple[int, ...] = ()
    rms_mm: float = 0.0
    max_mm: float = 0.0
    _maps: dict[tuple[bool, float], Matrix] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Each height's homography and its inverse, made once (a frame's
    analysis maps points at a handful of heights hundreds of times)."""

    @classmethod
    def from_projection(cls, projection: Matrix, size: tuple[int, int]) -> MatCalibration:
        """A calibration from a known 3x4 projection (the renderer's camera)."""
        return cls(np.asarray(projection, np.float64), size)

    def crop(self, scale: float, region: tuple[int, int, int, int]) -> MatCalibration:
        """The calibration of ``region`` (x0, y0, width, height) of a still
        taken by the same camera at ``scale`` times the resolution."""
        x0, y0, w, h = region
        return replace(self, projection=np.asarray(zoom(scale, x0, y0) @ self.projection,
                                                   np.float64), size=(w, h))  # fmt: skip

    def plane(self, z: float) -> Matrix:
        """The homography from mat (x, y) at height ``z`` mm to pixels."""
        p = self.projection
        h = np.empty((3, 3))  # np.column_stack's array, without its Python layers
        h[:, :2] = p[:, :2]
        h[:, 2] = p[:, 2] * z + p[:, 3]
        return h

    def to_pixels(self, points: Points, z: float = 0.0) -> Points:
        """Mat points at height ``z`` to pixels."""
        return apply(self._map(False, z), points)

    def to_mat(self, pixels: Points, z: float = 0.0) -> Points:
        """Pixels to the mat points at height ``z`` that they show."""
        return apply(self._map(True, z), pixels)

    def _map(self, back: bool, z: float) -> Matrix:
        key = (back, z)
        if key not in self._maps:
            h = self.plane(z)
            self._maps[key] = np.asarray(np.linalg.inv(h) if back else h, np.float64)
        return self._maps[key]

    def px_per_mm(self, x: float, y: float, z: float = 0.0) -> float:
        """The frame's scale near mat point (x, y, z)."""
        pts = self.to_pixels(np.array([[x, y], [x + 1, y], [x, y + 1]]), z)
        jac = np.column_stack([pts[1] - pts[0], pts[2] - pts[0]])
        return math.sqrt(abs(float(np.linalg.det(jac))))

    def camera_centre(self) -> tuple[float, float, float]:
        """Where the camera is, mat mm (its height above the mat last)."""
        _, _, vt = np.linalg.svd(self.projection)
        c = vt[-1]
        return (float(c[0] / c[3]), float(c[1] / c[3]), float(c[2] / c[3]))


def calibrate_mat(
    frame: Frame, layout: MatLayout | None = None, hfov_deg: float = DEFAULT_HFOV_DEG
) -> MatCalibration:
    """The calibration from the markers seen in ``frame``.

    Raises :class:`VisionError` naming the missing markers when fewer than
    three are seen.
    """
    layout = layout or MatLayout()
    found = refine(frame.image, detect_markers(frame.image))
    wanted = layout.marker_corners()
    ids = sorted(set(found) & set(wanted))
    if len(ids) < MIN_MARKERS:
        missing = ", ".join(str(i) for i in layout.marker_ids if i not in found)
        raise VisionError(
            f"saw {len(ids)} of the mat's markers (missing: {missing}); need {MIN_MARKERS}"
        )
    img = np.vstack([found[i] for i in ids])
    mat = np.vstack([wanted[i] for i in ids])
    found_h, _ = cv2.findHomography(mat, img, 0)
    if found_h is None:
        raise VisionError("the marker corners do not give a homography (degenerate view)")
    h: Matrix = np.asarray(found_h, np.float64)
    err = np.linalg.norm(apply(np.asarray(np.linalg.inv(h), np.float64), img) - mat, axis=1)
    projection = pose_projection(h, intrinsics(frame.size, hfov_deg))
    return MatCalibration(projection, frame.size, tuple(ids), float(np.sqrt(np.mean(err**2))),
                          float(err.max()))  # fmt: skip


ANALYSIS_WIDTH = 1280
"""The width the mat analysis reads a frame at (its thresholds suit a
1280x720 video frame); a larger still is read at this size, then piles again
in crops of the still itself (:mod:`vision.mat.closer`)."""


class MatView:
    """One camera's calibrated view of the mat, for a live table: stills in,
    observations out. Made once from the markers of a still (:meth:`calibrate`).

    >>> from vision.mat.render import MatRig, render
    >>> from vision.mat.synth.scene import MatScene, TrueWink
    >>> rig = MatRig.make(seed=4)
    >>> view = MatView.calibrate(render(rig, MatScene(()), seed=1), hfov_deg=rig.hfov_deg)
    >>> obs = view.analyse(render(rig, MatScene((TrueWink("g3", -200.0, 80.0),)), seed=2))
    >>> [(w.colour.value, w.size, round(w.x), round(w.y)) for w in obs.winks]
    [('green', 16, -200, 80)]
    """

    def __init__(self, calibration: MatCalibration, layout: MatLayout,
                 still_size: tuple[int, int], pool: CropPool | None = None) -> None:  # fmt: skip
        """``pool``: the still's crops are read in its workers (:mod:`vision.mat.pool`)."""
        from vision.mat.analyse import MatAnalyser

        self.calibration = calibration
        self.layout = layout
        self.still_size = still_size
        self.scale = still_size[0] / calibration.size[0]
        self.pool = pool
        self._analyser = MatAnalyser(calibration, layout, self.scale, pool)

    @staticmethod
    def video(still: Frame) -> Frame:
        """``still`` at the analysis size (:data:`ANALYSIS_WIDTH` across)."""
        w, h = still.size
        if w <= ANALYSIS_WIDTH:
            return still
        size = (ANALYSIS_WIDTH, round(h * ANALYSIS_WIDTH / w))
        small = cv2.resize(still.image, size, interpolation=cv2.INTER_AREA)
        return Frame(np.asarray(small, np.uint8), still.t_ns)

    @classmethod
    def calibrate(cls, still: Frame, layout: MatLayout | None = None,
                  hfov_deg: float = DEFAULT_HFOV_DEG,
                  pool: CropPool | None = None) -> MatView:  # fmt: skip
        """The view from the markers in ``still``; :class:`VisionError` naming
        the markers missing when fewer than three are seen."""
        layout = layout or MatLayout()
        calibration = calibrate_mat(cls.video(still), layout, hfov_deg)
        return cls(calibration, layout, still.size, pool)

    def shift_mm(self, still: Frame) -> float | None:
        """How far the mat's markers in ``still`` lie from where the
        calibration puts them (the largest corner's, mm on the mat): a camera
        knocked or a mat pushed since it was calibrated. None when fewer than
        three markers can be seen (an arm over them): it cannot be told."""
        video = self.video(still)
        found = refine(video.image, detect_markers(video.image))
        wanted = self.layout.marker_corners()
        ids = sorted(set(found) & set(wanted))
        if len(ids) < MIN_MARKERS:
            return None
        corners = np.vstack([wanted[i] for i in ids])
        seen = np.vstack([found[i] for i in ids]) / (video.size[0] / self.calibration.size[0])
        off = np.linalg.norm(seen - self.calibration.to_pixels(corners), axis=1)
        scale = np.array([self.calibration.px_per_mm(float(x), float(y)) for x, y in corners])
        return float(np.max(off / scale))

    def moved(self, still: Frame) -> float | None:
        """The markers' shift (:meth:`shift_mm`) when it is more than this
        calibration can explain, else None (also when it cannot be told)."""
        shift = self.shift_mm(still)
        limit = max(MOVED_MM, 2.0 * self.calibration.max_mm)
        return shift if shift is not None and shift > limit else None

    @property
    def closer(self) -> bool:
        """Whether the stills are finer than the video, so that piles are
        looked at again in their crops (:mod:`vision.mat.closer`)."""
        return self.scale > 1.01

    def analyse(self, still: Frame) -> MatObservation:
        """The winks ``still`` shows (taken by the camera calibrated)."""
        if still.size != self.still_size:
            raise VisionError(f"a {still.size} still from a camera calibrated at {self.still_size}")
        image = still.image

        def crop(box: tuple[int, int, int, int]) -> Frame:
            x0, y0, w, h = box
            return Frame(np.ascontiguousarray(image[y0 : y0 + h, x0 : x0 + w]))

        return self._analyser.analyse(self.video(still), crop if self.closer else None)
