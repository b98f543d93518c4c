"""The clock engine, mode by mode, against how real clocks and the rules behave."""

from __future__ import annotations

import pytest

from controller.clock import (
    ClockState,
    Mode,
    PauseReason,
    PressOutcome,
    Seat,
    Stage,
    TimeControl,
    adjust,
    delay_left_ms,
    flag_deadline,
    new_clock,
    pause,
    paused_ms,
    periods_left,
    press,
    remaining_ms,
    resume,
    set_remaining,
    start,
    stop,
    tick,
    used_ms,
)

S = 1_000_000_000
MS = 1_000_000
T0 = 1_000 * S  # not zero: the clock must not care where mono_ns starts
L, R = Seat.LEFT, Seat.RIGHT


def at(seconds: float) -> int:
    return T0 + round(seconds * S)


def clock(*stages: Stage, past_zero: bool = False) -> ClockState:
    return start(new_clock(TimeControl(stages, past_zero)), L, at(0))


def moves(state: ClockState, *times: float) -> ClockState:
    """Alternate presses at these times, starting with whoever runs."""
    for t in times:
        assert state.running is not None
        state, outcome = press(state, state.running, at(t))
        assert outcome is PressOutcome.SWITCHED
    return state


def rem(state: ClockState, seat: Seat, t: float) -> int:
    return remaining_ms(state, seat, at(t))


# --- sudden death -----------------------------------------------------------


def test_sudden_death_counts_down_only_the_running_clock() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    assert (rem(state, L, 10), rem(state, R, 10)) == (50_000, 60_000)
    state = moves(state, 10.0)
    assert (rem(state, L, 25), rem(state, R, 25)) == (50_000, 45_000)
    assert state.left.moves == 1 and state.right.moves == 0


def test_timestamps_are_floored_to_the_millisecond() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    state, _ = press(state, L, at(0) + 10 * S + 999_999)  # 10.000999999 s
    assert state.left.main_ms == 50_000
    assert remaining_ms(state, R, at(0) + 10 * S + 1_999_999) == 59_999


def test_flag_falls_exactly_at_zero_and_the_clock_stops_there() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    assert flag_deadline(state) == at(60)
    early, flag = tick(state, at(60) - MS)
    assert flag is None and rem(early, L, 59.999) == 1
    # A press 1 ms before the flag saves the player.
    saved, outcome = press(state, L, at(60) - MS)
    assert outcome is PressOutcome.SWITCHED and saved.left.main_ms == 1
    # At 0 ms the flag has fallen: a press at that instant is too late.
    late, flag = tick(state, at(60))
    assert flag is L and late.left.flag_ms == (at(60) - T0) // MS + T0 // MS
    assert late.running is None and rem(late, L, 90) == 0
    assert press(late, L, at(60))[1] is PressOutcome.STOPPED
    assert tick(late, at(100))[1] is None  # reported once


def test_a_late_tick_stops_the_clock_at_the_flag_not_at_the_tick() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    state, flag = tick(state, at(75))
    assert flag is L
    assert used_ms(state, L, at(75)) == 60_000 and rem(state, L, 75) == 0


def test_counting_on_past_zero_runs_into_negative_time() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000), past_zero=True)
    state, flag = tick(state, at(61))
    assert flag is L and state.running is L
    assert rem(state, L, 61) == -1_000 and flag_deadline(state) is None
    state = moves(state, 90.5)
    assert state.left.main_ms == -30_500 and state.left.flagged
    assert tick(state, at(200))[1] is R  # the other flag falls in its turn


def test_a_press_by_the_seat_not_running_is_ignored() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    after, outcome = press(state, R, at(5))
    assert outcome is PressOutcome.NOT_RUNNING
    assert after.running is L and rem(after, L, 5) == 55_000
    assert press(new_clock(state.control), L, at(1))[1] is PressOutcome.STOPPED


# --- Fischer ----------------------------------------------------------------


def test_fischer_adds_the_increment_after_the_move() -> None:
    state = clock(Stage(Mode.FISCHER, 60_000, increment_ms=2_000))
    assert rem(state, L, 5) == 55_000  # nothing added during the move
    state = moves(state, 5.0)
    assert state.left.main_ms == 57_000
    state = moves(state, 5.5, 30.0)  # right moves in 0.5 s: gains 1.5 s
    assert state.right.main_ms == 61_500 and state.left.main_ms == 34_500


