"""The synthetic renderer: a table rig (floor, camera, light) and a landed coin,
drawn with its ground truth.

A :class:`Rig` is one table set-up, used for many landings; a :class:`Landing`
is where and how one coin came to rest. :func:`render` draws the preview
(low resolution, the whole view) or a window of the full-resolution still.

>>> rig = Rig.make(seed=1)
>>> land = Landing.make(np.random.default_rng(2), rig.layout)
>>> frame = render(rig, CoinDesign.make(5), land, seed=3)
>>> frame.size
(1280, 720)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.floor import FloorLayout, Matrix, apply, local_scale, translate
from vision.model import Frame, Zone
from vision.synth.art import CoinDesign, FloorArt, FloorKind
from vision.synth.camera import PinholeCamera

PREVIEW = (1280, 720)
TEXTURE_PX = 256


@dataclass(frozen=True, slots=True)
class Shadow:
    """A soft shadow on the floor (a person, a table leg): an ellipse in mm."""

    x: float
    y: float
    ax: float
    ay: float
    angle_deg: float
    depth: float
    soft: float


@dataclass(frozen=True, slots=True)
class Light:
    """Uneven light over the floor and where it comes from (for the coin)."""

    gain: float = 1.0
    gx: float = 0.0
    gy: float = 0.0
    vignette: float = 0.0
    azimuth_deg: float = 45.0
    elevation_deg: float = 60.0
    shadows: tuple[Shadow, ...] = ()

    def field(self, x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
        """The light multiplier at floor points."""
        u, v = (x - 750) / 1500, (y - 750) / 1500
        out = self.gain * (1 + self.gx * u + self.gy * v) * (1 - self.vignette * (u * u + v * v))
        for s in self.shadows:
            a = math.radians(s.angle_deg)
            dx, dy = x - s.x, y - s.y
            p = (dx * math.cos(a) + dy * math.sin(a)) / s.ax
            q = (-dx * math.sin(a) + dy * math.cos(a)) / s.ay
            r = np.sqrt(p * p + q * q)
            inside = np.clip((1 + s.soft - r) / (2 * s.soft), 0, 1)
            out = out * (1 - s.depth * inside)
        return np.asarray(out)

    def direction(self) -> NDArray[np.float64]:
        """Unit vector from the floor towards the light."""
        az, el = math.radians(self.azimuth_deg), math.radians(self.elevation_deg)
        return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


@dataclass(frozen=True, slots=True)
class Rig:
    """One table: floor, camera (the preview's), light, optics and sensor noise."""

    layout: FloorLayout
    floor: FloorArt
    camera: PinholeCamera
    still_scale: float
    light: Light = field(default_factory=Light)
    blur_mm: float = 0.3
    noise: float = 2.0

    @classmethod
    def make(
        cls,
        seed: int,
        *,
        coin_px: float | None = None,
        kind: FloorKind | None = None,
        tilt: float = 350.0,
        noise: tuple[float, float] = (1.0, 6.0),
        layout: FloorLayout | None = None,
    ) -> Rig:
        """A random rig: camera 1.9-2.6 m up, off-centre by up to ``tilt`` mm;
        the still scaled so a 24 mm coin is ``coin_px`` across (random if None)."""
        rng = np.random.default_rng(seed)
        layout = layout or FloorLayout()
        mid = layout.side_mm / 2
        kinds = list(FloorKind)
        floor_kind = kind or kinds[int(rng.integers(len(kinds)))]
        floor = FloorArt.make(layout, floor_kind, int(rng.integers(1 << 30)))
        off = rng.uniform(-tilt, tilt, 2)
        camera = PinholeCamera(
            *PREVIEW,
            1000.0,
            (mid + off[0], mid + off[1], float(rng.uniform(1900, 2600))),
            (mid + float(rng.uniform(-120, 120)), mid + float(rng.uniform(-120, 120))),
            float(rng.uniform(-8, 8)),
        )
        m = layout.marker_mm + 40
        s = layout.side_mm
        corners = np.array([[-m, -m], [s + m, -m], [s + m, s + m], [-m, s + m]])
        camera = camera.fit_to(corners, float(rng.uniform(0.85, 0.97)))
        want = float(rng.uniform(36, 120)) if coin_px is None else coin_px
        preview_px = 24.0 * local_scale(camera.floor_homography(), mid, mid)
        return cls(
            layout,
            floor,
            camera,
            want / preview_px,
            _light(rng),
            float(rng.uniform(0.1, 0.6)),
            float(rng.uniform(*noise)),
        )

    def still_camera(self) -> PinholeCamera:
        """The camera at full resolution."""
        return self.camera.scaled(self.still_scale)

    def other_view(self, seed: int, baseline_mm: tuple[float, float] = (600.0, 1000.0)) -> Rig:
        """The same table (floor, light, optics) seen by a second camera: on
        the far side of the square's middle from this one, ``baseline_mm``
        apart from it (random within the range; a Pi 5 drives two camera
        modules), 1.9-2.6 m up, the whole square in view, its still scaled to
        the same pixels across a coin at the middle as this camera's.
        ``seed`` draws only this camera: the first camera's rigs and
        landings are those of a one-camera run.

        >>> rig = Rig.make(3)
        >>> two = rig.other_view(3)
        >>> (two.layout, two.floor, two.light) == (rig.layout, rig.floor, rig.light)
        True
        >>> 600 <= math.dist(two.camera.position[:2], rig.camera.position[:2]) <= 1000
        True
        """
        rng = np.random.default_rng([seed, 2])
        mid = self.layout.side_mm / 2
        x1, y1, _ = self.camera.position
        away = np.array([mid - x1, mid - y1])
        if float(np.hypot(*away)) < 50.0:
            turn = float(rng.uniform(0, 2 * math.pi))
            away = np.array([math.cos(turn), math.sin(turn)])
        away /= float(np.hypot(*away))
        x2, y2 = np.array([x1, y1]) + away * float(rng.uniform(*baseline_mm))
        camera = PinholeCamera(
            *PREVIEW,
            1000.0,
            (float(x2), float(y2), float(rng.uniform(1900, 2600))),
            (mid + float(rng.uniform(-120, 120)), mid + float(rng.uniform(-120, 120))),
            float(rng.uniform(-8, 8)),
        )
        m = self.layout.marker_mm + 40
        s = self.layout.side_mm
        corners = np.array([[-m, -m], [s + m, -m], [s + m, s + m], [-m, s + m]])
        camera = camera.fit_to(corners, float(rng.uniform(0.85, 0.97)))
        want = 24.0 * local_scale(self.still_camera().floor_homography(), mid, mid)
        preview_px = 24.0 * local_scale(camera.floor_homography(), mid, mid)
        return replace(self, camera=camera, still_scale=want / preview_px)


def _light(rng: np.random.Generator) -> Light:
    shadows = tuple(
        Shadow(
            *(
                float(v)
                for v in rng.uniform(
                    [-300, -300, 150, 60, 0, 0.15, 0.1], [1800, 1800, 600, 250, 180, 0.55, 0.6]
                )
            )
        )
        for _ in range(int(rng.integers(0, 3)))
    )
    return Light(
        gain=float(rng.uniform(0.7, 1.25)),
        gx=float(rng.uniform(-0.35, 0.35)),
        gy=float(rng.uniform(-0.35, 0.35)),
        vignette=float(rng.uniform(0, 0.4)),
        azimuth_deg=float(rng.uniform(0, 360)),
        elevation_deg=float(rng.uniform(35, 85)),
        shadows=shadows,
    )


@dataclass(frozen=True, slots=True)
class Landing:
    """Ground truth of one landed coin: ``(x_mm, y_mm)`` is its centre's floor
    point, ``tilt_deg`` 0 flat, up to 90 on edge; ``face`` the upper face."""

    x_mm: float
    y_mm: float
    face: str
    rotation_deg: float = 0.0
    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0
    diameter_mm: float = 24.0
    thickness_mm: float = 2.0

    @classmethod
    def make(
        cls,
        rng: np.random.Generator,
        layout: FloorLayout,
        *,
        cleet: float = 0.2,
        near_line: float = 0.3,
        diameter_mm: float = 24.0,
    ) -> Landing:
        """A random landing: a cleet with probability ``cleet`` (tilted 30-90
        degrees), near a line (within 40 mm of an edge) with ``near_line``,
        else anywhere from 150 mm outside the square to its middle."""
        s = layout.side_mm
        if rng.random() < near_line:
            along, across = float(rng.uniform(0, s)), float(rng.uniform(-40, 90))
            side = int(rng.integers(4))
            x, y = ((along, across), (s - across, along), (along, s - across), (across, along))[
                side
            ]
        else:
            x, y = (float(v) for v in rng.uniform(-150, s + 150, 2))
        tilted = rng.random() < cleet
        return cls(
            x_mm=x,
            y_mm=y,
            face="heads" if rng.random() < 0.5 else "tails",
            rotation_deg=float(rng.uniform(0, 360)),
            tilt_deg=float(rng.uniform(30, 90)) if tilted else float(rng.uniform(0, 3)),
            tilt_dir_deg=float(rng.uniform(0, 360)),
            diameter_mm=diameter_mm,
        )

    @property
    def cleet(self) -> bool:
        """On edge or leaning (the renderer's cleets are tilted 30 degrees or more)."""
        return self.tilt_deg >= 15

    def zone(self, layout: FloorLayout) -> tuple[Zone, float]:
        """The true zone and clearance."""
        return layout.zone(self.x_mm, self.y_mm, self.diameter_mm / 2)

    def truth(self, layout: FloorLayout) -> str:
        """What the table should decide: outside, edge, heads or tails."""
        if self.zone(layout)[0] is Zone.OUTSIDE:
            return "outside"
        return "edge" if self.cleet else self.face

    def axes(self) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """The coin's in-plane axes u, v and its normal, in the world."""
        r, t, d = (math.radians(a) for a in (self.rotation_deg, self.tilt_deg, self.tilt_dir_deg))
        u0, v0, n0 = (
            np.array([math.cos(r), math.sin(r), 0.0]),
            np.array([-math.sin(r), math.cos(r), 0.0]),
            np.array([0.0, 0.0, 1.0]),
        )
        k = np.array([math.cos(d), math.sin(d), 0.0])

        def turn(v: NDArray[np.float64]) -> NDArray[np.float64]:
            return np.asarray(
                v * math.cos(t) + np.cross(k, v) * math.sin(t) + k * (k @ v) * (1 - math.cos(t))
            )

        return turn(u0), turn(v0), turn(n0)

    def middle(self) -> NDArray[np.float64]:
        """The 3-D centre of the coin (resting on its lowest rim point)."""
        r, t = self.diameter_mm / 2, math.radians(self.tilt_deg)
        z = r * math.sin(t) + self.thickness_mm / 2 * math.cos(t)
        return np.array([self.x_mm, self.y_mm, z])


@functools.lru_cache(maxsize=64)
def _face(design: CoinDesign, face: str, light_deg: float) -> NDArray[np.uint8]:
    return design.face_image(face, TEXTURE_PX, light_deg)


def _rims(landing: Landing, n: int = 72) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    u, v, normal = landing.axes()
    mid, r = landing.middle(), landing.diameter_mm / 2
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)[:, None]
    circle = r * (np.cos(a) * u + np.sin(a) * v)
    half = normal * landing.thickness_mm / 2
    return mid + half + circle, mid - half + circle


