"""Mat observations as the engine's shot input, and known positions through
the engine: tiddly counts and squidge-off winners from rendered frames."""

from __future__ import annotations

import numpy as np
import pytest

from controller.games.tiddlywinks.geometry import (
    Colour,
    MatSpec,
    Place,
    Wink,
    inconsistencies,
    new_mat,
    squidge_nearest,
    tiddlies,
)
from controller.games.tiddlywinks.observe import place_winks
from vision.mat.analyse import analyse
from vision.mat.convert import to_sightings
from vision.mat.model import MatObservation, PotView, SeenWink
from vision.mat.render import MatRig, render
from vision.mat.synth.scene import MatScene, TrueWink


def _seen(scene: MatScene, rig_seed: int, seed: int) -> MatObservation:
    rig = MatRig.make(seed=rig_seed)
    return analyse(render(rig, scene, seed=seed), hfov_deg=rig.hfov_deg)


def test_ids_follow_the_nearest_wink_of_the_mat_before() -> None:
    before = place_winks(MatSpec(), new_mat(), ())
    before = tuple(
        Wink(w.id, Place.FIELD, 100.0, 0.0) if w.id == "b3" else
        Wink(w.id, Place.FIELD, -100.0, 0.0) if w.id == "b4" else w
        for w in before
    )  # fmt: skip
    obs = MatObservation((SeenWink(Colour.BLUE, 16, -98.0, 1.0, 0),
                          SeenWink(Colour.BLUE, 16, 103.0, 2.0, 1, on=(0,))), None)  # fmt: skip
    got = {s.id: s for s in to_sightings(obs, before).sightings}
    assert got["b4"].x == -98.0 and got["b3"].x == 103.0
    assert got["b3"].on == ("b4",)


def test_a_vanished_wink_is_potted_only_when_the_pot_shows_it() -> None:
    before = tuple(Wink(w.id, Place.FIELD, 50.0 + i, 0.0) if w.id in ("r1", "g1") else w
                   for i, w in enumerate(new_mat()))  # fmt: skip
    pot = PotView(0.0, 0.0, 24.0, {Colour.RED: 1, Colour.GREEN: 0})
    conv = to_sightings(MatObservation((), pot), before)
    got = {s.id: s for s in conv.sightings}
    assert got["r1"].potted
    assert "g1" not in got and any("g1 not seen" in n for n in conv.notes)
    assert not conv.complete


def test_shot_input_is_the_scenario_table() -> None:
    obs = MatObservation((SeenWink(Colour.YELLOW, 22, 1.234, -5.678, 0),), None)
    table = to_sightings(obs).shot_input("y1")
    assert table == {"winks": [{"id": "y1", "x": 1.23, "y": -5.68}], "wink": "y1"}


def test_held_back_style_tiddly_count_from_a_rendered_mat() -> None:
    truth = MatScene((
        TrueWink("b1", 300.0, 120.0), TrueWink("g3", 310.0, 126.0, 1),  # g3 squops b1
        TrueWink("r2", -250.0, -80.0), TrueWink("y4", -231.0, -80.0),  # merely touching
        TrueWink("y1", 500.0, -200.0), TrueWink("b3", -400.0, 250.0),
        TrueWink("r3", 4.0, 3.0, 0, True), TrueWink("g4", -6.0, -5.0, 0, True),
    ))  # fmt: skip
    obs = _seen(truth, rig_seed=11, seed=4)
    played = tuple(Wink(w.id, Place.FIELD, w.x, w.y) if w.id in {t.id for t in truth.winks} else w
                   for w in new_mat())  # fmt: skip
    conv = to_sightings(obs, played)
    mat = place_winks(MatSpec(), played, conv.sightings)
    assert tiddlies(mat) == tiddlies(truth.mat())
    assert tiddlies(mat) == {Colour.BLUE: 1, Colour.GREEN: 4, Colour.RED: 4, Colour.YELLOW: 2}


def test_held_back_style_squidge_off_winner_from_a_rendered_frame() -> None:
    spec = MatSpec()
    for rig_seed, (bx, gx) in enumerate(((60.0, 61.0), (80.0, 79.2), (45.0, 44.4))):
        truth = MatScene((TrueWink("b1", bx, 0.0), TrueWink("g1", 0.0, gx),
                          TrueWink("r1", -200.0, 0.0), TrueWink("y1", 0.0, -300.0)))  # fmt: skip
        obs = _seen(truth, rig_seed=20 + rig_seed, seed=1)
        entries = [(Wink(s.id, Place.FIELD, s.x or 0.0, s.y or 0.0), False)
                   for s in to_sightings(obs).sightings]  # fmt: skip
        want = squidge_nearest(spec, [(Wink(w.id, Place.FIELD, w.x, w.y), False)
                                      for w in truth.winks])  # fmt: skip
        assert squidge_nearest(spec, entries) == want


def test_the_whole_mat_round_trips_to_a_complete_shot() -> None:
    rng = np.random.default_rng(31)
    winks = []
    for i, wid in enumerate(w.id for w in new_mat()):
        winks.append(TrueWink(wid, -800.0 + 70.0 * i, float(rng.uniform(-300, 300))))
    truth = MatScene(tuple(winks))
    obs = _seen(truth, rig_seed=12, seed=2)
    conv = to_sightings(obs, truth.mat())
    assert conv.complete
    got = {s.id: (s.x, s.y) for s in conv.sightings}
    for w in winks:
        x, y = got[w.id]
        assert abs((x or 0.0) - w.x) < 1.0 and abs((y or 0.0) - w.y) < 1.0


