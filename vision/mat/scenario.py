"""Frame-level tiddlywinks scenarios: a ``shot`` or a ``squidge`` whose winks
come from a picture of the mat, run through the real analysis.

```toml
[[input]]
at = 12.0
type = "shot"
wink = "b1"
frame = "frames/shot-3.png"     # a photo (relative to this file): calibrated from its markers

[[input]]
at = 20.0
type = "shot"
wink = "g2"
[input.frame]                   # or a render made on the fly: camera from `rig`, noise from `seed`
rig = 4
seed = 9
winks = [{ id = "g2", x = 120.0, y = -40.0 },
         { id = "r3", x = 126.0, y = -35.0, level = 1 },   # lies on g2
         { id = "b4", potted = true }]
```

A render draws the listed winks only (unlisted winks are not on the mat);
``level`` stacks a wink on those below it. Either way the analysis
(:mod:`vision.mat.analyse`) measures the frame and :mod:`vision.mat.convert`
names the winks from the mat as the file's earlier inputs left it (the
parse carries that mat: :class:`controller.games.tiddlywinks.scenario.FileParser`
passes it in), so ids follow the winks from shot to shot.

A ``squidge`` with a ``frame`` (and, for a resquidge, ``colours``: those
still in contention) takes each colour's squidge-off wink from the frame:
:func:`squidge_sightings`.

This module imports OpenCV only when a frame is read, so a scenario without
frames needs none.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.games.tiddlywinks.events import Sighting
from controller.games.tiddlywinks.geometry import (
    WINK_IDS,
    Colour,
    Mat,
    MatSpec,
    Place,
    Wink,
    over_baseline,
)
from controller.strict import Table

if TYPE_CHECKING:
    from vision.mat.model import MatObservation, SeenWink


def _render_spec(table: Table, spec: MatSpec) -> Any:
    from vision.mat.synth.scene import MatScene, TrueWink

    winks = []
    for i, entry in table.tables("winks"):
        w = Table(dict(entry), table.source, f"{table.where}: winks[{i}]", table._error)
        wid = w.string("id")
        if wid not in WINK_IDS:
            raise w.fail("id", f"{wid!r} is not a wink id")
        potted = w.boolean("potted", False)
        x = w.number("x", 0.0 if potted else None, minimum=-1200.0, maximum=1200.0)
        y = w.number("y", 0.0 if potted else None, minimum=-700.0, maximum=700.0)
        level = w.integer("level", 0, minimum=0)
        w.finish()
        winks.append(
            TrueWink(wid, x + spec.pot_x_mm * potted, y + spec.pot_y_mm * potted, level, potted)
        )
    return MatScene(tuple(winks), spec)


def _observe(table: Table, spec: MatSpec) -> MatObservation:
    """The mat analysis of the input's ``frame`` (a path or a render)."""
    try:
        from vision.mat.analyse import analyse
        from vision.mat.layout import MatLayout
        from vision.mat.render import MatRig, render
        from vision.sources import read_image
    except ImportError as exc:
        raise table.fail(
            "frame", f"frame inputs need OpenCV and numpy (tableref[vision]): {exc}"
        ) from None
    from vision.model import VisionError

    layout = MatLayout(spec)
    try:
        if table.has("frame") and isinstance(table.raw("frame"), str):
            frame = read_image(Path(table.source).parent / table.string("frame"))
            return analyse(frame, layout=layout)
        sub = table.table("frame")
        assert sub is not None
        rig = MatRig.make(sub.integer("rig", 1), layout=layout)
        seed = sub.integer("seed", 1)
        scene = _render_spec(sub, spec)
        sub.finish()
        return analyse(render(rig, scene, seed=seed), layout=layout, hfov_deg=rig.hfov_deg)
    except VisionError as exc:
        raise table.fail("frame", str(exc)) from None


def frame_sightings(table: Table, mat: Mat, spec: MatSpec) -> tuple[Sighting, ...]:
    """The winks of the ``frame`` key of a shot input (a path or a render),
    named from ``mat``: the mat as the winks lay before this shot."""
    from vision.mat.convert import to_sightings

    obs = _observe(table, spec)
    played = table.raw("wink", None)
    return to_sightings(obs, mat, played if isinstance(played, str) else None).sightings


def squidge_sightings(
    table: Table, spec: MatSpec, colours: Sequence[Colour]
) -> tuple[Sighting, ...]:
    """The squidge-off winks of ``colours`` in the ``frame`` of a squidge input (5(a)).

    Every other wink lies behind its baseline; the one a colour squidged is
    the wink of that colour seen in the pot, or on the mat wholly in front of
    its own baseline (its size gives its id: ``b1`` 22 mm, ``b3`` 16 mm);
    with neither, it went off the mat (seen beyond the edge, or not at all).
    Two candidates of one colour are for the umpire: the input is refused.
    """
    obs = _observe(table, spec)
    shown = obs.pot.potted if obs.pot is not None else {}
    out = []
    for colour in colours:
        front = [w for w in obs.winks if w.colour is colour and w.on_mat
                 and over_baseline(spec, _as_wink(w))]  # fmt: skip
        potted = shown.get(colour, 0)
        if len(front) + potted > 1:
            where = ", ".join(f"({w.x:.0f}, {w.y:.0f})" for w in front) or "nowhere"
            raise table.fail(
                "frame",
                f"{len(front) + potted} {colour.value} winks could be its squidge-off wink "
                f"({potted} in the pot; in front of the baseline at {where}): one wink of "
                "each colour is squidged (the umpire decides)",
            )
        if potted:
            out.append(Sighting(f"{colour.value[0]}1", potted=True))
        elif front:
            w = front[0]
            out.append(Sighting(_as_wink(w).id, round(w.x, 2), round(w.y, 2)))
        else:
            out.append(Sighting(f"{colour.value[0]}1", off=True))
    return tuple(out)


def _as_wink(w: SeenWink) -> Wink:
    """A seen wink as the engine's wink: the first id of its colour and size."""
    return Wink(f"{w.colour.value[0]}{1 if w.size == 22 else 3}", Place.FIELD, w.x, w.y)
