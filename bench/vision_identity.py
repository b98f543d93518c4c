"""Same verdicts: the analyser's observations on rendered landings, from two
versions of ``vision``, field by field.

Dump this tree's observations, then another's, then compare::

    .venv/bin/python -m bench.vision_identity dump --seed 7 --landings 400 --out /tmp/b7.json
    (cd DIR && python -m bench.vision_identity dump --seed 7 --landings 400 --out /tmp/m7.json)
    .venv/bin/python -m bench.vision_identity compare /tmp/m7.json /tmp/b7.json

``DIR`` holds the other version's ``vision`` package and a copy of this
script under ``bench/`` (e.g. ``git archive main vision | tar -x -C DIR``).
The landings are ``bench.vision``'s (``trials`` on rigs ``seed * 1000 + r``,
100 a rig). Compared: found, posture, face, zone (in/out), verdict, position,
coin size, axis ratio, confidence, scores (to 1e-9; exact equality is
counted too), the reasons, and the evidence crop's pixels (the PNG decoded).
Why 1e-9: before ``coinface.gradient`` (2026-11-23, round 7) the face scores
were not bit-for-bit repeatable even on one version (main against itself:
133 of 300 float fields on 100 landings differed, by at most 6.1e-10). The
cause was ``cv2.magnitude``, not ``warpPolar`` as first thought: its results
moved by an ulp with its buffers' alignment. With the gradient by NumPy the
same analysis run twice on each of 700 landings (rigs 50000-50002 and
80000-80003, one process) gave bit-for-bit equal fields; two versions that
compute a gradient differently still differ by ulps, which the tolerance
allows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.model import Observation

Record = dict[str, Any]
FLOATS = ("x_mm", "y_mm", "confidence", "coin_px", "axis_ratio")


def record(obs: Observation) -> Record:
    """The observation as JSON (floats exactly: JSON keeps a float's repr)."""
    pixels, data = b"", obs.crop  # (encoded when asked: ask once)
    if data:
        img = np.asarray(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED))
        pixels = img.tobytes() + repr(img.shape).encode()
    return {
        "found": obs.found,
        "posture": obs.posture.value,
        "face": obs.face.value,
        "zone": None if obs.zone is None else obs.zone.value,
        "in_area": obs.in_area,
        "verdict": obs.verdict,
        **{k: getattr(obs, k) for k in FLOATS},
        "scores": dict(obs.scores),
        "reasons": list(obs.reasons),
        "crop_pixels": hashlib.sha256(pixels).hexdigest(),
    }


def dump(seed: int, landings: int, per_rig: int = 100) -> list[Record]:
    """The records of ``landings`` landings of ``bench.vision``'s seed ``seed``."""
    from vision.synth.trial import trials

    out: list[Record] = []
    for r in range(max(1, landings // per_rig)):
        out += [record(t.observation) for t in trials(seed * 1000 + r, per_rig)]
    return out


def differences(a: list[Record], b: list[Record]) -> tuple[list[str], int]:
    """Every field that differs (floats by more than 1e-9), and how many
    float fields were not bit-for-bit equal."""
    if len(a) != len(b):
        return [f"{len(a)} landings against {len(b)}"], 0
    diffs, inexact = [], 0
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        for key in x:
            u: Any = x[key]
            v: Any = y.get(key)
            if key in FLOATS or key == "scores":
                pairs = (
                    [(u, v)]
                    if key in FLOATS
                    else [(u.get(k), v.get(k)) for k in u.keys() | v.keys()]
                )
                for p, q in pairs:
                    if p != q:
                        inexact += 1
                    if (p is None) != (q is None) or (
                        p is not None and abs(float(p) - float(q)) > 1e-9
                    ):
                        diffs.append(f"landing {i}: {key} {u} != {v}")
            elif u != v:
                diffs.append(f"landing {i}: {key} {u} != {v}")
    return diffs, inexact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="write this tree's verdicts of a seed's landings to a file")
    d.add_argument("--seed", type=int, default=7, help="rigs SEED*1000 onwards (default 7)")
    d.add_argument("--landings", type=int, default=400, help="landings, 100 a rig (default 400)")
    d.add_argument("--out", type=Path, required=True, help="the file to write")
    c = sub.add_parser("compare", help="print every field two dumps differ in")
    c.add_argument("a", type=Path, help="one dump")
    c.add_argument("b", type=Path, help="the other dump")
    args = parser.parse_args()
    if args.cmd == "dump":
        args.out.write_text(json.dumps(dump(args.seed, args.landings)))
        return
    a, b = json.loads(args.a.read_text()), json.loads(args.b.read_text())
    diffs, inexact = differences(a, b)
    verdicts = {v: sum(r["verdict"] == v for r in b) for v in {r["verdict"] for r in b}}
    print(f"{len(a)} landings; verdicts {verdicts}")
    print(f"float fields not bit-for-bit equal: {inexact}")
    print(f"differences: {len(diffs)}")
    for line in diffs[:20]:
        print("  " + line)
    raise SystemExit(1 if diffs else 0)


if __name__ == "__main__":
    main()
