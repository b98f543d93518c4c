"""The synthetic mat renderer: a camera over a felt mat with its markers, the
pot, and the winks of a :class:`~vision.mat.synth.scene.MatScene`, drawn with
perspective, parallax (a wink's top face is 1.5 mm up per level, the pot's
rim 38 mm), uneven light, soft shadows, blur and sensor noise.

Everything is generated from seeds on the fly; nothing is stored.

>>> import numpy as np
>>> from vision.mat.synth.scene import random_scene
>>> rig = MatRig.make(seed=1)
>>> frame = render(rig, random_scene(np.random.default_rng(1)), seed=2)
>>> frame.size
(1280, 720)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.geometry import COLOURS, MatSpec, wink_colour
from vision.floor import Matrix, apply
from vision.mat.camera import zoom
from vision.mat.layout import POT_FLOOR_MM, POT_HEIGHT_MM, POT_WALL_MM, WINK_THICKNESS_MM, MatLayout
from vision.mat.synth.scene import MatScene, TrueWink
from vision.model import Frame
from vision.synth.camera import PinholeCamera

SIZE = (1280, 720)
STILL_SCALE = 3.6
"""A still's pixels per video pixel (4608x2592 against 1280x720)."""
STILL_BLUR = (0.6, 0.5)
"""A still's blur, px: this plus this times the video's blur in still
pixels (half the video's blur on the mat, which owes much to scaling the
sensor down, plus the lens's own at full resolution)."""
ART_PX_PER_MM = 1.0
Float = NDArray[np.float32]

WINK_BGR = {"blue": (190, 80, 25), "green": (55, 150, 35), "red": (35, 30, 190),
            "yellow": (30, 200, 225)}  # fmt: skip
EDGE_BGR = (38.0, 38.0, 40.0)
POT_BGR = (52.0, 50.0, 55.0)


@dataclass(frozen=True, slots=True)
class MatRig:
    """One table: the mat and markers, the camera, light, optics and noise."""

    layout: MatLayout
    camera: PinholeCamera
    hfov_deg: float
    felt: tuple[float, float, float]
    light: tuple[float, float, float, float]
    """Gain, gradient along x, gradient along y, vignetting."""
    light_dir: tuple[float, float]
    """Where the shadows fall, mm per mm of height (x, y)."""
    blur_px: float
    noise: float
    crop: tuple[float, int, int, int, int] | None = None
    """For a still: (scale, x0, y0, width, height), the part of the sensor
    read at ``scale`` times the video's resolution (see :meth:`still`)."""

    @property
    def size(self) -> tuple[int, int]:
        """The frame's (width, height)."""
        if self.crop is not None:
            return (self.crop[3], self.crop[4])
        return (self.camera.width, self.camera.height)

    def still(self, region: tuple[int, int, int, int], scale: float = STILL_SCALE) -> MatRig:
        """The same camera taking a full-resolution still (``scale`` times the
        video's pixels: the Pi Camera Module 3's 4608x2592 against 1280x720),
        of which only ``region`` (x0, y0, width, height, in the still's
        pixels) is read.

        The still's pixels see less of the lens's and the video scaler's blur
        than the video's (:data:`STILL_BLUR`) and more sensor noise (no
        binning: twice the video's)."""
        return replace(self, crop=(scale, *region), noise=2.0 * self.noise,
                       blur_px=STILL_BLUR[0] + STILL_BLUR[1] * scale * self.blur_px)  # fmt: skip

    @classmethod
    def make(cls, seed: int, *, layout: MatLayout | None = None, hfov: tuple[float, float]
             = (62.0, 70.0), noise: tuple[float, float] = (1.0, 5.0)) -> MatRig:  # fmt: skip
        """A random rig: the camera over the middle, off by up to 150 mm, tilted
        a little, high enough for its field of view to take in every marker."""
        rng = np.random.default_rng(seed)
        layout = layout or MatLayout()
        hfov_deg = float(rng.uniform(*hfov))
        off = rng.uniform([-150, -100], [150, 100])
        aim = rng.uniform([-80, -60], [80, 60])
        f = SIZE[0] / 2 / math.tan(math.radians(hfov_deg) / 2)
        cam = PinholeCamera(*SIZE, f, (float(off[0]), float(-off[1]), 1500.0),
                            (float(aim[0]), float(-aim[1])), float(rng.uniform(-3, 3)))  # fmt: skip
        cam = _fit_height(cam, layout, float(rng.uniform(0.88, 0.96)))
        tone = float(rng.uniform(150, 200))
        tint = rng.uniform(-8, 8, 3)
        felt = (tone + tint[0], tone + 4 + tint[1], tone + 8 + tint[2])
        light = (float(rng.uniform(0.75, 1.2)), *(float(v) for v in rng.uniform(-0.3, 0.3, 2)),
                 float(rng.uniform(0, 0.35)))  # fmt: skip
        a = rng.uniform(0, 2 * math.pi)
        reach = float(rng.uniform(0.2, 0.8))
        return cls(layout, cam, hfov_deg, felt, light,  # type: ignore[arg-type]
                   (reach * math.cos(a), reach * math.sin(a)), float(rng.uniform(0.3, 0.9)),
                   float(rng.uniform(*noise)))  # fmt: skip

    @property
    def eye(self) -> tuple[float, float, float]:
        """The camera's centre in mat mm (x, y, height above the mat)."""
        x, y, z = self.camera.position
        return (float(x), -float(y), float(z))

    def projection(self) -> Matrix:
        """Mat (x, y, z) mm to pixels: the camera's projection, with the mat's
        y (upwards in the image) as the camera's floor -y."""
        cam = self.camera
        r = cam.rotation
        p = cam.k @ np.column_stack([r, -r @ np.array(cam.position)])
        p = np.asarray(p @ np.diag([1.0, -1.0, 1.0, 1.0]), np.float64)
        if self.crop is not None:
            p = np.asarray(zoom(*self.crop[:3]) @ p, np.float64)
        return p


