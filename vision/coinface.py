"""The coin close up: its outline on the rectified floor image, and its face.

The outline is an ellipse fitted to the coin's edge in a crop of the
full-resolution still, rectified to the floor plane: a flat coin is a circle
there, a coin on edge or leaning an ellipse (its axis ratio is about the
cosine of the tilt). Where the edge fails, :func:`vision.silhouette.segment_outline` finds the
coin as what changed against the empty floor in a way a shadow cannot
explain (a shadow dims the floor, it does not change its colour).

The face is compared with the registered references by a rotation-invariant
score: the gradient magnitude of the face is unrolled in polar coordinates
(``cv2.warpPolar``), where turning the coin becomes a circular shift, and
the best normalised correlation over all shifts (by FFT) is the score.

>>> disc = np.zeros((120, 120), np.uint8)
>>> _ = cv2.circle(disc, (60, 60), 40, 200, -1)
>>> e = find_outline(disc, 80.0)
>>> round(e.major / 81, 1), round(e.ratio, 2)  # the disc is 81 px across
(1.0, 1.0)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.locate import grey
from vision.model import Image
from vision.ranks import above, median
from vision.smooth import Smooth, Soft, filtered_part, sampled

POLAR_ANGLES = 180
POLAR_RADII = 40
INNER = 0.15
"""The middle of the face (the first 15 % of the radius) is too few pixels to compare."""


@dataclass(frozen=True, slots=True)
class Ellipse:
    """An outline in crop pixels: centre, full axes (major >= minor), angle."""

    x: float
    y: float
    major: float
    minor: float
    angle_deg: float
    """The direction of the major axis from the image's x axis."""

    @property
    def ratio(self) -> float:
        """minor / major: 1 for a flat coin seen square-on."""
        return self.minor / self.major if self.major > 0 else 0.0

    def enlarged(self, scale: int) -> Ellipse:
        """This outline, found in an image :func:`shrunk` by ``scale``, in the
        full image's pixels (a coarse pixel's centre is (scale - 1) / 2 in)."""
        shift = (scale - 1) / 2
        return Ellipse(
            scale * self.x + shift,
            scale * self.y + shift,
            scale * self.major,
            scale * self.minor,
            self.angle_deg,
        )


def shrunk(image: Image, scale: int) -> Image:
    """``image`` averaged over blocks of ``scale`` x ``scale`` pixels (an area
    resize by an exact factor: OpenCV's fast path)."""
    return np.asarray(
        cv2.resize(image, None, fx=1 / scale, fy=1 / scale, interpolation=cv2.INTER_AREA),
        np.uint8,
    )


def gradient(g: NDArray[Any]) -> NDArray[np.float32]:
    """The gradient magnitude of ``g`` (3x3 Sobel), float32, by NumPy: the same
    bits wherever the buffers lie. ``cv2.magnitude`` (OpenCV 5.0 here) gives
    about 1 % of its results an ulp apart depending on its buffers' alignment,
    so the same crop was once judged flat by its edge, once by its silhouette
    (rig 50003, an edge axis ratio on the 0.95 line)."""
    gx = np.asarray(cv2.Sobel(g, cv2.CV_32F, 1, 0), np.float32)
    gy = np.asarray(cv2.Sobel(g, cv2.CV_32F, 0, 1), np.float32)
    gx *= gx  # in place: sqrt(gx * gx + gy * gy) without temporaries, as fast as cv2
    gy *= gy
    gx += gy
    return np.sqrt(gx, out=gx)


