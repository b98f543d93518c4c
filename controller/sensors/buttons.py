"""Buttons: raw edges in, presses and releases out, with the first edge's time.

A contact bounces for a few milliseconds when pressed and released. A game
clock must take the press at the *first* edge (that is when the finger got
there), so instead of waiting for the line to settle we accept the first edge
into the other level at once and reject every edge in the lockout after it
(default 15 ms) as bounce. A change seen during the lockout (a tap shorter
than the lockout) is accepted once the line has kept it for a whole lockout,
at the time of its own edge: no tap is lost, and a late bounce that flips
straight back is no second press.

Pure and deterministic: no clock, no threads. The runtime calls :meth:`Buttons.tick`
at :meth:`Buttons.deadline`; without ticks, the next edge settles the line instead.
Stuck buttons are the health monitor's business (:mod:`controller.sensors.health`).

>>> from controller.sensors.lines import Active, LineConfig, LineKind, Pull, Role
>>> heads = LineConfig(role=Role.CALL_HEADS, pin=5, kind=LineKind.BUTTON,
...                    active=Active.LOW, pull=Pull.UP)
>>> buttons = Buttons([heads], lockout_ns=15_000_000)
>>> edge = lambda level, t: EdgeEvent(line="call_heads", level=level, t_ns=t, seq=0)
>>> buttons.feed(edge(False, 1_000_000))
[Press(t_ns=1000000, role='call_heads')]
>>> buttons.feed(edge(True, 2_000_000)), buttons.feed(edge(False, 3_000_000))  # bounce
([], [])
>>> buttons.bounces("call_heads"), buttons.is_pressed("call_heads")
(2, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from controller.model import Event
from controller.sensors.edges import EdgeEvent
from controller.sensors.lines import CONTACT_KINDS, DEFAULT_LOCKOUT_MS, LineConfig

DEFAULT_LOCKOUT_NS = DEFAULT_LOCKOUT_MS * 1_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Press(Event):
    """A button was pressed at ``t_ns`` (its first edge)."""

    role: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Release(Event):
    """A button was released at ``t_ns`` (its first edge back to idle)."""

    role: str


ButtonOutput = Press | Release


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonState:
    """One button: the accepted state, the raw line, and the lockout.

    ``raw_pressed``/``raw_t_ns`` follow every edge, bounce included, so the
    end of a lockout can tell whether the line really changed meanwhile.
    """

    pressed: bool
    raw_pressed: bool
    raw_t_ns: int | None = None
    lockout_until_ns: int | None = None
    bounces: int = 0

    def pending_until(self, lockout_ns: int) -> int | None:
        """When a change seen during the lockout is due to be accepted, if it holds.

        Its last edge came inside the lockout, so this is after the lockout ends.
        """
        if self.raw_t_ns is None or self.raw_pressed == self.pressed:
            return None
        return self.raw_t_ns + lockout_ns


def _accept(
    state: ButtonState, role: str, pressed: bool, t_ns: int, lockout_ns: int
) -> tuple[ButtonState, ButtonOutput]:
    new = replace(
        state,
        pressed=pressed,
        raw_pressed=pressed,
        raw_t_ns=t_ns,
        lockout_until_ns=t_ns + lockout_ns,
    )
    output: ButtonOutput = Press(role=role, t_ns=t_ns) if pressed else Release(role=role, t_ns=t_ns)
    return new, output


def settle_button(
    state: ButtonState, role: str, now_ns: int, lockout_ns: int
) -> tuple[ButtonState, tuple[ButtonOutput, ...]]:
    """Accept a change the lockout held back, once it has held for a lockout at ``now_ns``.

    The change takes the time of its last raw edge (when the line got there).
    """
    due = state.pending_until(lockout_ns)
    if due is None or now_ns < due:
        return state, ()
    assert state.raw_t_ns is not None  # a pending change has a raw edge
    new, output = _accept(state, role, state.raw_pressed, state.raw_t_ns, lockout_ns)
    return new, (output,)


def step_button(
    state: ButtonState, role: str, pressed: bool, t_ns: int, lockout_ns: int
) -> tuple[ButtonState, tuple[ButtonOutput, ...]]:
    """One raw edge (``pressed`` = the line is at its active level) at ``t_ns``.

    >>> s = ButtonState(pressed=False, raw_pressed=False)
    >>> s, out = step_button(s, "clock_left", True, 100, lockout_ns=15)
    >>> out, s.lockout_until_ns
    ((Press(t_ns=100, role='clock_left'),), 115)
    """
    state, settled = settle_button(state, role, t_ns, lockout_ns)
    if state.lockout_until_ns is not None and t_ns < state.lockout_until_ns:
        bounced = replace(state, raw_pressed=pressed, raw_t_ns=t_ns, bounces=state.bounces + 1)
        return bounced, settled
    if pressed == state.pressed:
        # A repeated level (the change in between was too quick for the
        # kernel to report): nothing new happened.
        return replace(state, raw_pressed=pressed, raw_t_ns=t_ns), settled
    new, output = _accept(state, role, pressed, t_ns, lockout_ns)
    return new, (*settled, output)


class Buttons:
    """Every button line of a table: feed edges, get :class:`Press` and :class:`Release`.

    ``levels`` are the lines' levels at start-up (default: idle). A button held
    down at start-up is pressed but gives no :class:`Press`: nobody saw it go down.
    Latching switches are debounced the same way. Edges of beams are ignored.
    """

    def __init__(
        self,
        lines: Iterable[LineConfig],
        *,
        lockout_ns: int = DEFAULT_LOCKOUT_NS,
        levels: Mapping[str, bool] | None = None,
    ) -> None:
        if lockout_ns <= 0:
            raise ValueError(f"lockout must be positive, got {lockout_ns} ns")
        self._lockout_ns = lockout_ns
        self._lines = {line.role.value: line for line in lines if line.kind in CONTACT_KINDS}
        self._states: dict[str, ButtonState] = {}
        self.start(levels or {})

    def start(self, levels: Mapping[str, bool]) -> None:
        """Take the lines' levels read at start-up (a line not named: idle).

        A switch found on, or a button found held, is pressed with no
        :class:`Press` (nobody saw it go down); its release is seen.
        """
        for role, line in self._lines.items():
            pressed = line.is_active(levels.get(role, line.idle_level))
            self._states[role] = ButtonState(pressed=pressed, raw_pressed=pressed)

    def feed(self, edge: EdgeEvent) -> list[ButtonOutput]:
        """One raw edge; returns the presses and releases it settles, in time order."""
        line = self._lines.get(edge.line)
        if line is None:
            return []
        state, outputs = step_button(
            self._states[edge.line],
            edge.line,
            line.is_active(edge.level),
            edge.t_ns,
            self._lockout_ns,
        )
        self._states[edge.line] = state
        return list(outputs)

    def deadline(self) -> int | None:
        """When :meth:`tick` next has something to settle (None: nothing pending)."""
        lockout = self._lockout_ns
        due = [d for s in self._states.values() if (d := s.pending_until(lockout)) is not None]
        return min(due, default=None)

    def tick(self, t_ns: int) -> list[ButtonOutput]:
        """Settle every lockout over by ``t_ns``; outputs in time order."""
        outputs: list[ButtonOutput] = []
        for role, state in self._states.items():
            self._states[role], settled = settle_button(state, role, t_ns, self._lockout_ns)
            outputs.extend(settled)
        return sorted(outputs, key=lambda o: (o.t_ns, o.role))

    def roles(self) -> frozenset[str]:
        """The roles of the lines debounced here."""
        return frozenset(self._lines)

    def is_pressed(self, role: str) -> bool:
        """Whether the button is down (as accepted, bounce filtered)."""
        return self._states[role].pressed

    def bounces(self, role: str) -> int:
        """How many edges of this button were rejected as bounce."""
        return self._states[role].bounces

    def state(self, role: str) -> ButtonState:
        """The button's full state (for the journal and tests)."""
        return self._states[role]
