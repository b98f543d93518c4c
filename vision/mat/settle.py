"""When has the mat settled? A shot ends "when all winks have come to rest"
(5(b)): the camera's low-resolution preview stream says so.

Each preview frame is reduced to grey at about :attr:`SettleSettings.width`
pixels across (block means: sensor noise averages down) and compared, over
the mat region only, with the frame before and with the frame at which the
scene last moved (the *anchor*, so a wink creeping a fraction of a pixel a
frame is still seen moving). A comparison is noise-robust:

- **light flicker** (mains lighting, a cloud, auto exposure) changes the
  whole picture together: the new frame is fitted to the old one as
  ``gain x old + offset`` by least squares over the region and only what that
  does not explain counts;
- **sensor noise** is measured in every comparison (the median absolute
  deviation of the 3x3-averaged residual), and a pixel has changed only when
  its residual exceeds ``k_sigma`` times that, and at least ``floor`` grey
  levels;
- a **motion** is at least ``min_area`` changed pixels.

The mat has **settled** when, after a motion, ``quiet_frames`` consecutive
frames show none *and* ``hold_ms`` have passed since the last one.
:meth:`MatSettle.feed` says so once per motion: a shot is one motion (the
player's hand coming in, the winks sliding, the hand leaving), then still.

:func:`mat_region` gives the region: the mat's outline in the frame, from
its calibration, with a margin.

>>> d = MatSettle(SettleSettings(width=32, hold_ms=300, quiet_frames=2))
>>> still = np.full((18, 32), 120, np.uint8)
>>> moved = still.copy(); moved[4:9, 10:15] = 40
>>> frames = [still, still, moved, moved, moved, moved, moved]
>>> [d.feed(f, i * 100_000_000) for i, f in enumerate(frames)]
[False, False, False, False, False, True, False]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from controller.games.tiddlywinks.events import Shot
from controller.games.tiddlywinks.geometry import Mat, MatSpec, Place
from controller.games.tiddlywinks.observe import merge

if TYPE_CHECKING:
    from controller.games.tiddlywinks.camera_first import FirstWink
    from vision.mat.camera import MatCalibration
    from vision.mat.model import MatObservation, PotView
    from vision.model import Frame

Grey = NDArray[np.float32]
Mask = NDArray[np.bool_]
Crop = NDArray[np.uint8]
Opening = Callable[["Frame", "PotView"], "Crop | None"]
"""Cuts the pot's opening (as a :class:`PotView` places it) out of a still."""
NS_PER_MS = 1_000_000
MAD_TO_SIGMA = 1.4826
CLIP_LOW, CLIP_HIGH = 2, 253
NOISE_SAMPLE = 20_000
"""Residuals the noise level is measured on (evenly spread): plenty for a median."""
MOVED_MM = 2.0
"""A wink seen further than this from where the engine has it has moved (the
analysis is good to about 0.5 mm): a settled mat where none has is not a shot."""


@dataclass(frozen=True, slots=True)
class SettleSettings:
    """How still is still. The defaults suit a 1280x720 camera's preview at
    10 frames a second: a 16 mm wink is about 5 px across at 640 px."""

    width: int = 640
    """Frames are reduced to about this many pixels across."""
    hold_ms: int = 400
    """Quiet for at least this long after the last motion."""
    quiet_frames: int = 3
    """...and for at least this many frames in a row."""
    k_sigma: float = 6.0
    floor: float = 4.0
    """Grey levels: a smaller residual is never a change."""
    min_area: int = 4
    """Changed pixels (at the reduced size) that make a motion."""


@dataclass(frozen=True, slots=True)
class Small:
    """A frame reduced: grey block means, and the blocks with a clipped pixel
    (black or white: a pixel at the end of the range does not follow the light)."""

    grey: Grey
    clipped: Mask


