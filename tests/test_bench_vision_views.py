"""bench.vision: cleet recall broken down by the view angle at the coin."""

from __future__ import annotations

import pytest

from bench.vision import summarise_views, view_angle, view_band
from vision.model import Observation, Posture, Zone
from vision.synth.scene import Landing
from vision.synth.trial import Trial


def _trial(truth: str, verdict_edge: bool, x: float = 700.0) -> Trial:
    posture = Posture.LEANING if verdict_edge else Posture.FLAT
    obs = Observation(True, posture=posture, zone=Zone.INSIDE, coin_px=80.0)
    return Trial(Landing(x, 700.0, "heads"), truth, 100.0, obs, 0.01, 0.5)


def test_view_angle_is_off_vertical_at_the_landing_point() -> None:
    camera = (700.0, 700.0, 2000.0)
    assert view_angle(camera, 700.0, 700.0) == 0.0
    assert view_angle(camera, 700.0 + 2000.0, 700.0) == pytest.approx(45.0)
    # Only the horizontal distance counts, not its direction.
    assert view_angle(camera, 700.0 - 300.0, 700.0 + 400.0) == pytest.approx(
        view_angle(camera, 700.0 + 500.0, 700.0)
    )


def test_bands_have_closed_lower_edges() -> None:
    assert [view_band(a) for a in (0.0, 9.99, 10.0, 14.9, 15.0, 20.0, 25.0, 40.0)] == [
        "< 10", "< 10", "10-15", "10-15", "15-20", "20-25", ">= 25", ">= 25",
    ]  # fmt: skip


def test_each_band_counts_its_own_cleets_and_flat_coins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = [
        _trial("edge", True),  # caught, 5 degrees
        _trial("edge", False),  # missed, 5 degrees
        _trial("edge", True),  # caught, 22 degrees
        _trial("heads", True),  # a false flag, 22 degrees
        _trial("tails", False),  # 22 degrees
    ]
    angles = [5.0, 5.0, 22.0, 22.0, 22.0]
    summarise_views(results, angles)
    lines = {line.split(" | ")[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["| < 10"] == "| < 10 | 1 of 2 (50.00 %) | none |"
    assert lines["| 20-25"] == "| 20-25 | 1 of 1 (100.00 %) | 1 of 2 (50.00 %) |"
    assert lines["| 10-15"] == "| 10-15 | none | none |"
    assert ">= 25" in "".join(lines)