# --- Bronstein --------------------------------------------------------------


def test_bronstein_adds_back_the_time_used_up_to_the_delay() -> None:
    state = clock(Stage(Mode.BRONSTEIN, 60_000, delay_ms=5_000))
    assert rem(state, L, 3) == 57_000  # the main time runs during the move
    assert delay_left_ms(state, at(3)) == 2_000
    fast = moves(state, 3.0)
    assert fast.left.main_ms == 60_000  # fast move: all 3 s given back, no gain
    slow = moves(state, 8.0)
    assert slow.left.main_ms == 57_000  # slow move: 5 s given back of 8


def test_bronstein_flag_falls_when_the_main_time_does_despite_the_delay() -> None:
    state = clock(Stage(Mode.BRONSTEIN, 4_000, delay_ms=10_000))
    assert flag_deadline(state) == at(4)


# --- simple (US) delay ------------------------------------------------------


def test_simple_delay_waits_out_the_delay_and_never_adds_time() -> None:
    state = clock(Stage(Mode.SIMPLE_DELAY, 60_000, delay_ms=12_000))
    assert rem(state, L, 11.999) == 60_000 and delay_left_ms(state, at(11.999)) == 1
    assert rem(state, L, 20) == 52_000 and delay_left_ms(state, at(20)) == 0
    fast = moves(state, 4.0)
    assert fast.left.main_ms == 60_000  # a fast move keeps the time, gains nothing
    slow = moves(state, 20.0)
    assert slow.left.main_ms == 52_000
    assert flag_deadline(slow) == at(20 + 12 + 60)


def test_simple_delay_survives_a_pause_in_the_middle_of_the_delay() -> None:
    state = clock(Stage(Mode.SIMPLE_DELAY, 60_000, delay_ms=12_000))
    state = pause(state, PauseReason.DIE_OFF_TABLE, at(5))
    assert delay_left_ms(state, at(50)) == 7_000
    state = resume(state, at(100))
    assert delay_left_ms(state, at(104)) == 3_000 and rem(state, L, 104) == 60_000
    assert flag_deadline(state) == at(100 + 7 + 60)


# --- hourglass --------------------------------------------------------------


def test_hourglass_gives_the_time_used_to_the_opponent() -> None:
    state = clock(Stage(Mode.HOURGLASS, 60_000))
    assert (rem(state, L, 10), rem(state, R, 10)) == (50_000, 70_000)
    state = moves(state, 10.0)
    assert (state.left.main_ms, state.right.main_ms) == (50_000, 70_000)
    assert (rem(state, L, 14), rem(state, R, 14)) == (54_000, 66_000)
    assert rem(state, L, 14) + rem(state, R, 14) == 120_000


def test_hourglass_flag_stops_the_gain_too() -> None:
    state = clock(Stage(Mode.HOURGLASS, 60_000))
    state, flag = tick(state, at(80))
    assert flag is L and (rem(state, L, 80), rem(state, R, 80)) == (0, 120_000)


# --- byo-yomi ---------------------------------------------------------------


def byo() -> ClockState:
    return clock(Stage(Mode.BYO_YOMI, 10_000, periods=3, period_ms=30_000))


def test_byo_yomi_main_time_then_a_period_that_a_move_resets() -> None:
    state = byo()
    assert rem(state, L, 0) == 100_000 and periods_left(state, L, at(0)) == 3
    state = moves(state, 25.0)  # main used up, 15 s into the first period
    assert (state.left.main_ms, state.left.periods_left) == (0, 3)
    assert rem(state, L, 25) == 90_000  # the period is whole again


def test_byo_yomi_a_period_that_runs_out_is_consumed() -> None:
    state = moves(byo(), 75.0)  # 10 s main + 65 s: two periods gone, in the third
    assert (state.left.main_ms, state.left.periods_left) == (0, 1)
    state = moves(state, 76.0)  # right's move
    assert periods_left(state, L, at(100)) == 1 and rem(state, L, 100) == 6_000
    assert flag_deadline(state) == at(106)


