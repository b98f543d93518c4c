"""The coin pipeline against rendered landings with ground truth.

Small samples (the benchmark runs thousands): these pin behaviour, not rates.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from bench.vision import face_call
from vision.floor import FloorLayout
from vision.model import Zone
from vision.synth.scene import Landing
from vision.synth.trial import Trial, trials


@pytest.fixture(scope="module")
def results() -> list[Trial]:
    return list(trials(11, 30, coin_px=80.0, cleet=0.3))


def test_faces_of_flat_coins_are_right_or_sent_to_the_spotter(results: list[Trial]) -> None:
    faces = [t for t in results if t.truth in ("heads", "tails")]
    assert len(faces) >= 10
    # A face read on a coin too near the line counts as read (the spotter
    # still calls that landing, for the in/out): see bench.vision.face_call.
    decided = [t for t in faces if face_call(t) != "indeterminate"]
    right = sum(face_call(t) == "right" for t in decided)
    # The benchmark measures the rate; here most must be decided and right.
    assert len(decided) >= 0.8 * len(faces)
    assert right >= len(decided) - 1


def test_positions_are_within_a_few_millimetres(results: list[Trial]) -> None:
    errors = [
        float(np.hypot(t.observation.x_mm - t.landing.x_mm, t.observation.y_mm - t.landing.y_mm))
        for t in results
        if not t.landing.cleet and t.observation.x_mm is not None and t.observation.y_mm is not None
    ]
    assert len(errors) >= 15
    assert float(np.median(errors)) < 2.0
    assert max(errors) < 5.0


def test_in_or_out_is_right_away_from_the_line(results: list[Trial]) -> None:
    clear = [t for t in results if t.clearance_mm > t.landing.diameter_mm / 2]
    assert len(clear) >= 15
    for t in clear:
        if t.observation.decided:
            assert (t.observation.verdict == "outside") == (t.truth == "outside"), t


def test_no_flat_coin_is_called_a_cleet_and_cleets_are_not_scored(results: list[Trial]) -> None:
    for t in results:
        if t.truth in ("heads", "tails"):
            assert t.observation.verdict != "edge", t
        if t.truth == "edge":
            assert t.observation.verdict not in ("heads", "tails"), t


def test_cleets_are_caught_or_sent_to_the_spotter(results: list[Trial]) -> None:
    cleets = [t for t in results if t.truth == "edge"]
    assert len(cleets) >= 4
    caught = sum(t.outcome == "right" for t in cleets)
    # The benchmark measures the recall (below the goal: see docs/vision.md).
    assert caught >= len(cleets) / 2


def test_ground_truth_zones() -> None:
    layout = FloorLayout()
    assert Landing(750, 750, "heads").truth(layout) == "heads"
    assert Landing(750, 750, "heads", tilt_deg=60).truth(layout) == "edge"
    assert Landing(-20, 750, "tails").truth(layout) == "outside"
    assert Landing(10, 750, "tails").zone(layout)[0] is Zone.ON_LINE
