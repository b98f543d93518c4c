"""The rim band's and the shadow's measures on ``bench.vision``'s own landings
(issue 6): for every coin the analysis judges flat before asking its shadow,
what ``vision.rimband.by_band`` reads, and which flat coins and cleets a
shadow gate lower than ``Settings.ring_shadow`` would pass.

For each such coin (with a silhouette against the empty still and a camera
position): the shadow (:func:`~vision.shadow.far_shadow` around the outline
the posture was judged by), the tangent of the view angle at its floor point
(from the calibration's camera, as the analysis has it), the edge fit's
offset beyond the silhouette towards the far side (:func:`band_offset`, mm),
the ring's harmonics along and across the direction to the camera
(:func:`~vision.rimband.rim_harmonics`) and the edge's and the silhouette's
axis ratios. The table counts, for shadow ranges, the flat coins and the
cleets seen at least ``ring_view`` off vertical that pass the other three
cuts of the short-shadow rule (offset, ring along, ring across), and with
the edge and the silhouette disagreeing by more than a margin too. The
analysis is not changed: the measures are read beside it.

Run: ``.venv/bin/python -m bench.vision_band --seed S [--landings N --per-rig K]
[--json FILE]`` (tuning seeds only: 50, 60, 80, 90, 100 and up; the same rigs
and landings as ``bench.vision``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from bench.vision import landing_args
from vision.analyse import STILL_STEP, Analyser
from vision.coinface import Ellipse
from vision.halves import Halves
from vision.model import Observation, Posture
from vision.posture import Posed, Settings, band_offset, floor_point
from vision.rimband import rim_harmonics
from vision.shadow import far_shadow
from vision.synth.trial import Trial, trials


@dataclass(frozen=True, slots=True)
class Measures:
    """What the rim-band rule reads on one coin judged flat."""

    reach: float
    view: float
    """The tangent of the view angle at the coin's floor point."""
    offset_mm: float
    along: float
    across: float
    edge_ratio: float | None
    silhouette_ratio: float

    def passes(self, settings: Settings, low: float, high: float, disagree: float = 0.0) -> bool:
        """Whether the short-shadow rule's cuts other than the shadow pass,
        the shadow lies in (``low``, ``high``] and the edge and the
        silhouette differ in axis ratio by more than ``disagree``."""
        s = settings
        edge = self.silhouette_ratio if self.edge_ratio is None else self.edge_ratio
        return (
            low < self.reach <= high
            and self.view >= s.ring_view
            and self.offset_mm > s.band_offset_mm
            and self.along > s.ring_band
            and self.along > s.ring_across * abs(self.across)
            and abs(edge - self.silhouette_ratio) > disagree
        )


def measure(
    analyser: Analyser, posed: Posed, halves: Halves, edge: Ellipse | None
) -> Measures | None:
    """The measures of a coin ``posed`` flat in ``halves``' crop (``edge``:
    the edge fit); None without a camera, an empty still covering the crop
    or a silhouette."""
    camera = analyser.calibration.camera()
    if camera is None or not halves.covered:
        return None
    segmented = halves.segmented
    if segmented is None:
        return None
    s = analyser.settings
    ppm = s.crop_px / s.coin_diameter_mm
    reach = far_shadow(halves.crop, halves.empty, posed.outline, ppm, STILL_STEP)
    x, y = floor_point(posed.outline, halves.x, halves.y, halves.half, s)
    toward = math.atan2(camera[1] - y, camera[0] - x)
    along, across = rim_harmonics(halves.full, segmented.fit, toward, ppm)
    return Measures(
        reach,
        math.hypot(x - camera[0], y - camera[1]) / camera[2],
        band_offset(edge or posed.outline, segmented.fit, toward, ppm),
        along,
        across,
        None if edge is None else edge.ratio,
        segmented.fit.ratio,
    )


@contextlib.contextmanager
def recording(into: list[Measures | None]) -> Iterator[None]:
    """While open, every coin any :class:`Analyser` judges flat before its
    shadow is measured (:func:`measure`) into ``into`` (None when it cannot
    be), which each ``analyse`` call empties first (so it holds the last
    landing's, not the registration's); the analysis itself is unchanged."""
    judged, analysed = Analyser._by_shadow, Analyser.analyse

    def by_shadow(
        self: Analyser, posed: Posed, halves: Halves, edge: Ellipse | None = None
    ) -> Posed:
        if posed.posture is Posture.FLAT:
            into.append(measure(self, posed, halves, edge))
        return judged(self, posed, halves, edge)

    def analyse(self: Analyser, *args: Any, **kwargs: Any) -> Observation:
        into.clear()
        return analysed(self, *args, **kwargs)

    Analyser._by_shadow = by_shadow  # type: ignore[method-assign]
    Analyser.analyse = analyse  # type: ignore[method-assign]
    try:
        yield
    finally:
        Analyser._by_shadow = judged  # type: ignore[method-assign]
        Analyser.analyse = analysed  # type: ignore[method-assign]


def measured(rig_seed: int, count: int) -> Iterator[tuple[Trial, Measures | None]]:
    """``count`` of ``bench.vision``'s landings on rig ``rig_seed``, each
    with the measures of the last coin judged flat in it (None if none)."""
    found: list[Measures | None] = []
    with recording(found):
        for t in trials(rig_seed, count):
            yield t, (found[-1] if found else None)


GATES = ((0.1, 0.3, 0.0), (0.05, 0.1, 0.0), (0.0, 0.1, 0.0), (0.0, 0.1, 0.02), (0.0, 0.1, 0.04))
"""(shadow above, up to, edge and silhouette disagreeing by more than)."""


def table(rows: list[tuple[str, str, Measures]], settings: Settings) -> list[str]:
    """For each of ``GATES``, the flat coins and cleets (``rows``: a name, the
    truth, the measures) that pass it."""
    lines = [
        "| shadow | disagree > | flat coins | cleets |",
        "| --- | --- | --- | --- |",
    ]
    for low, high, disagree in GATES:
        cells = []
        for cleet in (False, True):
            hit = [
                name
                for name, truth, m in rows
                if (truth == "edge") is cleet and m.passes(settings, low, high, disagree)
            ]
            cells.append(f"{len(hit)} {' '.join(hit)}".strip())
        lines.append(f"| {low:.2f}-{high:.2f} | {disagree:.2f} | {cells[0]} | {cells[1]} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    landing_args(parser, 100, "a tuning seed")
    parser.add_argument("--json", default="", help="also write every measured coin to this file")
    args = parser.parse_args()
    rows: list[tuple[str, str, Measures]] = []
    for r in range(max(1, args.landings // args.per_rig)):
        rig = args.seed * 1000 + r
        for i, (t, m) in enumerate(measured(rig, args.per_rig)):
            if m is not None:
                rows.append((f"{rig}#{i}", t.truth, m))
        print(f"rig {rig}: {len(rows)} coins judged flat measured", flush=True)
    flat = sum(truth != "edge" for _, truth, _ in rows)
    print(f"\n{flat} flat coins and {len(rows) - flat} cleets judged flat, measured")
    print("\n".join(table(rows, Settings())))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([{"landing": n, "truth": t, **asdict(m)} for n, t, m in rows], out)


if __name__ == "__main__":
    main()
