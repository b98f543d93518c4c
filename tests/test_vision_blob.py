"""A leaning coin and its shadow as one round blob larger than a coin, inside
which a face reads (``vision.posture.coin_and_shadow``): the benchmark's own
landing, re-rendered through its random streams (``bench.vision`` seed 220,
then fresh, now free for tracing)."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from vision.model import Posture
from vision.synth.trial import trial_at


def test_a_face_read_inside_a_round_blob_larger_than_a_coin_does_not_make_it_flat() -> None:
    # Landing 220005#26: a coin leaning 38 degrees, 21 degrees off camera 1's
    # vertical. Its edge fit is a clean circle 1.19 diameters across (coin
    # and shadow), heads reads inside it by a margin of 0.105, and it was
    # called heads (both cameras did: a wrong point). Its silhouette against
    # the empty still is a solid oval (0.78, hull 0.78), as the geometry
    # says (0.73): leaning.
    trial = trial_at(220005, 26)
    assert trial.truth == "edge" and 37 < trial.landing.tilt_deg < 38
    obs = trial.observation
    assert obs.posture is Posture.LEANING, obs.reasons
    assert obs.verdict == "edge", obs.reasons
    assert obs.axis_ratio is not None and obs.axis_ratio < 0.85
    assert any("coin and shadow" in why for why in obs.reasons), obs.reasons
