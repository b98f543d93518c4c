"""The one small interface every edge source implements.

An edge is a change of a digital input line with the time it happened, taken
as close to the hardware as the backend allows (the kernel's timestamp under
lgpio, the microcontroller's interrupt for the bridge). Sources decide
nothing: a callback only wraps the edge and hands it to a sink.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True, kw_only=True)
class EdgeEvent:
    """One edge on one line.

    ``line`` is the role the config gives the pin (``"fault_a"``,
    ``"call_heads"``...), never a pin number. ``level`` is the electrical level
    after the edge (True = high). ``t_ns`` is ``mono_ns``. ``seq`` counts the
    edges of one source from 1, so a gap shows a lost edge.

    >>> EdgeEvent(line="fault_a", level=False, t_ns=1_000, seq=1).line
    'fault_a'
    """

    line: str
    level: bool
    t_ns: int
    seq: int


EdgeSink = Callable[[EdgeEvent], None]


class EdgeSource(Protocol):
    """A source of edges: GPIO, a fake for tests, the microcontroller bridge."""

    def start(self, sink: EdgeSink) -> None:
        """Begin delivering edges to ``sink`` (from any thread)."""
        ...

    def levels(self) -> dict[str, bool]:
        """The current level of every line by role (True = high): the health
        monitor's starting point (a beam reading broken is never seen)."""
        ...

    def close(self) -> None:
        """Stop delivering and release the hardware."""
        ...
