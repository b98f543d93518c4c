"""Calibration: ArUco markers at the square's corners give the homography from
floor millimetres to image pixels; a ChArUco board optionally gives the lens.

Only the detector classes (``cv2.aruco.ArucoDetector``, ``CharucoDetector``)
are used: ``cv2.aruco.detectMarkers`` and friends are gone from OpenCV 4.7 on.

The reprojection error is in millimetres on the floor: every detected marker
corner is mapped back through the homography and compared with where the
layout says it is.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.floor import (
    FloorLayout,
    Matrix,
    Points,
    apply,
    hfov_focal_px,
    pinhole,
    scaled,
    translate,
)
from vision.model import Frame, Image, VisionError

DICTIONARY = cv2.aruco.DICT_4X4_50
MIN_MARKERS = 3
"""With fewer, a bad corner cannot be outvoted."""
F_DISAGREE = 0.4
"""How far (relative) the focal length estimated from a homography may leave
Zhang's two constraints unmet and still be used: at most 0.15 on 89 tuning
rigs, 0.80 on the one camera nearly straight over the square (rig 100008,
whose estimate put it 6.4 m up for 2.1 m)."""


def _grey(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


@dataclass(frozen=True, slots=True)
class Lens:
    """A lens model from :func:`lens_calibrate`: intrinsics and distortion at ``size``."""

    matrix: tuple[tuple[float, ...], ...]
    distortion: tuple[float, ...]
    size: tuple[int, int]
    rms_px: float

    def undistort(self, points: Points, size: tuple[int, int]) -> Points:
        """Image points of a ``size`` frame as an ideal (undistorted) camera sees them."""
        k = self._k(size)
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        out = cv2.undistortPoints(pts, k, np.array(self.distortion), P=k)
        return np.asarray(out, np.float64).reshape(-1, 2)

    def distort(self, points: Points, size: tuple[int, int]) -> Points:
        """Ideal image points to where the real lens puts them."""
        k = self._k(size)
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        norm = np.column_stack([(pts - k[:2, 2]) / [k[0, 0], k[1, 1]], np.ones(len(pts))])
        out, _ = cv2.projectPoints(norm, np.zeros(3), np.zeros(3), k, np.array(self.distortion))
        return np.asarray(out, np.float64).reshape(-1, 2)

    def _k(self, size: tuple[int, int]) -> Matrix:
        k = np.array(self.matrix, dtype=np.float64)
        return scaled(k, size[0] / self.size[0], size[1] / self.size[1])


@dataclass(frozen=True, slots=True)
class Calibration:
    """Floor millimetres to pixels of a ``size`` frame, and how well it fits."""

    homography: Matrix
    size: tuple[int, int]
    layout: FloorLayout = field(default_factory=FloorLayout)
    markers: tuple[int, ...] = ()
    rms_mm: float = 0.0
    max_mm: float = 0.0
    lens: Lens | None = None
    hfov_deg: float | None = None
    """The lens's horizontal field of view when the config gives it
    (``[camera] hfov_deg``); it fixes the focal length :meth:`camera` needs."""

    def to_pixels(self, floor: Points, size: tuple[int, int]) -> Points:
        """Floor points to pixels of a whole frame of ``size`` (any resolution
        of the same view), through the lens when there is one."""
        h = scaled(self.homography, size[0] / self.size[0], size[1] / self.size[1])
        ideal = apply(h, floor)
        return ideal if self.lens is None else self.lens.distort(ideal, size)

    def to_floor(self, pixels: Points, size: tuple[int, int]) -> Points:
        """Pixels of a whole frame of ``size`` to floor millimetres."""
        pts = np.asarray(pixels, np.float64).reshape(-1, 2)
        if self.lens is not None:
            pts = self.lens.undistort(pts, size)
        h = scaled(self.homography, size[0] / self.size[0], size[1] / self.size[1])
        return apply(np.linalg.inv(h), pts)

    def px_per_mm(self, x: float, y: float, size: tuple[int, int]) -> float:
        """The scale of a ``size`` frame near floor point (x, y)."""
        pts = self.to_pixels(np.array([[x, y], [x + 1, y], [x, y + 1]]), size)
        jac = np.column_stack([pts[1] - pts[0], pts[2] - pts[0]])
        return math.sqrt(abs(float(np.linalg.det(jac))))

    def camera(self) -> tuple[float, float, float] | None:
        """Where the camera is: the floor point under it and its height, in
        mm; None when the view gives no estimate.

        Needed for anything above the floor, whose image the floor plane
        puts farther from the point under the camera (a leaning coin's
        middle, about a radius up). The homography is K [r1 r2 t]: K is the
        lens model's, else square pixels centred in the frame with the focal
        length of the configured field of view (``hfov_deg``), else the one
        that makes r1 and r2 orthogonal and equally long (Zhang's
        constraints, by least squares); then the camera is at -R^T t.

        The markers alone fix the focal length only through the view's
        perspective: a camera looking nearly straight down leaves it to
        the corners' noise. When the two constraints then disagree by more
        than :data:`F_DISAGREE` (a camera 2.1 m up was put 6.4 m up), or
        there is no perspective at all, the answer is None: configure
        ``hfov_deg``."""
        if self.lens is not None:
            k = self.lens._k(self.size)
        else:
            f = self.focal_px()
            if f is None:
                return None
            k = pinhole(self.size, f)
        m = np.linalg.solve(k, self.homography)
        scale = 2 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
        r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
        normal = np.cross(r1, r2)
        normal /= np.linalg.norm(normal)
        return -float(r1 @ t), -float(r2 @ t), abs(float(normal @ t))

    def focal_px(self) -> float | None:
        """The focal length in pixels of this calibration's frame, without a
        lens model: from ``hfov_deg`` when known, else estimated from the
        homography (None when it cannot be)."""
        w, h = self.size
        if self.hfov_deg is not None:
            return hfov_focal_px(w, self.hfov_deg)
        centred = translate(-(w - 1) / 2, -(h - 1) / 2) @ self.homography
        (a1, a2), (b1, b2), (c1, c2) = centred[:, :2] / np.linalg.norm(centred[:, 0])
        lhs = np.array([c1 * c2, c1 * c1 - c2 * c2])
        rhs = np.array([a1 * a2 + b1 * b2, a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2])
        if float(lhs @ lhs) == 0 or float(rhs @ rhs) == 0:
            return None
        f2 = -float(lhs @ rhs) / float(lhs @ lhs)
        unmet = float(np.linalg.norm(lhs * f2 + rhs) / np.linalg.norm(rhs))
        if unmet > F_DISAGREE or not 0.1 * w < math.sqrt(max(f2, 0.0)) < 20 * w:
            return None
        return math.sqrt(f2)

    def with_hfov(self, hfov_deg: float | None) -> Calibration:
        """This calibration with the config's field of view, which wins over
        the one saved with it; None keeps the saved one."""
        return self if hfov_deg is None else replace(self, hfov_deg=hfov_deg)

    def to_json(self) -> dict[str, Any]:
        """The calibration file's contents."""
        lay = self.layout
        doc: dict[str, Any] = {
            "version": 1,
            "homography": self.homography.tolist(),
            "size": list(self.size),
            "layout": {
                "side_mm": lay.side_mm,
                "line_mm": lay.line_mm,
                "marker_mm": lay.marker_mm,
                "marker_ids": list(lay.marker_ids),
            },
            "markers": list(self.markers),
            "rms_mm": self.rms_mm,
            "max_mm": self.max_mm,
        }
        if self.lens is not None:
            doc["lens"] = {
                "matrix": [list(r) for r in self.lens.matrix],
                "distortion": list(self.lens.distortion),
                "size": list(self.lens.size),
                "rms_px": self.lens.rms_px,
            }
        if self.hfov_deg is not None:
            doc["hfov_deg"] = self.hfov_deg
        return doc

    def save(self, path: Path) -> None:
        """Write the calibration file (JSON)."""
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """Read a calibration file; :class:`VisionError` names the file and the problem."""
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            lay = doc["layout"]
            layout = FloorLayout(
                float(lay["side_mm"]),
                float(lay["line_mm"]),
                float(lay["marker_mm"]),
                tuple(lay["marker_ids"]),
            )
            lens = None
            if "lens" in doc:
                d = doc["lens"]
                lens = Lens(
                    tuple(tuple(float(v) for v in r) for r in d["matrix"]),
                    tuple(float(v) for v in d["distortion"]),
                    (int(d["size"][0]), int(d["size"][1])),
                    float(d["rms_px"]),
                )
            h = np.array(doc["homography"], dtype=np.float64)
            if h.shape != (3, 3):
                raise ValueError("homography is not 3x3")
            hfov = doc.get("hfov_deg")
            if hfov is not None and (
                isinstance(hfov, bool) or not isinstance(hfov, int | float) or not 0 < hfov < 180
            ):
                raise ValueError(f"hfov_deg {hfov!r} is not a field of view in degrees")
            return cls(
                h,
                (int(doc["size"][0]), int(doc["size"][1])),
                layout,
                tuple(int(i) for i in doc["markers"]),
                float(doc["rms_mm"]),
                float(doc["max_mm"]),
                lens,
                None if hfov is None else float(hfov),
            )
        except FileNotFoundError:
            raise VisionError(
                f"{path}: no such calibration file (run tableref calibrate)"
            ) from None
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise VisionError(f"{path}: not a calibration file: {exc}") from None