def reduce(image: NDArray[np.generic], width: int) -> Small:
    """``image`` (grey or BGR, 8 bits) shrunk by a whole factor to about ``width`` px."""
    full = np.asarray(image)
    lo, hi = CLIP_LOW + 1, CLIP_HIGH - 1
    if full.ndim == 3:
        inside = cv2.inRange(full, (lo, lo, lo), (hi, hi, hi))
        grey = cv2.cvtColor(full.astype(np.float32), cv2.COLOR_BGR2GRAY)
    else:
        inside = cv2.inRange(full, lo, hi)
        grey = full.astype(np.float32)
    f = max(1, round(grey.shape[1] / width))
    size = (grey.shape[1] // f, grey.shape[0] // f)
    h, w = size[1] * f, size[0] * f
    small = cv2.resize(grey[:h, :w], size, interpolation=cv2.INTER_AREA)
    whole = cv2.resize(inside[:h, :w].astype(np.float32), size, interpolation=cv2.INTER_AREA)
    return Small(np.asarray(small, np.float32), np.asarray(whole < 254.5))


def _box3(a: Grey) -> Grey:
    """The 3x3 mean (edges replicated)."""
    p = np.pad(a, 1, mode="edge")
    h, w = a.shape
    out = sum(p[i : i + h, j : j + w] for i in range(3) for j in range(3))
    return np.asarray(out / 9.0, np.float32)


def changed(before: Small, after: Small, region: Mask | None, s: SettleSettings) -> int:
    """How many pixels of ``region`` changed from ``before`` to ``after``,
    beyond the light's change and the noise (clipped pixels aside)."""
    return int(np.count_nonzero(changed_mask(before, after, region, s)))


def changed_mask(before: Small, after: Small, region: Mask | None, s: SettleSettings) -> Mask:
    """The pixels :func:`changed` counts."""
    old, new = before.grey, after.grey
    sel = ~(before.clipped | after.clipped)
    if region is not None:
        sel &= region
    out = np.zeros(sel.shape, np.bool_)
    x, y = old[sel].astype(np.float64), new[sel].astype(np.float64)
    if x.size < 2:
        return out
    var = float(x.var())
    gain = float(((x - x.mean()) * (y - y.mean())).mean() / var) if var > 1e-9 else 1.0
    offset = float(y.mean() - gain * x.mean())
    residual = np.where(sel, new - (gain * old + offset), 0.0).astype(np.float32)
    residual = _box3(residual)[sel]
    sample = residual[:: max(1, residual.size // NOISE_SAMPLE)]
    centre = float(np.median(sample))
    sigma = MAD_TO_SIGMA * float(np.median(np.abs(sample - centre)))
    limit = max(s.floor, s.k_sigma * sigma)
    out[sel] = np.abs(residual - centre) > limit
    return out


class MatSettle:
    """Feed preview frames in order with their times; :meth:`feed` is True
    once, at the first frame at which the mat has settled after a motion."""

    def __init__(
        self,
        settings: SettleSettings | None = None,
        region: Mask | None = None,
        size: tuple[int, int] | None = None,
    ) -> None:
        """``region``: the pixels to watch, at the frames' full size (the mat
        and a margin round it: :func:`mat_region`); None watches the whole
        frame. ``size``: the frames' (width, height) it was made for."""
        self.settings = settings or SettleSettings()
        self.size = size
        self._full_region = region
        self._region: Mask | None = None
        self._last: Small | None = None
        self._anchor: Small | None = None
        self._quiet = 0
        self.moving = False
        """A motion has been seen and the mat has not settled since."""
        self.last_motion_ns: int | None = None
        self.settled_ns: int | None = None
        """When it last settled (the frame :meth:`feed` said True for)."""
        self.previous: Small | None = None
        self.current: Small | None = None
        """The last two frames fed, reduced (the first-wink watcher reads them)."""

    def reduced_region(self, shape: tuple[int, ...]) -> Mask | None:
        """The region at the reduced frames' ``shape`` (None: all of it)."""
        return self._reduced_region(shape)

    def _reduced_region(self, shape: tuple[int, ...]) -> Mask | None:
        if self._full_region is None:
            return None
        if self._region is None or self._region.shape != shape:
            f = max(1, round(self._full_region.shape[1] / self.settings.width))
            part = self._full_region[: shape[0] * f, : shape[1] * f].astype(np.float32)
            self._region = np.asarray(part.reshape(shape[0], f, shape[1], f).mean((1, 3)) > 0.5)
        return self._region

    def motion(self, frame: Small) -> bool:
        """Whether ``frame`` (reduced) moved from the last one or the anchor."""
        region = self._reduced_region(frame.grey.shape)
        s = self.settings
        assert self._last is not None and self._anchor is not None
        return (
            changed(self._last, frame, region, s) >= s.min_area
            or changed(self._anchor, frame, region, s) >= s.min_area
        )

    def feed(self, image: NDArray[np.generic], t_ns: int) -> bool:
        """One preview frame taken at ``t_ns``; True when the mat has just settled."""
        frame = reduce(image, self.settings.width)
        self.previous, self.current = self._last, frame
        if self._last is None or self._last.grey.shape != frame.grey.shape:
            self._last = self._anchor = frame
            return False
        moved = self.motion(frame)
        self._last = frame
        if moved:
            self.moving, self.last_motion_ns, self._quiet = True, t_ns, 0
            self._anchor = frame
            return False
        self._quiet += 1
        if not self.moving or self.last_motion_ns is None:
            return False
        held = t_ns - self.last_motion_ns >= self.settings.hold_ms * NS_PER_MS
        if held and self._quiet >= self.settings.quiet_frames:
            self.moving, self.settled_ns = False, t_ns
            return True
        return False

    @property
    def quiet(self) -> bool:
        """Whether the last :attr:`SettleSettings.quiet_frames` frames fed
        showed no motion and no motion waits to settle."""
        return not self.moving and self._quiet >= self.settings.quiet_frames

    def expect_motion(self, t_ns: int) -> None:
        """A shot has begun (its button, say) though the camera saw no motion
        yet: the mat settles once it has been still for the hold time."""
        self.moving, self.last_motion_ns, self._quiet = True, t_ns, 0


def mat_region(
    calibration: MatCalibration,
    spec: MatSpec,
    margin_mm: float = 60.0,
    size: tuple[int, int] | None = None,
) -> Mask:
    """The pixels of the mat and ``margin_mm`` round it (a wink leaving the
    field still moves there), at the calibration's frame size or at ``size``
    (the preview's, of the same view)."""
    hx, hy = spec.length_mm / 2 + margin_mm, spec.width_mm / 2 + margin_mm
    corners = np.array([[-hx, hy], [hx, hy], [hx, -hy], [-hx, -hy]], np.float64)
    w, h = size or calibration.size
    scale = np.array([w / calibration.size[0], h / calibration.size[1]])
    px = np.round((calibration.to_pixels(corners) + 0.5) * scale - 0.5).astype(np.int32)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [px], 1)
    return np.asarray(mask > 0)


class ShotWatch:
    """From the camera to the engine's ``shot`` input: what a live tiddlywinks
    table runs between shots (``docs/tiddlywinks.md``, "Shots from the camera").

    :meth:`preview` takes each preview frame; when the mat settles (or at
    once, on the shot button: :meth:`button`) the full-resolution ``still``
    is analysed and its winks named from ``mat``, the engine's mat before the
    shot (:func:`vision.mat.convert.to_sightings`), giving the
    :class:`~controller.games.tiddlywinks.events.Shot` to apply. The camera
    and the service loop that polls it are the caller's.
    """

    def __init__(
        self,
        analyse: Callable[[Frame], MatObservation],
        settle: MatSettle | None = None,
        spec: MatSpec | None = None,
        opening: Opening | None = None,
    ) -> None:
        """``opening``: cuts the pot's opening out of a still, the umpire's
        evidence (:attr:`openings`; None: not kept)."""
        self.analyse = analyse
        self.opening = opening
        self.settle = settle or MatSettle()
        self.spec = spec or MatSpec()
        self.notes: tuple[str, ...] = ()
        self.weighed: tuple[bool, ...] = ()
        """For each of :attr:`notes`, whether the pot was weighed in it
        (:attr:`vision.mat.convert.Converted.weighed`)."""
        """What the last shot's naming left for the umpire (winks not seen)."""
        self.first: FirstWink | None = None
        """Watches the previews for the first-played wink (None: not looked for)."""
        self.first_note = ""
        """Why the last shot's first-played wink is None (empty when it was found)."""
        self.pot: tuple[PotView, frozenset[str]] | None = None
        """The pot as the last shot's still showed it, and the winks that
        shot left potted: the pot before the next shot, for the cross-check
        by conservation (:func:`vision.mat.convert.to_sightings`), while the
        engine's mat has just those winks potted."""
        self.openings: tuple[Crop | None, Crop | None] = (None, None)
        """The pot's opening in the still before the last shot (when its pot
        was the pot before, :attr:`pot`) and in the last shot's still: what
        the umpire looks at when the pot leaves a wink unnamed."""
        self._opening: Crop | None = None
        self._looked: frozenset[str] | None = None
        """The engine's potted winks when :meth:`look` last read a still."""

    def wants_look(self, mat: Mat) -> bool:
        """Whether a still of the quiet mat is wanted before the next shot
        (:meth:`look`): no still has shown where the unplayed winks lie behind
        their baselines (:attr:`first`), or none has shown the pot while the
        engine's ``mat`` had its potted winks (after a restart, the
        squidge-off, or an umpire's change), so the cross-check by
        conservation would have no pot before the shot. One look for each set
        of potted winks: a pot the still does not show is not looked for
        again until that set changes."""
        first = self.first
        behind = first is not None and not first.read
        if behind and any(w.place is Place.BASELINE for w in mat):
            return True
        potted = _potted(mat)
        return (self.pot is None or self.pot[1] != potted) and self._looked != potted

    def look(self, still: Frame, mat: Mat) -> None:
        """A still of the quiet mat between shots (:meth:`wants_look`): where
        the winks behind the baselines lie, and the pot before the next shot
        with the engine's potted winks (its opening is the umpire's "before"
        crop). No shot is read from it."""
        obs = self.analyse(still)
        if self.first is not None:
            self.first.saw(obs, self.spec)
        potted = _potted(mat)
        self._looked = potted
        self._opening = self._saw_pot(still, obs, potted)

    def _saw_pot(self, still: Frame, obs: MatObservation, potted: frozenset[str]) -> Crop | None:
        """Keep the pot ``still`` showed (``obs``) as the pot before the next
        shot, with the winks ``potted`` then; its opening cut out of ``still``
        (None: no pot seen, or no cutting)."""
        self.pot = None if obs.pot is None else (obs.pot, potted)
        return None if self.opening is None or obs.pot is None else self.opening(still, obs.pot)

    def preview(
        self, image: NDArray[np.generic], t_ns: int, still: Callable[[], Frame], mat: Mat,
        wink: str | None = None,
    ) -> Shot | None:  # fmt: skip
        """One preview frame; the shot once the mat has settled, else None.

        A settled mat on which no wink moved (a hand over the mat, a shot
        already entered by command) is no shot: None. With :attr:`first`
        set, the shot's ``wink`` is the first wink seen to move (when known)."""
        settled = self.settle.feed(image, t_ns)
        if self.first is not None:
            self.first.feed(self.settle, t_ns, mat)
        if not settled:
            return None
        shot = self._read(still, t_ns, mat, wink)
        return shot if moved(self.spec, mat, shot) else None

    def button(
        self, t_ns: int, still: Callable[[], Frame], mat: Mat, wink: str | None = None
    ) -> Shot:
        """The shot button: the shot ends now (the mat is taken as it lies)."""
        self.settle.moving = False
        return self._read(still, t_ns, mat, wink)

    def _read(self, still: Callable[[], Frame], t_ns: int, mat: Mat, wink: str | None) -> Shot:
        """The shot, its first-played wink from the previews when not given."""
        first = self.first
        if first is None or wink is not None:
            if first is not None:
                first.reset()
            self.first_note = ""
            return self.shot(still(), t_ns, mat, wink)
        try:
            shot = self.shot(still(), t_ns, mat, first.candidate())
            played, self.first_note = first.verdict(self.spec, mat, shot)
        finally:
            first.reset()
        return shot if played == shot.wink else dataclasses.replace(shot, wink=played)

    def shot(self, still: Frame, t_ns: int, mat: Mat, wink: str | None = None) -> Shot:
        """The ``shot`` input ``still`` shows, winks named from ``mat``."""
        from vision.mat.convert import to_sightings

        obs = self.analyse(still)
        if self.first is not None:  # where the winks behind the baselines lie now
            self.first.saw(obs, self.spec)
        potted = _potted(mat)
        before = self.pot[0] if self.pot is not None and self.pot[1] == potted else None
        named = to_sightings(obs, mat, wink, before)
        self.notes, self.weighed = named.notes, named.weighed
        after = frozenset(s.id for s in named.sightings if s.potted)
        crop = self._saw_pot(still, obs, after)
        self.openings = (self._opening if before is not None else None, crop)
        self._opening = crop
        return Shot(t_ns=t_ns, winks=named.sightings, wink=wink, complete=named.complete)


def _potted(mat: Mat) -> frozenset[str]:
    """The winks ``mat`` has potted."""
    return frozenset(w.id for w in mat if w.place is Place.POTTED)


def moved(spec: MatSpec, mat: Mat, shot: Shot) -> bool:
    """Whether ``shot`` moves a wink of ``mat``: potted, played from behind its
    baseline, or moved more than :data:`MOVED_MM` on the field.

    >>> from controller.games.tiddlywinks.events import Sighting
    >>> from controller.games.tiddlywinks.geometry import new_mat
    >>> from controller.games.tiddlywinks.observe import place_winks
    >>> mat = place_winks(MatSpec(), new_mat(), [Sighting("b1", 100.0, 0.0)])
    >>> moved(MatSpec(), mat, Shot(t_ns=0, winks=(Sighting("b1", 101.0, 0.5),)))
    False
    >>> moved(MatSpec(), mat, Shot(t_ns=0, winks=(Sighting("b1", 104.0, 0.0),)))
    True
    """
    return bool(moved_ids(spec, mat, shot))


def moved_ids(spec: MatSpec, mat: Mat, shot: Shot) -> set[str]:
    """The winks of ``mat`` that ``shot`` moves (as :func:`moved` counts them)."""
    after = merge(spec, mat, shot.winks).mat
    out: set[str] = set()
    for old, new in zip(mat, after, strict=True):
        if old.place is not new.place or (
            old.place is Place.FIELD and math.hypot(new.x - old.x, new.y - old.y) > MOVED_MM
        ):
            out.add(old.id)
    return out
