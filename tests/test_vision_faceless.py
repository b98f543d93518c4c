"""A clean round edge inside which no face reads is not taken at once, of
any size: its silhouette against the empty still is asked
(``Analyser._clean``). The benchmark's own landing, re-rendered through its
random streams (``bench.vision`` seed 230, fresh in session 20, now
tuning)."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from vision.model import Posture
from vision.synth.trial import trial_at


def test_a_round_edge_no_face_reads_inside_is_asked_its_silhouette() -> None:
    # Landing 230009#60: a coin leaning 40 degrees, seen 1.2 degrees off
    # camera 1's vertical (the geometry: an oval of 0.75). Its edge fit was
    # a clean circle (0.957, 1.05 diameters across), taken at once, and the
    # face inside it read as neither (heads 0.153, tails 0.137): flat, face
    # unread. Camera 2, to which the coin leans round (0.93 by the
    # geometry), read tails, so the pair called it tails: a wrong point.
    # The silhouette against the empty still is the oval (0.81).
    trial = trial_at(230009, 60)
    assert trial.truth == "edge" and 40 < trial.landing.tilt_deg < 40.2
    obs = trial.observation
    assert obs.posture is Posture.LEANING, obs.reasons
    assert obs.verdict == "edge", obs.reasons
    assert obs.axis_ratio is not None and obs.axis_ratio < 0.85
    assert any("no face reads inside the edge" in why for why in obs.reasons), obs.reasons
