"""The benchmark's scoring: recall over the relations decidable from above."""

from __future__ import annotations

import math

import pytest

from controller.games.tiddlywinks.geometry import Colour
from vision.mat.model import MatObservation, SeenWink
from vision.mat.synth.compare import Tally, overlap_shows, tally
from vision.mat.synth.scene import MatScene, TrueWink


def _lens(r1: float, r2: float, d: float) -> float:
    """The area of two discs' overlap (mm²)."""
    a = r1 * r1 * math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
    b = r2 * r2 * math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
    return a + b - 0.5 * math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))


# g2 on the mat, y4 on it (3 mm overlap), b1 on both over the whole of their
# overlap; apart, r3 on r1 with nothing over them.
G2 = TrueWink("g2", 500.0, 300.0, 0)
Y4 = TrueWink("y4", 500.0 + 11 + 8 - 3, 300.0, 1)
B1 = TrueWink("b1", 500.0 + 11 - 1.5, 300.0, 2)
R1 = TrueWink("r1", 800.0, 300.0, 0)
R3 = TrueWink("r3", 800.0 + 11 + 8 - 4, 300.0, 1)
SCENE = MatScene((G2, Y4, B1, R1, R3))


def test_a_clear_overlap_shows_whole() -> None:
    assert overlap_shows(R3, R1, SCENE.field()) == pytest.approx(_lens(8, 11, 15), rel=0.02)


def test_an_overlap_under_a_third_wink_shows_nothing() -> None:
    assert overlap_shows(Y4, G2, SCENE.field()) < 0.3
    # the top wink's own overlaps show (b1 is seen lying there)
    assert overlap_shows(B1, G2, SCENE.field()) > 50


def _seen(t: TrueWink, index: int, on: tuple[int, ...] = ()) -> SeenWink:
    colour = {"b": Colour.BLUE, "g": Colour.GREEN, "r": Colour.RED, "y": Colour.YELLOW}[t.id[0]]
    return SeenWink(colour, 22 if t.id[1] in "12" else 16, t.x, t.y, index, on, level=t.level)


def test_recall_is_also_given_over_decidable_relations() -> None:
    # b1 on g2 and y4 seen; y4/g2 said neither on top (hidden); r3 on r1 missed
    obs = MatObservation(
        (_seen(G2, 0), _seen(Y4, 1), _seen(B1, 2, (0, 1)), _seen(R1, 3), _seen(R3, 4)), None
    )
    t = Tally()
    tally(obs, SCENE, t)
    assert (t.squops_true, t.squops_right) == (4, 2)
    assert (t.squops_decidable, t.squops_decidable_right) == (3, 2)
    assert len(t.hidden) == 1 and t.hidden[0].startswith("y4 on g2")