def fit_outline(crop: Image, diameter: float, scale: int = 1) -> Ellipse | None:
    """The coin's outline in ``crop`` where a coin is ``diameter`` pixels
    across, or None: the busy region (the rim and the relief give dense
    edges, a soft shadow or a plain floor few) of the coin's size nearest the
    middle, closed into a blob, its outer contour fitted with an ellipse.
    Found at 1 / ``scale`` of the resolution (2: a quarter of the pixels to
    threshold, close and trace; the rays then refine it at full resolution)."""
    if scale > 1:
        crop = shrunk(crop, scale)
        diameter /= scale
    g = cv2.GaussianBlur(grey(crop), (0, 0), 1.2 / scale)
    mag = gradient(g)
    h, w = crop.shape[:2]
    best: tuple[float, Ellipse] | None = None
    for pct in (90.0, 80.0, 95.0):
        busy = above(mag, pct).astype(np.uint8)
        k = max(3, int(diameter / 16) | 1)
        blob = cv2.morphologyEx(
            busy, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        )
        blob = cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            if len(contour) < 12:
                continue
            (x, y), (a, b), angle = cv2.fitEllipse(contour)
            major, minor = max(a, b), min(a, b)
            angle = angle if a >= b else angle + 90
            if not 0.8 * diameter <= major <= 1.3 * diameter:
                continue
            fit = Ellipse(x, y, major, max(minor, 0.5), angle)
            off = math.hypot(x - w / 2, y - h / 2) / diameter
            cost = abs(major - diameter) / diameter + 0.3 * off
            if best is None or cost < best[0]:
                best = (cost, fit)
        if best is not None:
            break
    if best is None:
        return None
    return best[1] if scale == 1 else best[1].enlarged(scale)


CONTOUR_SCALE = 2
"""The edge contour is traced at half the crop's resolution (:func:`fit_outline`):
it is only the rays' first guess, and tracing it (a percentile, a closing,
~60 contours fitted) was a fifth of a leaning coin's time at full
resolution. On the tuning rigs 50000-50009 and 80000-80009 (2,000 landings)
11 landings changed: 1 more right and 1 fewer sent to the spotter than at
full resolution."""


def _radius(e: Ellipse, angles: NDArray[np.float64]) -> NDArray[np.float64]:
    """The ellipse's radius towards each angle (image axes)."""
    t = angles - math.radians(e.angle_deg)
    a, b = e.major / 2, e.minor / 2
    return np.asarray(a * b / np.sqrt((b * np.cos(t)) ** 2 + (a * np.sin(t)) ** 2))


SPANS = (np.linspace(0.7, 1.3, 37), np.linspace(0.88, 1.12, 31))
"""The radii :func:`refine` samples, as fractions of the fit's: its first round, then the rest."""


@functools.cache
def _rays(n: int) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """``n`` directions round the circle, their cosines and sines (made once:
    ``refine`` and ``_support`` ran ``linspace``, ``cos`` and ``sin`` on the same
    angles about 30 times a crop)."""
    angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
    for a in (angles, cos := np.cos(angles), sin := np.sin(angles)):
        a.flags.writeable = False
    return angles, cos, sin


def refine(g: Smooth, guess: Ellipse, rays: int = 120, rounds: int = 2) -> Ellipse:
    """The outline again, from the outermost strong edge on rays from the
    guessed centre across the guessed outline (sharper than a dilated
    contour); ``g`` is the crop as :func:`~vision.smooth.soft` gives it."""
    fit = guess
    angles, cos, sin = _rays(rays)
    every = np.arange(rays)
    for k in range(rounds):
        r0 = np.maximum(_radius(fit, angles), 3.0)
        # Wide first, then close to the first fit: a line or a seam just
        # outside the coin is then out of reach.
        radii = np.outer(r0, SPANS[min(k, 1)])
        xs = fit.x + cos[:, None] * radii
        ys = fit.y + sin[:, None] * radii
        x32, y32 = xs.astype(np.float32), ys.astype(np.float32)
        samples = cv2.remap(
            sampled(g, x32, y32),
            x32,
            y32,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,  # no step at the crop's edge (a reference crop)
        )
        step = np.abs(np.diff(samples, axis=1))
        # The outermost strong step: the relief's rings inside the rim can
        # step as sharply as the rim against the floor.
        top = step.max(axis=1)
        strong_steps = step >= 0.6 * top[:, None]
        best = step.shape[1] - 1 - np.argmax(strong_steps[:, ::-1], axis=1)
        strong = step[every, best] > 0.4 * median(top)
        r = ((radii[every, best] + radii[every, best + 1]) / 2)[strong]
        pts = np.column_stack([fit.x + r * cos[strong], fit.y + r * sin[strong]])
        if len(pts) < 20:
            return fit
        fit = _robust_fit(pts) or fit
    return fit


