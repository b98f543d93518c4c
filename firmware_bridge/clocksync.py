"""Clock sync: the microcontroller's microsecond counter mapped onto ``mono_ns``.

The host asks for the counter (CLOCK_QUERY) and notes when it sent the query
(``sent_ns``) and when the answer arrived (``received_ns``); the counter was
read somewhere in between. Each exchange is therefore a hard bound: the
instant the counter showed ``x`` lies in ``[sent_ns, received_ns]``, whatever
the one-way delays were.

As in Klipper's clock sync, the 32-bit counter is extended to 64 bits on the
host, and the drift and offset come from many exchanges, the quick ones
weighing most. Here that is done exactly rather than by a regression: over a
window of recent exchanges, the mapping is a straight line (offset and rate)
that must pass through every exchange's interval. The lines that do form a
convex polygon in (offset, rate) space, cut down by each exchange's two
bounds; it is kept as that polygon (:class:`Band`). A counter value maps to
the middle of the range of times the feasible lines give it, which is the
value with the smallest worst-case error. Only the quickest exchanges in each
direction cut the polygon, so this is "offset from the minimum round trip"
and "drift by regression" at once, with no tuning: a slow exchange (queued
behind a burst of resends) is a loose bound and changes nothing. The middle
assumes the fixed part of the USB delay is the same both ways; any asymmetry
is an offset no sync can see.

The crystal's rate wanders slowly with temperature, so old exchanges are let
go: two polygons are kept, the second started half a window after the first,
and the second takes over when the first is a window old. Should an exchange
contradict the polygon (the rate moved faster than that), the polygon is
rebuilt from the newest exchanges back, as far as one straight line fits them.

An exchange that misses the current mapping by more than ``outlier_ns`` is
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

from collections import deque
from dataclasses import dataclass

MASK32 = (1 << 32) - 1
HALF32 = 1 << 31
DEFAULT_WINDOW_S = 120.0  # how far back exchanges count (the newest half at least)
MAX_DRIFT_PPM = 1000.0  # the rate's prior range; crystals are within 50-200 ppm
DEFAULT_OUTLIER_NS = 5_000_000
RESET_AFTER = 3  # consecutive outliers that mean the counter jumped
_BIG_NS = 1e12  # the offset's prior range: any line through the first exchange


@dataclass(frozen=True, slots=True)
class Sample:
    """One clock exchange: the counter (64-bit) read between two host times."""

    mcu_us: int
    sent_ns: int
    received_ns: int


class Band:
    """The lines ``t = y0 + nominal * (x - x0) + a + d * (x - x0)`` through
    every exchange added, as a convex polygon of ``(a, d)`` vertices.

    ``a`` is in ns, ``d`` in ns per count (``nominal * ppm / 1e6``). A counter
    value ``x`` is read at some instant of its count, so the instant the count
    began is in ``[sent - one count, received]``.

    >>> band = Band(x0=0, y0=0, nominal=1000.0, max_ppm=1000.0)
    >>> band.add(Sample(0, -100, 100))     # count 0 began in [-1100, 100] ns
    True
    >>> band.add(Sample(10**6, 10**9 - 100, 10**9 + 100))   # a second later, as tight
    True
    >>> [round(t) for t in band.interval(2 * 10**6)]   # a second on, the range triples
    [1999997700, 2000001300]
    """

    def __init__(self, *, x0: int, y0: int, nominal: float, max_ppm: float) -> None:
        self.x0, self.y0, self.nominal = x0, y0, nominal
        span = nominal * max_ppm * 1e-6
        self.poly = [(-_BIG_NS, -span), (_BIG_NS, -span), (_BIG_NS, span), (-_BIG_NS, span)]
        self.count = 0
        self.first_us = x0

    def add(self, sample: Sample) -> bool:
        """Cut by one exchange; False (and unchanged) when no line fits it."""
        dx = sample.mcu_us - self.x0
        base = self.y0 + self.nominal * dx
        high = _clip(self.poly, 1.0, dx, sample.received_ns - base)
        low = _clip(high, -1.0, -dx, base - (sample.sent_ns - self.nominal))
        if not low:
            return False
        self.first_us = sample.mcu_us if self.count == 0 else min(self.first_us, sample.mcu_us)
        self.poly = low
        self.count += 1
        return True

    def interval(self, x: int) -> tuple[float, float]:
        """Earliest and latest instant the feasible lines give count ``x``."""
        dx = x - self.x0
        values = [a + d * dx for a, d in self.poly]
        base = self.y0 + self.nominal * dx
        return base + min(values), base + max(values)

    def rate_ns(self) -> float:
        """The middle of the feasible rates, ns per count."""
        slopes = [d for _, d in self.poly]
        return self.nominal + (min(slopes) + max(slopes)) / 2


def _clip(
    poly: list[tuple[float, float]], ca: float, cd: float, c: float
) -> list[tuple[float, float]]:
    """The convex polygon ``poly`` cut to ``ca * a + cd * d <= c``."""
    out: list[tuple[float, float]] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp = p[0] * ca + p[1] * cd - c
        fq = q[0] * ca + q[1] * cd - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


class ClockSync:
    """The mapping ``mcu_us`` -> ``mono_ns`` of one microcontroller boot."""

    def __init__(
        self,
        clock_hz: int = 1_000_000,
        *,
        window_s: float = DEFAULT_WINDOW_S,
        outlier_ns: int = DEFAULT_OUTLIER_NS,
        max_drift_ppm: float = MAX_DRIFT_PPM,
    ) -> None:
        self.nominal = 1e9 / clock_hz  # ns per count
        self.window_us = round(window_s * clock_hz)
        self.max_ppm = max_drift_ppm
        self.samples: deque[Sample] = deque()  # the window's exchanges, oldest first
        self.outlier_ns = outlier_ns
        self.outliers = 0
        self.rebuilds = 0  # times an exchange contradicted the window (the rate moved)
        self._suspects: list[Sample] = []
        self._last_us: int | None = None
        self._band: Band | None = None
        self._next: Band | None = None  # started half a window later; takes over

    @property
    def synced(self) -> bool:
        """Whether there are exchanges enough to map edges."""
        return self._band is not None and self._band.count >= 2

    @property
    def drift_ppm(self) -> float:
        """How much faster (+) the counter runs than its nominal rate."""
        if self._band is None:
            return 0.0
        return (self.nominal / self._band.rate_ns() - 1.0) * 1e6

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
            self._band = self._next = None
            for suspect in self._suspects:
                self._take(suspect)
        else:
            self._take(sample)
        self._suspects.clear()
        self._last_us = max(self._last_us or 0, sample.mcu_us)
        return True

    def _fits(self, sample: Sample) -> bool:
        at = self.to_mono_ns(sample.mcu_us)
        slack = self.outlier_ns
        return sample.sent_ns - slack <= at <= sample.received_ns + slack

    def to_mono_ns(self, mcu_us: int) -> int:
        """A 64-bit counter value (from :meth:`extend`) as ``mono_ns``: the
        middle of that count, as the feasible lines place it."""
        if self._band is None:
            raise RuntimeError("no clock exchange yet")
        low, high = self._band.interval(mcu_us)
        return round((low + high + self.nominal) / 2)

    def uncertainty_ns(self, mcu_us: int) -> float:
        """Half the range of instants the exchanges allow for count ``mcu_us``:
        a bound on the mapping's error if the USB delay is symmetric."""
        if self._band is None:
            return float("inf")
        low, high = self._band.interval(mcu_us)
        return (high - low + self.nominal) / 2

    def _new_band(self, sample: Sample) -> Band:
        return Band(x0=sample.mcu_us, y0=sample.sent_ns, nominal=self.nominal, max_ppm=self.max_ppm)

    def _take(self, sample: Sample) -> None:
        self.samples.append(sample)
        while sample.mcu_us - self.samples[0].mcu_us > self.window_us:
            self.samples.popleft()
        if self._band is None:
            self._band = self._new_band(sample)
        if not self._band.add(sample):
            self._rebuild()
            return
        half = self.window_us // 2
        if self._next is None and sample.mcu_us - self._band.first_us >= half:
            self._next = self._new_band(sample)
        if self._next is not None and not self._next.add(sample):
            self._next = None
        if self._next is not None and sample.mcu_us - self._band.first_us >= self.window_us:
            self._band, self._next = self._next, None

    def _rebuild(self) -> None:
        """The newest exchanges back, as far as one line fits them all."""
        self.rebuilds += 1
        newest = self.samples[-1]
        band = self._new_band(newest)
        kept = 0
        for sample in reversed(self.samples):
            if not band.add(sample):
                break
            kept += 1
        while len(self.samples) > kept:
            self.samples.popleft()
        self._band, self._next = band, None
