"""Which side of a coin that looks flat its rim band is on, read just inside
its silhouette: a cue for a coin tilted towards the camera.

Seen from a camera ``theta`` off vertical, a flat coin's edge (the metal
between its two faces, darker than the face: it faces sideways) shows as a
band ``2 tan theta`` mm wide on the side towards the camera's floor point;
a coin tilted towards the camera by about ``2 theta`` looks as round on the
floor plane, its face reads, and its band shows on the far side, as wide.
The silhouette against the empty still holds the band; so just inside the
silhouette's outline (0.25-0.5 mm in) the coin is darker on the band's side.
:func:`rim_harmonics` gives the first harmonic of that ring's brightness (over the
face's) along the direction to the camera's floor point: negative for a
flat coin, positive when the band is on the far side. The face's raised
border, shaded by the light, adds a harmonic along the light's direction,
so the measure alone is not a cleet (see ``Settings.ring_band``).

>>> crop = np.full((200, 200, 3), 60, np.uint8)
>>> _ = cv2.circle(crop, (100, 100), 48, (200, 200, 200), -1)
>>> shape = Ellipse(100.0, 100.0, 98.0, 98.0, 0.0)
>>> [abs(v) < 1e-6 for v in rim_harmonics(crop, shape, 0.0, 4.0)]  # no band: no side
[True, True]
>>> _ = cv2.ellipse(crop, (100, 100), (49, 49), 0, 90, 270, (110, 110, 110), 3)
>>> along, across = rim_harmonics(crop, shape, 0.0, 4.0)  # the band on the far side (x < 100)
>>> along > 0.1, abs(across) < 0.01
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.coinface import Ellipse
from vision.halves import Halves
from vision.model import Image, Posture
from vision.posture import Posed, Settings, band_offset, dented, floor_point

RAYS = 72
RING_MM = (-0.5, -0.25)
"""The ring read, mm from the silhouette's outline (negative: inside)."""
FACE_MM = (-4.0, -2.5)
"""The face's brightness: the median of this ring."""
STEP_MM = 0.25


def rim_harmonics(crop: Image, shape: Ellipse, toward: float, ppm: float) -> tuple[float, float]:
    """How much darker the coin is just inside its silhouette ``shape``
    (crop pixels) on the side away from ``toward`` (radians, crop axes: the
    direction to the camera's floor point) than on the side towards it, and
    across that direction: the first harmonic (twice the mean over ``RAYS``
    rays of the grey, over the face's median, times the cosine, and the
    sine, from ``toward``), averaged over ``RING_MM``. ``ppm``: crop pixels
    a millimetre."""
    angles = np.linspace(0, 2 * math.pi, RAYS, endpoint=False)
    phi = angles - math.radians(shape.angle_deg)
    a, c = shape.major / 2, shape.minor / 2
    edge = a * c / np.hypot(c * np.cos(phi), a * np.sin(phi))
    radii = np.concatenate(
        [
            np.arange(FACE_MM[0], FACE_MM[1] + 1e-6, STEP_MM),
            np.arange(RING_MM[0], RING_MM[1] + 1e-6, STEP_MM),
        ]
    )
    r = edge[:, None] + radii[None, :] * ppm
    xs = (shape.x + np.cos(angles)[:, None] * r).astype(np.float32)
    ys = (shape.y + np.sin(angles)[:, None] * r).astype(np.float32)
    bgr = cv2.remap(crop, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    grey = np.asarray(bgr, np.float32).mean(axis=2)
    face = grey[:, radii <= FACE_MM[1] + 1e-6]
    ring = grey[:, radii >= RING_MM[0] - 1e-6].mean(axis=1)
    level = max(float(np.median(face)), 1.0)
    along = 2 * float((ring * np.cos(angles - toward)).mean()) / level
    across = 2 * float((ring * np.sin(angles - toward)).mean()) / level
    return along, across


def by_band(
    posed: Posed,
    halves: Halves,
    reach: float,
    camera: tuple[float, float, float] | None,
    settings: Settings,
    edge: Ellipse | None = None,
) -> Posed:
    """A coin that looks flat (``posed``, in the crop of ``halves``), its
    shadow reaching ``reach`` beyond a flat coin's: leaning (by a shorter
    shadow, flat or leaning?) when its rim band is on the far side from the
    ``camera`` (floor point and height, mm): its outline's centre beyond
    its silhouette's (``Settings.band_shadow``); by a short shadow, when the
    ``edge`` fit's centre is beyond the silhouette's and the ring inside the
    silhouette says so too (``Settings.ring_band``). Not read against a
    dented silhouette (:func:`~vision.posture.dented`)."""
    s = settings
    if camera is None:
        return posed
    ppm = s.crop_px / s.coin_diameter_mm
    x, y = floor_point(posed.outline, halves.x, halves.y, halves.half, s)
    short = reach <= s.band_doubt
    if short and math.hypot(x - camera[0], y - camera[1]) < s.ring_view * camera[2]:
        return posed  # (near the camera's floor point the band is too narrow to read)
    segmented = halves.segmented
    if segmented is None or dented(segmented.fit, s):
        return posed
    toward = math.atan2(camera[1] - y, camera[0] - x)
    off = band_offset(posed.outline, segmented.fit, toward, ppm)
    if not short and off > s.band_offset_mm:
        said = f"round, shadow {reach:.2f} and rim band {off:.2f} mm on the far side"
        if reach <= s.band_shadow:
            return replace(posed, posture=Posture.INDETERMINATE, doubt=said)
        return replace(posed, posture=Posture.LEANING, note=f"{said}: leaning")
    return _by_ring(posed, halves, reach, toward, s, edge or posed.outline)


def _by_ring(
    posed: Posed, halves: Halves, reach: float, toward: float, s: Settings, edge: Ellipse
) -> Posed:
    """:func:`by_band` by the ring (``Settings.ring_band``): for a short
    shadow, or a longer one whose outline's offset did not rule (beyond
    ``band_shadow`` an offset beyond ``ring_offset_far_mm`` is enough),
    ``toward`` the direction to the camera's floor point."""
    segmented = halves.segmented
    if reach <= s.ring_shadow or segmented is None:
        return posed
    ppm = s.crop_px / s.coin_diameter_mm
    off = band_offset(edge, segmented.fit, toward, ppm)
    if off <= (s.band_offset_mm if reach <= s.band_shadow else s.ring_offset_far_mm):
        return posed
    along, across = rim_harmonics(halves.full, segmented.fit, toward, ppm)
    if along <= s.ring_band or along <= s.ring_across * abs(across):
        return posed
    said = f"round, shadow {reach:.2f}, rim band {off:.2f} mm and {along:.2f} on the far side"
    return replace(posed, posture=Posture.LEANING, note=f"{said}: leaning")
