"""``tableref calibrate`` and ``tableref coin register``.

The parsers are plain argparse; OpenCV is imported only when a command runs,
so ``tableref --help`` works without it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from vision.settings import CameraSettings, SourceKind


def _cameras(args: argparse.Namespace) -> tuple[CameraSettings, CameraSettings | None]:
    """The camera from ``--config`` (``--camera``: the first or the second),
    or a one-image source from ``--image``; and the config's whole
    ``[camera]`` when that camera is its synthetic second one (a view of
    the first camera's rendered table: it is opened from there)."""
    table = None
    if args.config:
        from controller.config import ConfigError, load_config
        from controller.model import Game

        config = load_config(Path(args.config))
        if config.camera is None:
            raise ConfigError(args.config, "", "camera", "no [camera] table in this config")
        if config.game is not Game.HEADS_AND_TAILS:
            raise ConfigError(
                args.config,
                "[table]",
                "game",
                "floor calibration and coin registration are for a Heads & Tails table; "
                f"a {config.game.value} table's mat camera calibrates itself from its "
                "markers when the service starts (docs/tiddlywinks.md)",
            )
        camera = config.camera
        if args.camera == "second":
            if camera.second is None:
                raise ConfigError(
                    args.config, "[camera]", "second", "no [camera.second] table in this config"
                )
            if camera.second.source is SourceKind.SYNTHETIC and not args.image:
                table = camera
            camera = camera.second
    else:
        if not args.image:
            raise SystemExit("tableref: give --config FILE or --image PATH")
        camera = CameraSettings(SourceKind.FILE, str(Path(args.image)))
    overrides: dict[str, Any] = {}
    if args.camera == "second" and not args.config:
        raise SystemExit("tableref: --camera second needs --config (its [camera.second])")
    if args.config and args.image:  # the table's settings, this picture
        overrides |= {"source": SourceKind.FILE, "device": str(Path(args.image))}
    for key in ("calibration", "references"):
        value = getattr(args, key, None)
        if value:
            overrides[key] = Path(value)
    for key in ("coin_mm", "square_mm", "line_mm", "marker_mm", "hfov_deg"):
        if getattr(args, key, None) is not None:
            overrides[key.replace("coin_mm", "coin_diameter_mm")] = float(getattr(args, key))
    from dataclasses import replace

    return replace(camera, **overrides), table


def _frames(camera: CameraSettings, table: CameraSettings | None = None) -> tuple[Any, Any]:
    """(preview, still) from the camera; a still image gives both. ``table``:
    the ``[camera]`` whose synthetic second camera ``camera`` is."""
    from vision.sources import open_source, openers, shrink

    second = None if table is None else openers(table)[1]
    source = open_source(camera) if second is None else second()
    try:
        still = source.still()
        preview = source.preview() if camera.source is not SourceKind.FILE else still
    finally:
        source.close()
    return shrink(preview, preview.size), still


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Capture, find the corner markers, report the error in mm, save."""
    from vision.calibration import calibrate, lens_calibrate
    from vision.sources import layout, read_image

    camera, table = _cameras(args)
    lens = None
    if args.lens:
        files = sorted(p for p in Path(args.lens).iterdir() if p.is_file())
        lens = lens_calibrate([read_image(p) for p in files])
        print(f"lens: {len(files)} board images, reprojection {lens.rms_px:.2f} px")
    preview, _ = _frames(camera, table)
    cal = calibrate(preview, layout(camera), lens=lens, hfov_deg=camera.hfov_deg)
    out = Path(args.out) if args.out else camera.calibration
    cal.save(out)
    w, h = cal.size
    print(f"markers {', '.join(map(str, cal.markers))} seen in a {w}x{h} frame")
    print(f"reprojection error on the floor: rms {cal.rms_mm:.2f} mm, max {cal.max_mm:.2f} mm")
    side = cal.layout.side_mm / 2
    print(
        f"a {camera.coin_diameter_mm:g} mm coin is "
        f"{camera.coin_diameter_mm * cal.px_per_mm(side, side, cal.size):.0f} px across "
        "in this frame"
    )
    print(_placed(cal, "[camera.second]" if args.camera == "second" else "[camera]"))
    print(f"saved {out}")
    return 0


def _placed(cal: Any, table: str = "[camera]") -> str:
    """Where the calibration puts the camera, and what fixed its focal length."""
    how = (
        "the lens model"
        if cal.lens is not None
        else f"a field of view of {cal.hfov_deg:g} deg"
        if cal.hfov_deg is not None
        else "the markers' perspective"
    )
    at = cal.camera()
    if at is None:
        return (
            f"camera: not placed from {how} (nearly straight over the square?): set "
            f"{table} hfov_deg or --hfov-deg to the lens's field of view; the leaning-coin "
            "cues that need the camera's height are off until then"
        )
    x, y, height = at
    return f"camera: {height:.0f} mm up over ({x:.0f}, {y:.0f}) mm, focal length from {how}"


def cmd_coin_register(args: argparse.Namespace) -> int:
    """Store a reference crop of one face of the match coin (1.3.2)."""
    from vision.analyse import Analyser, Settings, reference_crop
    from vision.calibration import Calibration
    from vision.references import References

    camera, table = _cameras(args)
    analyser = Analyser(
        Calibration.load(camera.calibration),
        settings=Settings(coin_diameter_mm=camera.coin_diameter_mm),
    )
    preview, still = _frames(camera, table)
    crop = reference_crop(analyser, preview, still)
    wall = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    path = References.add(
        camera.references, args.face, crop, replace=args.replace, wall=wall, note=args.note or ""
    )
    what = "new coin: old references dropped; " if args.replace else ""
    print(f"{what}{args.face} reference saved as {path} ({crop.shape[1]} px square)")
    missing = [f for f in ("heads", "tails") if not list(camera.references.glob(f"{f}-*.png"))]
    if missing:
        print(f"still to register: {', '.join(missing)}", file=sys.stderr)
    return 0


def _source_args(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--config", help="the table's config file (its [camera] table)")
    parser.add_argument("--image", help="use this image instead of the camera")
    parser.add_argument(
        "--camera",
        choices=("first", "second"),
        default="first",
        help=f"which floor camera's {what} (default: first, [camera]; second: "
        "[camera.second], with its own calibration and references)",
    )


def add_parsers(sub: Any) -> None:
    """Add ``calibrate`` and ``coin register`` to the ``tableref`` subcommands."""
    cal = sub.add_parser(
        "calibrate",
        help="find the corner markers and save the floor calibration",
        description="Capture a frame, find the four ArUco markers at the landing square's "
        "corners, report the reprojection error in millimetres and save the calibration "
        "(docs/vision.md).",
    )
    _source_args(cal, "calibration")
    cal.add_argument(
        "--out",
        help="where to save it (default: the camera's calibration, [camera] or [camera.second])",
    )
    for key, default in (("square", 1500), ("line", 50), ("marker", 150)):
        cal.add_argument(
            f"--{key}-mm", type=float, help=f"default: [camera] {key}_mm, else {default}"
        )
    cal.add_argument(
        "--hfov-deg",
        type=float,
        help="the lens's horizontal field of view (default: [camera] hfov_deg, else "
        "estimated from the markers; the Camera Module 3 is 66, its wide version 102)",
    )
    cal.add_argument(
        "--lens",
        metavar="FOLDER",
        help="also calibrate the lens from images of the ChArUco board in FOLDER",
    )
    cal.set_defaults(func=cmd_calibrate)
    coin = sub.add_parser(
        "coin", help="the match coin", description="Register the match coin (rules 1.3.2-1.3.4)."
    )
    coin_sub = coin.add_subparsers(dest="coin_command", metavar="ACTION", required=True)
    reg = coin_sub.add_parser(
        "register",
        help="store a reference picture of one face of the coin",
        description="With the coin lying flat in the square, face up as --face says, store "
        "a reference crop. Register both faces; --replace starts over for a new coin "
        "(1.3.3 damaged, 1.3.4 changed at half way).",
    )
    _source_args(reg, "references")
    reg.add_argument("--face", required=True, choices=("heads", "tails"))
    reg.add_argument("--replace", action="store_true", help="a new coin: drop the old references")
    reg.add_argument("--calibration", help="calibration file (default: [camera] calibration)")
    reg.add_argument("--references", help="references folder (default: [camera] references)")
    reg.add_argument("--coin-mm", type=float, help="coin diameter in mm (default: [camera])")
    reg.add_argument("--note", help="a note for the log (which coin, who agreed to it)")
    reg.set_defaults(func=cmd_coin_register)
