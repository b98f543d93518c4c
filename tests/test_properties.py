"""Property tests over random input sequences (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.harness import simulate
from controller.scenario import parse_scenario
from tests.helpers import scenario_doc

PLAYERS = st.sampled_from(["ann", "ben"])
WORDS = st.sampled_from(["heads", "tails", "Heads", "edge", "pass"])

INPUTS: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.just({"type": "go"}),
    st.builds(
        lambda up, below: {"type": "toss", "upward": up, "below_fault_line": below},
        st.booleans().filter(lambda b: b) | st.booleans(),
        st.booleans().filter(lambda b: not b) | st.booleans(),
    ),
    st.builds(lambda p, w: {"type": "call", "player": p, "call": w}, PLAYERS, WORDS),
    st.just({"type": "fault_line"}),
    st.builds(
        lambda what: {"type": "touch", "what": what},
        st.sampled_from(["start_line", "fault_line", "table", "coin"]),
    ),
    st.builds(
        lambda who: {"type": "coin_touched", "who": who},
        st.sampled_from(["referee", "opponent", "spectator", "table"]),
    ),
    st.builds(
        lambda face, inside: {"type": "landed", "face": face, "in_area": inside},
        st.sampled_from(["heads", "tails", "heads", "tails", "edge", "broken"]),
        st.booleans().filter(lambda b: b) | st.booleans(),
    ),
    st.builds(lambda p: {"type": "coin_change", "player": p}, PLAYERS),
    st.builds(
        lambda action, p: {"type": "spotter", "action": action, "against": p},
        st.sampled_from(["invalid", "let", "fault"]),
        PLAYERS,
    ),
    st.builds(
        lambda ref, kind, p: {
            "type": "spotter",
            "action": "overrule",
            "ruling": ref,
            "replace_with": kind,
            "to": p,
        },
        st.just("last") | st.integers(min_value=1, max_value=3),
        st.sampled_from(["point", "fault", "let", "invalid"]),
        PLAYERS,
    ),
)

MATCHES = st.fixed_dictionaries(
    {
        "plays": st.integers(min_value=1, max_value=4),
        "first_tosser": PLAYERS,
        "visually_impaired": st.sampled_from([[], ["ann"], ["ben"], ["ann", "ben"]]),
    }
)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    match = draw(MATCHES)
    steps = draw(st.lists(st.tuples(st.floats(0, 40), INPUTS), max_size=40))
    t, inputs = 0.0, []
    for gap, item in steps:
        t = round(t + gap, 3)
        inputs.append({"at": t, **item})
    return scenario_doc(inputs, **match)


def _rulings(doc: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        result = simulate(parse_scenario(doc, "prop.toml"))
    except Exception as exc:  # an overrule of a seq that is not a ruling yet
        assert "no ruling" in str(exc), exc
        return []
    return [r.to_json_dict() for r in result.rulings]


ENDS = {"point", "fault"}


def _plays_ended(rulings: list[dict[str, Any]]) -> list[int]:
    """Plays ended after each ruling, counted from the rulings alone."""
    attempt: dict[str, str] = {}  # ruling id -> the id of its attempt's first ruling
    in_force: dict[str, str] = {}  # attempt -> the kind now in force for it
    ended, out = 0, []
    for r in rulings:
        kind = r["kind"]
        if kind in ENDS | {"let", "invalid"}:
            attempt[r["id"]] = r["id"]
            in_force[r["id"]] = kind
            ended += kind in ENDS
        elif kind == "overruled":
            # Any ruling of the attempt may be overruled, an overruling too:
            # what changes is the attempt's outcome, whichever was named.
            root = attempt[r["overrules"]]
            before, after = in_force[root], r["replaced_with"]
            ended += (after in ENDS) - (before in ENDS)
            attempt[r["id"]] = root
            in_force[root] = after
        out.append(ended)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_random_matches_keep_the_invariants(doc: dict[str, Any]) -> None:
    rulings = _rulings(doc)
    seqs = [r["seq"] for r in rulings]
    assert seqs == sorted(set(seqs)), "seq must strictly increase"
    assert len({r["id"] for r in rulings}) == len(rulings)
    plays = doc["match"]["plays"]
    for ruling, ended in zip(rulings, _plays_ended(rulings), strict=True):
        assert sum(ruling["score"].values()) == ended, ruling
        assert ended <= plays
        if ruling["kind"] != "notice":
            assert ruling["rule"] is not None, ruling
        if ruling["kind"] == "match_over":
            assert ended == plays
    assert _rulings(doc) == rulings, "the same inputs must give the same rulings"


def test_overruling_a_ruling_already_overruled_twice_counts_the_attempt_once() -> None:
    """Found by the property test: a fault, overruled to a point, that
    overruling overruled to a let, then the fault itself overruled to a point
    again. The attempt ends once, with the point, whichever ruling was named."""
    at0 = {"at": 0.0, "type": "spotter"}
    doc = scenario_doc(
        [
            {**at0, "action": "fault", "against": "ann"},
            {**at0, "action": "overrule", "ruling": "last", "replace_with": "point", "to": "ann"},
            {**at0, "action": "overrule", "ruling": "last", "replace_with": "let", "to": "ann"},
            {**at0, "action": "overrule", "ruling": 1, "replace_with": "point", "to": "ann"},
        ],
        plays=2,
        first_tosser="ann",
        visually_impaired=[],
    )
    rulings = _rulings(doc)
    assert [r["kind"] for r in rulings] == ["fault", "overruled", "overruled", "overruled"]
    assert [r["score"] for r in rulings][-2:] == [{"ann": 0, "ben": 0}, {"ann": 1, "ben": 0}]
    assert _plays_ended(rulings) == [1, 1, 0, 1]
