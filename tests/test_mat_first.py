"""The first-played wink of a shot from the camera's previews: rendered mats
through the live ShotWatch (rig 21 here; bench/first.py uses rigs 30-59)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from controller.games.tiddlywinks.camera_first import FirstWink  # noqa: E402
from controller.games.tiddlywinks.events import Shot, Sighting  # noqa: E402
from controller.games.tiddlywinks.geometry import (  # noqa: E402
    Colour,
    Mat,
    MatSpec,
    new_mat,
    wink_colour,
    wink_size,
)
from controller.games.tiddlywinks.observe import place_winks  # noqa: E402
from vision.mat.camera import MatView  # noqa: E402
from vision.mat.layout import MatLayout  # noqa: E402
from vision.mat.settle import MatSettle, SettleSettings, ShotWatch, mat_region  # noqa: E402
from vision.mat.source import MatSource  # noqa: E402
from vision.mat.synth.lineup import lineup  # noqa: E402
from vision.mat.synth.scene import MatScene, TrueWink  # noqa: E402

PREVIEW = (640, 360)
FRAME_NS = 100_000_000
PLACES = {"b1": (-500.0, 100.0), "g1": (250.0, -120.0), "r4": (-80.0, 200.0), "y3": (300.0, 150.0)}


class Run:
    """A rendered mat watched preview by preview, winks moved by hand."""

    def __init__(
        self, seed: int = 21, known: tuple[str, ...] = tuple(PLACES), lined: bool = False
    ) -> None:
        """``lined``: the other 20 winks lie behind their baselines (unplayed)."""
        self.source = MatSource.from_seed(seed, MatLayout(), PREVIEW)
        self.places = dict(PLACES)
        if lined:
            rng = np.random.default_rng(seed)
            placed = [TrueWink(w, x, y) for w, (x, y) in PLACES.items()]
            for w in lineup(rng, MatSpec(), placed=placed):
                self.places.setdefault(w.id, (w.x, w.y))
        self._show()
        rig = self.source.rig
        view = MatView.calibrate(self.source.still(), hfov_deg=rig.hfov_deg)
        settle = MatSettle(SettleSettings(), mat_region(view.calibration, MatSpec(), size=PREVIEW),
                           PREVIEW)  # fmt: skip
        self.watch = ShotWatch(view.analyse, settle, MatSpec())
        self.watch.first = FirstWink(view.calibration, PREVIEW, settle.settings)
        seen = [Sighting(w, x, y) for w, (x, y) in self.places.items() if w in known]
        self.mat: Mat = place_winks(MatSpec(), new_mat(), seen)
        self.t = 0
        self.shots: list[Shot] = []
        self.frames(5)

    def _show(self) -> None:
        self.source.show(MatScene(tuple(TrueWink(w, x, y) for w, (x, y) in self.places.items())))

    def frames(self, n: int) -> None:
        for _ in range(n):
            self.t += FRAME_NS
            shot = self.watch.preview(self.source.preview().image, self.t, self.source.still,
                                      self.mat)  # fmt: skip
            if shot is not None:
                self.shots.append(shot)

    def move(self, **to: tuple[float, float]) -> None:
        """These winks are here from the next preview."""
        self.places.update(to)
        self._show()
        self.frames(1)

    def slide(self, wink: str, end: tuple[float, float], steps: int = 3) -> None:
        x0, y0 = self.places[wink]
        for k in range(1, steps + 1):
            f = k / steps
            self.move(**{wink: (x0 + f * (end[0] - x0), y0 + f * (end[1] - y0))})

    def shot(self) -> Shot:
        self.frames(8)
        assert len(self.shots) == 1
        return self.shots[0]


def test_the_wink_that_slides_is_the_first_played() -> None:
    run = Run()
    run.slide("b1", (-300.0, 60.0))
    assert run.shot().wink == "b1" and run.watch.first_note == ""


def test_a_wink_that_hits_another_is_first_not_the_one_hit() -> None:
    run = Run()
    run.slide("r4", (0.0, 160.0))  # towards y3, which then slides on
    run.slide("y3", (420.0, 100.0))
    assert run.shot().wink == "r4"


def test_two_winks_changing_in_the_same_preview_leave_it_unknown() -> None:
    run = Run()
    run.move(b1=(-450.0, 90.0), g1=(200.0, -100.0))
    run.slide("b1", (-300.0, 60.0))
    shot = run.shot()
    assert shot.wink is None and "b1, g1 changed in the same preview" in run.watch.first_note


def test_a_hand_over_the_mat_first_leaves_it_unknown() -> None:
    run = Run()
    run.source.hand = (-600.0, -200.0)
    run.frames(1)
    run.slide("b1", (-300.0, 60.0))
    run.source.hand = None
    shot = run.shot()
    assert shot.wink is None and "hand" in run.watch.first_note


def test_a_wink_whose_place_is_unknown_leaves_it_unknown() -> None:
    run = Run(known=("g1", "r4", "y3"))  # b1 still behind its baseline for the engine
    run.slide("b1", (-300.0, 60.0))
    shot = run.shot()
    assert shot.wink is None and run.watch.first_note


def _came_out(run: Run, end: tuple[float, float]) -> str:
    """The id the shot gave the wink that came out to ``end``."""
    (out,) = [w.id for w in run.shots[0].winks if w.x is not None and w.y is not None
              and abs(w.x - end[0]) < 3 and abs(w.y - end[1]) < 3]  # fmt: skip
    return out


def _read_still(run: Run) -> None:
    """The camera reads a still (a settled mat on which nothing moved)."""
    run.watch.shot(run.source.still(), run.t, run.mat)


@pytest.mark.parametrize("wink", ["b5", "g2"])
def test_a_wink_played_from_behind_its_baseline_is_first_where_it_was_last_seen(
    wink: str,
) -> None:
    run = Run(seed=22, lined=True)
    _read_still(run)
    end = (-350.0, 200.0) if wink_colour(wink) is Colour.BLUE else (400.0, 250.0)
    run.slide(wink, end)
    shot = run.shot()
    assert shot.wink is not None, run.watch.first_note
    assert (wink_colour(shot.wink), wink_size(shot.wink)) == (wink_colour(wink), wink_size(wink))
    assert shot.wink == _came_out(run, end)


def test_a_wink_from_behind_the_baseline_that_hits_one_in_play_is_first() -> None:
    run = Run(seed=22, lined=True)
    _read_still(run)
    bx, by = run.places["b1"]  # in play at (-500, 100): b4 comes out and hits it
    run.slide("b4", (bx - 21.0, by + 3.0), steps=4)
    run.slide("b1", (bx + 80.0, by - 10.0))
    shot = run.shot()
    assert shot.wink is not None and shot.wink == _came_out(run, run.places["b4"])
    assert wink_size(shot.wink) == 16


def test_the_hand_shows_in_the_synthetic_source() -> None:
    source = MatSource.from_seed(21, MatLayout(), PREVIEW)
    bare = source.still().image.astype(int)
    source.hand = (0.0, 200.0)
    assert (abs(source.still().image.astype(int) - bare).sum(axis=2) > 60).sum() > 2000


def test_the_live_camera_journals_the_first_wink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_mat_live import Table, _replays

    table = Table(tmp_path, monkeypatch)
    try:
        table.start_play()
        table.at(3.0)
        stopped = table.slide("b1", (-300.0, 60.0), 3.0)
        table.at(stopped + 1.0)
        (shot,) = table.inputs("shot")
    finally:
        table.close()
    assert shot["wink"] == "b1"
    assert _replays(tmp_path) >= 3


def _squidged_and_b4_played(table: Any) -> float:
    """The 24 winks lined up behind the baselines (scene seed 23), read by
    the camera at the squidge-off, blue winning it; then b4 slides out from
    behind blue's baseline. When it stops (match time)."""
    from tests.test_mat_live import SQUIDGE

    table.places = {w.id: (w.x, w.y) for w in lineup(np.random.default_rng(23), MatSpec())}
    table.show()
    table.at(0.5)  # the squidge-off: the camera reads the line-up
    table.cmd("squidge", winks=SQUIDGE)  # blue wins: blue plays first
    stopped: float = table.slide("b4", (-400.0, 150.0), 1.5)
    return stopped


