"""A coin tilted towards the camera, round-looking, with a short shadow: its
rim band on the far side, read two ways (issue 6, session 12)."""

from __future__ import annotations

from bench.vision_time import rig_scene
from tests.test_vision_cleets import _registered_landing
from vision.model import Observation, Posture
from vision.synth.scene import Landing
from vision.synth.trial import trial_at


def _leaning_by_the_ring(obs: Observation) -> None:
    """``obs`` is a cleet, leaning by the rim band read on the far side."""
    assert any("rim band" in r and "on the far side: leaning" in r for r in obs.reasons), (
        obs.reasons
    )
    assert obs.posture is Posture.LEANING and obs.verdict == "edge", obs.reasons


def test_a_round_coin_with_its_band_on_the_far_side_and_a_short_shadow_is_leaning() -> None:
    # Landing 18 of rig 100006 (bench.vision --seed 100, tuning): leaning 36
    # degrees towards the camera, which sees it 12 degrees off vertical; main
    # called it tails. Its shadow reaches beyond a flat coin's by only about
    # 0.1 (short of ``band_doubt``), but its edge fit's centre lies 0.55 mm
    # beyond its silhouette's and the ring inside the silhouette is darker
    # on the far side (0.26 of the face), not across.
    trial = trial_at(100006, 18)
    assert trial.truth == "edge" and trial.landing.tilt_deg > 30
    obs = trial.observation
    _leaning_by_the_ring(obs)


def test_the_same_coin_flat_there_is_its_face() -> None:
    land = Landing(452.6, 164.1, "tails", rotation_deg=143.6)
    obs = _registered_landing(100006, land, 20)
    assert obs.verdict == "tails", obs.reasons


def test_a_round_coin_with_a_longer_shadow_and_its_ring_on_the_far_side_is_leaning() -> None:
    # Landing 64 of rig 110009 (bench.vision --seed 110, tuning): leaning 41
    # degrees, seen 21 degrees off vertical, round to the edge fit (0.985);
    # main called it heads. Its shadow reaches 0.60 beyond a flat coin's
    # (past ``band_shadow``, short of ``far_shadow``), its edge fit's centre
    # 0.26 mm beyond its silhouette's (short of ``band_offset_mm``) and the
    # ring inside the silhouette is darker on the far side (0.15) more than
    # across (0.08): session 13's ``ring_offset_far_mm``.
    analyser, empty, preview, still, empty_still = rig_scene(110009, 64)
    obs = analyser.analyse(preview, still, empty, empty_still)
    _leaning_by_the_ring(obs)


def test_the_same_coin_flat_on_that_rig_is_its_face() -> None:
    land = Landing(1378.9, 652.1, "heads", rotation_deg=250.6)
    obs = _registered_landing(110009, land, 20)
    assert obs.verdict == "heads", obs.reasons
