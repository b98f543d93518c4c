"""Unit tests of the Heads & Tails engine, through the harness (same code path)."""

from __future__ import annotations

from controller.games.heads_and_tails import HeadsAndTailsEngine, MatchSettings
from controller.games.heads_and_tails.events import Go, Toss
from controller.model import RulingKind
from tests.helpers import decided, play, run


def test_tosser_alternates_and_caller_scores_a_matching_call() -> None:
    got = decided(play(0) + play(20, caller="ann", face="tails"))
    assert got == [
        ("point", "2.3.1", "ann", "ben"),
        ("point", "2.3.2", "ann", "ben"),  # ann called heads, tails: point to ben the tosser
        ("match_over", "2.3.4", "ann", "ben"),
    ]


def test_tie_after_even_plays() -> None:
    got = decided(play(0) + play(20, caller="ann"))
    assert got[-1] == ("match_over", "2.3.5", None, None)
    last = run(play(0) + play(20, caller="ann")).rulings[-1]
    assert last.to_json_dict()["winner"] is None
    assert dict(last.score) == {"ann": 1, "ben": 1}


def test_toss_window_fires_with_no_further_input() -> None:
    result = run([{"at": 3.0, "type": "go"}], plays=1)
    fault = [r for r in result.rulings if r.kind is RulingKind.FAULT]
    assert [(f.rule, f.against, f.at) for f in fault] == [("2.1.2", "ann", 33.0)]


def test_toss_exactly_at_the_window_close_is_in_time() -> None:
    inputs = play(0)
    inputs[1]["at"] = 30.0
    for later in inputs[2:]:
        later["at"] += 28.0
    assert decided(inputs, plays=1)[0] == ("point", "2.3.1", "ann", "ben")


def test_second_let_in_a_play_is_a_fault_and_invalid_does_not_clear_it() -> None:
    let = [{"at": 0, "type": "go"}, {"at": 1, "type": "toss", "upward": False}]
    invalid = [
        {"at": 10, "type": "go"},
        {"at": 11, "type": "toss"},
        {"at": 11.2, "type": "coin_touched", "who": "spectator"},
    ]
    again = [{"at": 20, "type": "go"}, {"at": 21, "type": "toss", "below_fault_line": True}]
    assert decided(let + invalid + again, plays=1)[:3] == [
        ("let", "2.1.5", "ann", None),
        ("invalid", "2.1.11", None, None),
        ("fault", "2.1.8", "ann", "ben"),
    ]


def test_let_flag_is_cleared_by_a_new_play() -> None:
    let = [{"at": 0, "type": "go"}, {"at": 1, "type": "toss", "upward": False}]
    got = decided(let + play(10) + [{"at": 30, "type": "go"}] + let_at(31))
    assert got[:3] == [
        ("let", "2.1.5", "ann", None),
        ("point", "2.3.1", "ann", "ben"),
        ("let", "2.1.5", "ben", None),  # play 2: ben's first let, not a 2.1.8 fault
    ]


def let_at(t: float) -> list[dict[str, object]]:
    return [{"at": t, "type": "toss", "upward": False}]


def test_call_at_the_fault_line_instant_is_too_late() -> None:
    inputs = [
        {"at": 0, "type": "go"},
        {"at": 1, "type": "toss"},
        {"at": 1.5, "type": "call", "player": "ben", "call": "tails"},  # listed first
        {"at": 1.5, "type": "fault_line"},
    ]
    assert decided(inputs, plays=1)[0] == ("fault", "2.2.3", "ben", "ann")


def test_disregarded_calls_are_notices_not_faults() -> None:
    inputs = [
        {"at": 0, "type": "go"},
        {"at": 0.5, "type": "call", "player": "ben", "call": "heads"},  # before the toss
        {"at": 1, "type": "toss"},
        {"at": 1.1, "type": "call", "player": "ann", "call": "tails"},  # the tosser
        {"at": 1.2, "type": "call", "player": "ben", "call": "edge"},  # not a call
        {"at": 1.3, "type": "call", "player": "ben", "call": "Tails"},  # the call
        {"at": 1.4, "type": "call", "player": "ben", "call": "heads"},  # revoking
        {"at": 1.5, "type": "fault_line"},
        {"at": 2.0, "type": "landed", "face": "tails"},
    ]
    result = run(inputs, plays=1)
    notices = [r.rule for r in result.rulings if r.kind is RulingKind.NOTICE]
    assert notices == ["2.1.2", "2.2.2", None, "2.2.1", "2.2.4"]
    assert decided(inputs, plays=1)[0] == ("point", "2.3.1", "ann", "ben")


