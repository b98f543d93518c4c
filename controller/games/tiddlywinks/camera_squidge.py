"""The squidge-off (5(a)) from the mat camera (docs/tiddlywinks.md, "The
squidge-off from the camera").

The **line-up** is the mat as the camera sees it before anyone squidges: the
first still of the squidge-off (every wink behind its baseline), or after a
tie the first settled still on which no wink of a tied colour lies in front of
its baseline any more (the tied winks have been picked up). Each later look
(a settled mat, or at once on the shot button) is compared with it, wink by
wink of each colour and size:

- a wink still within :data:`STILL_MM` of a line-up wink has not moved;
- a wink elsewhere has *come out from behind its baseline* when it now lies
  wholly in front of it on the mat, or beyond the mat's edge (off the mat);
- a line-up wink seen nowhere now is potted when the pot shows one more wink
  of its colour than it did; otherwise it left the mat, but only when the pot
  is seen empty and there are no piles (it could be hidden in the pot or
  under another wink): else the umpire decides.

A colour is **done** when exactly one of its winks came out. While a colour
waits, or something is for the umpire, the :class:`Squidge` carries
``pending`` (the reasons) and the engine gives a 5(a) notice each time they
change; once every colour in contention is done, the squidge is judged. The
camera's squidges are journaled like any input (a replay reads no frame), and
so is the line-up (:class:`~.events.Lineup`, :meth:`SquidgeWatch.lineup_winks`):
after a restart the round goes on against it (:meth:`SquidgeWatch.resume`).

>>> from controller.games.tiddlywinks.geometry import Colour
>>> from vision.mat.model import MatObservation, PotView, SeenWink
>>> pot = PotView(0.0, 0.0, 24.0)
>>> lineup = MatObservation((SeenWink(Colour.BLUE, 22, -880.0, 430.0, 0),), pot)
>>> watch = SquidgeWatch(MatSpec())
>>> watch.look(lineup, 0, (Colour.BLUE,)) is None  # the line-up
True
>>> out = MatObservation((SeenWink(Colour.BLUE, 22, 100.0, 0.0, 0),), pot)
>>> watch.look(out, 1, (Colour.BLUE,)).winks
(Sighting(id='b1', x=100.0, y=0.0, potted=False, off=False, on=()),)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.tiddlywinks.events import Sighting, Squidge
from controller.games.tiddlywinks.geometry import (
    COLOURS,
    Colour,
    MatSpec,
    Place,
    Wink,
    over_baseline,
    squidge_nearest,
    wink_colour,
    wink_size,
)
from vision.mat.model import MatObservation, PotView, SeenWink

STILL_MM = 3.0
"""A wink within this of where it lay in the line-up has not moved (the
analysis is good to about 0.5 mm; a squidged wink moves hundreds of mm)."""


def _id(colour: Colour, size: int) -> str:
    """The squidge-off id of a wink of ``colour`` and ``size`` (b1 22 mm, b3 16 mm)."""
    return f"{colour.value[0]}{1 if size == 22 else 3}"


def _front(spec: MatSpec, w: SeenWink) -> bool:
    """Whether ``w`` lies on the mat wholly in front of its own baseline."""
    return w.on_mat and over_baseline(spec, Wink(_id(w.colour, w.size), Place.FIELD, w.x, w.y))


@dataclass(frozen=True, slots=True)
class _Moves:
    """What one colour's winks did since the line-up."""

    out: list[Sighting]
    """Winks that came out from behind the baseline (in front, off, potted)."""
    nowhere: list[str]
    """Winks seen nowhere that may or may not have left the mat."""
    strays: list[SeenWink]
    """Line-up winks that moved though they were not behind the baseline."""