def test_byo_yomi_flag_when_the_last_period_runs_out() -> None:
    state = byo()
    assert flag_deadline(state) == at(100)
    assert periods_left(state, L, at(99.999)) == 1
    state, flag = tick(state, at(100))
    assert flag is L and periods_left(state, L, at(100)) == 0


# --- stages -----------------------------------------------------------------


def test_next_stage_time_is_added_on_completing_its_move_count() -> None:
    first = Stage(Mode.FISCHER, 60_000, moves=2, increment_ms=1_000)
    second = Stage(Mode.SIMPLE_DELAY, 30_000, delay_ms=5_000)
    state = clock(first, second)
    state = moves(state, 1.0, 2.0)
    assert (state.left.stage, state.left.moves, state.left.main_ms) == (0, 1, 60_000)
    state = moves(state, 3.0)  # left's 2nd move completes stage 1
    # Left: 60 - 1 + 1 - 1 + 1 = 60 s after two moves, then + 30 s for stage 2.
    assert (state.left.stage, state.left.main_ms, state.left.stage_moves) == (1, 90_000, 0)
    assert state.right.stage == 0
    state = moves(state, 4.0, 10.0)  # left's first move in stage 2: 6 s with a 5 s delay
    assert state.left.main_ms == 89_000


# --- pauses and adjustments -------------------------------------------------


def test_pause_stops_the_running_clock_and_is_booked_apart() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    state = pause(state, PauseReason.TD_CALL, at(10))
    assert state.pause is not None and state.pause.reason is PauseReason.TD_CALL
    assert rem(state, L, 500) == 50_000 and flag_deadline(state) is None
    assert press(state, L, at(20))[1] is PressOutcome.PAUSED
    again = pause(state, PauseReason.BREAK, at(30))  # already paused: the first pause holds
    assert again.pause == state.pause
    state = resume(state, at(70))
    assert paused_ms(state, at(70)) == 60_000 and rem(state, L, 75) == 45_000
    assert used_ms(state, L, at(75)) == 15_000
    assert flag_deadline(state) == at(120)


def test_a_stop_books_the_turn_and_ends_the_running() -> None:
    state = clock(Stage(Mode.FISCHER, 60_000, increment_ms=5_000))
    state = stop(state, at(12))
    assert state.running is None and state.left.main_ms == 48_000  # no increment
    assert rem(state, L, 100) == 48_000 and flag_deadline(state) is None


def test_adjust_corrects_time_without_counting_as_used() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    state = adjust(state, R, -30_000, at(5))
    state = adjust(state, L, 30_000, at(5))
    assert (rem(state, L, 5), rem(state, R, 5)) == (85_000, 30_000)
    assert used_ms(state, L, at(5)) == 5_000 and state.right.adjusted_ms == -30_000
    assert flag_deadline(state) == at(90)


def test_a_negative_adjustment_below_zero_flags_at_once() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    state = adjust(state, L, -80_000, at(10))
    state, flag = tick(state, at(10))
    assert flag is L and rem(state, L, 10) == -30_000


def test_set_remaining_and_lifting_a_flag() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000), past_zero=True)
    state, _ = tick(state, at(70))
    assert state.left.flagged
    state = set_remaining(state, L, 20_000, at(70))
    assert rem(state, L, 70) == 20_000 and not state.left.flagged
    assert flag_deadline(state) == at(90)


def test_time_never_runs_backwards() -> None:
    state = clock(Stage(Mode.SUDDEN_DEATH, 60_000))
    state, _ = press(state, L, at(10))
    state2, outcome = press(state, R, at(9))  # an older timestamp: taken as 10 s
    assert outcome is PressOutcome.SWITCHED and state2.right.main_ms == 60_000


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": Mode.SUDDEN_DEATH, "base_ms": -1}, "base time"),
        ({"mode": Mode.FISCHER, "base_ms": 1, "delay_ms": 3}, "delay_ms is not used"),
        ({"mode": Mode.BYO_YOMI, "base_ms": 1, "periods": 0, "period_ms": 5}, "period"),
        ({"mode": Mode.SUDDEN_DEATH, "base_ms": 1, "moves": 0}, "moves"),
    ],
)
def test_bad_stages_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Stage(**kwargs)  # type: ignore[arg-type]