def _fit_height(cam: PinholeCamera, layout: MatLayout, fill: float) -> PinholeCamera:
    x0, y0, x1, y1 = layout.extent()
    corners = np.array([[x0, -y0, 0], [x1, -y0, 0], [x1, -y1, 0], [x0, -y1, 0]], float)
    for _ in range(4):
        uv = cam.project(corners) - cam.k[:2, 2]
        half = np.array([cam.width, cam.height]) / 2 * fill
        ratio = float(np.max(np.abs(uv) / half))
        x, y, z = cam.position
        cam = PinholeCamera(cam.width, cam.height, cam.f_px, (x, y, z * ratio), cam.target,
                            cam.roll_deg)  # fmt: skip
    return cam


def project(p: Matrix, xy: NDArray[np.float64], z: float) -> NDArray[np.float64]:
    """Mat points at height ``z`` to pixels."""
    h = np.column_stack([p[:, 0], p[:, 1], p[:, 2] * z + p[:, 3]])
    return apply(h, xy)


def _circle(x: float, y: float, r: float, n: int = 96) -> NDArray[np.float64]:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([x + r * np.cos(a), y + r * np.sin(a)])


SUPER = 8
"""Supersampling of drawn shapes: OpenCV's anti-aliased fill spreads a shape
by about half a pixel, which would move edges by nearly a millimetre."""