def _pair_still(
    before: list[SeenWink], now: list[SeenWink]
) -> tuple[list[SeenWink], list[SeenWink]]:
    """(line-up winks that moved away, winks now at a new place): the rest
    are paired, nearest first, within :data:`STILL_MM`."""
    pairs = sorted(
        (math.hypot(a.x - b.x, a.y - b.y), i, j)
        for i, a in enumerate(before)
        for j, b in enumerate(now)
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    for d, i, j in pairs:
        if d > STILL_MM:
            break
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
    gone = [a for i, a in enumerate(before) if i not in used_a]
    new = [b for j, b in enumerate(now) if j not in used_b]
    return gone, new


def _nearest(winks: list[SeenWink], to: SeenWink) -> SeenWink:
    return min(winks, key=lambda w: math.hypot(w.x - to.x, w.y - to.y))


def _potted(obs: MatObservation, colour: Colour) -> int:
    return 0 if obs.pot is None else obs.pot.potted.get(colour, 0)


class SquidgeWatch:
    """The camera's squidge-off: :meth:`look` at each settled still (or the
    shot button's), given the colours in contention."""

    def __init__(self, spec: MatSpec, tie_mm: float = 0.0) -> None:
        """``tie_mm``: the match's ``squidge_tie_mm`` (what ties, in the notices)."""
        self.spec = spec
        self.tie_mm = tie_mm
        self.lineup: MatObservation | None = None
        self.contenders: tuple[Colour, ...] = ()
        self._last: Squidge | None = None
        self.handed = False
        """The line-up has been handed to the engine (journaled) or taken from it."""

    def begin(self, contenders: Sequence[Colour]) -> bool:
        """A new round when the colours in contention change (the start, a
        tie): the line-up is taken again. True when a round has just begun."""
        if tuple(contenders) == self.contenders:
            return False
        self.contenders, self.lineup, self._last = tuple(contenders), None, None
        self.handed = False
        return True

    def look(
        self, obs: MatObservation, t_ns: int, contenders: Sequence[Colour], *, again: bool = False
    ) -> Squidge | None:
        """The squidge-off as ``obs`` shows it against the line-up: None while
        this is the line-up (or none can be taken yet), and for the same
        squidge as last time unless ``again`` (the shot button)."""
        self.begin(contenders)
        if self.lineup is None:
            if self._lineup_ok(obs):
                self.lineup = obs
            return None
        squidge = self.judge(obs, t_ns)
        last, self._last = self._last, squidge
        if (
            not again
            and last is not None
            and (last.winks, last.pending)
            == (
                squidge.winks,
                squidge.pending,
            )
        ):
            return None
        return squidge

    def lineup_winks(self) -> tuple[Sighting, ...]:
        """The line-up as the sightings a :class:`~.events.Lineup` journals:
        each wink on or off the mat, then one potted sighting per wink of a
        colour seen in the pot."""
        lineup = self.lineup
        assert lineup is not None
        winks = [
            Sighting(_id(w.colour, w.size), round(w.x, 2), round(w.y, 2), off=not w.on_mat)
            for w in lineup.winks
        ]
        for c in COLOURS:
            winks += [Sighting(_id(c, 22), potted=True)] * _potted(lineup, c)
        return tuple(winks)

    def resume(self, contenders: Sequence[Colour], winks: Sequence[Sighting]) -> None:
        """Go on with the round under way against its journaled line-up
        (:meth:`lineup_winks`; a restarted service), not the mat as it lies."""
        self.begin(contenders)
        seen = tuple(
            SeenWink(
                wink_colour(s.id), wink_size(s.id), s.x or 0.0, s.y or 0.0, i, on_mat=not s.off
            )
            for i, s in enumerate(w for w in winks if not w.potted)
        )
        potted: dict[Colour, int] = {}
        for s in winks:
            if s.potted:
                potted[wink_colour(s.id)] = potted.get(wink_colour(s.id), 0) + 1
        spec = self.spec
        self.handed = True
        self.lineup = MatObservation(
            seen, PotView(spec.pot_x_mm, spec.pot_y_mm, spec.pot_rim_mm, potted)
        )

    def _lineup_ok(self, obs: MatObservation) -> bool:
        """The first round's line-up is the mat as it is; after a tie, no
        wink of a tied colour may lie in front of its baseline."""
        if self.contenders == COLOURS:
            return True
        return not any(w.colour in self.contenders and _front(self.spec, w) for w in obs.winks)

    def _moves(self, obs: MatObservation, colour: Colour) -> _Moves:
        lineup = self.lineup
        assert lineup is not None
        out: list[Sighting] = []
        strays: list[SeenWink] = []
        vanished: list[str] = []
        for size in (22, 16):
            before = [w for w in lineup.winks if w.colour is colour and w.size == size]
            now = [w for w in obs.winks if w.colour is colour and w.size == size]
            gone, new = _pair_still(before, now)
            here = [w for w in gone if _front(self.spec, w) or not w.on_mat]
            for w in here:  # the wink nearest a stray's old place is the stray, moved
                if new:
                    new.remove(_nearest(new, w))
                    gone.remove(w)
            strays += here
            for w in new:
                if not w.on_mat:
                    out.append(Sighting(_id(colour, size), round(w.x, 2), round(w.y, 2), off=True))
                elif _front(self.spec, w):
                    out.append(Sighting(_id(colour, size), round(w.x, 2), round(w.y, 2)))
            vanished += [_id(colour, size)] * max(0, len(gone) - len(new))
        gained = max(0, _potted(obs, colour) - _potted(lineup, colour))
        potted, nowhere = vanished[:gained], vanished[gained:]
        out += [Sighting(wid, potted=True) for wid in potted]
        if nowhere and self._surely_off(obs):
            out += [Sighting(wid, off=True) for wid in nowhere]
            nowhere = []
        return _Moves(out, nowhere, strays)

    @staticmethod
    def _surely_off(obs: MatObservation) -> bool:
        """A wink seen nowhere left the mat only if it can be nowhere else:
        the pot seen empty and no piles to hide it."""
        return obs.pot is not None and not any(obs.pot.potted.values()) and not obs.piles()

    def judge(self, obs: MatObservation, t_ns: int) -> Squidge:
        """The squidge input ``obs`` gives against the line-up."""
        first_round = self.contenders == COLOURS
        moves = {c: self._moves(obs, c) for c in self.contenders}
        done = {c: m.out[0] for c, m in moves.items() if len(m.out) == 1 and not m.nowhere}
        reasons: list[str] = []
        for c, m in moves.items():
            if first_round and m.strays:
                where = ", ".join(f"({w.x:.0f}, {w.y:.0f})" for w in m.strays)
                reasons.append(
                    f"a {c.value} wink moved that was not behind the baseline (from {where}): "
                    "the umpire decides"
                )
            if len(m.out) + len(m.nowhere) > 1:
                reasons.append(
                    f"{len(m.out) + len(m.nowhere)} {c.value} winks came out: one wink of each "
                    "colour is squidged; the umpire decides"
                )
        for c, m in moves.items():
            if m.nowhere and len(m.out) + len(m.nowhere) == 1:
                reasons.append(f"{m.nowhere[0]} is seen nowhere: {self._if_off(c, done)}")
        waiting = [
            c.value for c, m in moves.items() if not m.out and not m.nowhere and c not in done
        ]
        if waiting:
            reasons.append(f"waiting for {', '.join(waiting)}")
        winks = tuple(done[c] for c in self.contenders if c in done)
        return Squidge(t_ns=t_ns, winks=winks, pending=tuple(reasons))

    def _if_off(self, colour: Colour, done: dict[Colour, Sighting]) -> str:
        """What follows if ``colour``'s wink seen nowhere left the mat."""
        others = [c for c in self.contenders if c is not colour]
        if not all(c in done for c in others):
            return "if it left the mat it is furthest from the pot; the umpire decides"
        entries = [
            (
                Wink(s.id, Place.POTTED if s.potted else Place.FIELD, s.x or 0.0, s.y or 0.0),
                s.off,
            )
            for s in (*(done[c] for c in others), Sighting(_id(colour, 22), off=True))
        ]
        nearest = squidge_nearest(self.spec, entries, self.tie_mm)
        who = " and ".join(c.value for c in nearest)
        verb = "wins" if len(nearest) == 1 else "tie"
        return f"if it left the mat, {who} {verb} (the umpire decides)"
