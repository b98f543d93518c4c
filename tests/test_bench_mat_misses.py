"""bench.mat --misses lists the squops seen that are not true (false
squops) beside the true ones missed, each with what is true of the pair."""

from __future__ import annotations

from bench.mat_misses import listed
from controller.games.tiddlywinks.geometry import Colour
from vision.mat.model import MatObservation, SeenWink
from vision.mat.synth.scene import MatScene, TrueWink

# y1 lies on b1; r3 merely touches b1 (centres 19 mm apart: radii 11 + 8).
SCENE = MatScene((
    TrueWink("b1", 0.0, 0.0), TrueWink("y1", 15.0, 0.0, 1), TrueWink("r3", 0.0, -19.0),
))  # fmt: skip


def _seen(*on: tuple[int, ...]) -> MatObservation:
    winks = (SeenWink(Colour.BLUE, 22, 0.1, 0.0, 0, on[0]),
             SeenWink(Colour.YELLOW, 22, 15.0, 0.1, 1, on[1]),
             SeenWink(Colour.RED, 16, 0.0, -19.1, 2, on[2]))  # fmt: skip
    return MatObservation(winks, None)


def test_false_squops_are_listed_with_the_truth_of_the_pair() -> None:
    obs = _seen((1,), (), (0,))  # b1 on y1 (upside down), r3 on b1 (touching)
    lines = [m for m in listed(7, SCENE, obs, _seen((), (0,), ()), []) if m.kind == "false"]
    got = {(m.upper, m.lower, m.cause, m.video) for m in lines}
    assert got == {("b1", "y1", "upside down", "right way up"),
                   ("r3", "b1", "touching", "fits apart")}  # fmt: skip
    assert all("FALSE" in m.line() for m in lines)


def test_a_relation_seen_right_is_neither_missed_nor_false() -> None:
    assert listed(7, SCENE, _seen((), (0,), ()), _seen((), (), ()), []) == []
