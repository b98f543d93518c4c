"""Order statistics, exact and quick for the small arrays a crop gives:
``np.percentile``, ``np.partition`` and ``np.median`` as the vision code
uses them, bit for bit, with less of NumPy's generic work (each is
tested against NumPy's own in ``tests/test_vision_exact.py``).

>>> float(median(np.array([3.0, 1.0, 2.0, 10.0])))
2.5
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


def above(a: NDArray[Any], pct: float) -> NDArray[np.bool_]:
    """``a > np.percentile(a, pct)`` by one ``np.partition`` (``np.percentile``
    selects twice and interpolates, the most of the edge contour's
    threshold): the percentile lies between two neighbouring order
    statistics and no value between them, so a value is above it when it is
    above the lower one. (Unless the interpolation rounds onto the upper one,
    which takes the two within about an ulp: never for a gradient magnitude
    here, the square root of an integer below 2**22.)"""
    values = a.ravel()
    k = int(pct / 100 * (values.size - 1))
    return np.asarray(a > kth(values, k))


def kth(values: NDArray[Any], k: int) -> Any:
    """``np.partition(values, k)[k]`` (``values`` 1-D, no NaNs): for values
    0-65,535 the unit bucket (the integer part) the k-th falls in is found by
    counting, and only that bucket is selected from. A gradient magnitude
    has a few hundred distinct values among 24,000 pixels, and selecting
    among so many ties took ``np.partition`` about 190 us (the edge
    contour's threshold); the count and a select of one bucket, about 60.
    The buckets are in order (a value's integer part is its floor), so the
    k-th is the (k - n)-th of its bucket, n the count below it.

    >>> v = np.array([3.5, 0.2, 7.0, 3.1, 3.9, 0.0])
    >>> [float(kth(v, k)) for k in range(6)] == sorted(v.tolist())
    True
    """
    if values.size < 2048 or not 0 <= values.min() <= values.max() <= 65_535:
        return np.partition(values, k)[k]
    bucket = values.astype(np.int32)
    counts = np.cumsum(np.bincount(bucket))
    b = int(np.searchsorted(counts, k, side="right"))  # the first with more than k at or below
    below = int(counts[b - 1]) if b else 0
    return np.partition(values[bucket == b], k - below)[k - below]


def median(a: NDArray[Any]) -> Any:
    """``np.median(a)`` of an array without NaNs, bit for bit (the same
    middle values, averaged the same way), by one ``np.partition``: without
    ``np.median``'s NaN check (a second selection) and its generic
    reduction, which for the rays' 120 values cost more than the selection
    (a leaning coin's judgement took about 20 medians). Of an even number
    of values the lower middle one is the largest of those the selection
    puts below the upper: ``np.partition`` with the two ranks at once took
    100 us on the shadow's 18,000 exposure values, with one 12 (its
    multi-rank selection is slow on some data)."""
    flat = a.ravel()
    k = flat.size // 2
    zero = flat.dtype.type(0)  # np.mean's sum starts at +0: a median of -0.0 is 0.0
    part = np.partition(flat, k)
    if flat.size % 2:
        return zero + part[k]
    # (+0 added first: a -0.0 or +0.0 from the max gives the same sum)
    return (zero + part[:k].max() + part[k]) / 2