def detect_markers(image: Image) -> dict[int, Points]:
    """Every 4x4 ArUco marker in ``image``: id -> its four corners (pixels)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, params)
    corners, ids, _ = detector.detectMarkers(_grey(image))
    if ids is None:
        return {}
    return {
        int(i): np.asarray(c, np.float64).reshape(4, 2)
        for i, c in zip(ids.ravel(), corners, strict=True)
    }


def calibrate(
    frame: Frame,
    layout: FloorLayout | None = None,
    lens: Lens | None = None,
    hfov_deg: float | None = None,
) -> Calibration:
    """The floor homography from the markers seen in ``frame``; ``hfov_deg``
    (the lens's field of view, when configured) is kept with it.

    Raises :class:`VisionError` naming the missing markers when fewer than
    three of the layout's markers are seen.
    """
    layout = layout or FloorLayout()
    found = detect_markers(frame.image)
    wanted = layout.marker_corners()
    ids = sorted(set(found) & set(wanted))
    if len(ids) < MIN_MARKERS:
        missing = ", ".join(str(i) for i in layout.marker_ids if i not in found)
        raise VisionError(
            f"saw {len(ids)} of the corner markers (missing: {missing}); "
            f"need at least {MIN_MARKERS}"
        )
    img = np.vstack([found[i] for i in ids])
    if lens is not None:
        img = lens.undistort(img, frame.size)
    floor = np.vstack([wanted[i] for i in ids])
    h, _ = cv2.findHomography(floor, img, 0)
    if h is None:
        raise VisionError("the marker corners do not give a homography (degenerate view)")
    back = apply(np.linalg.inv(h), img)
    err = np.linalg.norm(back - floor, axis=1)
    return Calibration(
        np.asarray(h, np.float64),
        frame.size,
        layout,
        tuple(ids),
        float(np.sqrt(np.mean(err**2))),
        float(err.max()),
        lens,
        hfov_deg,
    )


def charuco_board(
    squares: tuple[int, int] = (7, 5), square_mm: float = 40.0, marker_mm: float = 30.0
) -> Any:
    """The ChArUco board for lens calibration (print it with ``board.generateImage``)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.CharucoBoard(squares, square_mm, marker_mm, dictionary)


def lens_calibrate(frames: list[Frame], board: Any | None = None) -> Lens:
    """Intrinsics and distortion from several views of a ChArUco board."""
    board = board or charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    objects, images = [], []
    for frame in frames:
        corners, ids, _, _ = detector.detectBoard(_grey(frame.image))
        if ids is None or len(ids) < 6:
            continue
        obj, img = board.matchImagePoints(corners, ids)
        objects.append(obj)
        images.append(img)
    if len(objects) < 3:
        raise VisionError(
            f"the ChArUco board was found in {len(objects)} of {len(frames)} "
            "frames; need at least 3"
        )
    size = frames[0].size
    rms, k, dist, _, _ = cv2.calibrateCamera(objects, images, size, None, None)
    return Lens(
        tuple(tuple(float(v) for v in row) for row in k),
        tuple(float(v) for v in np.ravel(dist)),
        size,
        float(rms),
    )
