"""bench.vision_misses: which landings count against the vision goals."""

from __future__ import annotations

from bench.vision_misses import kind, record
from vision.model import CoinFace, Observation, Posture, Zone
from vision.synth.scene import Landing
from vision.synth.trial import Trial


def _trial(truth: str, obs: Observation, tilt: float = 0.0) -> Trial:
    land = Landing(700.0, 700.0, "heads", tilt_deg=tilt)
    return Trial(land, truth, 100.0, obs, 0.01, 0.5)


def test_each_miss_is_named_and_a_right_call_is_not() -> None:
    edge = Observation(True, posture=Posture.LEANING, zone=Zone.INSIDE, coin_px=80.0)
    heads = Observation(
        True, face=CoinFace.HEADS, posture=Posture.FLAT, zone=Zone.INSIDE, coin_px=80.0
    )
    unsure = Observation(True, zone=Zone.INSIDE, coin_px=80.0, reasons=("flat or leaning?",))
    assert kind(_trial("edge", edge, 60.0)) == ""
    assert kind(_trial("edge", heads, 60.0)) == "missed cleet"
    assert kind(_trial("heads", edge)) == "false flag"
    assert kind(_trial("heads", heads)) == ""
    assert kind(_trial("heads", unsure)) == "face unread"
    # A small coin's unread face is not against the goal (64 px or more).
    small = Observation(True, zone=Zone.INSIDE, coin_px=40.0)
    assert kind(_trial("tails", small)) == ""
    line = record(50001, 84, _trial("edge", heads, 60.0)).line()
    assert line.startswith("[50001#84] missed cleet: truth edge, tilt 60, heads (flat)")
    # With the camera: the view angle at the landing point (700, 700).
    line = record(50001, 84, _trial("edge", heads, 60.0), (700.0, 0.0, 700.0)).line()
    assert line.startswith("[50001#84] missed cleet: truth edge, tilt 60, view 45 deg, heads")
