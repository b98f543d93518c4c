"""bench.vision_time's clocks: the CPU clock leaves out time spent waiting
(for a CPU, on a loaded machine; here, asleep), the wall clock counts it."""

from __future__ import annotations

import time

from bench.vision_time import CLOCKS, _samples


def test_the_cpu_clock_leaves_out_waiting_and_the_wall_clock_counts_it() -> None:
    def work_then_wait() -> None:
        end = time.process_time() + 0.02
        while time.process_time() < end:  # 20 ms of work
            pass
        time.sleep(0.05)  # 50 ms of waiting

    wall = _samples(work_then_wait, 3, CLOCKS["wall"])
    cpu = _samples(work_then_wait, 3, CLOCKS["cpu"])
    assert len(wall) == len(cpu) == 3
    assert min(wall) >= 0.07
    assert all(0.02 <= t < 0.045 for t in cpu)
