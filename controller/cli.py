"""The ``tableref`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from controller import __version__
from controller.errors import TablerefError
from controller.games.heads_and_tails.record import record_json, record_text
from controller.harness import simulate
from controller.model import Ruling
from controller.scenario import ORIGIN_NS, load_scenario

EXIT_OK = 0
EXIT_EXPECT_FAILED = 1
EXIT_BAD_INPUT = 2


def _print_ruling(ruling: Ruling) -> None:
    sys.stdout.write(ruling.to_json() + "\n")
    sys.stdout.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a scenario file on simulated time, printing one JSON ruling a line."""
    scenario = load_scenario(Path(args.scenario))
    result = simulate(scenario, on_ruling=None if args.quiet else _print_ruling)
    if args.record:
        path = Path(args.record)
        if path.suffix == ".json":
            doc = record_json(result.state, result.rulings, ORIGIN_NS)
            text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        else:
            text = record_text(result.state, result.rulings, ORIGIN_NS)
        path.write_text(text, encoding="utf-8")
    if result.failures:
        for failure in result.failures:
            print(f"{scenario.source}: {failure}", file=sys.stderr)
        return EXIT_EXPECT_FAILED
    if scenario.expects:
        print(f"{scenario.source}: all {len(scenario.expects)} expects met", file=sys.stderr)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tableref",
        description="A table-side referee: rules, clocks and rulings over MQTT.",
    )
    parser.add_argument("--version", action="version", version=f"tableref {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sim = sub.add_parser(
        "simulate",
        help="run a scenario file headless on simulated time",
        description="Run a whole match from a scenario file on simulated time (no waiting, "
        "no hardware, no broker) and print every ruling as one JSON line. Exit status: "
        "0 ran (and every [[expect]] was met), 1 an expect was not met, 2 the file is "
        "malformed.",
    )
    sim.add_argument("scenario", help="the scenario file (TOML)")
    sim.add_argument(
        "--record",
        metavar="FILE",
        help="also write the match record (2.6.4): JSON if FILE ends in .json, else text",
    )
    sim.add_argument("-q", "--quiet", action="store_true", help="do not print the rulings")
    sim.set_defaults(func=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tableref`` console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except TablerefError as exc:
        print(f"tableref: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"tableref: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":
    sys.exit(main())
