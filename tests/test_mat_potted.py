"""Potted winks: the benchmark's truth for what the pot's opening shows, and
the counter (vision/mat/pot.py)."""

from __future__ import annotations

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.model import MatObservation, PotView
from vision.mat.synth.compare import Tally, potted_bounds, potted_shows, tally
from vision.mat.synth.scene import MatScene, TrueWink

EYE = (-6.0, 11.0, 1960.0)
# r2 on the pot's floor with b1 over most of it: a 10 mm red crescent shows
# (seed 1039); y3 wholly under g1, which also lies on b1's edge.
CRESCENT = MatScene((TrueWink("r2", 0.4, 5.2, 0, True), TrueWink("b1", 3.5, -4.8, 1, True)))
HIDDEN = MatScene((TrueWink("y3", -2.0, 1.0, 0, True), TrueWink("g1", -2.0, 1.5, 1, True)))


def _counts(**n: int) -> MatObservation:
    return MatObservation((), PotView(0.0, 0.0, 24.0, {Colour(c): k for c, k in n.items()}))


def test_a_crescent_past_the_wink_above_must_be_counted() -> None:
    shows = potted_shows(CRESCENT, EYE)
    assert 9.0 < shows["r2"] < 11.5 and shows["b1"] > 21.0
    assert potted_bounds(CRESCENT, EYE) == {"red": (1, 1), "blue": (1, 1)}
    t = Tally()
    tally(_counts(red=1, blue=1), CRESCENT, t, eye=EYE)
    tally(_counts(blue=1), CRESCENT, t, eye=EYE)  # the crescent missed
    assert (t.potted_frames, t.potted_right) == (2, 1)


def test_a_wholly_hidden_wink_cannot_be_counted() -> None:
    assert potted_shows(HIDDEN, EYE)["y3"] == 0.0
    assert potted_bounds(HIDDEN, EYE) == {"yellow": (0, 0), "green": (1, 1)}
    t = Tally()
    tally(_counts(green=1), HIDDEN, t, eye=EYE)
    tally(_counts(green=1, yellow=1), HIDDEN, t, eye=EYE)  # one not seen is counted
    assert (t.potted_frames, t.potted_right) == (2, 1)


def test_a_sliver_may_be_counted_or_not() -> None:
    # b3 (16 mm) under g1 (22 mm) off by 4 mm: about 1 mm of blue shows
    scene = MatScene((TrueWink("b3", 0.0, 0.0, 0, True), TrueWink("g1", 4.0, 0.0, 1, True)))
    shows = potted_shows(scene)
    assert 0.0 < shows["b3"] < 6.0
    assert potted_bounds(scene) == {"blue": (0, 1), "green": (1, 1)}
