"""bench.mat times every frame by the clock it is given (``--clock cpu``:
the process's CPU time, which a loaded machine's waiting leaves out)."""

from __future__ import annotations

import itertools

from bench.mat import run


def test_run_times_the_analysis_baseline_and_calibration_by_the_clock_given() -> None:
    ticks = itertools.count()

    def clock() -> float:  # each reading one second after the last
        return float(next(ticks))

    _, times, base, calib = run(1, 1000, closer=False, clock=clock)
    assert times == base == calib == [1.0]
