"""A fake edge source: edges with explicit timestamps, for tests and the harness.

gpiozero's MockFactory stamps every edge with the time of the ``drive_*`` call,
so it cannot produce a 0.5 ms beam break at a chosen instant. This source can:
the caller gives each edge its ``t_ns`` and the source numbers it, exactly as a
real backend does, and hands it to the sink at once, on the caller's thread.

>>> got = []
>>> source = FakeEdgeSource({"fault_a": False})
>>> source.start(got.append)
>>> source.push("fault_a", True, 1_000_000).seq
1
>>> source.push("fault_a", False, 1_500_000)
EdgeEvent(line='fault_a', level=False, t_ns=1500000, seq=2)
>>> [e.t_ns for e in got], source.levels()
([1000000, 1500000], {'fault_a': False})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from controller.errors import TablerefError
from controller.sensors.edges import EdgeEvent, EdgeSink
from controller.sensors.lines import LineConfig


class FakeSourceError(TablerefError):
    """The fake source was used in a way no real source could behave."""


class FakeEdgeSource:
    """An :class:`~controller.sensors.edges.EdgeSource` driven by explicit edges.

    ``levels`` names the lines and their levels before the first edge; a line
    not named there is refused, like a pin that is not wired. Time must not go
    backwards, because the kernel's CLOCK_MONOTONIC stamps never do.
    """

    def __init__(self, levels: Mapping[str, bool]) -> None:
        self._levels = dict(levels)
        self._sink: EdgeSink | None = None
        self._closed = False
        self._seq = 0
        self._last_t_ns: int | None = None

    @classmethod
    def for_lines(cls, lines: Iterable[LineConfig]) -> FakeEdgeSource:
        """A fake with the configured lines, each at its idle level.

        >>> from controller.sensors.lines import Active, LineKind, Pull, Role
        >>> line = LineConfig(role=Role.CALL_HEADS, pin=5, kind=LineKind.BUTTON,
        ...                   active=Active.LOW, pull=Pull.UP)
        >>> FakeEdgeSource.for_lines([line]).levels()
        {'call_heads': True}
        """
        return cls({line.role.value: line.idle_level for line in lines})

    def start(self, sink: EdgeSink) -> None:
        """Deliver every later :meth:`push` to ``sink``."""
        if self._closed:
            raise FakeSourceError("the fake edge source is closed")
        self._sink = sink

    def close(self) -> None:
        """Stop delivering; a later push is an error."""
        self._sink = None
        self._closed = True

    def levels(self) -> dict[str, bool]:
        """The current level of every line (True = high)."""
        return dict(self._levels)

    def push(self, line: str, level: bool, t_ns: int) -> EdgeEvent:
        """One edge on ``line`` to ``level`` at ``t_ns`` (``mono_ns``); returns it."""
        sink = self._sink
        if sink is None:
            state = "closed" if self._closed else "not started"
            raise FakeSourceError(f"edge on {line!r} pushed to a fake source that is {state}")
        if line not in self._levels:
            known = ", ".join(sorted(self._levels)) or "none"
            raise FakeSourceError(f"no line {line!r} (known: {known})")
        if self._last_t_ns is not None and t_ns < self._last_t_ns:
            raise FakeSourceError(
                f"edge on {line!r} at {t_ns} ns is before the previous one at {self._last_t_ns} ns"
            )
        self._seq += 1
        self._last_t_ns = t_ns
        self._levels[line] = level
        edge = EdgeEvent(line=line, level=level, t_ns=t_ns, seq=self._seq)
        sink(edge)
        return edge

    def pulse(self, line: str, level: bool, start_ns: int, width_ns: int) -> None:
        """Two edges: ``line`` goes to ``level`` at ``start_ns`` and back after ``width_ns``.

        A 0.5 ms coin through an active-high beam is ``pulse("fault_a", True, t, 500_000)``.
        """
        if width_ns <= 0:
            raise FakeSourceError(f"a pulse needs a positive width, got {width_ns} ns")
        self.push(line, level, start_ns)
        self.push(line, not level, start_ns + width_ns)