def _fill(img: Float, pts: NDArray[np.float64], colour: tuple[float, ...]) -> None:
    """Fill the polygon with exact area coverage at its edges."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    fine = np.zeros(((y1 - y0) * SUPER, (x1 - x0) * SUPER), np.uint8)
    sub = ((pts - [x0, y0] + 0.5) * SUPER - 0.5) * 16
    cv2.fillPoly(fine, [np.round(sub).astype(np.int32)], 255, cv2.LINE_8, 4)
    alpha = cv2.resize(fine, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    a = (alpha.astype(np.float32) / 255)[..., None]
    region = img[y0:y1, x0:x1]
    paint = np.array(colour, np.float32)[: img.shape[2] if img.ndim == 3 else 1]
    if img.ndim == 2:
        region[:] = region * (1 - a[..., 0]) + paint[0] * a[..., 0]
    else:
        region[:] = region * (1 - a) + paint * a


def _hull(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(cv2.convexHull(np.vstack([a, b]).astype(np.float32)), np.float64).reshape(
        -1, 2
    )


@functools.lru_cache(maxsize=4)
def _art(layout: MatLayout, felt: tuple[float, float, float], seed: int) -> NDArray[np.uint8]:
    """The table, the mat with its baselines, and the markers, seen from above
    at :data:`ART_PX_PER_MM` (row 0 at the top: +y)."""
    x0, y0, x1, y1 = layout.extent()
    w, h = int((x1 - x0) * ART_PX_PER_MM), int((y1 - y0) * ART_PX_PER_MM)
    rng = np.random.default_rng(seed)
    img = np.full((h, w, 3), 78.0, np.float32)  # a grey table
    grain = cv2.resize(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (w, h))
    spec = layout.spec
    to_px = _art_matrix(layout)
    mat = apply(to_px, np.array([[-spec.length_mm / 2, spec.width_mm / 2],
                                 [spec.length_mm / 2, -spec.width_mm / 2]]))  # fmt: skip
    (ax, ay), (bx, by) = np.round(mat).astype(int)
    img[ay:by, ax:bx] = felt
    img += (grain * 3)[..., None]
    _baselines(img, layout, to_px)
    return np.clip(img, 0, 255).astype(np.uint8)


def _art_matrix(layout: MatLayout) -> Matrix:
    x0, _, _, y1 = layout.extent()
    s = ART_PX_PER_MM
    return np.array([[s, 0.0, -x0 * s - 0.5], [0.0, -s, y1 * s - 0.5], [0.0, 0.0, 1.0]])


def _baselines(img: Float, layout: MatLayout, to_px: Matrix) -> None:
    spec = layout.spec
    for colour in COLOURS:
        cx, cy = spec.corner(colour)
        n = np.array([cx, cy]) / math.hypot(cx, cy)
        foot = n * spec.baseline_mm
        along = np.array([-n[1], n[0]])
        ends = np.array([foot - along * 400, foot + along * 400])
        a, b = apply(to_px, ends)
        cv2.line(img, (int(a[0] * 16), int(a[1] * 16)), (int(b[0] * 16), int(b[1] * 16)),
                 (225, 225, 225), max(1, round(3 * ART_PX_PER_MM)), cv2.LINE_AA, 4)  # fmt: skip
    hx, hy = spec.length_mm / 2, spec.width_mm / 2
    x0, y0, x1, y1 = layout.extent()
    outside = [(x0, y0, -hx, y1), (hx, y0, x1, y1), (-hx, y0, hx, -hy), (-hx, hy, hx, y1)]
    for ax, ay, bx, by in outside:  # the lines' ends beyond the mat
        (px, py), (qx, qy) = np.round(apply(to_px, np.array([[ax, by], [bx, ay]]))).astype(int)
        img[py:qy, px:qx] = 78.0


def _light(rig: MatRig, xy: NDArray[np.float64]) -> NDArray[np.float64]:
    gain, gx, gy, vig = rig.light
    u, v = xy[..., 0] / 1000, xy[..., 1] / 1000
    return np.asarray(gain * (1 + gx * u + gy * v) * (1 - vig * (u * u + v * v)))


def _background(rig: MatRig, seed: int) -> Float:
    p = rig.projection()
    w, h = rig.size
    to_img = np.column_stack([p[:, 0], p[:, 1], p[:, 3]])
    art = _art(rig.layout, rig.felt, seed)
    m = to_img @ np.linalg.inv(_art_matrix(rig.layout))
    img = cv2.warpPerspective(art, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    gy, gx = np.mgrid[0:h:8, 0:w:8]
    back = np.asarray(np.linalg.inv(to_img), np.float64)
    xy = apply(back, np.column_stack([gx.ravel(), gy.ravel()]).astype(np.float64))
    coarse = _light(rig, xy).reshape(gx.shape).astype(np.float32)
    field = np.asarray(cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    out = np.asarray(img.astype(np.float32), np.float32)
    _markers(out, rig.layout, to_img)
    return np.asarray(out * field[..., None], np.float32)


@functools.lru_cache(maxsize=16)
def _marker_image(marker_id: int, cell_px: int) -> NDArray[np.float32]:
    """The marker with a one-cell white border, ``cell_px`` per cell."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    mark = cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * cell_px, borderBits=1)
    out = np.full((8 * cell_px, 8 * cell_px), 255, np.uint8)
    out[cell_px:-cell_px, cell_px:-cell_px] = mark
    return np.asarray(out.astype(np.float32) * 0.85 + 20, np.float32)


