"""Which landings ``bench.vision`` misses, one line each: every cleet not
caught, every flat coin called a cleet (a false flag) and every flat coin of
64 px or more whose face was not read, with its rig, landing, true tilt,
axis ratio, position error and the analysis's reasons.

Run: ``.venv/bin/python -m bench.vision_misses --seed S [--landings N --per-rig K]
[--cleet F] [--json FILE]`` (the same rigs and landings as ``bench.vision``
for the same seed, landings and per-rig, unless ``--cleet`` changes the share
of cleets). ``--json`` also writes every landing's record, to study offline.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from dataclasses import dataclass

from bench.vision import (
    GOAL_PX,
    _caught,
    _why,
    cleet_arg,
    face_call,
    landing_args,
    view_angle,
)
from vision.synth.scene import Rig
from vision.synth.trial import Trial, trials


@dataclass(frozen=True, slots=True)
class Record:
    """One landing, flattened: where it was, what it was, what was seen."""

    rig: int
    index: int
    truth: str
    tilt_deg: float
    x_mm: float
    y_mm: float
    seen_x_mm: float | None
    seen_y_mm: float | None
    clearance_mm: float
    verdict: str
    posture: str
    axis_ratio: float | None
    coin_px: float
    kind: str
    """``missed cleet``, ``false flag``, ``face unread``, or ``""`` (fine)."""
    why: str
    reasons: tuple[str, ...]
    view_deg: float | None = None
    """The angle off vertical at which the camera sees the landing point."""

    def line(self) -> str:
        """One line of the listing."""
        ratio = "-" if self.axis_ratio is None else f"{self.axis_ratio:.3f}"
        off = (
            "-"
            if self.seen_x_mm is None or self.seen_y_mm is None
            else f"{math.hypot(self.seen_x_mm - self.x_mm, self.seen_y_mm - self.y_mm):.1f}"
        )
        view = "" if self.view_deg is None else f", view {self.view_deg:.0f} deg"
        return (
            f"[{self.rig}#{self.index}] {self.kind}: truth {self.truth}, tilt "
            f"{self.tilt_deg:.0f}{view}, {self.verdict} ({self.posture}), ratio {ratio}, "
            f"{self.coin_px:.0f} px, clearance {self.clearance_mm:.1f} mm, off {off} mm: "
            f"{'; '.join(self.reasons) or '-'}"
        )


def kind(t: Trial) -> str:
    """What ``bench.vision`` counts against this landing, if anything."""
    if t.truth == "edge" and not _caught(t):
        return "missed cleet"
    if t.truth in ("heads", "tails"):
        if t.observation.verdict == "edge":
            return "false flag"
        if t.observation.coin_px >= GOAL_PX and face_call(t) == "indeterminate":
            return "face unread"
    return ""


def record(
    rig: int, index: int, t: Trial, camera: tuple[float, float, float] | None = None
) -> Record:
    """``t`` flattened; with the view angle at its landing point when the
    ``camera`` (floor point and height, mm) is given."""
    obs = t.observation
    view = None if camera is None else view_angle(camera, t.landing.x_mm, t.landing.y_mm)
    return Record(
        rig,
        index,
        t.truth,
        t.landing.tilt_deg,
        t.landing.x_mm,
        t.landing.y_mm,
        obs.x_mm,
        obs.y_mm,
        t.clearance_mm,
        obs.verdict,
        obs.posture.value,
        obs.axis_ratio,
        obs.coin_px,
        kind(t),
        _why(t),
        obs.reasons,
        view,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    landing_args(parser, 50, "a tuning seed")
    cleet_arg(parser)
    parser.add_argument("--json", default="", help="also write every record to this file, as JSON")
    args = parser.parse_args()
    records: list[Record] = []
    for r in range(max(1, args.landings // args.per_rig)):
        rig = args.seed * 1000 + r
        camera = Rig.make(rig).camera.position  # (the rig as ``trials`` makes it)
        for i, t in enumerate(trials(rig, args.per_rig, cleet=args.cleet)):
            rec = record(rig, i, t, camera)
            records.append(rec)
            if rec.kind:
                print(rec.line(), flush=True)
    counts = Counter(r.kind for r in records if r.kind)
    cleets = sum(r.truth == "edge" for r in records)
    print(f"\n{len(records)} landings, {cleets} cleets: {dict(counts)}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([_plain(r) for r in records], out)


def _plain(r: Record) -> dict[str, object]:
    return {name: getattr(r, name) for name in Record.__slots__}


if __name__ == "__main__":
    main()