def _robust_fit(pts: NDArray[np.float64]) -> Ellipse | None:
    """An ellipse through ``pts``, fitted three times, the points far off
    each fit dropped before the next. When a fit drops none, the fits after
    it are of the same points and give the same ellipse: it is not fitted
    again (a third of the fits a leaning coin's rays made, ~20 us each)."""
    for _ in range(2):
        (x, y), (a, b), angle = cv2.fitEllipse(pts.astype(np.float32))
        e = Ellipse(x, y, max(a, b), min(a, b), angle if a >= b else angle + 90)
        dx, dy = pts[:, 0] - x, pts[:, 1] - y
        resid = np.abs(np.hypot(dx, dy) - _radius(e, np.arctan2(dy, dx)))
        keep = resid < max(1.5, 2.5 * float(median(resid)))
        kept = np.count_nonzero(keep)
        if kept < 20:
            return None
        if kept == len(pts):
            break
        pts = pts[keep]
    else:
        (x, y), (a, b), angle = cv2.fitEllipse(pts.astype(np.float32))
    if not np.isfinite([x, y, a, b, angle]).all():
        return None  # collinear points
    return Ellipse(x, y, max(a, b), min(a, b), angle if a >= b else angle + 90)


CLEAN = 0.95
"""A refined circle this round is taken as it is (the edge-contour guess is skipped)."""

Feature = NDArray[np.complex128]
"""A face's polar gradient image, Fourier-transformed along the angle."""


def face_feature(crop: Image, outline: Ellipse) -> Feature:
    """The rotation-invariant signature of the face inside ``outline``."""
    mag = face_gradient(crop, outline)
    polar = cv2.warpPolar(
        mag,
        (POLAR_RADII, POLAR_ANGLES),
        (outline.x, outline.y),
        0.9 * outline.major / 2,
        cv2.INTER_LINEAR + cv2.WARP_POLAR_LINEAR + cv2.WARP_FILL_OUTLIERS,
    )
    p = np.asarray(polar, np.float64)[:, int(INNER * POLAR_RADII) :]
    p = np.log1p(np.clip(np.nan_to_num(p), 0, None))  # hard edges must not outvote the rest
    p -= p.mean(axis=0)  # light that varies with the radius is not the design
    norm = float(np.linalg.norm(p))
    return np.asarray(np.fft.fft(p / norm if norm > 0 else p, axis=0), np.complex128)


def best_similarity(a: Feature, conjugates: NDArray[np.complex128]) -> float:
    """``max(similarity(a, b) for b in refs)``, bit for bit, for
    ``conjugates = np.conj(np.stack(refs))`` (made once per coin): one
    NumPy pass over all the references instead of one a reference (a face
    read against 8 references: about 290 -> 145 us). Each reference's sum
    and inverse FFT are the same per row as alone (tested).

    >>> refs = [np.fft.fft(np.eye(180, 34) * k, axis=0) for k in (1, 2)]
    >>> best_similarity(refs[0], np.conj(np.stack(refs))) == max(
    ...     similarity(refs[0], b) for b in refs
    ... )
    True
    """
    corr = np.fft.ifft(np.sum(a * conjugates, axis=2), axis=1).real
    return float(corr.max())


def face_gradient(crop: Image, outline: Ellipse) -> NDArray[np.float32]:
    """The gradient magnitude of ``crop`` (grey, smoothed) that
    :func:`face_feature` unrolls, made only where its polar warp reads (the
    face's disc and a margin) and zero elsewhere: bit for bit the values a
    whole crop gives there (the smoothing of 8-bit images is OpenCV's exact
    fixed-point one, and the Sobel of whole numbers is exact), in about a
    tenth of the pixels (a leaning coin's 307 px crop: the face's disc is
    about 90 px across).

    >>> crop = np.zeros((120, 120, 3), np.uint8)
    >>> _ = cv2.circle(crop, (60, 60), 40, (200, 200, 200), -1)
    >>> e = Ellipse(60.0, 60.0, 80.0, 80.0, 0.0)
    >>> whole = gradient(cv2.GaussianBlur(grey(crop), (0, 0), 0.8).astype(np.float32))
    >>> part = face_gradient(crop, e)
    >>> bool(np.array_equal(part[21:101, 21:101], whole[21:101, 21:101])), float(part[0, 0])
    (True, 0.0)
    """
    sigma = max(0.8, outline.major / 120)
    h, w = crop.shape[:2]
    reach = 0.9 * outline.major / 2 + FACE_MARGIN  # the warp's radius, and its pixels' neighbours
    pad = math.ceil(4 * sigma) + 2  # OpenCV's 8-bit kernel reaches 3 sigma; the Sobel 1 px
    # The part read (y0:y1, x0:x1) and the part computed around it (Y0:Y1, X0:X1).
    x0, x1 = _span(outline.x, reach, w)
    y0, y1 = _span(outline.y, reach, h)
    mag = np.zeros((h, w), np.float32)
    if x0 >= x1 or y0 >= y1:
        return mag  # the face lies off the crop: the warp reads nothing of it

    def smoothed_gradient(part: Image) -> NDArray[np.float32]:
        return gradient(cv2.GaussianBlur(grey(part), (0, 0), sigma).astype(np.float32))

    mag[y0:y1, x0:x1] = filtered_part(crop, (x0, x1, y0, y1), pad, smoothed_gradient)
    return mag


