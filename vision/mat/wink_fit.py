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
    """The edge points' RMS distance from the circle, mm; negative for a
    circle voted by part of them (:func:`~vision.mat.voting.vote`: a slip of session 12 that
    the rules now lean on, so it is kept; the observation reports its size)."""
    whole: bool
    """The whole edge was seen (the radius was fitted too)."""
    row: int
    """The candidate's row in the picture's :class:`EdgeSet` (-1: none)."""
    depth: float
    """How far the candidate lay inside its colour's blob, px."""
    blob: int = -1
    """The candidate's blob of all colours (:class:`~vision.mat.segment.Candidate`; -1: none)."""

    def circle(self, level: int = 0) -> relations.Circle:
        """x, y, radius, face height."""
        return (self.x, self.y, self.size / 2, WINK_THICKNESS_MM * (level + 1))
