"""Tiddlywinks: geometry, scoring, the engine's turn logic, inputs and codec."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from controller.errors import InputError, ScenarioError
from controller.games.tiddlywinks import geometry as g
from controller.games.tiddlywinks.codec import encode, encode_match
from controller.games.tiddlywinks.engine import TiddlywinksEngine
from controller.games.tiddlywinks.events import Pass, Shot, Sighting, Squidge
from controller.games.tiddlywinks.module import MODULE
from controller.games.tiddlywinks.scenario import parse_input, parse_match
from controller.games.tiddlywinks.scoring import pot_out_points, tiddly_points
from controller.games.tiddlywinks.state import Format, Phase, Settings, State
from controller.harness import simulate
from controller.model import Decision, Event, RulingKind
from controller.scenario import load_scenario, parse_scenario
from controller.strict import Table

B, G, R, Y = g.Colour.BLUE, g.Colour.GREEN, g.Colour.RED, g.Colour.YELLOW
SPEC = g.MatSpec()
SINGLES = Settings(Format.SINGLES, ("ann", "ben", "ann", "ben"))
ROOT = Path(__file__).resolve().parent.parent


def field(wid: str, x: float, y: float, *on: str) -> g.Wink:
    return g.Wink(wid, g.Place.FIELD, x, y, tuple(on))


# --- geometry -----------------------------------------------------------------


def test_pot_distance_is_from_the_wink_edge_to_the_pot_base() -> None:
    assert g.pot_distance(SPEC, field("b1", 0.0, 100.0)) == pytest.approx(100 - 11 - 19)
    assert g.pot_distance(SPEC, field("b3", 60.0, 80.0)) == pytest.approx(100 - 8 - 19)
    off_centre = g.MatSpec(pot_x_mm=10.0)
    assert g.pot_distance(off_centre, field("b1", 10.0, 50.0)) == pytest.approx(20.0)


def test_baselines_cut_the_corners_at_three_feet_along_the_diagonals() -> None:
    for colour in g.COLOURS:
        cx, cy = SPEC.corner(colour)
        scale = 914.4 / math.hypot(cx, cy)
        assert g.baseline_depth(SPEC, colour, cx * scale, cy * scale) == pytest.approx(0.0)
        assert g.baseline_depth(SPEC, colour, cx, cy) > 100  # the corner is behind it
    assert SPEC.corner(B) == pytest.approx((-914.4, 457.2))
    assert SPEC.corner(R) == pytest.approx((914.4, -457.2))


def test_field_of_play_excludes_edges_and_every_baseline() -> None:
    assert g.in_field(SPEC, field("g3", 0.0, 449.2))  # touching the edge: still in
    assert not g.in_field(SPEC, field("g3", 0.0, 449.3))  # partly over the edge
    assert g.in_field(SPEC, field("g3", 906.0, 0.0))  # the end of the mat, between baselines
    assert not g.in_field(SPEC, field("g3", 907.0, 0.0))
    cx, cy = SPEC.corner(G)
    scale = 914.4 / math.hypot(cx, cy)
    assert not g.in_field(SPEC, field("b3", cx * scale, cy * scale))  # across green's line


def test_squop_relations_piles_and_free_winks() -> None:
    mat = (
        field("b1", 0.0, 0.0, "g1"),
        field("g1", 15.0, 0.0, "r3"),
        field("r3", 30.0, 0.0),
        field("y1", 200.0, 0.0),
        g.Wink("y2", g.Place.POTTED),
        g.Wink("y3", g.Place.BASELINE),
    )
    assert g.squopped_ids(mat) == {"g1", "r3"}
    assert g.piles(mat) == [("b1", "g1", "r3")]
    assert [w.id for w in g.free_winks(mat)] == ["y1"]
    assert [w.id for w in g.playable(mat, Y)] == ["y1", "y3"]
    assert g.tiddlies(mat) == {B: 1, G: 0, R: 0, Y: 4}  # y3 unplayed: nothing
    assert g.all_squopped(mat, (G, R)) and not g.all_squopped(mat, (G, Y))


def test_inconsistent_observations_are_named() -> None:
    far = (field("b1", 0.0, 0.0, "g1"), field("g1", 100.0, 0.0))
    assert g.inconsistencies(far) == ["b1 is on g1, but they do not overlap"]
    flat = (field("b1", 0.0, 0.0), field("g1", 10.0, 0.0))
    assert g.inconsistencies(flat) == ["b1 and g1 overlap but neither is on the other"]
    touching = (field("b1", 0.0, 0.0), field("g1", 22.2, 0.0))  # 0.2 mm apart, within error
    assert g.inconsistencies(touching) == []


@pytest.mark.parametrize(
    ("entries", "nearest"),
    [
        ([("b1", 100.0, 0.0, False), ("g3", 0.0, 97.0, False)], (B, G)),  # both 70 mm
        ([("b1", 100.0, 0.0, False), ("g3", 0.0, 96.9, False)], (G,)),
        ([("b1", 900.0, 0.0, False), ("g3", 0.0, 0.0, True)], (B,)),  # off is furthest
        ([("b1", 0.0, 0.0, True), ("g3", 0.0, 470.0, False)], (B, G)),  # both off the mat
    ],
)
def test_squidge_off_nearest(entries: list[tuple[str, float, float, bool]], nearest: Any) -> None:
    winks = [(field(i, x, y), off) for i, x, y, off in entries]
    assert g.squidge_nearest(SPEC, winks) == nearest


def test_squidge_tie_tolerance() -> None:
    winks = [(field("b1", 100.0, 0.0), False), (field("g1", 0.0, 100.4), False)]
    assert g.squidge_nearest(SPEC, winks) == (B,)
    assert g.squidge_nearest(SPEC, winks, tie_mm=0.5) == (B, G)


# --- scoring ------------------------------------------------------------------


def test_pot_out_points_with_transfer_and_shares() -> None:
    sides = pot_out_points([(B,), (G,), (R,)])
    assert sides == {g.Side.BLUE_RED: 6, g.Side.GREEN_YELLOW: 1}
    shared = pot_out_points([(B, G), (R,)])  # 3 + 1 against 3 + 0, then the transfer
    assert shared == {g.Side.BLUE_RED: 5, g.Side.GREEN_YELLOW: 2}
    partners = pot_out_points([(B, R)])
    assert partners == {g.Side.BLUE_RED: 7, g.Side.GREEN_YELLOW: 0}


def test_tiddly_points_share_ties_and_sum_to_seven() -> None:
    points = tiddly_points({B: 9, G: 9, R: 2, Y: 2})
    assert points == {B: 3, G: 3, R: Fraction(1, 2), Y: Fraction(1, 2)}
    assert sum(tiddly_points({B: 5, G: 5, R: 5, Y: 5}).values()) == 7


# --- engine -------------------------------------------------------------------


class Game:
    """A game driven input by input, decisions kept."""

    def __init__(self, settings: Settings = SINGLES) -> None:
        self.engine = TiddlywinksEngine()
        self.state: State = self.engine.start(settings)
        self.decisions: list[Decision] = []
        self.t = 0

    def feed(self, event_type: type[Event], **fields: Any) -> list[Decision]:
        self.t += 1_000_000_000
        self.state, out = self.engine.step(self.state, event_type(t_ns=self.t, **fields))
        self.decisions += out
        return list(out)

    def squidge(self, winner: str = "b1") -> None:
        far = {"b1": (0.0, 300.0), "g1": (300.0, 0.0), "r1": (0.0, -300.0), "y1": (-300.0, 0.0)}
        sightings = [Sighting(i, x, y) for i, (x, y) in far.items() if i != winner]
        self.feed(Squidge, winks=(*sightings, Sighting(winner, 50.0, 0.0)))

    def shot(self, wink: str, *winks: Sighting) -> list[Decision]:
        return self.feed(Shot, wink=wink, winks=winks)


def test_play_goes_clockwise_from_the_squidge_off_winner() -> None:
    game = Game()
    game.squidge("r1")
    seen = [game.state.turn]
    for _ in range(4):
        game.feed(Pass)
        seen.append(game.state.turn)
    assert seen == [R, Y, B, G, R]


def test_extra_shots_count_only_winks_of_the_colour_played() -> None:
    game = Game()
    game.squidge("b1")
    game.shot("b1", Sighting("b1", potted=True), Sighting("g3", potted=True))
    assert (game.state.turn, game.state.shots_left) == (B, 1)
    game.shot("b2", Sighting("b2", 10.0, 200.0))
    assert game.state.turn is G


def test_a_colour_with_nothing_to_play_is_passed_over() -> None:
    game = Game()
    game.squidge("b1")
    for n in range(1, 7):
        game.shot(f"b{n}", Sighting(f"b{n}", potted=True))
    kinds = [d.kind for d in game.decisions]
    assert RulingKind.POT_OUT in kinds
    game.feed(Pass)  # green
    game.feed(Pass)  # red
    game.feed(Pass)  # yellow: blue is potted out, green is due again
    assert game.state.turn is G


def test_refusal_explains_an_input_that_changes_nothing() -> None:
    game = Game()
    assert game.engine.refusal(game.state, Pass(t_ns=1)) == "pass disregarded: no shot is due"
    game.squidge("b1")
    assert game.engine.refusal(game.state, Pass(t_ns=5)) is None


def test_time_starts_at_the_first_shot_and_expiry_is_the_deadline() -> None:
    game = Game(Settings(Format.PAIRS, ("a", "b", "c", "d")))
    game.squidge("g1")
    assert game.engine.deadline(game.state) is None
    game.shot("g1", Sighting("g1", 0.0, 100.0))
    assert game.engine.deadline(game.state) == game.t + 25 * 60 * 10**9


def test_snapshot_is_json_ready() -> None:
    game = Game()
    game.squidge("y1")
    snap = game.engine.snapshot(game.state)
    assert snap["turn"] == "yellow" and snap["phase"] == Phase.PLAY.value
    assert snap["players"] == {"blue": "ann", "green": "ben", "red": "ann", "yellow": "ben"}


# --- inputs, codec, module ----------------------------------------------------


def _parse(kind: str, doc: dict[str, Any]) -> Event:
    return parse_input(kind, Table(doc, "f.toml", f"input 1 ({kind})"), 7, SINGLES)


@pytest.mark.parametrize(
    ("kind", "doc"),
    [
        ("shot", {"wink": "b2", "winks": [{"id": "b2", "x": 1.5, "y": -2.0, "on": ["g1"]}]}),
        ("shot", {"colour": "red", "winks": [{"id": "r1", "potted": True}]}),
        ("shot", {"winks": [{"id": "g1", "x": 0.0, "y": 9.0}], "notes": ["g3 not seen"]}),
        ("squidge", {"winks": [{"id": "b1", "x": 1.0, "y": 2.0}, {"id": "g3", "off": True}]}),
        ("pass", {"colour": "green"}),
        ("place", {"winks": [{"id": "y4", "x": 0.0, "y": 30.0}], "reason": "restored"}),
        ("foul", {"rule": "12(b)", "option": "accept", "colour": "yellow"}),
        ("umpire", {"action": "decision", "detail": "x", "winks": [{"id": "b1", "potted": True}]}),
        ("umpire", {"action": "extend", "minutes": 2.0}),
        ("concede", {"order": ["red", "green"]}),
        ("pause", {"reason": "wink lost"}),
        ("resume", {}),
    ],
)
def test_inputs_round_trip_through_the_codec(kind: str, doc: dict[str, Any]) -> None:
    event = _parse(kind, doc)
    again_kind, payload = encode(event)
    assert again_kind == kind
    assert _parse(kind, dict(payload)) == event


@pytest.mark.parametrize(
    ("kind", "doc", "message"),
    [
        ("shot", {"winks": [{"id": "b7", "x": 0, "y": 0}]}, "'b7' is not a wink id"),
        ("shot", {"winks": [{"id": "b1", "x": 0}]}, "field 'y': a wink not potted needs x and y"),
        ("shot", {"winks": [{"id": "b1", "potted": True, "x": 1}]}, "a potted wink has no"),
        ("shot", {"winks": [{"id": "b1", "x": 0, "y": 0, "on": ["b1"]}]}, "not another wink"),
        ("shot", {"complete": True, "winks": []}, "lists all 24 winks"),
        ("shot", {"winks": [], "notes": "g3 not seen"}, "field 'notes'"),
        ("shot", {"winks": [], "notes": [3]}, "expected a list of strings"),
        ("shot", {"winks": [{"id": "b1", "x": 0, "y": 0, "z": 1}]}, "field 'z': unknown key"),
        ("squidge", {"winks": [{"id": "b1", "x": 0, "y": 0}, {"id": "b2", "potted": True}]},
         "one wink of each colour"),
        ("foul", {"rule": "12(d)"}, r"12\(d\) needs the offending colour"),
        ("concede", {"order": ["mauve"]}, "colours are blue, green, red, yellow"),
    ],
)  # fmt: skip
def test_bad_inputs_are_refused_naming_the_field(
    kind: str, doc: dict[str, Any], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        _parse(kind, doc)


def test_match_tables_validate_and_round_trip() -> None:
    doc = {"format": "pairs", "players": ["a", "b", "c", "d"], "time_limit_minutes": 30,
           "shot_limit": True, "mat": {"pot_x_mm": 2.5}}  # fmt: skip
    settings = parse_match(Table(doc, "f", "[match]"))
    assert settings.limit_ns == 30 * 60 * 10**9 and settings.mat.pot_x_mm == 2.5
    assert parse_match(Table(encode_match(settings), "f", "[match]")) == settings
    with pytest.raises(InputError, match="singles: 2 distinct ids"):
        parse_match(Table({"format": "singles", "players": ["a", "b", "c"]}, "f", "m"))
    with pytest.raises(InputError, match="unknown key"):
        parse_match(Table({"format": "singles", "players": ["a", "b"], "mat": {"x": 1}}, "f", "m"))


def test_a_scenario_error_names_file_input_and_field() -> None:
    shot = {"at": 1.0, "type": "shot", "winks": [{"id": "q1", "x": 0, "y": 0}]}
    match = {"format": "singles", "players": ["a", "b"]}
    doc = {"game": "tiddlywinks", "match": match, "input": [shot]}
    with pytest.raises(ScenarioError, match=r"demo.toml: input 1 \(shot\): winks\[1\]: field 'id'"):
        parse_scenario(doc, "demo.toml")


def test_a_shots_notes_go_to_the_umpire_and_only_its_own() -> None:
    # the camera's notes on a shot (winks it could not name) are a 14 notice;
    # the shot before, with none, gives none; the record replays them
    path = ROOT / "tests/scenarios/tiddlywinks-14-camera-notes-for-the-umpire.toml"
    scenario = load_scenario(path)
    result = simulate(scenario)
    told = [r for r in result.rulings if r.rule == "14" and r.kind is RulingKind.NOTICE]
    assert [r.at for r in told] == [20.0]
    shot = scenario.inputs[2].event
    assert isinstance(shot, Shot) and dict(told[0].extra)["notes"] == list(shot.notes)
    doc = MODULE.record_json(result.state, result.rulings, 1_000 * 10**9)
    again = simulate(parse_scenario(doc["scenario"], "record"))  # type: ignore[arg-type]
    # (the record has no end time: its replay plays on to the time limit)
    replayed = [r.to_json_dict() for r in again.rulings[: len(result.rulings)]]
    assert replayed == [r.to_json_dict() for r in result.rulings]


def test_record_holds_positions_before_and_after_and_replays() -> None:
    scenario = load_scenario(ROOT / "tests/scenarios/tiddlywinks-8-pot-out-desquop-concede.toml")
    result = simulate(scenario)
    doc = MODULE.record_json(result.state, result.rulings, 1_000 * 10**9)
    shots: Any = doc["shots"]
    squop = next(s for s in shots if s["wink"] == "g1")
    assert {"id": "y1", "x": -200.0, "y": 0.0} in squop["before"]
    assert {"id": "g1", "x": -195.0, "y": 0.0, "on": ["y1"]} in squop["after"]
    again = simulate(parse_scenario(doc["scenario"], "record"))  # type: ignore[arg-type]
    assert [r.to_json_dict() for r in again.rulings] == [r.to_json_dict() for r in result.rulings]
    text = MODULE.record_text(result.state, result.rulings, 1_000 * 10**9)
    assert "Squidge-off won by yellow" in text and "Result: ann 7, ben 0" in text


def test_the_example_config_loads() -> None:
    from controller.config import load_config

    config = load_config(ROOT / "config" / "tiddlywinks.toml")
    assert config.match.format is Format.PAIRS
    assert config.match.limit_ns == 25 * 60 * 10**9
