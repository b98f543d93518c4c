"""Heads & Tails fusion: gate edges and call-pad presses in, semantic events out.

The output is exactly the semantic inputs of ``contracts.md`` section 2
(:class:`Toss`, :class:`FaultLine`, :class:`Touch`, :class:`Call`), so the
engine cannot tell a light gate from a scenario file. Pure and deterministic:
no clock, no threads; the caller feeds edges and presses in time order and
calls :meth:`HeadsAndTailsFusion.tick` at :meth:`~HeadsAndTailsFusion.deadline`.

What the gates see and how it maps (reasoning in ``docs/sensors.md``):

- coin up through the fault gate: the toss was made below the fault line
  (2.1.4): ``Toss(below_fault_line=True)`` at that crossing;
- coin up through the start gate: a toss from below the start line:
  ``Toss()`` at that crossing;
- coin first seen *down* through the start gate (the usual toss, released
  above the line where no gate looks): ``Toss()`` dated back to the release
  from the measured speed, or ``Toss(upward=False)`` at the crossing when the
  coin cannot have risen ``rise_min_m`` (2.1.5);
- coin down through the fault gate after a toss: ``FaultLine`` at its first
  break;
- a hand-like break at a gate: ``Touch(START_LINE / FAULT_LINE)`` (2.1.6);
- a press on the call pad: ``Call(player=caller(), word="heads"/"tails")``.

Events are dated when they happened, not when they were recognised, and come
out in time order: until a toss is seen, everything is held for
``config.max_latency_ns`` because a coin in the air is only seen when it comes
down past the start line, and a call made while it rose must follow the toss.

>>> fusion = HeadsAndTailsFusion(active=ACTIVE_LOW, caller=lambda: "ben")
>>> edges = [("fault_b", 0), ("fault_a", 1_000_000), ("fault_b", 5_000_000),
...          ("fault_a", 6_000_000)]
>>> out = [e for i, (line, t) in enumerate(edges)
...        for e in fusion.edge(EdgeEvent(line=line, level=i >= 2, t_ns=t, seq=i + 1))]
>>> out += fusion.tick(fusion.config.max_latency_ns)
>>> [type(e).__name__ for e in out], out[0].below_fault_line
(['Toss'], True)
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from collections.abc import Callable, Mapping

from controller.games.heads_and_tails.events import Call, FaultLine, Toss, Touch, TouchWhat
from controller.model import Event
from controller.sensors.buttons import Press
from controller.sensors.classify import Crossing, Direction, Gate, GateClassifier, Kind
from controller.sensors.edges import EdgeEvent
from controller.sensors.geometry import FusionConfig, G

BEAMS = {
    "start_a": (Gate.START, 0),
    "start_b": (Gate.START, 1),
    "fault_a": (Gate.FAULT, 0),
    "fault_b": (Gate.FAULT, 1),
}
CALL_WORDS = {"call_heads": "heads", "call_tails": "tails"}
ACTIVE_LOW: Mapping[str, bool] = dict.fromkeys(BEAMS, False)
"""Every beam reads low when broken (the usual open-collector receiver)."""

_TOUCHED = {Gate.START: TouchWhat.START_LINE, Gate.FAULT: TouchWhat.FAULT_LINE}


class HeadsAndTailsFusion:
    """Fuses one table's gates and call pad.

    ``active`` maps each beam role present (``start_a`` and ``fault_a``
    required, ``start_b``/``fault_b`` for pairs, matching the geometry) to the
    electrical level that means "broken". ``caller`` names the current caller
    when a call-pad press is handed on: the pad belongs to the table, the
    caller changes each play, and only the engine's state knows who it is.
    ``on_crossing`` sees every classified passage (diagnostics, benchmark).
    """

    def __init__(
        self,
        *,
        active: Mapping[str, bool],
        caller: Callable[[], str],
        config: FusionConfig | None = None,
        on_crossing: Callable[[Crossing], None] | None = None,
    ) -> None:
        self.config = config or FusionConfig()
        self._check_roles(active)
        self._active = dict(active)
        self._caller = caller
        self._on_crossing = on_crossing
        self._gates = {g: GateClassifier(g, self.config) for g in Gate}
        self._pending: list[tuple[int, int, Event]] = []
        self._order = 0
        self._now: int | None = None
        self._flight_since: int | None = None  # the toss time of a coin in the air
        self._released_until: int | None = None
        self._start_seen: Crossing | None = None  # a coin down the start line, no toss yet

    def _check_roles(self, active: Mapping[str, bool]) -> None:
        geo = self.config.geometry
        want = {"start_a", "fault_a"}
        want |= {"start_b"} if geo.start_pair else set()
        want |= {"fault_b"} if geo.fault_pair else set()
        if set(active) != want:
            raise ValueError(
                f"beam roles {sorted(active)} do not match the geometry {sorted(want)}"
            )

    @property
    def in_flight(self) -> bool:
        """Whether a toss has been seen and its coin has not passed the fault line."""
        return self._flight_since is not None

    def edge(self, edge: EdgeEvent) -> list[Event]:
        """One beam edge; edges of other lines are not this fusion's business."""
        out = self._advance(edge.t_ns)
        where = BEAMS.get(edge.line)
        if where is None or edge.line not in self._active:
            return out
        gate, index = where
        broken = edge.level == self._active[edge.line]
        for crossing in self._gates[gate].beam(index, broken, edge.t_ns):
            self._observe(crossing)
        return out + self._release()

    def press(self, press: Press) -> list[Event]:
        """A debounced call-pad press (:class:`~controller.sensors.buttons.Press`)."""
        out = self._advance(press.t_ns)
        word = CALL_WORDS.get(press.role)
        if word is not None:
            # The player is filled in when the call leaves the fusion.
            self._push(Call(t_ns=press.t_ns, player="", word=word))
        return out + self._release()

    def tick(self, t_ns: int) -> list[Event]:
        """Let time pass to ``t_ns``: classify, time out, release held events."""
        return self._advance(t_ns) + self._release()

    def hold(self, event: Event) -> None:
        """Hand ``event`` on in time order with the fused ones (a health
        event, a command received by the service).

        Events from beside the fusion, dated no earlier than the last tick or
        edge, would otherwise overtake fused events dated before them that the
        fusion is still holding. Released by a later :meth:`tick` or edge.
        """
        self._push(event)

    def deadline(self) -> int | None:
        """When :meth:`tick` must next run, if ever."""
        times = [d for g in self._gates.values() if (d := g.deadline()) is not None]
        if self._flight_since is not None:
            times.append(self._flight_since + self.config.flight_max_ns)
        if self._start_seen is not None:
            times.append(self._start_seen.end_ns + self.config.fall_max_ns)
        if (due := self._release_due()) is not None:
            times.append(due)
        return min(times, default=None)

    def _undecided_since(self) -> int | None:
        return min(
            (s for g in self._gates.values() if (s := g.undecided_since()) is not None),
            default=None,
        )

    def _release_due(self) -> int | None:
        # Held events wait for the latency bound when no toss is seen yet; an
        # undecided passage before them releases them itself when it ends.
        if not self._pending or self._flight_since is not None:
            return None
        first = self._pending[0][0]
        since = self._undecided_since()
        if since is not None and since <= first:
            return None
        return first + self.config.max_latency_ns

    def _advance(self, t_ns: int) -> list[Event]:
        out: list[Event] = []
        while (due := self.deadline()) is not None and due <= t_ns:
            self._now = due if self._now is None else max(self._now, due)
            for gate in self._gates.values():
                for crossing in gate.tick(due):
                    self._observe(crossing)
            if self._flight_since is not None and due >= self._flight_since + (
                self.config.flight_max_ns
            ):
                self._flight_since = None  # caught, or the fault gate missed it
            seen = self._start_seen
            if seen is not None and due >= seen.end_ns + self.config.fall_max_ns:
                self._start_seen = None  # the fault gate missed it: the pair's speed
                self._toss(self._toss_from_start(seen, None))
            out += self._release()
        self._now = t_ns if self._now is None else max(self._now, t_ns)
        return out

    def _push(self, event: Event) -> None:
        self._order += 1
        heapq.heappush(self._pending, (event.t_ns, self._order, event))

    def flush(self, t_ns: int) -> list[Event]:
        """Release every held event dated up to ``t_ns`` now, without waiting
        out the look-ahead (call :meth:`tick` first)."""
        return self._release(t_ns)

    def _release(self, upto: int | None = None) -> list[Event]:
        now = self._now
        if now is None:
            return []
        watermark = now if self._flight_since is not None else now - self.config.max_latency_ns
        if (since := self._undecided_since()) is not None:
            watermark = min(watermark, since - 1)
        if upto is not None:
            watermark = upto
        out: list[Event] = []
        while self._pending and self._pending[0][0] <= watermark:
            event = heapq.heappop(self._pending)[2]
            if isinstance(event, Call):
                event = dataclasses.replace(event, player=self._caller())
            out.append(event)
            self._released_until = event.t_ns
        return out

    def _observe(self, crossing: Crossing) -> None:
        if self._on_crossing is not None:
            self._on_crossing(crossing)
        if crossing.kind is Kind.HAND:
            self._push(Touch(t_ns=crossing.t_ns, what=_TOUCHED[crossing.gate]))
        elif crossing.kind is Kind.COIN:
            self._coin(crossing)

    def _coin(self, crossing: Crossing) -> None:
        up = crossing.direction is Direction.UP
        if self._flight_since is not None:
            if crossing.gate is Gate.FAULT and not up:
                self._push(FaultLine(t_ns=crossing.t_ns))
                self._flight_since = None
            return  # the rest of a flight already announced
        if up:
            self._start_seen = None
            below = crossing.gate is Gate.FAULT
            self._toss(Toss(t_ns=crossing.t_ns, below_fault_line=below))
        elif crossing.gate is Gate.START:
            # Wait for the fault line: the time between the lines measures
            # the speed far better than a tumbling coin in a 5 mm pair does.
            self._start_seen = crossing
        elif self._start_seen is not None:
            self._toss(self._toss_from_start(self._start_seen, crossing))
            self._start_seen = None
            self._push(FaultLine(t_ns=crossing.t_ns))
            self._flight_since = None
        else:
            # Down the fault line with no toss seen: released between the
            # lines, below the start gate. Dated at its apex, the latest the
            # release can have been; whether it rose is the spotter's call.
            speed = crossing.speed_mps or self.config.single_beam_speed_mps
            self._toss(Toss(t_ns=crossing.t_ns - round(speed / G * 1e9)))
            self._push(FaultLine(t_ns=crossing.t_ns))
            self._flight_since = None

    def _start_speed(self, start: Crossing, fault: Crossing | None) -> float:
        """The coin's speed at the start line: from the fall between the lines
        when the fault gate saw it, else from the start pair alone."""
        if fault is not None:
            dt = ((fault.t_ns + fault.end_ns) - (start.t_ns + start.end_ns)) / 2e9
            if dt > 0:
                # h = v dt + g dt^2 / 2, solved for v.
                speed = self.config.geometry.start_above_fault_m / dt - G * dt / 2
                if speed > 0:
                    return speed
        return start.speed_mps or self.config.single_beam_speed_mps

    def _toss_from_start(self, start: Crossing, fault: Crossing | None) -> Toss:
        cfg = self.config
        speed = self._start_speed(start, fault)
        if cfg.rise_min_m is not None and speed < cfg.rise_speed_min_mps:
            return Toss(t_ns=start.t_ns, upward=False)
        # Ballistic: the apex was speed/g before the crossing; from the assumed
        # hand height the coin needed sqrt(v^2 - 2 g h) upwards, g-divided.
        launch = math.sqrt(max(speed * speed - 2 * G * cfg.hand_above_line_m, 0.0))
        back = round((speed + launch) / G * 1e9)
        middle = (start.t_ns + start.end_ns) // 2  # the coin's middle crosses then
        return Toss(t_ns=middle - min(back, cfg.flight_to_start_max_ns))

    def _toss(self, toss: Toss) -> None:
        if self._released_until is not None and toss.t_ns < self._released_until:
            # Never date a toss before an event already handed on.
            toss = dataclasses.replace(toss, t_ns=self._released_until)
        self._push(toss)
        self._flight_since = toss.t_ns
