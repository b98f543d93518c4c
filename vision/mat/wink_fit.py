"""One wink's fitted circle, as every step of the mat analysis passes it
(:mod:`vision.mat.winks` finds them, :mod:`vision.mat.voting` votes them
again, :mod:`vision.mat.onefit` weeds them)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.games.tiddlywinks.geometry import Colour
from vision.mat import relations
from vision.mat.layout import WINK_THICKNESS_MM


@dataclass(frozen=True, slots=True)
class Fit:
    """One wink's circle in mat mm (its face ``level`` winks up)."""

    colour: Colour
    size: int
    x: float
    y: float
    rms: float
    """The edge points' RMS distance from the circle, mm (of a voted circle,
    that of the points it holds: :attr:`voted`)."""
    whole: bool
    """The whole edge was seen (the radius was fitted too)."""
    row: int
    """The candidate's row in the picture's :class:`EdgeSet` (-1: none)."""
    depth: float
    """How far the candidate lay inside its colour's blob, px."""
    blob: int = -1
    """The candidate's blob of all colours (:class:`~vision.mat.segment.Candidate`; -1: none)."""
    voted: bool = False
    """A circle voted by part of the candidate's edge points
    (:func:`~vision.mat.voting.vote`). From session 12 to 15 such a circle
    carried its RMS negated, and the rules were tuned on what that did: a
    voted circle passed every RMS bar and ranked before every other fit in
    a sort by RMS (of two, the looser first). Each site says in the open
    what it keeps of that; since session 15 :func:`~vision.mat.winks.find_winks`
    holds a still's voted circles to its RMS bar like any partial fit
    (docs/tiddlywinks-vision.md, under "A second look at the piles")."""

    def circle(self, level: int = 0) -> relations.Circle:
        """x, y, radius, face height."""
        return (self.x, self.y, self.size / 2, WINK_THICKNESS_MM * (level + 1))


def signed_rms(f: Fit) -> float:
    """``f.rms`` as the sorts and comparisons of fits by RMS read it
    (:func:`~vision.mat.onefit.dedupe`, :func:`~vision.mat.onefit.twins`,
    :func:`~vision.mat.onefit.unhinted`): negated for a voted circle, which
    so ranks before every other fit, and of two voted ones the looser first,
    as they were tuned on (:attr:`Fit.voted`)."""
    return -f.rms if f.voted else f.rms
