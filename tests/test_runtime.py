"""The runtime loop and the time domains."""

from __future__ import annotations

import pytest

from controller.errors import RejectedInput
from controller.games.heads_and_tails import HeadsAndTailsEngine, MatchSettings
from controller.games.heads_and_tails.events import Go, Overrule, Replacement, Toss
from controller.harness import ScenarioSource
from controller.model import Ruling, RulingKind
from controller.runtime import Runtime, Wait
from controller.scenario import ScenarioInput
from controller.timebase import SimClock, ns_to_seconds, seconds_to_ns

S = 1_000_000_000
ORIGIN = 7 * S


def _runtime(sink: list[Ruling]) -> Runtime[object]:
    engine = HeadsAndTailsEngine()
    state = engine.start(MatchSettings(players=("ann", "ben"), first_tosser="ann", plays=1))
    return Runtime(engine, state, table="t9", boot=3, origin_ns=ORIGIN, ruling_sinks=[sink.append])  # type: ignore[arg-type]


def _source(*events: tuple[int, object]) -> ScenarioSource:
    inputs = [ScenarioInput(i, "x", e) for i, (_, e) in enumerate(events, 1)]  # type: ignore[arg-type]
    return ScenarioSource(inputs, SimClock(start_ns=ORIGIN))


def test_ids_seq_and_at_are_stamped_from_the_match_origin() -> None:
    out: list[Ruling] = []
    runtime = _runtime(out)
    runtime.feed(Go(t_ns=ORIGIN + 2 * S))
    assert (out[0].id, out[0].seq, out[0].at) == ("t9:3:1", 1, 2.0)


def test_an_input_at_the_deadline_comes_before_the_tick() -> None:
    out: list[Ruling] = []
    runtime = _runtime(out)
    go, toss = Go(t_ns=ORIGIN), Toss(t_ns=ORIGIN + 30 * S)
    runtime.run(_source((0, go), (0, toss)))
    assert RulingKind.FAULT not in [r.kind for r in out]  # tossed at exactly 30 s


def test_a_deadline_fires_after_the_last_input_and_until_stops_it() -> None:
    out: list[Ruling] = []
    _runtime(out).run(_source((0, Go(t_ns=ORIGIN))))
    assert [(r.kind, r.at) for r in out][-2] == (RulingKind.FAULT, 30.0)
    cut: list[Ruling] = []
    _runtime(cut).run(_source((0, Go(t_ns=ORIGIN))), until_ns=ORIGIN + 29 * S)
    assert [r.kind for r in cut] == [RulingKind.NOTICE]


def test_unknown_ruling_reference_is_rejected_and_changes_nothing() -> None:
    out: list[Ruling] = []
    runtime = _runtime(out)
    runtime.feed(Go(t_ns=ORIGIN))
    before = runtime.state
    with pytest.raises(RejectedInput, match="t9:3:99"):
        runtime.feed(Overrule(t_ns=ORIGIN + S, ref="t9:3:99", replace_with=Replacement.LET))
    assert runtime.state is before and len(out) == 1


def test_sim_source_waits_by_moving_its_clock() -> None:
    source = _source((0, Go(t_ns=ORIGIN + 5 * S)))
    assert source.wait(ORIGIN + 2 * S) is Wait.DEADLINE
    assert source.clock.mono_ns() == ORIGIN + 2 * S
    assert isinstance(source.wait(None), Go)
    assert source.wait(None) is Wait.END


def test_time_conversions_round_trip() -> None:
    assert seconds_to_ns(4.2) == 4_200_000_000
    assert ns_to_seconds(seconds_to_ns(123.456789)) == 123.456789
    clock = SimClock(start_ns=10, wall_at_start=1000.0)
    clock.advance_to(10 + 3 * S)
    clock.advance_to(5)  # never backwards
    assert clock.mono_ns() == 10 + 3 * S and clock.wall() == 1003.0
