"""The first-played wink of a shot, from the camera's previews (5(b)): the
wink the shot was played with, which fouls (12(a), 12(b)) and free turns (11)
are judged on. Docs: docs/tiddlywinks.md, "The first wink from the previews".

:class:`FirstWink` is fed by :class:`vision.mat.settle.ShotWatch` at every
preview. Only at a preview in which the settle detector saw motion does it
look closer (quiet previews cost nothing): the pixels that changed since the
preview before (light fitted out, the noise measured, as the detector does:
:func:`vision.mat.settle.changed_mask`) are set against each wink's disc
where the engine's mat has it, projected into the preview. The first
preview in which some disc changed names the first wink.

It stays None, with the reason in :attr:`ShotWatch.first_note`, when:

- two winks' discs changed in the same preview (a wink hit at once, or a
  touching pair), or the wink that changed first did not move in the shot
  (something passed over it: an unmoved wink changed as early);
- a hand was over the mat first: a changed blob outside every wink of more
  than :data:`HAND_MM2` (a 22 mm wink is 380 mm^2);
- something changed where no wink's place is known before any wink did, or
  a wink whose place is not known moved in the shot.

A wink behind its baseline (not played yet) has no place in the engine's
mat; its place is where the camera last saw it (:meth:`FirstWink.saw`: the
last still read, of a shot, of a settled mat on which nothing moved, or of
the squidge-off). Those winks are watched by colour and size (which of two
blue 16 mm winks behind the baseline is ``b3`` is only settled by the shot's
naming): when one changes first, the first wink is the one wink of that
colour and size that came out in the shot. A wink of a colour and size not
every one of which was seen there is a place not known.

On a real table the player's hand and squidger come over the mat before the
wink moves, so the first wink is often None there: it is a help, not a rule.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from controller.games.tiddlywinks.events import Shot
from controller.games.tiddlywinks.geometry import (
    Colour,
    Mat,
    MatSpec,
    Place,
    Wink,
    over_baseline,
    wink_size,
)
from vision.mat.camera import MatCalibration
from vision.mat.model import MatObservation
from vision.mat.settle import Mask, MatSettle, SettleSettings, changed_mask, moved_ids

HAND_MM2 = 3000.0
"""A changed blob outside the winks bigger than this (mm^2 of mat) is a hand."""
DISC_PX = 3
"""Changed pixels (at the detector's size) in a wink's disc that make it changed."""
MARGIN_PX = 1.0
"""Added to a wink's radius in pixels: its edge blurs into the felt."""
SAME_MM = 3.0
"""A wink seen behind the baseline this close to a played wink of its colour
and size is that wink (the engine has its place)."""
_Kind = tuple[Colour, int]
_Place = tuple[Colour, int, float, float]


class FirstWink:
    """Which wink changed first since the mat last settled."""

    def __init__(
        self, calibration: MatCalibration, size: tuple[int, int], settings: SettleSettings
    ) -> None:
        """``size``: the previews' (width, height); ``settings``: the detector's."""
        f = max(1, round(size[0] / settings.width))
        self.scale = size[0] / calibration.size[0] / f
        self.calibration = calibration
        self.settings = settings
        px = calibration.px_per_mm(0.0, 0.0) * self.scale
        self.hand_px = HAND_MM2 * px * px
        self._mat: Mat | None = None
        self._discs: list[tuple[str, slice, slice, Mask]] = []
        self._union: Mask | None = None
        self.behind: tuple[_Place, ...] = ()
        """(colour, size, x, y) of each wink last seen behind its baseline."""
        self.read = False
        """Whether a still has been read since this watcher was made."""
        self._kinds: dict[str, _Place] = {}
        self._known: set[_Kind] = set()
        self.reset()

    def saw(self, obs: MatObservation, spec: MatSpec) -> None:
        """A still was read: the winks behind their baselines lie as it shows."""
        self.read = True
        self.behind = tuple(
            (w.colour, w.size, w.x, w.y)
            for w in obs.winks
            if w.on_mat
            and not over_baseline(
                spec, Wink(f"{w.colour.value[0]}{1 if w.size == 22 else 3}", Place.FIELD, w.x, w.y)
            )
        )
        self._union = None  # the discs again at the next preview

    def _behind(self, mat: Mat) -> list[tuple[str, Colour, int, float, float]]:
        """The unplayed winks' places: (label, colour, size, x, y)."""
        played = [w for w in mat if w.place is Place.FIELD]
        unplayed: dict[_Kind, int] = {}
        for w in mat:
            if w.place is Place.BASELINE:
                kind = (w.colour, wink_size(w.id))
                unplayed[kind] = unplayed.get(kind, 0) + 1
        out = []
        for colour, size, x, y in self.behind:
            if unplayed.get((colour, size), 0) == 0 or any(
                w.colour is colour
                and wink_size(w.id) == size
                and math.hypot(w.x - x, w.y - y) <= SAME_MM
                for w in played
            ):
                continue
            label = f"a {colour.value} {size} mm wink behind the baseline at ({x:.0f}, {y:.0f})"
            out.append((label, colour, size, x, y))
        self._kinds = {label: (c, size, x, y) for label, c, size, x, y in out}
        seen = [(c, size) for _, c, size, _, _ in out]
        self._known = {k for k, n in unplayed.items() if seen.count(k) == n}
        return out

    def reset(self) -> None:
        """A new shot: the mat has settled."""
        self.changed: tuple[str, ...] | None = None
        self.hand = False
        self.elsewhere = False

    def _prepare(self, mat: Mat, shape: tuple[int, int]) -> None:
        if self._mat is mat and self._union is not None and self._union.shape == shape:
            return
        h, w = shape
        union = np.zeros(shape, np.uint8)
        discs: list[tuple[str, slice, slice, Mask]] = []
        places = [(w.id, w.x, w.y, w.radius) for w in mat if w.place is Place.FIELD]
        places += [(label, x, y, size / 2) for label, _, size, x, y in self._behind(mat)]
        for wid, wx, wy, radius in places:
            ((u, v),) = self.calibration.to_pixels(np.array([[wx, wy]]))
            cx, cy = (u + 0.5) * self.scale - 0.5, (v + 0.5) * self.scale - 0.5
            r = radius * self.calibration.px_per_mm(wx, wy) * self.scale + MARGIN_PX
            x0, x1 = max(0, int(cx - r)), min(w, int(cx + r) + 2)
            y0, y1 = max(0, int(cy - r)), min(h, int(cy + r) + 2)
            if x0 >= x1 or y0 >= y1:
                continue
            yy, xx = np.mgrid[y0:y1, x0:x1]
            disc = np.asarray((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r)
            discs.append((wid, slice(y0, y1), slice(x0, x1), disc))
            cv2.circle(union, (round(cx), round(cy)), round(r + 1.5), 1, -1)
        self._mat, self._discs, self._union = mat, discs, np.asarray(union > 0)

    def feed(self, settle: MatSettle, t_ns: int, mat: Mat) -> None:
        """After ``settle`` took the preview of ``t_ns``; ``mat``: the engine's."""
        if self.changed is not None or settle.last_motion_ns != t_ns:
            return
        before, after = settle.previous, settle.current
        if before is None or after is None or before.grey.shape != after.grey.shape:
            return
        shape = (after.grey.shape[0], after.grey.shape[1])
        mask = changed_mask(before, after, settle.reduced_region(shape), self.settings)
        self._prepare(mat, shape)
        assert self._union is not None
        hit = tuple(
            wid for wid, ys, xs, disc in self._discs
            if np.count_nonzero(mask[ys, xs] & disc) >= DISC_PX
        )  # fmt: skip
        outside = mask & ~self._union
        if np.count_nonzero(outside) >= self.settings.min_area:
            n, _, stats, _ = cv2.connectedComponentsWithStats(
                outside.astype(np.uint8), connectivity=8
            )
            if n > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) >= self.hand_px:
                self.hand = True
            elif not hit:
                self.elsewhere = True
        if hit:
            self.changed = hit

    def candidate(self) -> str | None:
        """The wink that changed first, if only one did and its id is known
        (not one behind the baseline: the shot's naming settles that)."""
        if self.changed is None or len(self.changed) != 1 or self.changed[0] in self._kinds:
            return None
        return self.changed[0]

    def _moved(self, changed: str, ids: set[str]) -> bool:
        """Whether the wink of a disc that changed moved in the shot: for one
        behind the baseline, no wink of its kind lies there in the still
        read after the shot (:meth:`saw`)."""
        place = self._kinds.get(changed)
        if place is None:
            return changed in ids
        colour, size, x, y = place
        return not any(
            (c, s) == (colour, size) and math.hypot(bx - x, by - y) <= SAME_MM
            for c, s, bx, by in self.behind
        )

    def verdict(self, spec: MatSpec, mat: Mat, shot: Shot) -> tuple[str | None, str]:
        """(the first-played wink or None, why None) for ``shot`` on ``mat``."""
        ids = moved_ids(spec, mat, shot)
        out = [w for w in mat if w.id in ids and w.place is not Place.FIELD]
        unknown = [w.id for w in out if (w.colour, wink_size(w.id)) not in self._known]
        if self.hand:
            return None, "a hand was over the mat before the first wink moved"
        if self.elsewhere:
            return None, "something moved where no wink's place is known before any wink did"
        if self.changed is None:
            return None, "no wink was seen to move in the previews"
        moved = [c for c in self.changed if self._moved(c, ids)]
        if len(self.changed) > 1 and len(moved) != 1:
            return None, f"{', '.join(self.changed)} changed in the same preview"
        if not moved:
            first = self.changed[0]
            return None, f"{first} changed first but did not move (something passed over it)"
        first = moved[0]  # of winks that changed at once, the one that moved in the shot
        place = self._kinds.get(first)
        if place is not None:  # from behind the baseline: the one of its kind that came out
            same = [w.id for w in out if (w.colour, wink_size(w.id)) == place[:2]]
            if len(same) != 1:
                return None, f"{first} changed first; {len(same)} such winks came out"
            first = same[0]
        if unknown:
            return None, (
                f"{', '.join(unknown)} moved from a place not known "
                "(behind the baseline, not seen there)"
            )
        return first, ""
