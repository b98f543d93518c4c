"""Squidge-off scenes with ground truth (5(a)): the line-up behind the
baselines, and the mat after each colour has squidged one wink.

>>> import numpy as np
>>> rng = np.random.default_rng(3)
>>> winks = lineup(rng, MatSpec())
>>> len(winks), all(not over_baseline(MatSpec(), _as_wink(w)) for w in winks)
(24, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    MatSpec,
    Place,
    Wink,
    baseline_depth,
    over_baseline,
    squidge_nearest,
    wink_colour,
    wink_size,
)
from vision.mat.synth.scene import CLEAR_MM, MatScene, TrueWink, overlap

EDGE_MM = 4.0
"""A lined-up wink keeps this clear of the mat's edges."""


def _as_wink(w: TrueWink) -> Wink:
    return Wink(w.id, Place.POTTED if w.potted else Place.FIELD, w.x, w.y)


def _clear(w: TrueWink, placed: Sequence[TrueWink], gap: float = CLEAR_MM) -> bool:
    return all(overlap(w, o) < -gap for o in placed if o.potted == w.potted)


def lineup(rng: np.random.Generator, spec: MatSpec, colours: Sequence[Colour] = COLOURS,
           placed: Sequence[TrueWink] = ()) -> list[TrueWink]:  # fmt: skip
    """Each colour's six winks wholly behind its baseline, apart, on the mat."""
    out: list[TrueWink] = []
    hx, hy = spec.length_mm / 2, spec.width_mm / 2
    for colour in colours:
        cx, cy = spec.corner(colour)
        for n in range(1, 7):
            wid = f"{colour.value[0]}{n}"
            r = wink_size(wid) / 2
            for _ in range(2000):
                x = cx - math.copysign(float(rng.uniform(r + EDGE_MM, 130)), cx)
                y = cy - math.copysign(float(rng.uniform(r + EDGE_MM, 230)), cy)
                w = TrueWink(wid, x, y)
                inside = abs(x) + r + EDGE_MM <= hx and abs(y) + r + EDGE_MM <= hy
                if (
                    inside
                    and baseline_depth(spec, colour, x, y) > r + 1
                    and _clear(w, [*placed, *out], 3.0)
                ):
                    out.append(w)
                    break
            else:
                raise ValueError(f"no room behind the baseline for {wid}")
    return out


@dataclass(frozen=True, slots=True)
class SquidgeRun:
    """A squidge-off: the line-up, the mat after it, and the true result."""

    before: MatScene
    after: MatScene
    winners: tuple[Colour, ...]
    """The colours nearest the pot (more than one: a tie)."""
    played: dict[Colour, str]
    """The wink each colour squidged."""


def _landing(rng: np.random.Generator, spec: MatSpec, wid: str, placed: list[TrueWink],
             kind: str) -> TrueWink:  # fmt: skip
    r = wink_size(wid) / 2
    for _ in range(2000):
        if kind == "potted":
            a, d = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 12.0 - r / 2))
            w = TrueWink(wid, spec.pot_x_mm + d * math.cos(a), spec.pot_y_mm + d * math.sin(a),
                         0, True)  # fmt: skip
            level = max((o.level + 1 for o in placed if o.potted and overlap(w, o) > 0), default=0)
            return TrueWink(wid, w.x, w.y, level, True)
        a = float(rng.uniform(0, 2 * math.pi))
        d = float(rng.uniform(19 + r + 3, 19 + r + 250)) if kind == "near" else 0.0
        if kind == "near":
            x, y = spec.pot_x_mm + d * math.cos(a), spec.pot_y_mm + d * math.sin(a)
        else:
            x = float(rng.uniform(-spec.length_mm / 2 + 120, spec.length_mm / 2 - 120))
            y = float(rng.uniform(-spec.width_mm / 2 + 30, spec.width_mm / 2 - 30))
        w = TrueWink(wid, x, y)
        if (
            abs(x) + r < spec.length_mm / 2
            and abs(y) + r < spec.width_mm / 2
            and over_baseline(spec, _as_wink(w))
            and _clear(w, [o for o in placed if not o.potted], 3.0)
            and math.hypot(x, y) > 19 + r + 2
        ):
            return w
    raise ValueError(f"no place for {wid}")


def squidge_run(
    rng: np.random.Generator,
    spec: MatSpec | None = None,
    *,
    colours: Sequence[Colour] = COLOURS,
    twice: Colour | None = None,
) -> SquidgeRun:
    """A line-up of every colour, then one wink of each of ``colours``
    squidged (near the pot, anywhere in front of the baseline, now and then
    into the pot); ``twice``: that colour squidges two winks (for the umpire)."""
    spec = spec or MatSpec()
    before = lineup(rng, spec)
    after = list(before)
    played: dict[Colour, str] = {}
    for colour in colours:
        ids = [w.id for w in before if wink_colour(w.id) is colour]
        picks = rng.choice(len(ids), size=2 if colour is twice else 1, replace=False)
        for k in picks:
            wid = ids[int(k)]
            kind = "potted" if rng.uniform() < 0.1 else ("near" if rng.uniform() < 0.7 else "any")
            rest = [w for w in after if w.id != wid]
            after = [*rest, _landing(rng, spec, wid, rest, kind)]
            played.setdefault(colour, wid)
    entries = [(_as_wink(next(w for w in after if w.id == played[c])), False) for c in colours]
    winners = squidge_nearest(spec, entries)
    order = {w.id: i for i, w in enumerate(before)}
    after.sort(key=lambda w: order[w.id])
    return SquidgeRun(MatScene(tuple(before), spec), MatScene(tuple(after), spec), winners, played)
