"""An observation applied to the mat: what moved, what was potted, what left.

>>> from controller.games.tiddlywinks.geometry import new_mat
>>> m = merge(MatSpec(), new_mat(), (Sighting("b1", 100.0, 0.0), Sighting("g3", potted=True)))
>>> m.potted, m.left, [w.place.value for w in m.mat[:2]]
(('g3',), (), ['field', 'baseline'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.tiddlywinks.events import Sighting
from controller.games.tiddlywinks.geometry import (
    WINK_IDS,
    Mat,
    MatSpec,
    Place,
    Wink,
    in_field,
    over_baseline,
)


@dataclass(frozen=True, slots=True)
class Merged:
    """The mat after an observation, and what the observation showed."""

    mat: Mat
    potted: tuple[str, ...] = ()
    """Winks newly potted (5(c))."""
    left: tuple[str, ...] = ()
    """Winks that left the field of play (7(a))."""
    behind: tuple[str, ...] = ()
    """Unplayed winks still wholly or partly behind their baseline (5(a))."""
    repotted: tuple[str, ...] = ()
    """Potted winks seen outside the pot: they go back in (5(c))."""


def _seen(old: Wink, seen: Sighting, spec: MatSpec) -> tuple[Wink, str | None]:
    """The wink as now seen, and what happened to it (a :class:`Merged` field)."""
    if old.place is Place.POTTED:
        return old, None if seen.potted else "repotted"
    if seen.potted:
        return Wink(old.id, Place.POTTED), "potted"
    x = old.x if seen.x is None else seen.x
    y = old.y if seen.y is None else seen.y
    wink = Wink(old.id, Place.FIELD, x, y, seen.on)
    if old.place is Place.BASELINE and not seen.off and not over_baseline(spec, wink):
        return Wink(old.id, Place.BASELINE, x, y), "behind"
    if seen.off or not in_field(spec, wink):
        return wink, "left"
    return wink, None


def merge(spec: MatSpec, mat: Mat, sightings: Sequence[Sighting]) -> Merged:
    """``mat`` with every sighted wink updated; unsighted winks stay put."""
    by_id = {s.id: s for s in sightings}
    winks: list[Wink] = []
    happened: dict[str, list[str]] = {"potted": [], "left": [], "behind": [], "repotted": []}
    for old in mat:
        seen = by_id.get(old.id)
        if seen is None:
            winks.append(old)
            continue
        wink, what = _seen(old, seen, spec)
        winks.append(wink)
        if what is not None:
            happened[what].append(wink.id)
    return Merged(
        mat=tuple(winks),
        potted=tuple(happened["potted"]),
        left=tuple(happened["left"]),
        behind=tuple(happened["behind"]),
        repotted=tuple(happened["repotted"]),
    )


def place_winks(spec: MatSpec, mat: Mat, sightings: Sequence[Sighting]) -> Mat:
    """``mat`` with winks set where they were put by hand (not a shot):
    potted, in play, or (for an unplayed wink) back behind its baseline."""
    by_id = {s.id: s for s in sightings}
    out: list[Wink] = []
    for old in mat:
        seen = by_id.get(old.id)
        if seen is None:
            out.append(old)
        elif seen.potted:
            out.append(Wink(old.id, Place.POTTED))
        else:
            x = old.x if seen.x is None else seen.x
            y = old.y if seen.y is None else seen.y
            wink = Wink(old.id, Place.FIELD, x, y, seen.on)
            if old.place is Place.BASELINE and not over_baseline(spec, wink):
                wink = Wink(old.id, Place.BASELINE, x, y)
            out.append(wink)
    return tuple(out)


def order_check(ids: Sequence[str]) -> None:
    """Raise ValueError for an unknown or repeated wink id."""
    seen: set[str] = set()
    for wid in ids:
        if wid not in WINK_IDS:
            raise ValueError(f"{wid!r} is not a wink id")
        if wid in seen:
            raise ValueError(f"{wid!r} is listed twice")
        seen.add(wid)
