"""An observation as the tiddlywinks engine's ``shot`` input.

A frame does not say which blue 16 mm wink is ``b3`` and which ``b5``: ids
come from the mat as it was before (each wink takes the id of the nearest
wink of its colour and size there), or in order when nothing is known.
A wink not seen on the mat is potted when the pot shows a wink of its
colour not yet accounted for; otherwise it is left out of the observation
(the engine keeps it where it was) and named in the notes for the umpire.
The cross-check by conservation: a wink seen nowhere, with no more of its
colour counted in the pot but its colour's area in the pot's opening risen
since the observation before the shot (:data:`RISE_MM2`), was potted onto
one of its colour with no edge seen between them: it is potted, and noted.

>>> from controller.games.tiddlywinks.geometry import Colour, new_mat
>>> obs = MatObservation((SeenWink(Colour.BLUE, 22, 100.0, 5.0, 0),), None)
>>> [(s.id, s.x, s.y) for s in to_sightings(obs, new_mat()).sightings]
[('b1', 100.0, 5.0)]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from controller.games.tiddlywinks.events import Sighting
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    WINK_IDS,
    Colour,
    Mat,
    Place,
    Wink,
    new_mat,
)
from controller.model import JSON
from vision.mat.model import MatObservation, PotView, SeenWink

UNKNOWN_MM = 10_000.0
"""The cost of giving a seen wink the id of a wink whose place is unknown."""
RISE_MM2 = 25.0
"""A colour's area in the pot's opening risen by at least this since the
observation before the shot (:attr:`PotView.areas`) is a wink of that
colour potted, counted or not. On tuning seeds 32000-32499 (410 shots: each
scene's top potted wink on the field for the still before; bench/RESULTS.md,
session 11 b-potted): another draw of the sensor's noise moves a colour's
area by at most 11.3 mm² (p99 7.5), a wink of another colour potted raises
it by at most 6.2; of the 67 shots whose wink's colour counted no more
after them, 61 raised it by 25.6-379 mm², 6 by -1.3-22.6 (landed mostly
within a face of its colour: the umpire is asked)."""


@dataclass(frozen=True, slots=True)
class Converted:
    """The sightings for the engine, whether they cover all 24 winks, and
    what the umpire should look at."""

    sightings: tuple[Sighting, ...]
    complete: bool
    notes: tuple[str, ...] = ()
    weighed: tuple[bool, ...] = ()
    """For each of ``notes``, whether the cross-check by conservation weighed
    the pot in it (its colour's area in the opening): the umpire is then
    shown the opening too."""

    def shot_input(self, wink: str | None = None) -> dict[str, JSON]:
        """The ``shot`` input table (as a scenario file or a command has it)."""
        winks: list[JSON] = []
        for s in self.sightings:
            entry: dict[str, JSON] = {"id": s.id}
            if s.potted:
                entry["potted"] = True
            else:
                entry["x"], entry["y"] = round(s.x or 0.0, 2), round(s.y or 0.0, 2)
                if s.on:
                    entry["on"] = list(s.on)
            winks.append(entry)
        out: dict[str, JSON] = {"winks": winks}
        if self.complete:
            out["complete"] = True
        if wink is not None:
            out["wink"] = wink
        return out


def _ids(colour: Colour, size: int) -> list[str]:
    numbers = (1, 2) if size == 22 else (3, 4, 5, 6)
    return [f"{colour.value[0]}{n}" for n in numbers]


def _assign(seen: list[SeenWink], ids: list[str], before: dict[str, tuple[float, float] | None],
            played: str | None) -> dict[int, str]:  # fmt: skip
    """Seen winks to ids, least total movement (at most 4 of a kind: brute force).
    The wink played is the one that moved, so of winks whose place is not
    known it is the last to be given to a wink seen."""

    def cost(w: SeenWink, wid: str) -> float:
        at = before.get(wid)
        if at is None:
            return UNKNOWN_MM + (wid == played)
        return math.hypot(w.x - at[0], w.y - at[1])

    best: tuple[float, tuple[str, ...]] | None = None
    n = min(len(seen), len(ids))
    for perm in itertools.permutations(ids, n):
        total = sum(cost(w, wid) for w, wid in zip(seen[:n], perm, strict=True))
        if best is None or total < best[0]:
            best = (total, perm)
    return {} if best is None else {w.index: wid for w, wid in zip(seen[:n], best[1], strict=True)}


def to_sightings(
    obs: MatObservation, previous: Mat | None = None, played: str | None = None,
    pot_before: PotView | None = None,
) -> Converted:  # fmt: skip
    """The observation as sightings, ids taken from ``previous``; ``played``
    is the wink squidged first, when known; ``pot_before``: the pot as seen with
    the winks as in ``previous`` (the cross-check by conservation, :func:`_unseen`)."""
    mat = previous or new_mat()
    by_id = {w.id: w for w in mat}
    before = {w.id: (w.x, w.y) if _placed(w) else None for w in mat}
    names: dict[int, str] = {}
    notes: list[tuple[str, bool]] = []  # (note, whether the pot was weighed in it)
    for colour in COLOURS:
        for size in (22, 16):
            seen = [w for w in obs.winks if w.colour is colour and w.size == size]
            ids = [i for i in _ids(colour, size) if by_id[i].place is not Place.POTTED]
            if len(seen) > len(ids):
                notes.append(
                    (
                        f"{len(seen)} {colour.value} {size} mm winks seen, {len(ids)} not potted",
                        False,
                    )
                )
            names |= _assign(sorted(seen, key=lambda w: w.index), ids, before, played)
    out = [Sighting(names[w.index], w.x, w.y, on=_below(w, names))
           for w in obs.winks if w.index in names]  # fmt: skip
    out += _unseen(obs, mat, set(names.values()), notes, played, pot_before)
    out.sort(key=lambda s: WINK_IDS.index(s.id))
    return Converted(tuple(out), len(out) == len(WINK_IDS), tuple(n for n, _ in notes),
                     tuple(w for _, w in notes))  # fmt: skip


def _placed(w: Wink) -> bool:
    """Whether the mat says where ``w`` lies: on the field, or behind its
    baseline once a still has shown it there (the engine keeps where an
    unplayed wink was seen; (0, 0), the pot's centre, is no place for one).
    Unplaced, a wink behind its baseline would lose its id to a wink gone
    from the field (into the pot) whose id costs only the distance."""
    return w.place is Place.FIELD or (w.place is Place.BASELINE and (w.x, w.y) != (0.0, 0.0))


def _below(w: SeenWink, names: dict[int, str]) -> tuple[str, ...]:
    return tuple(sorted((names[i] for i in w.on if i in names), key=WINK_IDS.index))


def _unseen(obs: MatObservation, mat: Mat, named: set[str], notes: list[tuple[str, bool]],
            played: str | None, before: PotView | None) -> list[Sighting]:  # fmt: skip
    """Winks not seen on the mat: potted ones stay potted; as many more as
    the pot shows go in, the wink played first, then winks that were in play,
    then unplayed ones. When the pot shows no more of a colour than were
    potted, one such wink more goes in (noted) if its colour's area in the
    opening rose (:func:`_rise`)."""
    out: list[Sighting] = []
    shown = obs.pot.potted if obs.pot else {}
    rank = {Place.POTTED: 0, Place.FIELD: 2, Place.BASELINE: 3}
    for colour in COLOURS:
        winks = sorted((w for w in mat if w.colour is colour),
                       key=lambda w: 1 if w.id == played else rank[w.place])  # fmt: skip
        spare = shown.get(colour, 0) - sum(w.place is Place.POTTED for w in winks)
        rise = _rise(obs.pot, before, colour) if spare <= 0 else None
        for w in winks:
            if w.id in named:
                continue
            if w.place is Place.POTTED:
                out.append(Sighting(w.id, potted=True))
            elif spare > 0:
                out.append(Sighting(w.id, potted=True))
                spare -= 1
            elif rise is not None and rise >= RISE_MM2:
                out.append(Sighting(w.id, potted=True))
                note = (f"{w.id} potted: not seen on the mat, no more {colour.value} winks "
                        f"counted in the pot, but {rise:.0f} mm2 more {colour.value} in its "
                        "opening than before the shot")  # fmt: skip
                notes.append((note, True))
                rise = None
            else:
                pot = "" if rise is None else f"; its colour in the pot's opening {rise:+.0f} mm2"
                notes.append((f"{w.id} not seen (lost, or hidden under another wink{pot})",
                              rise is not None))  # fmt: skip
    return out


def _rise(after: PotView | None, before: PotView | None, colour: Colour) -> float | None:
    """How much ``colour``'s area in the pot's opening rose from ``before``
    to ``after`` (mm²); None when either did not measure it."""
    if after is None or before is None or colour not in after.areas or colour not in before.areas:
        return None
    return after.areas[colour] - before.areas[colour]
