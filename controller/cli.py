"""The ``tableref`` command line."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import signal
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from controller import __version__
from controller.errors import TablerefError
from controller.harness import simulate
from controller.model import Ruling
from controller.scenario import ORIGIN_NS, Scenario, load_scenario

EXIT_OK = 0
EXIT_EXPECT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_NOT_DELIVERED = 3


def _print_ruling(ruling: Ruling) -> None:
    sys.stdout.write(ruling.to_json() + "\n")
    sys.stdout.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a scenario file on simulated time, printing one JSON ruling a line."""
    scenario = load_scenario(Path(args.scenario))
    if args.table is not None:
        scenario = dataclasses.replace(scenario, table=args.table)
    result = simulate(scenario, on_ruling=None if args.quiet else _print_ruling)
    if args.publish and not _publish(args, scenario, result.rulings):
        return EXIT_NOT_DELIVERED
    if args.record:
        path = Path(args.record)
        if path.suffix == ".json":
            doc = scenario.module.record_json(result.state, result.rulings, ORIGIN_NS)
            text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        else:
            text = scenario.module.record_text(result.state, result.rulings, ORIGIN_NS)
        path.write_text(text, encoding="utf-8")
    if result.failures:
        for failure in result.failures:
            print(f"{scenario.source}: {failure}", file=sys.stderr)
        return EXIT_EXPECT_FAILED
    if scenario.expects:
        print(f"{scenario.source}: all {len(scenario.expects)} expects met", file=sys.stderr)
    return EXIT_OK


def _publish(args: argparse.Namespace, scenario: Scenario, rulings: list[Ruling]) -> bool:
    """Deliver ``rulings`` through a journal outbox; True once all are acked."""
    from controller.config import parse_broker_url, topic_base
    from controller.journal import Journal
    from controller.mqtt import BrokerTarget, MqttLink

    try:
        host, port, tls = parse_broker_url(args.publish)
    except ValueError as exc:
        print(f"tableref: --publish {args.publish}: {exc}", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory(prefix="tableref-sim-") as tmp:
        path = Path(tmp) / "journal.sqlite"
        journal = Journal(path, table=scenario.table, venue=args.venue)
        journal.record_rulings(0, rulings, topic_base(args.venue, scenario.table) + "ruling")
        journal.close()
        target = BrokerTarget(host=host, port=port, tls=tls)
        link = MqttLink(target, path, venue=args.venue, table=scenario.table)
        link.start()
        link.kick()
        delivered = link.wait_drained(args.publish_timeout)
        link.stop()
    if not delivered:
        print(
            f"tableref: the broker at {args.publish} did not acknowledge every ruling "
            f"within {args.publish_timeout:g} s",
            file=sys.stderr,
        )
    return delivered


def cmd_check_config(args: argparse.Namespace) -> int:
    """Validate a config file and summarise it."""
    from controller.config import describe, load_config

    print(describe(load_config(Path(args.config))))
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    """Rebuild a journal's matches and print the rulings, checked against it."""
    from controller.journal import open_readonly
    from controller.replay import compare, rebuild

    path = Path(args.journal)
    if not path.is_file():
        print(f"tableref: {path}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    reader = open_readonly(path)
    replayed: list[Ruling] = []
    try:
        rebuild(reader.inputs(), reader.meta.table, str(path), sinks=[replayed.append])
        compare(replayed, reader.rulings(), str(path))
    finally:
        reader.close()
    for ruling in replayed:
        _print_ruling(ruling)
    return EXIT_OK


def cmd_run(args: argparse.Namespace) -> int:
    """The live service."""
    from controller.config import load_config
    from controller.service import TableService

    logging.basicConfig(level=args.log_level.upper(), format="tableref: %(message)s")
    config = load_config(Path(args.config))
    service = TableService(config)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    print(
        f"tableref: table {config.venue}/{config.table} refereeing {config.game.value}, "
        f"journal {config.journal} (boot {service.journal.boot})",
        file=sys.stderr,
    )
    service.run(stop)
    return EXIT_OK


def cmd_watch(args: argparse.Namespace) -> int:
    """Show every table of a venue, live."""
    from controller.config import parse_broker_url
    from controller.watch import make_client, watch

    try:
        host, port, tls = parse_broker_url(args.broker)
    except ValueError as exc:
        print(f"tableref: --broker {args.broker}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    password = None
    if args.password_file:
        password = Path(args.password_file).read_text(encoding="utf-8").strip()
    client = make_client(host, port, tls, args.username, password)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    if args.seconds is not None:
        threading.Timer(args.seconds, stop.set).start()
    watch(client, args.venue, sys.stdout, stop, live=False if args.lines else None)
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
    sim.add_argument(
        "--publish",
        metavar="URL",
        help="also publish the rulings to tableref/v1/VENUE/TABLE/ruling on this broker "
        "(mqtt://HOST:PORT) and wait until it has acknowledged every one (exit 3 if not)",
    )
    sim.add_argument("--venue", default="sim", help="venue id for --publish (default: sim)")
    sim.add_argument("--table", help="table id (default: the file's 'table', else sim)")
    sim.add_argument(
        "--publish-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to wait for the broker's acknowledgements (default: 30)",
    )
    sim.set_defaults(func=cmd_simulate)

    run = sub.add_parser(
        "run",
        help="run the live table service",
        description="Referee a live table: journal every input and ruling, publish over "
        "MQTT, take commands on cmd/<verb>. Resumes the match from the journal after a "
        "restart.",
    )
    run.add_argument("--config", required=True, help="the table's config file (TOML)")
    run.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="info",
        help="what to log on stderr (default: info: broker connections and losses)",
    )
    run.set_defaults(func=cmd_run)

    check = sub.add_parser(
        "check-config",
        help="validate a config file and exit",
        description="Validate a config file strictly (unknown keys, types, ranges) and print "
        "a summary. Exit status 0 valid, 2 invalid.",
    )
    check.add_argument("config", help="the config file (TOML)")
    check.set_defaults(func=cmd_check_config)

    replay = sub.add_parser(
        "replay",
        help="rebuild a journal and print its rulings",
        description="Replay a table's journal through the engine and print the rulings it "
        "produces, one JSON line each; fails if they differ from the journaled ones.",
    )
    replay.add_argument("journal", help="the journal file (SQLite)")
    replay.set_defaults(func=cmd_replay)

    watch = sub.add_parser(
        "watch",
        help="watch every table of a venue in the terminal",
        description="Subscribe to tableref/v1/VENUE/+/# and show each table's status, score "
        "and recent rulings (deduplicated by id); offline tables are flagged. On a terminal "
        "the screen is redrawn; otherwise (or with --lines) each new ruling is one line.",
    )
    watch.add_argument("--broker", default="mqtt://127.0.0.1:1883", help="broker URL")
    watch.add_argument("--venue", required=True, help="the venue id")
    watch.add_argument("--username", help="MQTT username (a read-only dashboard user)")
    watch.add_argument("--password-file", help="file holding the MQTT password")
    watch.add_argument("--lines", action="store_true", help="print rulings as lines")
    watch.add_argument("--seconds", type=float, help="stop after this many seconds")
    watch.set_defaults(func=cmd_watch)

    from vision.cli import add_parsers  # calibrate, coin register (OpenCV loaded when run)

    add_parsers(sub)
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
