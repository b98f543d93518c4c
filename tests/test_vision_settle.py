"""The floor camera's settle detector on a standard 1.5 m square.

There a 24 mm coin is 4 px across in the detector's 320 px copy and changes
it by about 12 grey levels (20 tuning rigs: 7 of 60 drops passed its
threshold of 20), so without the empty floor the live table waited for a
motion it could not see. With the empty floor (taken after Go) the coin is
followed at the preview's full resolution until it rests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("cv2")

from controller.games.heads_and_tails.events import Landed
from vision.analyse import Analyser
from vision.calibration import calibrate
from vision.floor import local_scale
from vision.locate import SettleDetector
from vision.synth.scene import Landing, render
from vision.synth.source import SyntheticSource
from vision.watch import CameraWatch

RIG = 100103  # a tuning rig: the standard square filling a 1280x720 preview
AT = (300.0, 1200.0)


def _coin_px(src: SyntheticSource) -> float:
    mid = src.rig.layout.side_mm / 2
    return 24.0 * local_scale(src.rig.camera.floor_homography(), mid, mid)


def _toss() -> list[Landing]:
    """Rolls in (4 frames, 30 mm each), spins and wobbles in place from 85
    to 22 degrees of tilt (8 frames), then rests flat (8 frames)."""
    x, y = AT
    rolling = [Landing(x - 30 * (4 - k), y, "heads", 40.0 * k, 80.0, 90.0) for k in range(4)]
    wobbling = [Landing(x, y, "heads", 30.0 * k, 85.0 - 9 * k, 50.0 * k) for k in range(8)]
    return rolling + wobbling + [Landing(x, y, "heads", 210.0, 1.0, 350.0)] * 8


def _fires(detector: SettleDetector, src: SyntheticSource) -> list[int]:
    fired = []
    for k, land in enumerate(_toss()):
        src.drop(land)
        if detector.feed(src.preview().image):
            fired.append(k)
    return fired


def test_a_coin_settles_once_after_it_rests_and_not_while_it_wobbles() -> None:
    src = SyntheticSource.from_seed(RIG)
    floor = src.preview().image
    detector = SettleDetector()
    detector.expect(floor, _coin_px(src))
    assert not any(detector.feed(src.preview().image) for _ in range(10))  # empty floor
    fired = _fires(detector, src)
    assert len(fired) == 1 and 12 + detector.still_frames <= fired[0] <= 19, fired
    # Without the empty floor the same toss never settles after the rest:
    # the small copy sees the roll, then calls the wobble calm.
    src.drop(None)
    plain = _fires(SettleDetector(), src)
    assert all(k < 12 for k in plain), plain


def test_the_live_watch_judges_a_coin_on_a_standard_square(tmp_path: Path) -> None:
    src = SyntheticSource.from_seed(RIG)
    cal = calibrate(render(src.rig, None, None, seed=1), src.rig.layout)
    watch = CameraWatch(lambda: src, Analyser(cal), tmp_path / "evidence", tmp_path)
    watch.start(0)
    watch.empty_floor(1)
    landed = []
    for k, land in enumerate(_toss()):
        src.drop(land)
        landed += [e for e in watch.poll(2 + k) if isinstance(e, Landed)]
    assert len(landed) == 1
    assert landed[0].in_area is True