@pytest.mark.parametrize(("rig_seed", "closer"), [(50, False), (51, True), (52, True)])
def test_an_overlap_wholly_under_a_third_wink_goes_to_the_umpire(
    rig_seed: int, closer: bool
) -> None:
    # r1 lies on g1, but y1 lies over their whole overlap: from above nothing
    # says which of g1 and r1 is on top, so neither is, and the engine's
    # consistency check (its notice cites 14) asks the umpire
    truth = MatScene((TrueWink("g1", 200.0, 100.0), TrueWink("r1", 215.0, 100.0, 1),
                      TrueWink("y1", 207.5, 100.0, 2), TrueWink("b1", -300.0, 0.0)))  # fmt: skip
    rig = MatRig.make(seed=rig_seed)
    still = (lambda box: render(rig.still(box), truth, seed=9)) if closer else None
    obs = analyse(render(rig, truth, seed=rig_seed), hfov_deg=rig.hfov_deg, still=still)
    played = tuple(Wink(w.id, Place.FIELD, w.x, w.y) if w.id in {t.id for t in truth.winks} else w
                   for w in new_mat())  # fmt: skip
    mat = place_winks(MatSpec(), played, to_sightings(obs, played).sightings)
    by_id = {w.id: w for w in mat}
    assert set(by_id["y1"].on) == {"g1", "r1"}
    notices = inconsistencies(mat)
    assert "g1 and r1 overlap but neither is on the other" in notices
    # rig 50 without the still also fits a phantom green 16 mm wink (g3) 5 mm
    # into g1; their edges, alike within their noise, order neither
    # (relations.EDGE_T_MIN), so the umpire is asked about it too
    assert all(n.startswith("g1 and r1") or "g3" in n for n in notices)


def _b5_in_play() -> tuple[Wink, ...]:
    """The mat before the shot: b3 in the pot, b5 on the field."""
    return tuple(Wink(w.id, Place.POTTED, 0.0, 0.0) if w.id == "b3" else
                 Wink(w.id, Place.FIELD, 60.0, 40.0) if w.id == "b5" else w
                 for w in new_mat())  # fmt: skip


def _pot(blue_mm2: float, red_mm2: float = 0.0) -> PotView:
    """The pot showing one blue wink, and the colours' areas in its opening."""
    areas = {Colour.BLUE: blue_mm2, Colour.GREEN: 0.0, Colour.RED: red_mm2, Colour.YELLOW: 0.0}
    return PotView(0.0, 0.0, 24.0, {Colour.BLUE: 1}, areas)


def test_a_wink_potted_uncounted_onto_one_of_its_colour_is_potted_by_the_colours_area() -> None:
    # b5 seen nowhere after the shot, the pot still counts one blue wink, but
    # more blue shows in its opening than before the shot: b5 lies on b3
    conv = to_sightings(MatObservation((), _pot(330.0)), _b5_in_play(), "b5", _pot(201.0))
    got = {s.id: s for s in conv.sightings}
    assert got["b5"].potted and got["b3"].potted
    assert any(n.startswith("b5 potted") and "129 mm2 more blue" in n for n in conv.notes)


@pytest.mark.parametrize(
    ("after", "before"),
    [(_pot(205.0, 150.0), _pot(201.0)),  # blue unchanged (red rose: another wink's)
     (_pot(330.0), None),  # nothing known of the pot before the shot
     (MatObservation((), PotView(0.0, 0.0, 24.0, {Colour.BLUE: 1})).pot, _pot(201.0))],
)  # fmt: skip
def test_with_no_rise_of_its_colour_seen_a_vanished_wink_goes_to_the_umpire(
    after: PotView | None, before: PotView | None
) -> None:
    conv = to_sightings(MatObservation((), after), _b5_in_play(), "b5", before)
    assert "b5" not in {s.id for s in conv.sightings}
    assert any(n.startswith("b5 not seen") for n in conv.notes)


def test_a_rise_explained_by_a_counted_wink_pots_no_other() -> None:
    # the pot counts a second blue wink: b5 is it, and b4 (also seen
    # nowhere) is not potted on the same rise
    mat = tuple(Wink(w.id, Place.FIELD, -60.0, 40.0) if w.id == "b4" else w
                for w in _b5_in_play())  # fmt: skip
    after = PotView(0.0, 0.0, 24.0, {Colour.BLUE: 2}, _pot(420.0).areas)
    conv = to_sightings(MatObservation((), after), mat, "b5", _pot(201.0))
    potted = {s.id for s in conv.sightings if s.potted}
    assert potted == {"b3", "b5"}
    assert any(n.startswith("b4 not seen") for n in conv.notes)


def test_winks_seen_where_they_lay_behind_the_baseline_keep_their_ids() -> None:
    # b3 potted from the field; b4-b6 seen where the engine last saw them
    # behind blue's baseline: they keep their ids and b3 is the one potted
    # (until session 11 a baseline wink, its place unknown, lost its id to
    # b3, and b1, never played, was potted in b3's stead)
    behind = {"b4": (-850.0, 400.0), "b5": (-830.0, 400.0), "b6": (-810.0, 400.0)}
    mat = tuple(Wink("b3", Place.FIELD, 100.0, 0.0) if w.id == "b3" else
                Wink(w.id, Place.BASELINE, *behind[w.id]) if w.id in behind else w
                for w in new_mat())  # fmt: skip
    seen = tuple(SeenWink(Colour.BLUE, 16, x + 0.5, y, i)
                 for i, (x, y) in enumerate(behind.values()))  # fmt: skip
    conv = to_sightings(MatObservation(seen, PotView(0.0, 0.0, 24.0, {Colour.BLUE: 1})), mat, "b3")
    got = {s.id: s for s in conv.sightings}
    assert got["b3"].potted and "b1" not in got
    assert {wid: (got[wid].x, got[wid].y) for wid in behind} == {
        wid: (x + 0.5, y) for wid, (x, y) in behind.items()
    }
