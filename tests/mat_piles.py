"""Rendered piles seen by the mat analysis, for the pile tests
(test_mat_piles, test_mat_rings, test_mat_still, test_mat_reread,
test_mat_one_colour)."""

from __future__ import annotations

import math

from vision.mat.analyse import analyse
from vision.mat.model import MatObservation
from vision.mat.render import MatRig, render
from vision.mat.synth.compare import match
from vision.mat.synth.scene import MatScene, TrueWink


def pile(*winks: tuple[str, float, float, int]) -> MatScene:
    """A scene of winks given as (id, x mm, y mm, level)."""
    return MatScene(tuple(TrueWink(i, x, y, level) for i, x, y, level in winks))


def benched(
    scene: MatScene, rig_seed: int, noise: int | None = None
) -> tuple[MatObservation, dict[int, TrueWink]]:
    """``scene`` seen with rig ``rig_seed`` and the frame's noise drawn from
    ``noise`` (the still's from ``noise`` + 100,000), by default the
    benchmark's (``rig_seed``); and its match to the truth."""
    rig = MatRig.make(seed=rig_seed)
    draw = rig_seed if noise is None else noise
    still = lambda box: render(rig.still(box), scene, seed=draw + 100_000)  # noqa: E731
    obs = analyse(render(rig, scene, seed=draw), still=still)
    return obs, match(obs, scene)


def off_mm(obs: MatObservation, m: dict[int, TrueWink]) -> float:
    """The largest centre error of the winks matched to the truth, mm."""
    return max(math.hypot(obs.winks[i].x - t.x, obs.winks[i].y - t.y) for i, t in m.items())


def sizes(obs: MatObservation, m: dict[int, TrueWink]) -> list[tuple[str, int]]:
    """Each matched wink's true id with the size it was seen at, by id."""
    return sorted((t.id, obs.winks[i].size) for i, t in m.items())