FACE_MARGIN = 3
"""Pixels past the face's polar radius that :func:`face_gradient` makes too:
the warp's bilinear reads take the next pixel, and its float sample
positions may round past the radius."""


def _span(centre: float, reach: float, size: int) -> tuple[int, int]:
    """The pixels within ``reach`` of ``centre`` on an axis ``size`` long, as a slice's ends."""
    return max(0, math.floor(centre - reach)), min(size, math.floor(centre + reach) + 2)


def similarity(a: Feature, b: Feature) -> float:
    """The best normalised correlation of two faces over every rotation, -1..1."""
    corr = np.fft.ifft(np.sum(a * np.conj(b), axis=1)).real
    return float(corr.max())


def _support(g: Smooth, e: Ellipse, n: int = 90) -> float:
    """How strongly the image steps across the outline (median grey-level step)."""
    angles, cos, sin = _rays(n)
    r = _radius(e, angles)
    inner, outer = np.maximum(r - 2.5, 0.5), r + 2.5
    xi, yi = e.x + cos * inner, e.y + sin * inner
    xo, yo = e.x + cos * outer, e.y + sin * outer
    xi32, yi32 = xi.astype(np.float32)[None], yi.astype(np.float32)[None]
    xo32, yo32 = xo.astype(np.float32)[None], yo.astype(np.float32)[None]
    # (The outer samples first: the inner lie within their reach.)
    b = cv2.remap(sampled(g, xo32, yo32), xo32, yo32, cv2.INTER_LINEAR)
    a = cv2.remap(sampled(g, xi32, yi32), xi32, yi32, cv2.INTER_LINEAR)
    return float(median(np.abs(a - b)))


HOUGH_REACH = 1.0
"""A landing's circle is searched for (at half resolution) this many
diameters each side of the crop's middle: 1.4 until session 9, 1.15 until
session 23. The Hough search checks every local maximum of its votes
against every edge pixel, so its time grows about with the square of the
floor's edges read (1.4 -> 1.15: 0.76 -> 0.47 ms on the timing scenes;
1.15 -> 1.0: 0.92 -> 0.69 ms a crop single-threaded, the same circle on
each of the five). A coin centred up to half a diameter off the middle
(95 % of the circles found on tuning rigs 50000-50003 lay within 0.23,
the farthest 0.50) has its rim inside, reaching the border at most, and
a circle the border cuts is still found (a drawn coin 0.55 diameters
off: within 1.5 px). Session 23 measured 1.0 against 1.15 on every
landing of tuning seeds 100 and 130 (``bench/RESULTS.md``). The middle
shrinks by whole coarse blocks, so the blocks it averages are those of
the wider search. A reference (at full resolution) is searched for as
before."""