def _markers(img: Float, layout: MatLayout, to_img: Matrix) -> None:
    """Each marker warped exactly into place (printed on white card)."""
    m = layout.marker_mm
    # about one marker pixel per frame pixel: bilinear sampling then puts the
    # black square's edges where they belong (a finer image would alias)
    scale = math.sqrt(abs(np.linalg.det(to_img[:2, :2] / to_img[2, 2])))
    cell = max(2, round(scale * m / 6))
    mm_per_px = m / (6 * cell)
    h, w = img.shape[:2]
    for mid, (ox, oy) in layout.marker_origins().items():
        src = _marker_image(mid, cell)
        # marker image pixel centre (u, v) -> mat mm (the image's (0, 0) at its corner)
        to_mm = np.array([[mm_per_px, 0, ox - m / 6 + mm_per_px / 2],
                          [0, -mm_per_px, oy + m / 6 - mm_per_px / 2], [0, 0, 1]])  # fmt: skip
        hom = to_img @ to_mm
        outline = apply(hom, np.array([[0, 0], [8 * cell, 0], [8 * cell, 8 * cell], [0, 8 * cell]]))
        x0, y0 = np.floor(outline.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ hom
        patch = cv2.warpPerspective(src, shift, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
        alpha = cv2.warpPerspective(np.ones_like(src), shift, (x1 - x0, y1 - y0))
        region = img[y0:y1, x0:x1]
        region[:] = region * (1 - alpha[..., None]) + patch[..., None] * alpha[..., None]


def _top(w: TrueWink) -> float:
    """Height of a wink's top face on the mat."""
    return WINK_THICKNESS_MM * (w.level + 1)


def _wink(img: Float, p: Matrix, w: TrueWink, z: float, lit: float) -> None:
    """The wink's dark edge (its side wall, and the shadow line round it),
    then its face."""
    top = project(p, _circle(w.x, w.y, w.radius), z)
    base = project(p, _circle(w.x, w.y, w.radius + 0.5), z - WINK_THICKNESS_MM)
    _fill(img, _hull(top, base), tuple(c * lit for c in EDGE_BGR))
    ring = project(p, _circle(w.x, w.y, w.radius + 0.5), z - 0.2)
    _fill(img, ring, tuple(c * lit for c in EDGE_BGR))
    face = WINK_BGR[wink_colour(w.id).value]
    _fill(img, top, tuple(c * lit for c in face))


def _shadows(img: Float, rig: MatRig, p: Matrix, winks: list[TrueWink], z0: float) -> None:
    if not winks:
        return
    mask = np.zeros(img.shape[:2], np.float32)
    dx, dy = rig.light_dir
    for w in winks:
        rise = _top(w) - z0
        _fill(mask, project(p, _circle(w.x + dx * rise, w.y + dy * rise, w.radius + 0.3), z0),
              (1.0,))  # fmt: skip
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.0), np.float32)
    img *= (1 - 0.3 * soft)[..., None]


def _field(img: Float, rig: MatRig, scene: MatScene) -> None:
    p = rig.projection()
    winks = scene.field()
    for level in sorted({w.level for w in winks}):
        layer = [w for w in winks if w.level == level]
        _shadows(img, rig, p, layer, WINK_THICKNESS_MM * level)
        for w in layer:
            lit = float(_light(rig, np.array([w.x, w.y]))) * 1.05
            _wink(img, p, w, _top(w), lit)