def _coin(
    img: NDArray[np.float32],
    cam: PinholeCamera,
    shift: Matrix,
    rig: Rig,
    design: CoinDesign,
    landing: Landing,
) -> None:
    """Draw the coin's shadow, rim and upper face into ``img`` (float BGR)."""
    top, bottom = _rims(landing)
    light = rig.light.direction()
    both = np.vstack([top, bottom])
    on_floor = both - both[:, 2:3] / light[2] * light
    px_mm = local_scale(cam.floor_homography(), landing.x_mm, landing.y_mm)
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    hull = cv2.convexHull(apply(shift, cam.project(on_floor)).astype(np.float32))
    cv2.fillPoly(mask, [np.round(hull * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(0.5, 1.2 * px_mm)), np.float32)
    img *= (1 - 0.3 * soft)[..., None]
    lit = float(rig.light.field(np.array([landing.x_mm]), np.array([landing.y_mm]))[0])
    rim = cv2.convexHull(apply(shift, cam.project(both)).astype(np.float32))
    colour = tuple(float(c) * 0.55 * lit for c in design.metal)
    cv2.fillPoly(img, [np.round(rim * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)
    u, v, normal = landing.axes()
    view = np.array(cam.position) - landing.middle()
    if abs(normal @ view) / np.linalg.norm(view) < 0.06:
        return  # seen edge-on: only the rim shows
    k = landing.diameter_mm / TEXTURE_PX
    c = (TEXTURE_PX - 1) / 2
    centre = landing.middle() + normal * landing.thickness_mm / 2
    hom = shift @ cam.plane_homography(centre - c * k * (u + v), k * u, k * v)
    x0, y0, bw, bh = cv2.boundingRect(np.round(rim).astype(np.int32))
    x0, y0 = max(x0 - 2, 0), max(y0 - 2, 0)
    bw, bh = min(bw + 4, w - x0), min(bh + 4, h - y0)
    if bw <= 0 or bh <= 0:
        return
    light_deg = (rig.light.azimuth_deg - landing.rotation_deg) % 360
    tex = _face(design, landing.face, round(light_deg / 5) * 5.0)
    patch = cv2.warpPerspective(tex, translate(-x0, -y0) @ hom, (bw, bh), flags=cv2.INTER_LINEAR)
    alpha = patch[..., 3:4].astype(np.float32) / 255
    region = img[y0 : y0 + bh, x0 : x0 + bw]
    region[:] = region * (1 - alpha) + patch[..., :3].astype(np.float32) * lit * alpha


def render(
    rig: Rig,
    design: CoinDesign | None,
    landing: Landing | None,
    *,
    seed: int,
    still: bool = False,
    window: tuple[int, int, int, int] | None = None,
) -> Frame:
    """Draw the preview (``still=False``) or the full-resolution still, or the
    ``window`` (x, y, w, h) of it; no coin when ``landing`` is None."""
    cam = rig.still_camera() if still else rig.camera
    x0, y0, w, h = window or (0, 0, cam.width, cam.height)
    shift = translate(-x0, -y0)
    to_img = shift @ cam.floor_homography()
    mid = rig.layout.side_mm / 2
    ppm = local_scale(cam.floor_homography(), mid, mid)
    art = rig.floor.image if ppm > 0.7 else rig.floor.half
    to_mm = rig.floor.to_mm() if ppm > 0.7 else rig.floor.to_mm() @ np.diag([2.0, 2.0, 1.0])
    base = cv2.warpPerspective(
        art, to_img @ to_mm, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    img = base.astype(np.float32) * _light_image(rig.light, to_img, w, h)[..., None]
    if design is not None and landing is not None:
        _coin(img, cam, shift, rig, design, landing)
    sigma = rig.blur_mm * ppm
    if sigma > 0.3:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32)
    rng = np.random.default_rng(seed)
    img += rng.standard_normal(img.shape, dtype=np.float32) * rig.noise
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    return Frame(out, origin=(x0, y0), sensor=(cam.width, cam.height) if window else None)


def _light_image(light: Light, to_img: Matrix, w: int, h: int) -> NDArray[np.float32]:
    step = 16
    gx, gy = np.meshgrid(np.arange(0, w + step, step), np.arange(0, h + step, step))
    pts = apply(np.linalg.inv(to_img), np.column_stack([gx.ravel(), gy.ravel()]))
    coarse = light.field(pts[:, 0], pts[:, 1]).reshape(gx.shape).astype(np.float32)
    big = cv2.resize(
        coarse, (gx.shape[1] * step, gx.shape[0] * step), interpolation=cv2.INTER_LINEAR
    )
    return np.asarray(big[:h, :w], dtype=np.float32)


def still_window(rig: Rig, landing: Landing, rng: np.random.Generator) -> tuple[int, int, int, int]:
    """A window of the still around the coin, off-centre by a random amount,
    as a camera with a region-of-interest readout would give (the full still
    of a synthetic high-resolution camera would be needlessly large)."""
    cam = rig.still_camera()
    u, v = apply(cam.floor_homography(), np.array([[landing.x_mm, landing.y_mm]]))[0]
    px = landing.diameter_mm * local_scale(cam.floor_homography(), landing.x_mm, landing.y_mm)
    size = int(max(256, 7 * px))
    u += float(rng.uniform(-1, 1)) * size / 5
    v += float(rng.uniform(-1, 1)) * size / 5
    x0 = int(np.clip(u - size / 2, 0, max(cam.width - size, 0)))
    y0 = int(np.clip(v - size / 2, 0, max(cam.height - size, 0)))
    return x0, y0, min(size, cam.width - x0), min(size, cam.height - y0)


def with_light(rig: Rig, **changes: float) -> Rig:
    """The rig under other light (registration under one light, play under another)."""
    return replace(rig, light=replace(rig.light, **changes))  # type: ignore[arg-type]