def hough_circle(crop: Image, diameter: float, scale: int) -> Ellipse | None:
    """The circle of about ``diameter`` nearest the middle (Hough), found at
    1 / ``scale`` of the resolution (2: a quarter of the time; the rays
    refine it; a reference, kept as a circle, is found at full resolution)."""
    # Only the middle: a circle centred further out than 3/4 of a diameter
    # is not taken as the coin anyway (``analyse._near_middle``).
    h, w = crop.shape[:2]
    m = max(0, int(min(h, w) / 2 - 1.4 * diameter))
    if scale > 1:  # (a landing: a reference is searched as before)
        m += scale * round((1.4 - HOUGH_REACH) * diameter / scale)
    middle = grey(crop[m : h - m, m : w - m])
    if scale > 1:
        middle = shrunk(middle, scale)
    g = cv2.GaussianBlur(middle, (0, 0), 1.5 / scale)
    d = diameter / scale
    circles = cv2.HoughCircles(
        g,
        cv2.HOUGH_GRADIENT_ALT,
        dp=1.0,
        minDist=d / 2,
        param1=60,
        param2=0.6,
        minRadius=int(0.42 * d),
        maxRadius=int(0.6 * d) + scale - 1,
    )
    if circles is None:
        return None
    found = [
        (scale * float(c[0]) + m, scale * float(c[1]) + m, scale * float(c[2])) for c in circles[0]
    ]
    x, y, r = min(found, key=lambda c: math.hypot(c[0] - w / 2, c[1] - h / 2))
    shift = (scale - 1) / 2  # pixel centres of the coarse image
    x, y = x + shift, y + shift
    return Ellipse(x, y, 2 * r, 2 * r, 0.0)


def find_outline(
    crop: Image, diameter: float, *, flat: bool = False, coarse: bool = False
) -> Ellipse | None:
    """The coin's outline: a circle (Hough) or the edge contour as the first
    guess, each refined on rays; the one the image supports best. ``flat``:
    the coin is known to lie flat (registration), only circles are tried;
    ``coarse``: the circle is looked for at half the resolution (a landing,
    where the crop is wide and time counts)."""
    return Outlines(crop, diameter).find(flat=flat, coarse=coarse)


class Outlines:
    """:func:`find_outline` on one crop, its work kept for a second look (a
    coarse look first, then a full one): the smoothed crop, the edge contour's
    guess and its refinement, and how well the image supports each fit do not
    depend on the circle's resolution, so they are computed once."""

    def __init__(self, crop: Image, diameter: float) -> None:
        self.crop, self.diameter = crop, diameter
        self._g: Soft | None = None
        self._contour: tuple[Ellipse, Ellipse] | None = None
        self._contour_done = False
        self._support: dict[Ellipse, float] = {}

    @property
    def g(self) -> Soft:
        """The crop as :func:`~vision.smooth.soft` gives it, made where it is read."""
        if self._g is None:
            self._g = Soft(self.crop)
        return self._g

    def contour(self) -> tuple[Ellipse, Ellipse] | None:
        """The edge contour's ellipse (:func:`fit_outline`) and its refinement."""
        if not self._contour_done:
            guess = fit_outline(self.crop, self.diameter, CONTOUR_SCALE)
            self._contour = None if guess is None else (guess, refine(self.g, guess))
            self._contour_done = True
        return self._contour

    def support(self, e: Ellipse) -> float:
        """:func:`_support` of ``e`` on this crop."""
        if e not in self._support:
            self._support[e] = _support(self.g, e)
        return self._support[e]

    def find(self, *, flat: bool = False, coarse: bool = False) -> Ellipse | None:
        """As :func:`find_outline`."""
        diameter = self.diameter
        guesses, fits = [], []
        circle = hough_circle(self.crop, diameter, 2 if coarse else 1)
        if circle is not None:
            guesses.append(circle)
            fits.append(refine(self.g, circle))
            if not flat and fits[0].ratio >= CLEAN and _sized(fits[0], diameter):
                return fits[0]  # a clean circle of the coin's size: the coin lies flat
        contour = None if flat else self.contour()
        if contour is not None:
            guesses.append(contour[0])
            fits.append(contour[1])
        if flat:  # a circle found, its refinement pulled off by the floor: keep the circle
            fits = [f if f.ratio >= 0.9 else e for f, e in zip(fits, guesses, strict=True)]
        fits = [f for f in fits if _sized(f, diameter)]
        if not fits:
            return None
        return max(fits, key=self.support)


def _sized(e: Ellipse, diameter: float) -> bool:
    return 0.8 * diameter <= e.major <= 1.25 * diameter
