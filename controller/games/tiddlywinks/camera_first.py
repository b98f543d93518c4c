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
  a wink whose place is not known (behind its baseline: the engine has no
  position for it) moved in the shot.

On a real table the player's hand and squidger come over the mat before the
wink moves, so the first wink is often None there: it is a help, not a rule.
"""

from __future__ import annotations

import cv2
import numpy as np

from controller.games.tiddlywinks.events import Shot
from controller.games.tiddlywinks.geometry import Mat, MatSpec, Place
from vision.mat.camera import MatCalibration
from vision.mat.settle import Mask, MatSettle, SettleSettings, changed_mask, moved_ids

HAND_MM2 = 3000.0
"""A changed blob outside the winks bigger than this (mm^2 of mat) is a hand."""
DISC_PX = 3
"""Changed pixels (at the detector's size) in a wink's disc that make it changed."""
MARGIN_PX = 1.0
"""Added to a wink's radius in pixels: its edge blurs into the felt."""


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
        self.reset()

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
        for wink in mat:
            if wink.place is not Place.FIELD:
                continue
            ((u, v),) = self.calibration.to_pixels(np.array([[wink.x, wink.y]]))
            cx, cy = (u + 0.5) * self.scale - 0.5, (v + 0.5) * self.scale - 0.5
            r = wink.radius * self.calibration.px_per_mm(wink.x, wink.y) * self.scale + MARGIN_PX
            x0, x1 = max(0, int(cx - r)), min(w, int(cx + r) + 2)
            y0, y1 = max(0, int(cy - r)), min(h, int(cy + r) + 2)
            if x0 >= x1 or y0 >= y1:
                continue
            yy, xx = np.mgrid[y0:y1, x0:x1]
            disc = np.asarray((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r)
            discs.append((wink.id, slice(y0, y1), slice(x0, x1), disc))
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
        """The wink that changed first, if only one did."""
        return self.changed[0] if self.changed is not None and len(self.changed) == 1 else None

    def verdict(self, spec: MatSpec, mat: Mat, shot: Shot) -> tuple[str | None, str]:
        """(the first-played wink or None, why None) for ``shot`` on ``mat``."""
        ids = moved_ids(spec, mat, shot)
        unknown = [w.id for w in mat if w.id in ids and w.place is not Place.FIELD]
        if self.hand:
            return None, "a hand was over the mat before the first wink moved"
        if self.elsewhere:
            return None, "something moved where no wink's place is known before any wink did"
        if self.changed is None:
            return None, "no wink was seen to move in the previews"
        if len(self.changed) > 1:
            return None, f"{', '.join(self.changed)} changed in the same preview"
        first = self.changed[0]
        if first not in ids:
            return None, f"{first} changed first but did not move (something passed over it)"
        if unknown:
            return None, f"{', '.join(unknown)} moved from a place not known (behind the baseline)"
        return first, ""
