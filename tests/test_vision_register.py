"""Registering the match coin (1.3.2) where its grey is the floor's: rig
210015's second camera (seed 210 of ``bench.vision --cameras 2``), 2 m up,
sees the copper coin 6 px across in its preview, changing the grey floor by
less than the landing finder's threshold; only its colour differs. The
registration now looks for candidates as a landing does (the fainter colour
search when the grey one finds no coin); before, it refused ("no coin found")
and the rig could not be set up."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")

from vision.synth.scene import Landing  # noqa: E402
from vision.synth.trial import REGISTER_TURNS, prepared, second_camera, seen  # noqa: E402


@pytest.mark.parametrize("face", ["heads", "tails"])
def test_a_coin_the_floors_grey_registers_and_is_read(face: str) -> None:
    two = second_camera(prepared(210015), 210015)
    refs = two.analyser.references
    assert refs is not None
    assert [len(refs.crops[f]) for f in ("heads", "tails")] == [REGISTER_TURNS] * 2
    mid = two.rig.layout.side_mm / 2
    trial = seen(two, Landing(mid - 150, mid + 100, face, rotation_deg=37.0))
    assert trial.observation.found
    assert trial.observation.verdict == face, trial.observation.reasons
