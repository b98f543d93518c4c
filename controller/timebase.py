"""Time domains and clocks.

Three time domains are never mixed without a named conversion:

- ``mono_ns``: the host's CLOCK_MONOTONIC in integer nanoseconds; every event
  and deadline inside the controller is in this domain.
- ``mcu_us``: a microcontroller's counter (mapped to mono_ns by clock sync).
- ``wall``: UTC seconds, for humans and for surviving reboots.

This is the only module that reads the real clock. Everything else receives a
:class:`Clock`, so the harness runs on :class:`SimClock` with no sleeping.
"""

from __future__ import annotations

import time
from typing import Protocol

NS_PER_S = 1_000_000_000


def seconds_to_ns(seconds: float) -> int:
    """Convert a duration in seconds to integer nanoseconds (rounded).

    >>> seconds_to_ns(4.2)
    4200000000
    """
    return round(seconds * NS_PER_S)


def ns_to_seconds(ns: int) -> float:
    """Convert a duration in nanoseconds to seconds, kept to the microsecond.

    >>> ns_to_seconds(4_200_000_123)
    4.2
    """
    return round(ns / NS_PER_S, 6)


class Clock(Protocol):
    """A source of ``mono_ns`` and ``wall`` time."""

    def mono_ns(self) -> int:
        """The current monotonic time in nanoseconds."""
        ...

    def wall(self) -> float:
        """The current UTC time in seconds since the epoch."""
        ...


class MonotonicClock:
    """The real clock: ``time.monotonic_ns`` (CLOCK_MONOTONIC) and ``time.time``."""

    def mono_ns(self) -> int:
        return time.monotonic_ns()

    def wall(self) -> float:
        return time.time()


class SimClock:
    """Simulated time: it moves only when told to, and never backwards.

    >>> c = SimClock(start_ns=10)
    >>> c.advance_to(25); c.mono_ns()
    25
    """

    def __init__(self, start_ns: int = 0, wall_at_start: float = 0.0) -> None:
        self._now = start_ns
        self._start = start_ns
        self._wall_at_start = wall_at_start

    def mono_ns(self) -> int:
        return self._now

    def wall(self) -> float:
        return self._wall_at_start + (self._now - self._start) / NS_PER_S

    def advance_to(self, t_ns: int) -> None:
        """Move time forward to ``t_ns``; a time in the past is ignored."""
        self._now = max(self._now, t_ns)
