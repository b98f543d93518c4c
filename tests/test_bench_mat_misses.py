"""bench.mat --misses lists the squops seen that are not true (false
squops) beside the true ones missed, each with what is true of the pair."""

from __future__ import annotations

from bench.mat_misses import listed, wink_lines
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


# g1 (22 mm) lies on b1 and y1 (22 mm each), y1 on b1: their overlap lies
# wholly under g1, so from above neither can be said to be on the other.
PILE = MatScene((
    TrueWink("b1", 0.0, 0.0), TrueWink("y1", 19.0, 0.0, 1), TrueWink("g1", 9.5, 0.0, 2),
))  # fmt: skip


def test_an_open_pair_whose_overlap_is_hidden_is_told_from_one_not_linked() -> None:
    winks = (SeenWink(Colour.BLUE, 22, 0.0, 0.0, 0, ()),
             SeenWink(Colour.YELLOW, 22, 19.0, 0.0, 1, ()),
             SeenWink(Colour.GREEN, 22, 9.5, 0.0, 2, (0, 1)))  # fmt: skip
    obs = MatObservation(winks, None)
    hidden = [(m.upper, m.lower, m.cause) for m in listed(7, PILE, obs, obs, [])]
    assert hidden == [("y1", "b1", "open, overlap hidden")]
    shown = MatScene((TrueWink("b1", 0.0, 0.0), TrueWink("y1", 19.0, 0.0, 1)))
    two = MatObservation(winks[:2], None)
    assert [m.cause for m in listed(7, shown, two, two, [])] == ["not linked"]


def test_winks_got_wrong_are_listed_by_kind() -> None:
    """``bench.mat --wrong``: a size error, a wink seen in another colour (the
    tally counts that as missed and false), a wink missed, a false wink (at
    200 mm, where nothing lies)."""
    scene = MatScene((
        TrueWink("b1", 0.0, 0.0), TrueWink("y1", 50.0, 0.0), TrueWink("r3", 100.0, 0.0),
        TrueWink("g1", 150.0, 0.0),
    ))  # fmt: skip
    winks = (SeenWink(Colour.BLUE, 16, 0.2, 0.0, 0),  # b1 at the wrong size
             SeenWink(Colour.RED, 22, 50.0, 0.3, 1),  # y1 seen red
             SeenWink(Colour.GREEN, 22, 150.1, 0.0, 2),  # g1 right
             SeenWink(Colour.BLUE, 22, 200.0, 0.0, 3))  # fmt: skip
    lines = wink_lines(7, scene, MatObservation(winks, None))
    assert lines == [
        "[7] SIZE b1 seen as 16 mm at 0.2 mm",
        "[7] COLOUR y1 (uncovered, level 0, at 50.0, 0.0): seen red 22 at 0.3 mm",
        "[7] MISSED r3 (uncovered, level 0, at 100.0, 0.0): seen -",
        "[7] FALSE blue 22 at 200.0, 0.0: nearest true g1 at 50.0 mm",
    ]
