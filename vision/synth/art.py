"""Procedural pictures for the renderer: floor textures and two-faced coins.

Everything is drawn from a seed on the fly; nothing is stored.

>>> coin = CoinDesign.make(seed=3)
>>> face = coin.face_image("heads", size=128)
>>> face.shape, face.dtype
((128, 128, 4), dtype('uint8'))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.floor import FloorLayout

Float = NDArray[np.float32]


class FloorKind(StrEnum):
    """The floor textures the renderer draws."""

    PLAIN = "plain"
    WOOD = "wood"
    CARPET = "carpet"
    TILES = "tiles"
    CONCRETE = "concrete"


def _noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> Float:
    """Smooth noise in [-1, 1] with features about ``cell`` pixels across."""
    small = (max(2, int(shape[0] / cell) + 2), max(2, int(shape[1] / cell) + 2))
    grid = rng.uniform(-1, 1, small).astype(np.float32)
    big = cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return np.asarray(np.clip(big, -1, 1), dtype=np.float32)


def _texture(kind: FloorKind, rng: np.random.Generator, shape: tuple[int, int]) -> Float:
    """Brightness in roughly [0, 1], one pixel per millimetre."""
    h, w = shape
    if kind is FloorKind.PLAIN:
        return 0.45 + 0.05 * _noise(rng, shape, 200) + 0.02 * _noise(rng, shape, 6)
    if kind is FloorKind.CARPET:
        fine = rng.normal(0, 1, shape).astype(np.float32)
        fine = np.asarray(cv2.GaussianBlur(fine, (0, 0), 0.8), np.float32)
        return 0.35 + 0.08 * fine + 0.05 * _noise(rng, shape, 120)
    if kind is FloorKind.CONCRETE:
        layers = 0.12 * _noise(rng, shape, 150) + 0.08 * _noise(rng, shape, 25)
        return 0.55 + layers + 0.05 * _noise(rng, shape, 3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind is FloorKind.WOOD:
        plank = float(rng.uniform(120, 220))
        row = np.floor(yy / plank)
        grain = np.sin(yy * 0.35 + 6 * _noise(rng, shape, 80) + row * 1.7)
        tone = 0.4 + 0.06 * np.sin(row * 2.3 + float(rng.uniform(0, 6)))
        seams = (np.mod(yy, plank) < 2).astype(np.float32)
        return np.asarray(
            tone + 0.05 * grain + 0.03 * _noise(rng, shape, 8) - 0.2 * seams, np.float32
        )
    tile = float(rng.uniform(250, 400))
    ty, tx = np.floor(yy / tile), np.floor(xx / tile)
    tone = 0.5 + 0.08 * np.sin(ty * 3.1 + tx * 1.3)
    grout = ((np.mod(yy, tile) < 5) | (np.mod(xx, tile) < 5)).astype(np.float32)
    return np.asarray(tone + 0.03 * _noise(rng, shape, 40) - 0.25 * grout, np.float32)


@dataclass(frozen=True, slots=True)
class FloorArt:
    """A floor texture with the square's white lines and the markers, at
    ``ppm`` pixels per millimetre over ``[x0, x0 + w/ppm] x [y0, y0 + h/ppm]``."""

    image: NDArray[np.uint8]
    x0: float
    y0: float
    ppm: float
    half: NDArray[np.uint8]
    """The texture at half the resolution, for views coarser than it."""

    @classmethod
    def make(
        cls, layout: FloorLayout, kind: FloorKind, seed: int, margin: float = 800.0
    ) -> FloorArt:
        """Draw a floor around the square of ``layout``."""
        rng = np.random.default_rng(seed)
        x0 = y0 = -margin
        size = int(layout.side_mm + 2 * margin)
        value = _texture(kind, rng, (size, size))
        tint = np.array(rng.uniform(0.75, 1.15, 3), dtype=np.float32)
        bgr = np.clip(value[..., None] * tint * 255, 0, 255).astype(np.uint8)
        _lines(bgr, layout, margin)
        _markers(bgr, layout, margin)
        return cls(bgr, x0, y0, 1.0, np.asarray(cv2.pyrDown(bgr), np.uint8))

    def to_mm(self) -> NDArray[np.float64]:
        """The homography from texture pixels to floor millimetres. A texel
        covers [i, i + 1) texels from the corner, so its centre, where
        OpenCV's warps sample it, is half a texel in: the lines and markers
        drawn into texels then lie where the layout says, not half a texel
        towards the corner (which shifted every calibrated point by that)."""
        s = 1.0 / self.ppm
        return np.array([[s, 0.0, self.x0 + s / 2], [0.0, s, self.y0 + s / 2], [0.0, 0.0, 1.0]])


def _lines(bgr: NDArray[np.uint8], layout: FloorLayout, margin: float) -> None:
    s, w = layout.side_mm, layout.line_mm
    outer = (round(margin), round(margin), round(margin + s), round(margin + s))
    x0, y0, x1, y1 = outer
    lw = round(w)
    white = (228, 232, 235)
    for rect in (
        (x0, y0, x1, y0 + lw),
        (x0, y1 - lw, x1, y1),
        (x0, y0, x0 + lw, y1),
        (x1 - lw, y0, x1, y1),
    ):
        cv2.rectangle(bgr, rect[:2], (rect[2] - 1, rect[3] - 1), white, -1)


def _markers(bgr: NDArray[np.uint8], layout: FloorLayout, margin: float) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    m = round(layout.marker_mm)
    quiet = m // 6  # a white border one cell wide, as detectors need
    for marker_id, (ox, oy) in layout.marker_origins().items():
        mark = cv2.aruco.generateImageMarker(dictionary, marker_id, m)
        x, y = round(ox + margin), round(oy + margin)
        cv2.rectangle(
            bgr, (x - quiet, y - quiet), (x + m + quiet - 1, y + m + quiet - 1), (240, 240, 240), -1
        )
        bgr[y : y + m, x : x + m] = cv2.cvtColor(mark, cv2.COLOR_GRAY2BGR) * (235 / 255) + 10


@dataclass(frozen=True, slots=True)
class CoinDesign:
    """A coin: a portrait on the head, a non-portrait picture on the tail (1.3.1).

    Each face is a height map (the relief) drawn from the seed, so one seed
    is one coin and different seeds are different coins.
    """

    seed: int
    metal: tuple[float, float, float]
    relief: float
    """How strongly the relief shades with the light (emboss), 0..1."""

    @classmethod
    def make(cls, seed: int) -> CoinDesign:
        """A coin of a random metal and relief."""
        rng = np.random.default_rng(seed)
        metals = ((150, 190, 205), (175, 180, 182), (95, 125, 185))  # gold, silver, copper
        base = np.array(metals[int(rng.integers(len(metals)))], dtype=np.float64)
        metal = tuple(float(v) for v in base * rng.uniform(0.85, 1.1))
        return cls(seed, (metal[0], metal[1], metal[2]), float(rng.uniform(0.3, 1.0)))

    def height(self, face: str, size: int) -> Float:
        """The relief of ``face`` ("heads" or "tails") in [0, 1], ``size`` pixels across."""
        rng = np.random.default_rng(self.seed * 2 + (face == "tails"))
        canvas = np.zeros((512, 512), dtype=np.float32)
        _rim(canvas)
        if face == "heads":
            _portrait(canvas, rng)
        else:
            _emblem(canvas, rng)
        _legend(canvas, rng)
        soft = cv2.GaussianBlur(canvas, (0, 0), 2.5)
        return np.asarray(cv2.resize(soft, (size, size), interpolation=cv2.INTER_AREA), np.float32)

    def face_image(self, face: str, size: int, light_deg: float = 45.0) -> NDArray[np.uint8]:
        """The face as BGRA: metal, shaded by the relief lit from ``light_deg``."""
        h = self.height(face, size)
        gy, gx = np.gradient(h * size / 8)
        a = np.radians(light_deg)
        shade = 0.8 + 0.25 * h + self.relief * 0.5 * (gx * np.cos(a) + gy * np.sin(a))
        shade -= 0.2 * (1 - self.relief) * (h > 0.3)  # patina in the relief of worn coins
        bgr = np.clip(shade[..., None] * np.array(self.metal, dtype=np.float32), 0, 255)
        alpha = np.zeros((size, size), dtype=np.uint8)
        centre = (size - 1) / 2
        cv2.circle(
            alpha,
            (round(centre * 16), round(centre * 16)),
            round(size / 2 * 16),
            255,
            -1,
            cv2.LINE_AA,
            4,
        )
        return np.dstack([bgr.astype(np.uint8), alpha])


def _rim(canvas: Float) -> None:
    cv2.circle(canvas, (256, 256), 250, 1.0, 14)
    cv2.circle(canvas, (256, 256), 222, 0.6, 3)


def _portrait(canvas: Float, rng: np.random.Generator) -> None:
    """A head in profile: skull, face, nose, neck, hair strokes, an eye."""
    dx, dy = (int(v) for v in rng.integers(-12, 12, 2))
    cx, cy = 250 + dx, 230 + dy
    cv2.ellipse(canvas, (cx, cy), (95, 110), float(rng.uniform(-15, 15)), 0, 360, 0.9, -1)
    cv2.ellipse(canvas, (cx + 80, cy + 20), (30, 55), 10, 0, 360, 0.9, -1)
    nose = np.array([[cx + 100, cy], [cx + 135, cy + 35], [cx + 100, cy + 45]], np.int32)
    cv2.fillPoly(canvas, [nose], 0.9)
    neck = np.array(
        [[cx - 40, cy + 90], [cx + 50, cy + 90], [cx + 70, cy + 190], [cx - 60, cy + 190]], np.int32
    )
    cv2.fillPoly(canvas, [neck], 0.8)
    for i in range(int(rng.integers(5, 9))):
        angle = np.radians(200 + i * 17 + float(rng.uniform(-5, 5)))
        p0 = (cx + int(40 * np.cos(angle)), cy + int(40 * np.sin(angle)))
        p1 = (cx + int(105 * np.cos(angle)), cy + int(110 * np.sin(angle)))
        cv2.line(canvas, p0, p1, 0.4, 6)
    cv2.circle(canvas, (cx + 60, cy - 15), 9, 0.3, -1)


def _emblem(canvas: Float, rng: np.random.Generator) -> None:
    """A shield with a cross and a star above, and a value below."""
    dx = int(rng.integers(-10, 10))
    shield = np.array(
        [[170 + dx, 170], [340 + dx, 170], [340 + dx, 280], [255 + dx, 360], [170 + dx, 280]],
        np.int32,
    )
    cv2.fillPoly(canvas, [shield], 0.7)
    cv2.rectangle(canvas, (245 + dx, 180), (265 + dx, 345), 0.15, -1)
    cv2.rectangle(canvas, (180 + dx, 235), (330 + dx, 255), 0.15, -1)
    points = int(rng.integers(5, 8))
    star = [
        (
            256 + (40 if k % 2 == 0 else 16) * np.sin(np.pi * k / points),
            110 - (40 if k % 2 == 0 else 16) * np.cos(np.pi * k / points),
        )
        for k in range(2 * points)
    ]
    cv2.fillPoly(canvas, [np.array(star, np.int32)], 0.9)
    for i in range(int(rng.integers(2, 4))):
        x = 205 + 40 * i + dx
        cv2.rectangle(canvas, (x, 385), (x + 26, 430), 0.8, 5)


def _legend(canvas: Float, rng: np.random.Generator) -> None:
    """Letters round the edge, as blocks on an arc (not all the way round)."""
    start = float(rng.uniform(0, 360))
    for i in range(int(rng.integers(9, 15))):
        a = np.radians(start + i * 13)
        x, y = 256 + 198 * np.cos(a), 256 + 198 * np.sin(a)
        box = ((float(x), float(y)), (14.0, float(rng.uniform(14, 24))), float(np.degrees(a)))
        cv2.fillPoly(canvas, [cv2.boxPoints(box).astype(np.int32)], 0.75)
