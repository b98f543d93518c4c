"""Properties of the clock over any sequence of presses, pauses, resumes and adjustments.

- Used time of both seats plus the pauses is exactly the time the clock was on
  (started and not stopped), to the millisecond, whatever happened.
- Adjustments never count as used time; per mode, the time on each clock is
  exactly what the mode says it earned (the accounting identities below).
- Replaying the same events gives identical states and snapshots.
- A display interpolating the last snapshot shows what ``remaining_ms`` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.clock import (
    ClockState,
    Mode,
    PauseReason,
    Seat,
    Stage,
    TimeControl,
    adjust,
    flag_deadline,
    interpolate,
    new_clock,
    pause,
    paused_ms,
    press,
    remaining_ms,
    resume,
    snapshot,
    start,
    stop,
    tick,
    used_ms,
)

MS = 1_000_000
T0_MS = 5_000_000  # mono_ns does not start at 0
PLAYERS = {Seat.LEFT: "ann", Seat.RIGHT: "ben"}


@st.composite
def stages(draw: st.DrawFn, last: bool) -> Stage:
    mode = draw(st.sampled_from(Mode if last else [m for m in Mode if m is not Mode.BYO_YOMI]))
    base = draw(st.integers(0 if mode is Mode.BYO_YOMI else 1, 20_000))
    moves = None if last else draw(st.integers(1, 3))
    small = st.integers(0, 5_000)
    match mode:
        case Mode.FISCHER:
            return Stage(mode, base, moves, increment_ms=draw(small))
        case Mode.BRONSTEIN | Mode.SIMPLE_DELAY:
            return Stage(mode, base, moves, delay_ms=draw(small))
        case Mode.BYO_YOMI:
            periods, period = draw(st.integers(1, 3)), draw(st.integers(1, 5_000))
            return Stage(mode, base, periods=periods, period_ms=period)
        case _:
            return Stage(mode, base, moves)


@st.composite
def controls(draw: st.DrawFn) -> TimeControl:
    first = [draw(stages(last=False)) for _ in range(draw(st.integers(0, 1)))]
    return TimeControl((*first, draw(stages(last=True))), draw(st.booleans()))


seats = st.sampled_from(Seat)
ops = st.one_of(
    st.tuples(st.just("press"), seats),
    st.tuples(st.just("start"), seats),
    st.tuples(st.just("pause"), st.sampled_from(PauseReason)),
    st.tuples(st.just("resume"), st.none()),
    st.tuples(st.just("adjust"), st.tuples(seats, st.integers(-20_000, 20_000))),
    st.tuples(st.just("stop"), st.none()),
)
# Times in ns with sub-ms parts: the clock floors them.
steps = st.lists(st.tuples(st.integers(0, 9_000 * MS + 999_999), ops), max_size=30)


@dataclass
class Run:
    states: list[ClockState]
    elapsed_ms: int
    adjusted: dict[Seat, int]
    t_ns: int


def apply(state: ClockState, op: tuple[str, object], t_ns: int) -> ClockState:
    kind, arg = op
    if kind == "press":
        assert isinstance(arg, Seat)
        return press(state, arg, t_ns)[0]
    if kind == "start":
        assert isinstance(arg, Seat)
        return start(state, arg, t_ns)
    if kind == "pause":
        assert isinstance(arg, PauseReason)
        return pause(state, arg, t_ns)
    if kind == "resume":
        return resume(state, t_ns)
    if kind == "adjust":
        assert isinstance(arg, tuple)
        return adjust(state, arg[0], arg[1], t_ns)
    return stop(state, t_ns)


def run(control: TimeControl, plan: list[tuple[int, tuple[str, object]]]) -> Run:
    """Apply the plan as a game would (tick first), measuring 'on' time independently."""
    t_ns = T0_MS * MS + 123_456
    state = start(new_clock(control), Seat.LEFT, t_ns)
    elapsed = 0
    adjusted = dict.fromkeys(Seat, 0)
    states = [state]
    for dt, op in plan:
        new_t = t_ns + dt
        was_on = state.running is not None
        due = flag_deadline(state)
        state, flag = tick(state, new_t)
        if was_on:
            end = new_t
            if flag is not None and not control.count_past_zero:
                assert due is not None and due <= new_t
                end = due  # the clock stopped itself at the flag
            elapsed += end // MS - t_ns // MS
        if op[0] == "adjust":
            assert isinstance(op[1], tuple)
            seat, delta = op[1]
            adjusted[seat] += delta
        state = apply(state, op, new_t)
        states.append(state)
        t_ns = new_t
    return Run(states, elapsed, adjusted, t_ns)


@settings(max_examples=120, deadline=None)
@given(controls(), steps)
def test_used_time_and_pauses_add_up_to_elapsed_exactly(
    control: TimeControl, plan: list[tuple[int, tuple[str, object]]]
) -> None:
    result = run(control, plan)
    state, t = result.states[-1], result.t_ns
    used = used_ms(state, Seat.LEFT, t) + used_ms(state, Seat.RIGHT, t)
    assert used + paused_ms(state, t) == result.elapsed_ms
    for seat in Seat:
        assert state.seat(seat).adjusted_ms == result.adjusted[seat]


@settings(max_examples=60, deadline=None)
@given(controls(), steps)
def test_replay_gives_identical_clocks(
    control: TimeControl, plan: list[tuple[int, tuple[str, object]]]
) -> None:
    first, second = run(control, plan), run(control, plan)
    assert first.states == second.states
    t = first.t_ns
    assert snapshot(first.states[-1], t, PLAYERS) == snapshot(second.states[-1], t, PLAYERS)


@settings(max_examples=120, deadline=None)
@given(controls(), steps, st.lists(st.integers(0, 60_000 * MS), min_size=1, max_size=4))
def test_interpolating_the_snapshot_agrees_with_remaining_ms(
    control: TimeControl, plan: list[tuple[int, tuple[str, object]]], later: list[int]
) -> None:
    result = run(control, plan)
    state, t = result.states[-1], result.t_ns
    payload = snapshot(state, t, PLAYERS)
    for dt in later:
        expected = {PLAYERS[s]: remaining_ms(state, s, t + dt) for s in Seat}
        assert interpolate(payload, t + dt) == expected


single_stage = st.builds(
    lambda stage, past_zero: TimeControl((stage,), past_zero), stages(last=True), st.booleans()
)


@settings(max_examples=120, deadline=None)
@given(single_stage, steps)
def test_each_mode_gives_exactly_what_it_should(
    control: TimeControl, plan: list[tuple[int, tuple[str, object]]]
) -> None:
    """Remaining time against base + adjustments - used, mode by mode."""
    result = run(control, plan)
    state, t = result.states[-1], result.t_ns
    stage = control.stages[0]
    for seat in Seat:
        clock = state.seat(seat)
        plain = stage.base_ms + clock.adjusted_ms - used_ms(state, seat, t)
        left = remaining_ms(state, seat, t)
        match stage.mode:
            case Mode.SUDDEN_DEATH:
                assert left == plain
            case Mode.FISCHER:
                assert left == plain + stage.increment_ms * clock.moves
            case Mode.BRONSTEIN:
                assert plain <= left <= plain + stage.delay_ms * clock.moves
            case Mode.SIMPLE_DELAY:
                assert plain <= left <= stage.base_ms + clock.adjusted_ms  # never adds
    if stage.mode is Mode.HOURGLASS:
        total = sum(remaining_ms(state, s, t) for s in Seat)
        assert total == 2 * stage.base_ms + state.left.adjusted_ms + state.right.adjusted_ms


@settings(max_examples=80, deadline=None)
@given(single_stage, steps)
def test_simple_delay_and_bronstein_never_leave_more_than_the_turn_began_with(
    control: TimeControl, plan: list[tuple[int, tuple[str, object]]]
) -> None:
    result = run(control, plan)
    if control.stages[0].mode not in (Mode.SIMPLE_DELAY, Mode.BRONSTEIN):
        return
    for before, after in zip(result.states, result.states[1:], strict=False):
        for seat in Seat:
            gained = after.seat(seat).main_ms - before.seat(seat).main_ms
            adjusted = after.seat(seat).adjusted_ms - before.seat(seat).adjusted_ms
            assert gained <= adjusted