def _pot(img: Float, rig: MatRig, scene: MatScene) -> None:
    spec: MatSpec = scene.spec
    p = rig.projection()
    px, py = spec.pot_x_mm, spec.pot_y_mm
    lit = float(_light(rig, np.array([px, py])))
    rim_r, base_r = spec.pot_rim_mm / 2, spec.pot_base_mm / 2
    rim = project(p, _circle(px, py, rim_r), POT_HEIGHT_MM)
    _fill(
        img, _hull(project(p, _circle(px, py, base_r), 0.0), rim), tuple(c * lit for c in POT_BGR)
    )
    _fill(img, rim, tuple(c * lit * 1.5 for c in POT_BGR))
    opening = project(p, _circle(px, py, rim_r - POT_WALL_MM), POT_HEIGHT_MM)
    x0, y0, bw, bh = cv2.boundingRect(np.round(opening).astype(np.int32))
    x0, y0 = max(x0 - 2, 0), max(y0 - 2, 0)
    inside = np.zeros_like(img)
    _fill(inside, opening, tuple(c * lit * 0.55 for c in POT_BGR))
    for w in scene.potted():
        _wink(inside, p, w, POT_FLOOR_MM + _top(w), lit * 0.75)
    mask = np.zeros(img.shape[:2], np.float32)
    _fill(mask, opening, (1.0,))
    roi = (slice(y0, y0 + bh + 4), slice(x0, x0 + bw + 4))
    m = mask[roi][..., None]
    img[roi] = img[roi] * (1 - m) + inside[roi] * m


def render(rig: MatRig, scene: MatScene, *, seed: int) -> Frame:
    """The frame the rig's camera takes of ``scene`` (noise from ``seed``)."""
    img = _background(rig, 7)
    _field(img, rig, scene)
    _pot(img, rig, scene)
    out = np.asarray(cv2.GaussianBlur(img, (0, 0), rig.blur_px), np.float32)
    scale, x0, y0 = rig.crop[:3] if rig.crop is not None else (1.0, 0, 0)
    out += sensor_noise(seed, scale, (x0, y0, *rig.size)) * np.float32(rig.noise)
    return Frame(np.clip(out + 0.5, 0, 255).astype(np.uint8))


NOISE_TILE = 64
"""Sensor noise is drawn in tiles of this many pixels square, each from its
own generator keyed by the frame's seed, the sensor's scale and the tile's
place (:func:`sensor_noise`)."""
_TILE_OFFSET = 1 << 20  # seeds must be non-negative; crops may start left of the sensor


def sensor_noise(seed: int, scale: float, box: tuple[int, int, int, int]) -> Float:
    """Unit normal noise, three channels, for the pixels ``box`` (x0, y0,
    width, height) of the sensor read at ``scale``: a function of each
    pixel's place and ``seed`` only, so two crops of one still share the
    noise of the pixels they share. (Drawing it for the box instead made
    any change that moved a crop by a pixel redraw all its noise, and
    borderline fits in the benchmark flipped with it.)

    >>> a = sensor_noise(1, 3.6, (10, 20, 100, 50))
    >>> b = sensor_noise(1, 3.6, (60, 30, 100, 50))
    >>> bool(np.array_equal(a[10:, 50:], b[:40, :50]))
    True
    """
    x0, y0, w, h = box
    t = NOISE_TILE
    tx0, ty0 = x0 // t, y0 // t
    tx1, ty1 = (x0 + w - 1) // t, (y0 + h - 1) // t
    field = np.empty(((ty1 - ty0 + 1) * t, (tx1 - tx0 + 1) * t, 3), np.float32)
    key = round(scale * 1000)
    for ty in range(ty0, ty1 + 1):
        for tx in range(tx0, tx1 + 1):
            rng = np.random.default_rng((seed, key, tx + _TILE_OFFSET, ty + _TILE_OFFSET))
            r, c = (ty - ty0) * t, (tx - tx0) * t
            field[r : r + t, c : c + t] = rng.standard_normal((t, t, 3), np.float32)
    sx, sy = x0 - tx0 * t, y0 - ty0 * t
    return field[sy : sy + h, sx : sx + w]
