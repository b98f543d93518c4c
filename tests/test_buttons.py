"""Buttons: the first edge is the press, bounce in the lockout is rejected and
counted, a tap shorter than the lockout is not lost."""

from __future__ import annotations

import dataclasses
import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import controller.sensors.buttons
from controller.model import Event
from controller.sensors.buttons import Buttons, ButtonState, Press, Release, step_button
from controller.sensors.edges import EdgeEvent
from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role

MS = 1_000_000
LEFT = LineConfig(
    role=Role.CLOCK_LEFT, pin=5, kind=LineKind.BUTTON, active=Active.LOW, pull=Pull.UP
)
RIGHT = LineConfig(
    role=Role.CLOCK_RIGHT, pin=6, kind=LineKind.BUTTON, active=Active.HIGH, pull=Pull.DOWN
)
BEAM = LineConfig(role=Role.FAULT_A, pin=17, kind=LineKind.BEAM, active=Active.HIGH, pull=Pull.UP)


def _edge(line: LineConfig, pressed: bool, t_ns: int) -> EdgeEvent:
    level = line.active_level if pressed else line.idle_level
    return EdgeEvent(line=line.role.value, level=level, t_ns=t_ns, seq=0)


def _feed(buttons: Buttons, line: LineConfig, *edges: tuple[bool, float]) -> list[object]:
    out: list[object] = []
    for pressed, t_ms in edges:
        out.extend(buttons.feed(_edge(line, pressed, round(t_ms * MS))))
    return out


def test_the_press_is_the_first_edge_and_the_bounce_is_rejected() -> None:
    buttons = Buttons([LEFT])
    # A typical contact: down at 100 ms, bouncing for 3 ms.
    out = _feed(buttons, LEFT, (True, 100), (False, 100.4), (True, 101), (False, 102), (True, 103))
    assert out == [Press(role="clock_left", t_ns=100 * MS)]
    assert buttons.bounces("clock_left") == 4
    assert buttons.is_pressed("clock_left")
    assert buttons.deadline() is None  # the line ended where it was accepted


def test_the_release_is_its_first_edge_too() -> None:
    buttons = Buttons([LEFT])
    _feed(buttons, LEFT, (True, 100))
    out = _feed(buttons, LEFT, (False, 300), (True, 301), (False, 302))
    assert out == [Release(role="clock_left", t_ns=300 * MS)]
    assert buttons.bounces("clock_left") == 2
    assert not buttons.is_pressed("clock_left")


def test_the_lockout_ends_exactly_on_time() -> None:
    buttons = Buttons([LEFT], lockout_ns=15 * MS)
    assert _feed(buttons, LEFT, (True, 0)) == [Press(role="clock_left", t_ns=0)]
    assert _feed(buttons, LEFT, (False, 15)) == [Release(role="clock_left", t_ns=15 * MS)]
    assert _feed(buttons, LEFT, (True, 29.999)) == []  # bounce of the release
    assert buttons.bounces("clock_left") == 1


def test_a_late_bounce_that_flips_back_is_no_second_press() -> None:
    buttons = Buttons([LEFT], lockout_ns=15 * MS)
    _feed(buttons, LEFT, (True, 0))
    assert _feed(buttons, LEFT, (False, 14.999)) == []  # bounce at the very end
    assert _feed(buttons, LEFT, (True, 15)) == []  # and back: the button stayed down
    assert buttons.is_pressed("clock_left") and buttons.deadline() is None
    assert buttons.tick(100 * MS) == []


def test_the_lockout_is_configurable() -> None:
    buttons = Buttons([LEFT], lockout_ns=20 * MS)
    _feed(buttons, LEFT, (True, 0), (False, 1))
    assert _feed(buttons, LEFT, (True, 16)) == []  # still inside 20 ms
    assert buttons.bounces("clock_left") == 2
    with pytest.raises(ValueError, match="positive"):
        Buttons([LEFT], lockout_ns=0)


def test_a_tap_shorter_than_the_lockout_is_released_by_the_tick() -> None:
    buttons = Buttons([LEFT])
    _feed(buttons, LEFT, (True, 1000), (False, 1010))  # a 10 ms tap
    assert buttons.is_pressed("clock_left")
    # Up since 1010 ms: accepted once it has held for a lockout, at its own time.
    assert buttons.deadline() == 1025 * MS
    assert buttons.tick(1024 * MS) == []
    assert buttons.tick(1025 * MS) == [Release(role="clock_left", t_ns=1010 * MS)]
    assert not buttons.is_pressed("clock_left")
    assert buttons.deadline() is None
    assert buttons.tick(2000 * MS) == []  # nothing twice


