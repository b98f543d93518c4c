"""Small winks on large ones of their colour, and winks of one colour
squopping each other, read in a still (vision/mat/rings.py, winks.py),
against the renderer's ground truth."""

from __future__ import annotations

import pytest

from vision.mat.analyse import analyse
from vision.mat.model import MatObservation
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import match
from vision.mat.synth.scene import MatScene, TrueWink


def _benched(scene: MatScene, rig_seed: int) -> MatObservation:
    """``scene`` seen with the benchmark's rig and noise seeds."""
    rig = MatRig.make(seed=rig_seed)
    still = lambda box: render(rig.still(box), scene, seed=rig_seed + 100_000)  # noqa: E731
    return analyse(render(rig, scene, seed=rig_seed), still=still)


def _seen(scene: MatScene, rig_seed: int) -> tuple[list[str], set[tuple[str, str]]]:
    """The true ids of the winks seen, and the squops seen between them."""
    obs = _benched(scene, rig_seed)
    m = match(obs, scene)
    pairs = {(m[w.index].id, m[b].id) for w in obs.winks for b in w.on if w.index in m and b in m}
    return sorted(t.id for t in m.values()), pairs


def _truth(scene: MatScene) -> set[tuple[str, str]]:
    return {(w.id, b) for w in scene.field() for b in scene.on(w)}


# From tuning seeds 32282 and 32247: a wink squopped by one of its colour
# whose rim the upper one reaches past. The still fitted a second circle
# through the upper wink's arc beyond the lower one (winks._beyond) of the
# other size than the lower wink's, near it: taken for the wink the video saw
# there, the lower wink was not fitted again from its hint, and was lost
# (32282: r2 22 mm, "a red 16 found 4.3 mm away"; 32247: r4 16 mm taken for
# a 22 mm circle through its arc, read under r5 upside down).
SECOND_CIRCLES = (
    (32282, MatScene((TrueWink("y2", 781.1499, -393.3121), TrueWink("r2", 795.0689, -395.7484, 1),
                      TrueWink("r3", 797.1355, -392.5096, 2)))),
    (32247, MatScene((TrueWink("r2", 598.3617, -42.7068), TrueWink("r4", 575.8778, -40.4739),
                      TrueWink("r5", 573.1267, -31.0499, 1)))),
)  # fmt: skip


@pytest.mark.parametrize("rig_seed, scene", SECOND_CIRCLES)
def test_a_second_circle_of_the_other_size_does_not_stand_for_the_wink_under_it(
    rig_seed: int, scene: MatScene
) -> None:
    ids, pairs = _seen(scene, rig_seed)
    assert ids == sorted(w.id for w in scene.winks)
    assert pairs == _truth(scene)
