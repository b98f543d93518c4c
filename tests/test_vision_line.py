"""Flat coins on the landing square's white line (``FloorLayout.line_mm``)
are not cleets: rendered with ground truth on tuning rigs (seed 150, where
``bench.vision`` ruled these two landings edge), through the same shots as
the other rendered cleet tests."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.test_vision_cleets import _registered_landing
from vision.model import Posture
from vision.synth.scene import Landing


@pytest.mark.parametrize(
    ("rig_seed", "land", "shots"),
    [
        # Landing 150000#43: a grey coin on the tape, its shadow below it.
        # No filled silhouette (grey on white is only darker, as a shadow
        # is), and the edge fit runs round coin and shadow: 117 x 99 px
        # (0.85), ruled leaning; the hull of its new sharp edges is 0.97.
        (
            150000,
            Landing(
                748.4878, 34.9078, "heads", rotation_deg=130.65, tilt_deg=0.67, tilt_dir_deg=57.16
            ),
            20,
        ),
        # Landing 150011#15: the silhouette loses the coin's dim side on the
        # tape, a dented 0.89-0.91, ruled leaning; its sharp edges 0.95.
        (
            150011,
            Landing(
                1485.44, 1381.757, "heads", rotation_deg=319.05, tilt_deg=2.2, tilt_dir_deg=16.16
            ),
            10,
        ),
    ],
)
def test_a_flat_coin_on_the_white_line_is_not_a_cleet(
    rig_seed: int, land: Landing, shots: int
) -> None:
    obs = _registered_landing(rig_seed, land, shots)
    assert not land.cleet  # (flat: the truth)
    assert obs.posture is Posture.FLAT, (obs.reasons, obs.axis_ratio)
    assert obs.verdict == "heads", obs.reasons
    assert any("its sharp edges" in r for r in obs.reasons), obs.reasons
    assert obs.axis_ratio is not None and obs.axis_ratio >= 0.94