def test_visually_impaired_caller_may_call_after_landing_within_grace() -> None:
    base = [
        {"at": 0, "type": "go"},
        {"at": 1, "type": "toss"},
        {"at": 1.5, "type": "fault_line"},
        {"at": 2.0, "type": "landed", "face": "heads"},
    ]
    on_time = [*base, {"at": 3.0, "type": "call", "player": "ben", "call": "heads"}]
    assert decided(on_time, plays=1, visually_impaired=["ben"])[0] == (
        "point", "2.3.1", "ann", "ben",
    )  # fmt: skip
    result = run(base, plays=1, visually_impaired=["ben"], vi_grace_seconds=0.5)
    fault = next(r for r in result.rulings if r.kind is RulingKind.FAULT)
    assert (fault.rule, fault.against, fault.at) == ("4.2.1", "ben", 2.5)


def test_broken_coin_is_invalid_with_a_replacement_notice() -> None:
    inputs = play(0, face="broken")
    result = run(inputs, plays=1)
    kinds = [(r.kind.value, r.rule) for r in result.rulings]
    assert ("notice", "1.3.3") in kinds
    assert ("invalid", "2.7.4") in kinds


def test_inputs_after_an_attempt_is_ruled_change_nothing() -> None:
    inputs = [
        {"at": 0, "type": "go"},
        {"at": 1, "type": "toss"},
        {"at": 1.1, "type": "touch", "what": "start_line"},
        {"at": 1.2, "type": "call", "player": "ben", "call": "heads"},
        {"at": 1.5, "type": "fault_line"},
        {"at": 2.0, "type": "landed", "face": "heads"},
    ]
    assert decided(inputs, plays=1) == [("let", "2.1.6", "ann", None)]


def test_overrule_of_the_final_point_reopens_the_match() -> None:
    overrule = {
        "at": 10, "type": "spotter", "action": "overrule", "ruling": "last",
        "replace_with": "let", "rule": "2.7.2",
    }  # fmt: skip
    got = decided([*play(0), overrule, *play(20)], plays=1)
    assert got == [
        ("point", "2.3.1", "ann", "ben"),
        ("match_over", "2.3.4", "ann", "ben"),
        ("overruled", "2.7.2", "ann", None),
        ("point", "2.3.1", "ann", "ben"),
        ("match_over", "2.3.4", "ann", "ben"),
    ]


def test_overrule_that_keeps_the_play_ended_reissues_the_result() -> None:
    overrule = {
        "at": 10, "type": "spotter", "action": "overrule", "ruling": "sim:0:2",
        "replace_with": "fault", "against": "ben",
    }  # fmt: skip
    result = run([*play(0), overrule], plays=1)
    over = result.rulings[-1]
    assert over.kind is RulingKind.MATCH_OVER
    assert dict(over.score) == {"ann": 1, "ben": 0}
    overruled = result.rulings[-2]
    assert overruled.overrules == "sim:0:2"
    assert overruled.rule == "2.6.1"


def test_overrule_cannot_reshape_a_play_once_a_later_play_ended() -> None:
    overrule = {
        "at": 40, "type": "spotter", "action": "overrule", "ruling": "sim:0:2",
        "replace_with": "invalid",
    }  # fmt: skip
    result = run([*play(0), *play(20, caller="ann"), overrule], plays=3)
    assert result.rulings[-1].kind is RulingKind.NOTICE
    assert "later play" in result.rulings[-1].detail
    assert dict(result.state.score) == {"ann": 1, "ben": 1}


def test_edinburgh_is_one_toss_citing_3_2_1() -> None:
    got = decided(play(0, face="tails"), format="edinburgh")
    assert got == [("point", "2.3.2", "ben", "ann"), ("match_over", "3.2.1", "ben", "ann")]


def test_engine_is_pure_and_numbers_its_decisions() -> None:
    engine = HeadsAndTailsEngine()
    start = engine.start(MatchSettings(players=("ann", "ben"), first_tosser="ann", plays=1))
    after_go, first = engine.step(start, Go(t_ns=5))
    again, second = engine.step(start, Go(t_ns=5))
    assert after_go == again and first == second  # same input, same output
    assert start.decided == 0 and after_go.decided == 1  # start is untouched
    assert engine.deadline(after_go) == 5 + 30_000_000_000
    _, tossed = engine.step(after_go, Toss(t_ns=7, upward=False))
    assert [d.ordinal for d in tossed] == [1]
