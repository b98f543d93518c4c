"""Same observations: the mat analysis of ``bench.mat``'s frames, from two
versions of ``vision``, field by field.

Dump this tree's observations, then another's, then compare::

    .venv/bin/python -m bench.mat_identity dump --first 1000 --frames 200 --out /tmp/b.json
    (cd DIR && /path/.venv/bin/python -m bench.mat_identity dump ... --out /tmp/m.json)
    .venv/bin/python -m bench.mat_identity compare /tmp/m.json /tmp/b.json

``DIR`` holds the other version (e.g. ``git archive main | tar -x -C DIR``,
with a copy of this script under ``bench/``); ``python -m`` puts the
working directory first on ``sys.path``, so the dump says which ``vision``
it imported. ``dump --workers N`` reads the still's crops in ``N`` worker
processes (:mod:`vision.mat.pool`): compared with a dump of the same tree
without, it shows the pool changes nothing. The frames, rigs and stills
are ``bench.mat``'s (the second look at piles included; ``--video-only``
leaves it out). Compared: every field of every seen wink (colour, size, x,
y, index, on, covered, level, in_field, on_mat, pot_distance_mm, fit_mm),
the pot (x, y, rim, potted counts, colour areas) and the calibration RMS;
floats to 1e-9 (exact equality is counted too).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

import vision
from bench.mat import _still
from vision.mat.analyse import MatAnalyser
from vision.mat.camera import calibrate_mat
from vision.mat.model import MatObservation, SeenWink
from vision.mat.pool import CropPool
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import random_scene

Record = dict[str, Any]
TOLERANCE = 1e-9


def record(obs: MatObservation) -> Record:
    """The observation as JSON (floats exactly: JSON keeps a float's repr)."""
    winks = []
    for w in obs.winks:
        row: Record = {}
        for f in fields(SeenWink):
            v = getattr(w, f.name)
            row[f.name] = v.value if f.name == "colour" else list(v) if f.name == "on" else v
        winks.append(row)
    pot = None
    if obs.pot is not None:
        pot = {"x": obs.pot.x, "y": obs.pot.y, "rim_mm": obs.pot.rim_mm,
               "potted": {c.value: n for c, n in sorted(obs.pot.potted.items(),
                                                        key=lambda kv: kv[0].value)},
               "areas": {c.value: a for c, a in sorted(obs.pot.areas.items(),
                                                       key=lambda kv: kv[0].value)}}  # fmt: skip
    return {"winks": winks, "pot": pot, "calibration_rms_mm": obs.calibration_rms_mm,
            "notes": list(obs.notes)}  # fmt: skip


def dump(first: int, frames: int, closer: bool = True, pool: CropPool | None = None
         ) -> list[Record]:  # fmt: skip
    """The observations of ``bench.mat``'s frames ``first`` .. ``first + frames - 1``;
    ``pool``: the still's crops read in its workers."""
    out = []
    for seed in range(first, first + frames):
        rig = MatRig.make(seed=seed)
        scene = random_scene(np.random.default_rng(seed))
        frame = render(rig, scene, seed=seed)
        analyser = MatAnalyser(calibrate_mat(frame), pool=pool)
        look = _still(rig, scene, seed) if closer else None
        out.append({"seed": seed, **record(analyser.analyse(frame, look))})
    return out


def _diff(a: Any, b: Any, where: str, out: list[str], counts: dict[str, int]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}.{k}: only in {'second' if k not in a else 'first'}")
            else:
                _diff(a[k], b[k], f"{where}.{k}", out, counts)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} items against {len(b)}")
        for k, (x, y) in enumerate(zip(a, b, strict=False)):
            _diff(x, y, f"{where}[{k}]", out, counts)
    elif isinstance(a, float) and isinstance(b, float):
        counts["floats"] += 1
        if a == b or (a != a and b != b):
            counts["exact"] += 1
        elif abs(a - b) > TOLERANCE:
            out.append(f"{where}: {a!r} against {b!r}")
        else:
            counts["close"] += 1
    else:
        counts["other"] += 1
        if type(a) is not type(b) or a != b:
            out.append(f"{where}: {a!r} against {b!r}")


def compare(a: list[Record], b: list[Record]) -> tuple[list[str], dict[str, int]]:
    """The differences between two dumps, and how many fields were compared."""
    out: list[str] = []
    counts = {"floats": 0, "exact": 0, "close": 0, "other": 0}
    _diff(a, b, "", out, counts)
    return out, counts


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--first", type=int, default=1000, help="the first seed")
    d.add_argument("--frames", type=int, default=200)
    d.add_argument("--video-only", action="store_true")
    d.add_argument("--workers", type=int, default=0,
                   help="read the still's crops in this many worker processes "
                   "(vision.mat.pool; default 0: all in this process)")  # fmt: skip
    d.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.cmd == "dump":
        print(f"vision from {vision.__file__}; crop workers {args.workers}")
        with CropPool(args.workers) as pool:
            rows = dump(args.first, args.frames, not args.video_only, pool)
        args.out.write_text(json.dumps(rows))
        print(f"{len(rows)} frames, {sum(len(r['winks']) for r in rows)} winks -> {args.out}")
        return
    diffs, counts = compare(json.loads(args.a.read_text()), json.loads(args.b.read_text()))
    for line in diffs[:50]:
        print(line)
    print(f"{len(diffs)} differences; {counts['floats']} floats compared "
          f"({counts['exact']} exactly equal, {counts['close']} within {TOLERANCE}), "
          f"{counts['other']} other fields")  # fmt: skip


if __name__ == "__main__":
    main()
