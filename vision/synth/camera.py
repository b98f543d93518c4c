"""A pinhole camera over the floor, for the synthetic renderer.

Floor millimetres with ``z`` up (the floor is ``z = 0``); the camera sits at
``position`` looking at ``target`` on the floor. Pixel centres are integers,
as in OpenCV.

>>> cam = PinholeCamera(width=1280, height=720, f_px=600.0,
...     position=(750.0, 750.0, 2000.0), target=(750.0, 750.0))
>>> [round(float(v), 6) for v in cam.project(np.array([[750.0, 750.0, 0.0]]))[0]]
[639.5, 359.5]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from vision.floor import Matrix, Points, apply


@dataclass(frozen=True, slots=True)
class PinholeCamera:
    """An ideal (distortion-free) camera."""

    width: int
    height: int
    f_px: float
    position: tuple[float, float, float]
    target: tuple[float, float]
    roll_deg: float = 0.0

    @property
    def k(self) -> Matrix:
        """The intrinsic matrix."""
        cx, cy = (self.width - 1) / 2, (self.height - 1) / 2
        return np.array([[self.f_px, 0.0, cx], [0.0, self.f_px, cy], [0.0, 0.0, 1.0]])

    @property
    def hfov_deg(self) -> float:
        """The horizontal field of view (what a table's config gives for its lens)."""
        return math.degrees(2 * math.atan(self.width / 2 / self.f_px))

    @property
    def rotation(self) -> Matrix:
        """World to camera rotation (rows: the camera's x, y, z axes in the world)."""
        c = np.array(self.position, dtype=np.float64)
        z = np.array([*self.target, 0.0]) - c
        z /= np.linalg.norm(z)
        roll = np.radians(self.roll_deg)
        ref = np.array([np.cos(roll), np.sin(roll), 0.0])
        x = ref - (ref @ z) * z
        x /= np.linalg.norm(x)
        # Floor (x, y) are an image's columns and rows seen from above, so
        # with z up the world is left-handed, and so is the camera frame.
        y = np.cross(x, z)
        return np.vstack([x, y, z])

    def project(self, points: Points) -> Points:
        """(n, 3) world points to (n, 2) pixels."""
        cam = (np.asarray(points, dtype=np.float64) - np.array(self.position)) @ self.rotation.T
        uv = cam @ self.k.T
        return np.asarray(uv[:, :2] / uv[:, 2:3], np.float64)

    def floor_homography(self) -> Matrix:
        """Floor (x, y) mm to pixels."""
        r = self.rotation
        t = -r @ np.array(self.position)
        return np.asarray(self.k @ np.column_stack([r[:, 0], r[:, 1], t]), np.float64)

    def plane_homography(self, origin: Points, u: Points, v: Points) -> Matrix:
        """Plane coordinates (s, t) of the plane ``origin + s*u + t*v`` to pixels."""
        r = self.rotation
        o = np.asarray(origin, dtype=np.float64) - np.array(self.position)
        return np.asarray(self.k @ r @ np.column_stack([u, v, o]), np.float64)

    def scaled(self, factor: float) -> PinholeCamera:
        """The same view at ``factor`` times the resolution (a still vs a preview)."""
        width, height = round(self.width * factor), round(self.height * factor)
        return replace(self, width=width, height=height, f_px=self.f_px * width / self.width)

    def fit_to(self, floor_points: Points, fill: float = 0.92) -> PinholeCamera:
        """The focal length that just fits ``floor_points`` into ``fill`` of the frame."""
        probe = replace(self, f_px=1000.0)
        uv = apply(probe.floor_homography(), floor_points) - probe.k[:2, 2]
        half = np.array([self.width, self.height]) / 2 * fill
        scale = float(np.min(half / np.max(np.abs(uv), axis=0)))
        return replace(self, f_px=1000.0 * scale)
