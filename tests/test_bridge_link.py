"""The whole bridge on simulated time: board, noisy cable, host session, clock sync."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from controller.sensors.edges import EdgeEvent
from controller.sensors.health import HealthEvent
from firmware_bridge import protocol as p
from firmware_bridge.clocksync import ClockSync
from firmware_bridge.firmware import messages as m
from firmware_bridge.session import HostSession, LinkChange, LinkState
from firmware_bridge.simlink import SimBridge
from firmware_bridge.simmcu import LinkNoise

S = 1_000_000_000
LINES = {2: "start_a", 4: "fault_a"}


def _push_random(bridge: SimBridge, seed: int, start: int, end: int, rate: float) -> int:
    rng = random.Random(seed)
    levels = dict.fromkeys(LINES.values(), True)
    t, n = start, 0
    while True:
        t += int(rng.expovariate(rate) * S) + 1000
        if t >= end:
            return n
        line = rng.choice(list(LINES.values()))
        levels[line] = not levels[line]
        bridge.push(line, levels[line], t)
        n += 1


def test_one_percent_corrupted_bytes_lose_and_duplicate_nothing() -> None:
    noise = LinkNoise(jitter_ns=2_000_000, corrupt=0.01)
    bridge = SimBridge(LINES, seed=11, drift_ppm=150.0, noise=noise)
    bridge.record_truth = True
    got: list[EdgeEvent] = []
    bridge.start(got.append)
    pushed = _push_random(bridge, 11, S, 30 * S, 40.0)
    bridge.advance_to(35 * S)
    truths = [true for _, true in bridge.delivered]
    assert bridge.up.corrupted > 100 and bridge.decoder.crc_errors > 0
    assert bridge.session.counters.seq_gaps > 0 and bridge.session.counters.duplicates > 0
    assert len(truths) == pushed and len(set(truths)) == pushed and -1 not in truths
    assert [e.seq for e in got] == list(range(1, pushed + 1))
    assert all(a.t_ns <= b.t_ns for a, b in itertools.pairwise(got))


def test_mapped_times_are_close_to_the_true_ones_under_drift_and_jitter() -> None:
    bridge = SimBridge(LINES, seed=5, drift_ppm=200.0, noise=LinkNoise(jitter_ns=2_000_000))
    bridge.record_truth = True
    bridge.start(lambda e: None)
    _push_random(bridge, 5, 5 * S, 25 * S, 10.0)
    bridge.advance_to(26 * S)
    errors = sorted(abs(e.t_ns - true) for e, true in bridge.delivered)
    # Naively (the middle of one exchange) the error is up to a millisecond.
    assert errors[len(errors) // 2] < 50_000 and errors[-1] < 300_000
    clock = bridge.session.clock
    assert clock is not None and abs(clock.drift_ppm - 200.0) < 5.0


@pytest.mark.parametrize("seed", [3, 5, 7, 10])
def test_edges_a_second_after_boot_are_mapped_within_200_us(seed: int) -> None:
    # Seeds whose first seconds broke 200 us with the regression sync (202-243 us).
    bridge = SimBridge(LINES, seed=seed, drift_ppm=100.0, noise=LinkNoise(jitter_ns=2_000_000))
    bridge.record_truth = True
    bridge.start(lambda e: None)
    pushed = _push_random(bridge, seed, 1 * S, 15 * S, 20.0)
    bridge.advance_to(16 * S)
    errors = [abs(e.t_ns - true) for e, true in bridge.delivered]
    assert len(errors) == pushed and max(errors) <= 200_000


def _exchanges(
    rng: random.Random, rate_at: Callable[[int], float], n: int, every_ns: int
) -> list[tuple[int, int, int, int]]:
    """(sent, read, counter, received) every ``every_ns``: a counter whose
    rate (counts per us) is ``rate_at(t)``, read at ``read``, with 0.1-2.1 ms
    of delay each way."""
    out, count, last = [], 5_000.0, 0
    for k in range(n):
        sent = k * every_ns
        read = sent + 100_000 + rng.randrange(2_000_000)
        count += (read - last) / 1000 * rate_at(read)
        last = read
        out.append((sent, read, int(count), read + 100_000 + rng.randrange(2_000_000)))
    return out


def _warming(t: int) -> float:
    """A crystal warming up: 100 ppm fast, rising 1 ppm a minute from 60 s to 11 min."""
    return 1.0001 + 1e-5 * min(max(t - 60 * S, 0) / (600 * S), 1.0)


def _stepped(t: int) -> float:
    """Worse than any crystal: 100 ppm, then 110 ppm from 100 s."""
    return 1.0001 if t < 100 * S else 1.00011


@pytest.mark.parametrize(("rate", "settled_s"), [(_warming, 30), (_stepped, 300)])
def test_a_changing_rate_is_followed(rate: Callable[[int], float], settled_s: int) -> None:
    # Each read's counter is mapped before that exchange is added (100 ms on).
    # Old exchanges go after a window (two minutes), or at once when they
    # contradict the new ones, so the mapping follows the rate.
    sync = ClockSync()
    errors: list[tuple[int, int]] = []  # (true ns, error ns)
    exchanges = _exchanges(random.Random(4), rate, 8000, 100_000_000)
    for (sent, _, counter, received), (_, read, following, _) in itertools.pairwise(exchanges):
        sync.add(sent, counter, received)
        if sent > 10 * S:
            errors.append((read, abs(sync.to_mono_ns(sync.extend(following)) - read)))
    assert sync.outliers == 0 and abs(sync.drift_ppm - 110.0) < 1.0
    assert max(e for _, e in errors) < 300_000
    settled = sorted(e for t, e in errors if t > settled_s * S)
    assert settled[int(len(settled) * 0.99)] < 50_000 and settled[-1] < 100_000
    if rate is _stepped:
        assert sync.rebuilds >= 1  # the step contradicted the old exchanges


def test_unplug_and_replug_keep_every_edge_and_report_the_link() -> None:
    health: list[HealthEvent] = []
    bridge = SimBridge(LINES, seed=2, drift_ppm=100.0, on_health=health.append)
    bridge.record_truth = True
    got: list[EdgeEvent] = []
    bridge.start(got.append)
    bridge.advance_to(3 * S)
    bridge.push("fault_a", False, 4 * S)
    bridge.unplug(5 * S)
    bridge.push("fault_a", True, 6 * S)  # while unplugged: the board keeps it
    bridge.push("start_a", False, 7 * S)
    bridge.replug(8 * S)
    bridge.advance_to(10 * S)
    assert [(e.line, e.level) for e in got] == [
        ("fault_a", False),
        ("fault_a", True),
        ("start_a", False),
    ]
    assert all(abs(e.t_ns - true) < 200_000 for e, true in bridge.delivered)
    assert [(h.ok, h.sensor) for h in health] == [(False, "bridge"), (True, "bridge")]
    assert health[0].t_ns == 5 * S and "unplugged" in health[0].detail
    assert 8 * S < health[1].t_ns < 9 * S  # reconnected within a second
    assert bridge.session.counters.reconnects == 1


def test_a_board_that_rebooted_is_resynced_by_its_levels() -> None:
    session = HostSession({2: "fault_a"})
    session.connect(0)
    first = m.pack_identity(1_000_000, 1, 0, 0b100, 0, [(2, m.PULL_UP)])
    session.receive(0, m.IDENTITY, first, 1000)
    assert session.levels == {2: True}
    session.disconnect(5 * S, "unplugged")
    session.connect(6 * S)
    rebooted = m.pack_identity(1_000_000, 2, 0, 0b000, 0, [(2, m.PULL_UP)])
    session.receive(0, m.IDENTITY, rebooted, 6 * S + 1000)
    [edge] = session.take()
    assert not isinstance(edge, LinkChange)
    assert (edge.line, edge.level, edge.t_ns) == ("fault_a", False, 6 * S + 1000)


def test_another_protocol_version_or_an_unwatched_pin_is_refused() -> None:
    session = HostSession({2: "fault_a"})
    session.connect(0)
    body = m.pack_identity(1_000_000, 1, 0, 0, 0, [(2, m.PULL_UP)], version=9)
    session.receive(0, m.IDENTITY, body, 1000)
    assert session.state is LinkState.REFUSED and "v9" in session.refusal
    assert "flash" in session.refusal
    session = HostSession({17: "fault_a"})
    session.connect(0)
    session.receive(0, m.IDENTITY, m.pack_identity(1_000_000, 1, 0, 0, 0, [(2, 1)]), 1000)
    assert session.state is LinkState.REFUSED
    assert "'fault_a': pin 17 is not watched" in session.refusal


def test_a_gap_is_naked_once_a_round_trip_and_duplicates_are_acked_again() -> None:
    session = HostSession({2: "fault_a"})
    session.connect(0)
    session.receive(0, m.IDENTITY, m.pack_identity(1_000_000, 1, 0, 0, 0, [(2, 1)]), 1000)
    edge = m.pack_edges([(2, 0, 50)])
    assert session.receive(0, m.EDGES, edge, 2000) == [p.ack(1)]
    assert session.receive(0, m.EDGES, edge, 3000) == [p.ack(1)]  # a duplicate
    assert session.receive(2, m.EDGES, edge, 4000) == [p.ack(1, nak=True)]  # 1 is missing
    assert session.receive(3, m.EDGES, edge, 5000) == []  # already asked
    assert session.counters.duplicates == 1 and session.counters.seq_gaps == 1


def test_counter_extension_and_a_jump_resets_the_fit() -> None:
    sync = ClockSync()
    for k in range(20):  # counter = mono_us + 1000, 100 us each way
        t = k * 100_000_000
        sync.add(t, (t // 1000 + 1000 + 100) & 0xFFFFFFFF, t + 200_000)
    assert abs(sync.to_mono_ns(sync.extend(2_000_000 + 1000)) - 2 * S) < 20_000
    for k in range(20, 23):  # the counter jumps by 10 s: three outliers, then a new fit
        t = k * 100_000_000
        sync.add(t, (t // 1000 + 10_001_000 + 100) & 0xFFFFFFFF, t + 200_000)
    assert sync.outliers == 3
    at = 2_200_000 + 10_001_000
    assert abs(sync.to_mono_ns(sync.extend(at)) - 2_200_000_000) < 50_000
