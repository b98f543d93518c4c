"""Clock sync: the microcontroller's microsecond counter mapped onto ``mono_ns``.

The host asks for the counter about once a second (CLOCK_QUERY) and notes
when it sent the query (``sent_ns``) and when the answer arrived
(``received_ns``); the counter was read somewhere in between. Each sample
therefore says: at counter value ``x`` the host's clock was between
``sent_ns + up`` and ``received_ns - down``, with unknown one-way delays.

As in Klipper's clock sync, the 32-bit counter is extended to 64 bits on the
host, drift comes from a regression over many samples, and the offset from
the quickest round trips. Here the regression is the widest band: over the
last few minutes of samples, the slope (drift) is the one that leaves the
widest gap between the upper envelope of the ``sent`` points and the lower
envelope of the ``received`` points, and the offset is the middle of that
gap. Only the quickest exchanges in each direction touch the envelopes, so
this is "offset from the minimum round trip", taken one direction at a time
(a query delayed going out and a reply delayed coming back still each give a
tight bound). The middle assumes the fixed part of the USB delay is the same
both ways; any asymmetry is an offset no sync can see.

A sample that contradicts the current fit by more than ``outlier_ns`` is
rejected and counted; three in a row mean the counter jumped (a reset), and
the fit starts again from them.

>>> sync = ClockSync(clock_hz=1_000_000)
>>> for k in range(5):   # a counter 250 us ahead of mono_ns / 1000, 100 us each way
...     sync.add(k * 10**9, 250 + k * 10**6 + 100, k * 10**9 + 200_000)
True
True
True
True
True
>>> sync.to_mono_ns(sync.extend(250 + 4_500_000))
4500000000
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass

MASK32 = (1 << 32) - 1
HALF32 = 1 << 31
DEFAULT_WINDOW = 3000  # samples: five minutes at ten a second
DEFAULT_OFFSET_WINDOW_S = 30.0
MIN_OFFSET_WINDOW_US = 1_000_000
REGRESSION_EVERY_US = 1_000_000
MAX_DRIFT_PPM = 1000.0  # the slope search range; crystals are within 50-200 ppm
DEFAULT_OUTLIER_NS = 5_000_000
RESET_AFTER = 3  # consecutive outliers that mean the counter jumped


@dataclass(frozen=True, slots=True)
class Sample:
    """One clock exchange: the counter (64-bit) read between two host times."""

    mcu_us: int
    sent_ns: int
    received_ns: int


class ClockSync:
    """The mapping ``mcu_us`` -> ``mono_ns`` of one microcontroller boot."""

    def __init__(
        self,
        clock_hz: int = 1_000_000,
        *,
        window: int = DEFAULT_WINDOW,
        offset_window_s: float = DEFAULT_OFFSET_WINDOW_S,
        outlier_ns: int = DEFAULT_OUTLIER_NS,
    ) -> None:
        self.nominal = 1e9 / clock_hz  # ns per count
        self.samples: deque[Sample] = deque(maxlen=window)
        self.outlier_ns = outlier_ns
        self.offset_window_us = round(offset_window_s * clock_hz)
        self.outliers = 0
        self._suspects: list[Sample] = []
        self._last_us: int | None = None
        self._slope = self.nominal
        self._ref = (0, 0)  # (mcu_us, mono_ns) the fit is relative to
        self._offset = 0.0
        self._regressed_at = -(1 << 62)

    @property
    def synced(self) -> bool:
        """Whether there are samples enough to map edges."""
        return len(self.samples) >= 2

    @property
    def drift_ppm(self) -> float:
        """How much faster (+) the counter runs than its nominal rate."""
        return (self.nominal / self._slope - 1.0) * 1e6

    def note(self, t32: int) -> int:
        """Extend and remember a counter value read now (an identify's ``now_us``)."""
        self._last_us = self.extend(t32)
        return self._last_us

    def extend(self, t32: int) -> int:
        """A 32-bit counter value as the 64-bit count nearest the last one seen.

        Right for any value within 35 minutes (2**31 us) either side of it.

        >>> sync = ClockSync()
        >>> sync.note(2**32 - 10)
        4294967286
        >>> sync.extend(5), sync.extend(2**32 - 20)   # just after a wrap, and before
        (4294967301, 4294967276)
        """
        if self._last_us is None:
            return t32 & MASK32
        delta = ((t32 - self._last_us) + HALF32) & MASK32
        return self._last_us + delta - HALF32

    def add(self, sent_ns: int, t32: int, received_ns: int) -> bool:
        """One exchange; False when it was rejected as an outlier."""
        sample = Sample(self.extend(t32), sent_ns, received_ns)
        if self.synced and not self._fits(sample):
            self.outliers += 1
            self._suspects.append(sample)
            if len(self._suspects) < RESET_AFTER:
                return False
            self.samples.clear()  # the counter jumped: start again from the suspects
            self._regressed_at = -(1 << 62)
            for suspect in self._suspects:
                self.samples.append(suspect)
        else:
            self.samples.append(sample)
        self._suspects.clear()
        self._last_us = max(self._last_us or 0, sample.mcu_us)
        self._fit()
        return True

    def _fits(self, sample: Sample) -> bool:
        at = self.to_mono_ns(sample.mcu_us)
        slack = self.outlier_ns
        return sample.sent_ns - slack <= at <= sample.received_ns + slack

    def to_mono_ns(self, mcu_us: int) -> int:
        """A 64-bit counter value (from :meth:`extend`) as ``mono_ns``."""
        x_ref, y_ref = self._ref
        return y_ref + round(self._offset + self._slope * (mcu_us - x_ref))

    def _fit(self) -> None:
        newest = self.samples[-1]
        x_ref, y_ref = newest.mcu_us, newest.sent_ns
        if len(self.samples) < 3:
            slope = self.nominal
        elif x_ref - self._regressed_at >= REGRESSION_EVERY_US or len(self.samples) < 100:
            slope = self._regression()  # the drift moves slowly: once a second will do
            self._regressed_at = x_ref
        else:
            slope = self._slope
        # Early on the drift is known only roughly, and its error grows with
        # the age of the samples the offset rests on: use the newer quarter.
        span = x_ref - self.samples[0].mcu_us
        window = min(self.offset_window_us, max(span // 4, MIN_OFFSET_WINDOW_US))
        recent = list(
            itertools.takewhile(lambda s: x_ref - s.mcu_us <= window, reversed(self.samples))
        )
        low = max(s.sent_ns - y_ref - slope * (s.mcu_us - x_ref) for s in recent)
        high = min(s.received_ns - y_ref - slope * (s.mcu_us - x_ref) for s in recent)
        self._ref, self._slope, self._offset = (x_ref, y_ref), slope, (low + high) / 2

    def _regression(self) -> float:
        """The drift: least squares through the middles of the quicker half of
        the exchanges. A slow exchange (queued behind a burst of resends) has
        a middle that may sit far from the true time; the quick ones cannot."""
        rtts = sorted(s.received_ns - s.sent_ns for s in self.samples)
        limit = rtts[len(rtts) // 2]
        first = self.samples[0]
        points = [
            (float(s.mcu_us - first.mcu_us), (s.sent_ns + s.received_ns) / 2 - first.sent_ns)
            for s in self.samples
            if s.received_ns - s.sent_ns <= limit
        ]
        return _least_squares(points, self.nominal) if len(points) >= 3 else self.nominal


def _least_squares(points: list[tuple[float, float]], nominal: float) -> float:
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx <= 0:
        return nominal
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    span = nominal * MAX_DRIFT_PPM * 1e-6
    return min(max(slope, nominal - span), nominal + span)
