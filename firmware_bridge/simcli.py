"""A simulated board to referee by hand: ``python -m firmware_bridge [--link PATH] ...``.

It makes a pty pair, points ``--link`` at it (as ``/dev/serial/by-id/...``
names a real board) and reads commands from the terminal::

    toss [heads|tails]   a coin tossed through both gates (with a call pad press)
    hand                 a hand through the start gate
    unplug / replug      pull the cable and put it back (the board keeps power)
    reboot               put it back after a power cycle (edges in between lost)
    corrupt P            corrupt each byte with probability P from now on
    quit

Run ``tableref run`` with ``[hardware] backend = "bridge"`` and
``bridge = "<the link>"``, wired as printed at start-up (docs/bridge-protocol.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
import time
from pathlib import Path

from controller.sensors.classify import Gate
from controller.sensors.tossim import HandKind, HandMove, TossSimulator, toss_for_fault_speed
from firmware_bridge.simmcu import LinkNoise, PtyMcu

WIRING = {"start_a": 2, "start_b": 3, "fault_a": 4, "fault_b": 5, "call_heads": 6, "call_tails": 7}
"""Role -> GPIO of the simulated table (all active low, pulled up)."""


def _play(mcu: PtyMcu, edges: list[tuple[int, str, bool]]) -> None:
    """Edges ``(offset_ns, role, level)`` from now, in a thread of their own."""

    def run() -> None:
        start = time.monotonic_ns()
        for offset, role, level in sorted(edges):
            delay = (start + offset - time.monotonic_ns()) / 1e9
            if delay > 0:
                time.sleep(delay)
            mcu.edge(WIRING[role], int(level))

    threading.Thread(target=run, daemon=True).start()


def _toss(sim: TossSimulator, call: str | None) -> list[tuple[int, str, bool]]:
    shot = sim.coin(toss_for_fault_speed(0, 4.0, 0.5))
    edges = [(e.t_ns, e.line, e.level) for e in shot.edges]
    if call is not None:
        pad = f"call_{call}"
        first_fault = min(t for t, line, _ in edges if line.startswith("fault"))
        edges += [(first_fault // 2, pad, False), (first_fault // 2 + 80_000_000, pad, True)]
    return edges


def _command(mcu: PtyMcu, sim: TossSimulator, words: list[str]) -> bool:
    match words:
        case ["toss", *call]:
            _play(mcu, _toss(sim, call[0] if call else None))
        case ["hand"]:
            move = HandMove(gate=Gate.START, kind=HandKind.DOWN, t_ns=0)
            _play(mcu, [(e.t_ns, e.line, e.level) for e in sim.hand(move).edges])
        case ["unplug"]:
            mcu.unplug()
        case ["replug"]:
            mcu.replug()
        case ["reboot"]:
            mcu.replug(reboot=True)
        case ["corrupt", rate]:
            mcu.noise = dataclasses.replace(mcu.noise, corrupt=float(rate))
            mcu.set_noise(mcu.noise)
        case ["quit"] | ["exit"]:
            return False
        case _:
            print("commands: toss [heads|tails], hand, unplug, replug, reboot, corrupt P, quit")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description="a simulated bridge board on a pty")
    parser.add_argument("--link", type=Path, default=Path("/tmp/tableref-sim-mcu"))
    parser.add_argument("--drift-ppm", type=float, default=100.0)
    parser.add_argument("--jitter-ms", type=float, default=2.0)
    parser.add_argument("--corrupt", type=float, default=0.0)
    args = parser.parse_args()
    noise = LinkNoise(jitter_ns=round(args.jitter_ms * 1e6), corrupt=args.corrupt)
    mcu = PtyMcu(args.link, drift_ppm=args.drift_ppm, noise=noise)
    sim = TossSimulator(active=dict.fromkeys(("start_a", "start_b", "fault_a", "fault_b"), False))
    print(f"board on {args.link}; wiring (active low): {WIRING}")
    try:
        for line in sys.stdin:
            if not _command(mcu, sim, line.split()):
                break
    except KeyboardInterrupt:
        pass
    finally:
        mcu.close()
