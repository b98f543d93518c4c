"""bench.vision_band: the rim band's measures read beside the analysis,
which they leave as it was."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from bench.vision_band import Measures, recording, table
from bench.vision_time import RIM_SCENE, rig_scene
from vision.analyse import Analyser
from vision.posture import Settings


def test_the_rim_scene_is_measured_as_the_analysis_reads_it_and_left_as_it_was() -> None:
    # (100019#0: a flat coin whose shadow measures 0.21, its edge fit's
    # centre 0.16 mm nearer the camera than its silhouette's: bench/RESULTS.md,
    # session 12, b-rimtime.)
    _, rig_seed, landing = RIM_SCENE
    analyser, empty, preview, still, empty_still = rig_scene(rig_seed, landing)
    before = analyser.analyse(preview, still, empty, empty_still)
    judged = Analyser._by_shadow
    found: list[Measures | None] = []
    with recording(found):
        seen = analyser.analyse(preview, still, empty, empty_still)
    assert Analyser._by_shadow is judged
    assert seen.summary() == before.summary()
    assert len(found) == 1 and found[0] is not None
    m = found[0]
    assert 0.19 < m.reach < 0.23
    assert -0.25 < m.offset_mm < -0.1
    assert m.view >= Settings().ring_view
    assert not m.passes(Settings(), 0.1, 0.3)


def test_a_gate_passes_only_its_shadow_range_and_the_other_cuts() -> None:
    s = Settings()
    ring = Measures(0.07, 0.3, 0.5, 0.2, 0.05, 0.97, 0.95)
    assert ring.passes(s, 0.05, 0.1) and not ring.passes(s, 0.1, 0.3)
    assert ring.passes(s, 0.0, 0.1, 0.01) and not ring.passes(s, 0.0, 0.1, 0.03)
    light = Measures(0.07, 0.3, 0.5, 0.2, 0.2, 0.97, 0.95)  # as dark across: the light's
    near = Measures(0.07, 0.1, 0.5, 0.2, 0.05, 0.97, 0.95)  # seen near vertical
    assert not light.passes(s, 0.05, 0.1) and not near.passes(s, 0.05, 0.1)
    lines = table([("a#1", "heads", ring), ("b#2", "edge", ring), ("c#3", "edge", light)], s)
    assert "| 0.05-0.10 | 0.00 | 1 a#1 | 1 b#2 |" in lines
    assert "| 0.10-0.30 | 0.00 | 0 | 0 |" in lines