def test_without_ticks_the_next_edge_settles_the_tap() -> None:
    buttons = Buttons([LEFT])
    _feed(buttons, LEFT, (True, 1000), (False, 1010))
    out = _feed(buttons, LEFT, (True, 2000))
    assert out == [
        Release(role="clock_left", t_ns=1010 * MS),
        Press(role="clock_left", t_ns=2000 * MS),
    ]


def test_a_repeated_level_is_no_press() -> None:
    buttons = Buttons([LEFT])
    out = _feed(buttons, LEFT, (True, 0), (True, 50), (True, 100))
    assert out == [Press(role="clock_left", t_ns=0)]


def test_two_real_presses_are_two_presses() -> None:
    buttons = Buttons([LEFT, RIGHT])
    out = _feed(buttons, LEFT, (True, 0), (False, 80), (True, 160), (False, 240))
    out += _feed(buttons, RIGHT, (True, 300), (False, 301))
    assert [(type(o).__name__, o) for o in out if isinstance(o, Press)] == [
        ("Press", Press(role="clock_left", t_ns=0)),
        ("Press", Press(role="clock_left", t_ns=160 * MS)),
        ("Press", Press(role="clock_right", t_ns=300 * MS)),  # active high works too
    ]


def test_each_button_has_its_own_lockout() -> None:
    buttons = Buttons([LEFT, RIGHT])
    assert _feed(buttons, LEFT, (True, 0)) == [Press(role="clock_left", t_ns=0)]
    # The other player's button 1 ms later is not bounce of the first.
    assert _feed(buttons, RIGHT, (True, 1)) == [Press(role="clock_right", t_ns=1 * MS)]


def test_a_button_held_at_start_up_is_down_but_never_pressed() -> None:
    buttons = Buttons([LEFT], levels={"clock_left": LEFT.active_level})
    assert buttons.is_pressed("clock_left")
    assert _feed(buttons, LEFT, (True, 5)) == []
    assert _feed(buttons, LEFT, (False, 10)) == [Release(role="clock_left", t_ns=10 * MS)]


def test_other_lines_are_ignored() -> None:
    buttons = Buttons([LEFT, BEAM])
    assert buttons.feed(_edge(BEAM, True, 0)) == []
    with pytest.raises(KeyError):
        buttons.is_pressed("fault_a")


def test_outputs_are_frozen_events() -> None:
    press = Press(role="pause", t_ns=1)
    assert isinstance(press, Event) and not hasattr(press, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        press.t_ns = 2  # type: ignore[misc]


def test_step_button_is_pure() -> None:
    state = ButtonState(pressed=False, raw_pressed=False)
    first = step_button(state, "pause", True, 10, 15)
    assert step_button(state, "pause", True, 10, 15) == first
    assert state == ButtonState(pressed=False, raw_pressed=False)


# A burst is one real transition: its first edge, then 0 to 6 bounce edges in
# the next 5 ms. Bursts are 20 to 500 ms apart and alternate press / release.
bursts = st.lists(
    st.tuples(
        st.integers(min_value=20, max_value=500),  # ms since the previous burst
        st.lists(st.integers(min_value=1, max_value=5000), max_size=6),  # bounce offsets, µs
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(bursts)
def test_one_press_per_real_press_at_its_first_edge(script: list[tuple[int, list[int]]]) -> None:
    buttons = Buttons([LEFT])
    t_ms = 0
    presses: list[int] = []
    got: list[object] = []
    for index, (gap_ms, bounce_us) in enumerate(script):
        t_ms += gap_ms
        pressed = index % 2 == 0
        if pressed:
            presses.append(t_ms * MS)
        start = t_ms * MS
        got.extend(buttons.feed(_edge(LEFT, pressed, start)))
        level = pressed
        for offset in sorted(bounce_us):
            level = not level
            got.extend(buttons.feed(_edge(LEFT, level, start + offset * 1000)))
        if level != pressed:  # the contact settles where the finger put it
            got.extend(buttons.feed(_edge(LEFT, pressed, start + 5_001_000)))
    got.extend(buttons.tick(t_ms * MS + 100 * MS))
    assert [o.t_ns for o in got if isinstance(o, Press)] == presses
    assert buttons.is_pressed("clock_left") == (len(script) % 2 == 1)


def test_docstring_examples() -> None:
    result = doctest.testmod(controller.sensors.buttons)
    assert result.attempted > 0 and result.failed == 0
