"""What the mat analysis hands out: plain Python values, no OpenCV types.

>>> w = SeenWink(Colour.BLUE, 22, 10.0, 20.0)
>>> w.radius
11.0
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.games.tiddlywinks.geometry import Colour


@dataclass(frozen=True, slots=True)
class SeenWink:
    """One wink found on the mat (or the table round it).

    ``index`` numbers the winks of one observation; ``on`` lists the indices
    of the winks it lies on. ``covered`` is true when another wink lies over
    part of it (its centre is then fitted to the part seen). ``in_field`` and
    ``pot_distance_mm`` come from the engine's geometry
    (:func:`~controller.games.tiddlywinks.geometry.in_field`,
    :func:`~controller.games.tiddlywinks.geometry.pot_distance`).
    """

    colour: Colour
    size: int
    x: float
    y: float
    index: int = 0
    on: tuple[int, ...] = ()
    covered: bool = False
    level: int = 0
    in_field: bool = True
    on_mat: bool = True
    pot_distance_mm: float = 0.0
    fit_mm: float = 0.0
    """The RMS distance of the edge points from the fitted circle."""

    @property
    def radius(self) -> float:
        """Half the size, mm."""
        return self.size / 2


@dataclass(frozen=True, slots=True)
class PotView:
    """The pot as seen: its centre (mat mm), rim radius and what is inside."""

    x: float
    y: float
    rim_mm: float
    potted: dict[Colour, int] = field(default_factory=dict)
    """Winks of each colour seen through the opening (hidden ones are not counted)."""
    areas: dict[Colour, float] = field(default_factory=dict)
    """How much of each colour shows through the opening (mm² at the potted
    winks' height): a wink potted onto one of its colour may not be counted
    (no edge seen between them), but its colour's area rises
    (:func:`vision.mat.convert.to_sightings`). Empty: not measured."""


@dataclass(frozen=True, slots=True)
class MatObservation:
    """Everything one frame shows of the mat."""

    winks: tuple[SeenWink, ...]
    pot: PotView | None
    calibration_rms_mm: float = 0.0
    notes: tuple[str, ...] = ()

    def piles(self) -> list[tuple[int, ...]]:
        """Indices of the winks connected by squops, each pile sorted."""
        links: dict[int, set[int]] = {}
        for w in self.winks:
            for below in w.on:
                links.setdefault(w.index, set()).add(below)
                links.setdefault(below, set()).add(w.index)
        seen: set[int] = set()
        out = []
        for start in sorted(links):
            if start in seen:
                continue
            group, todo = set(), [start]
            while todo:
                i = todo.pop()
                if i not in group:
                    group.add(i)
                    todo += links[i]
            seen |= group
            out.append(tuple(sorted(group)))
        return out
