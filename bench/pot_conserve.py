"""The cross-check by conservation on rendered shots (issue 8): does a shot
that pots a wink get it named potted, and does a shot that loses a wink
(not into the pot) keep it out of the pot?

``python -m bench.pot_conserve --first F --frames N``: for each seed whose
random scene has potted winks, its top potted wink (nothing lies on it) is
taken as the wink played. The still before the shot shows the pot without
it (the wink on the field); two stills after: the scene as drawn (the wink
potted) and the pot unchanged (the wink lost: hidden on the mat, say).
The mat is read perfectly (every other wink seen where it lies, so only
the pot decides); the pot's counts and areas come from the real analysis
of each still's crop of the opening (the sensor's noise drawn afresh for
each still). Each shot is named by ``to_sightings`` without the pot
before (the counter alone, as before session 11) and with it (the
cross-check, :data:`vision.mat.convert.RISE_MM2`).
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

from bench.mat import _still
from controller.games.tiddlywinks.geometry import wink_colour, wink_size
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import calibrate_mat
from vision.mat.convert import to_sightings
from vision.mat.model import MatObservation, PotView, SeenWink
from vision.mat.pot import find_pot
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import MatScene, TrueWink, random_scene

ON_FIELD = (0.0, -250.0)
"""Where the wink played lay before the shot (clear of the pot)."""


def pot_view(rig: MatRig, scene: MatScene, seed: int) -> PotView | None:
    """The pot as the analysis sees it in ``scene`` (counts and areas from
    the still's crop of the opening; ``seed``: the noise's draw)."""
    frame = render(rig, scene, seed=seed)
    analyser = MatAnalyser(calibrate_mat(frame))
    grey = np.asarray(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), np.uint8)
    pot = find_pot(grey, analyser.cal, analyser.layout.spec)
    if pot is None:
        return None
    look = _still(rig, scene, seed)
    return analyser.pot_view(frame, look, pot)


def _seen(scene: MatScene) -> tuple[SeenWink, ...]:
    """Every wink on the mat, read perfectly."""
    return tuple(SeenWink(wink_colour(w.id), wink_size(w.id), w.x, w.y, i)
                 for i, w in enumerate(w for w in scene.winks if not w.potted))  # fmt: skip


def shots(seed: int) -> tuple[str, bool, tuple[bool, bool], tuple[bool, bool]] | None:
    """One seed's two shots: the wink played, whether its colour's count
    rose when it was potted, and (old, new) whether it was named potted
    when potted and when lost; None when the scene pots nothing or the pot
    is not seen."""
    rig, after = MatRig.make(seed=seed), random_scene(np.random.default_rng(seed))
    if not after.potted():
        return None
    top = max(after.potted(), key=lambda w: w.level)
    others = tuple(w for w in after.winks if w.id != top.id)
    before = MatScene((*others, TrueWink(top.id, *ON_FIELD)), after.spec)
    lost = MatScene(others, after.spec)
    views = [pot_view(rig, s, n) for s, n in ((before, seed + 1), (after, seed), (lost, seed + 2))]
    if any(v is None for v in views):
        return None
    pot_before, pot_after, pot_lost = views
    mat = before.mat()
    out = []
    for pot in (pot_after, pot_lost):
        obs = MatObservation(_seen(lost), pot)
        old = to_sightings(obs, mat, top.id)
        new = to_sightings(obs, mat, top.id, pot_before)
        out.append(tuple(any(s.id == top.id and s.potted for s in c.sightings)
                         for c in (old, new)))  # fmt: skip
    colour = wink_colour(top.id)
    assert pot_before is not None and pot_after is not None
    rose = pot_after.potted.get(colour, 0) > pot_before.potted.get(colour, 0)
    return top.id, rose, (out[0][0], out[0][1]), (out[1][0], out[1][1])


def main() -> None:
    """Command line: the tally over a range of seeds."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--frames",
        type=int,
        default=200,
        help="seeds to try (those with potted winks count; default 200)",
    )
    parser.add_argument(
        "--first",
        type=int,
        default=1000,
        help="the first seed (default 1000, an evaluation range; tuning: 32000-34999, >= 40000)",
    )
    args = parser.parse_args()
    n = rose = 0
    potted = [0, 0]
    potted_flat = [0, 0]
    false = [0, 0]
    for seed in range(args.first, args.first + args.frames):
        got = shots(seed)
        if got is None:
            continue
        wid, up, named, lost = got
        n += 1
        rose += up
        for k in (0, 1):
            potted[k] += named[k]
            potted_flat[k] += named[k] and not up
            false[k] += lost[k]
        if not (named[1] and not lost[1]):
            print(f"[{seed}] {wid}: count rose {up}, named potted (old, new) {named}, "
                  f"lost as potted {lost}")  # fmt: skip
    print(f"seeds {args.first}-{args.first + args.frames - 1}: {n} shots potting a wink "
          f"({rose} raised its colour's count); named potted old {potted[0]}, new {potted[1]} "
          f"(of the {n - rose} with no rise: old {potted_flat[0]}, new {potted_flat[1]}); "
          f"{n} shots losing it: named potted old {false[0]}, new {false[1]}")  # fmt: skip


if __name__ == "__main__":
    main()