def test_the_live_camera_names_winks_played_from_behind_the_baseline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The squidge-off's still gives the first shot's places behind the
    baselines, the first shot's still the second's."""
    from tests.test_mat_live import Table, _replays

    table = Table(tmp_path, monkeypatch)
    try:
        stopped = _squidged_and_b4_played(table)
        stopped = table.slide("g5", (350.0, 120.0), stopped + 1.0)
        table.at(stopped + 1.0)
        shots = table.inputs("shot")
    finally:
        table.close()
    assert len(shots) == 2
    for shot, colour in zip(shots, (Colour.BLUE, Colour.GREEN), strict=True):
        assert shot["wink"][0] == colour.value[0] and wink_size(shot["wink"]) == 16
    assert _replays(tmp_path) >= 2


@pytest.mark.parametrize("look", [True, False])
def test_after_a_restart_a_still_places_the_winks_behind_the_baselines_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, look: bool
) -> None:
    """A restarted camera has read no still of the line-up: once the mat is
    quiet it reads one, so the next shot from behind a baseline is named
    (``look=False``: without that still, as before, the wink is not known)."""
    from controller.games.tiddlywinks import camera as mat_camera
    from tests.test_mat_live import Table, _replays

    table = Table(tmp_path, monkeypatch)
    try:
        stopped = _squidged_and_b4_played(table)
        table.at(stopped + 1.0)
        places = dict(table.places)
    finally:
        table.close()
    if not look:
        monkeypatch.setattr(mat_camera.MatCamera, "_look", lambda *a: None)
    again = Table(tmp_path, monkeypatch)  # the service restarts, green to play
    try:
        again.places = places
        again.show()
        again.at(stopped + 3.0)  # quiet previews: the still is read
        end = again.slide("g5", (350.0, 120.0), stopped + 3.5)
        again.at(end + 1.0)
        shots = again.inputs("shot")
    finally:
        again.close()
    assert len(shots) == 2
    played = shots[1].get("wink")
    if look:
        assert played is not None and played[0] == "g" and wink_size(played) == 16
    else:
        assert played is None
    assert _replays(tmp_path) >= 2
