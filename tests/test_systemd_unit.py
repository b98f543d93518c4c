"""systemd/tableref.service: the directives the service relies on, and systemd's own check."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.cli import EXIT_BAD_INPUT
from controller.sdnotify import watchdog_interval

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tableref.service"

Unit = dict[str, dict[str, list[str]]]


def parse_unit(text: str) -> Unit:
    """Sections -> key -> every value, in order (systemd keys repeat, unlike INI's)."""
    unit: Unit = {}
    section: dict[str, list[str]] | None = None
    logical = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not logical and (not line or line[0] in "#;"):
            continue
        if line.endswith("\\"):  # a continuation line
            logical += line[:-1].rstrip() + " "
            continue
        line, logical = logical + line, ""
        if line.startswith("[") and line.endswith("]"):
            section = unit.setdefault(line[1:-1], {})
            continue
        key, sep, value = line.partition("=")
        assert sep and section is not None, f"not a directive: {raw!r}"
        section.setdefault(key.strip(), []).append(value.strip())
    return unit


@pytest.fixture(scope="module")
def unit() -> Unit:
    return parse_unit(UNIT.read_text(encoding="utf-8"))


def _one(unit: Unit, section: str, key: str) -> str:
    values = unit[section].get(key, [])
    assert len(values) == 1, f"[{section}] {key}= set {len(values)} times: {values}"
    return values[0]


def _words(unit: Unit, section: str, key: str) -> list[str]:
    return [word for value in unit[section].get(key, []) for word in value.split()]


def test_parser_keeps_repeated_keys_and_skips_comments() -> None:
    text = "# c\n[S]\nA=1\n; c\nA=2 \\\n  3\nB = x=y\n"
    assert parse_unit(text) == {"S": {"A": ["1", "2 3"], "B": ["x=y"]}}


def test_notify_and_watchdog(unit: Unit) -> None:
    assert _one(unit, "Service", "Type") == "notify"
    assert _one(unit, "Service", "NotifyAccess") == "main"
    assert _one(unit, "Service", "WatchdogSec") == "10"
    # What systemd passes for WatchdogSec=10 makes the service ping every 5 s.
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}) == 5.0


def test_runs_the_installed_console_script(unit: Unit) -> None:
    expected = "/opt/tableref/venv/bin/tableref run --config /etc/tableref/table.toml"
    assert _one(unit, "Service", "ExecStart") == expected
    install = (ROOT / "docs" / "install-pi.md").read_text(encoding="utf-8")
    assert "/opt/tableref/venv" in install and "/etc/tableref/table.toml" in install


def test_restarts_but_not_on_a_bad_config(unit: Unit) -> None:
    assert _one(unit, "Service", "Restart") == "on-failure"
    assert _one(unit, "Service", "RestartSec") == "2"
    # A config error exits with the CLI's bad-input status; restarting cannot fix it.
    assert _one(unit, "Service", "RestartPreventExitStatus") == str(EXIT_BAD_INPUT)


def test_wants_but_does_not_require_the_broker(unit: Unit) -> None:
    for key in ("After", "Wants"):
        words = _words(unit, "Unit", key)
        assert {"network-online.target", "mosquitto.service"} <= set(words), key
    for key in ("Requires", "BindsTo", "Requisite", "PartOf"):
        assert key not in unit["Unit"], f"{key}= would stop the table with the broker"


def test_user_groups_and_directories(unit: Unit) -> None:
    assert _one(unit, "Service", "User") == "tableref"
    assert _one(unit, "Service", "Group") == "tableref"
    assert set(_words(unit, "Service", "SupplementaryGroups")) == {"gpio", "dialout", "video"}
    assert _one(unit, "Service", "StateDirectory") == "tableref"
    assert _one(unit, "Service", "RuntimeDirectory") == "tableref"
    # lgpio writes a FIFO into its working directory: it must be the writable state dir.
    assert _one(unit, "Service", "WorkingDirectory") == "/var/lib/tableref"
    assert "LG_WD=/var/lib/tableref" in _words(unit, "Service", "Environment")
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_example_journal_is_in_the_state_directory(unit: Unit) -> None:
    """ProtectSystem=strict leaves only the StateDirectory writable."""
    example = (ROOT / "config" / "heads-and-tails-broker.toml").read_text(encoding="utf-8")
    journal = re.search(r'^journal = "([^"]+)"', example, re.MULTILINE)
    assert journal is not None
    state = "/var/lib/" + _one(unit, "Service", "StateDirectory") + "/"
    assert journal.group(1).startswith(state)


def test_hardening(unit: Unit) -> None:
    expected = {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "LockPersonality": "yes",
        "RestrictSUIDSGID": "yes",
        "RestrictNamespaces": "yes",
        "ProtectKernelModules": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectControlGroups": "yes",
        "DevicePolicy": "closed",
        "CapabilityBoundingSet": "",
    }
    for key, value in expected.items():
        assert _one(unit, "Service", key) == value, key
    families = set(_words(unit, "Service", "RestrictAddressFamilies"))
    assert {"AF_UNIX", "AF_INET", "AF_INET6"} <= families
    assert not families & {"AF_PACKET", "AF_BLUETOOTH"} and not any(
        f.startswith("~") for f in families
    )


def test_devices_the_hardware_needs_stay_reachable(unit: Unit) -> None:
    allowed = dict(value.split() for value in unit["Service"]["DeviceAllow"])
    # gpiochip: lgpio; ttyACM: the microcontroller bridge; video4linux, media and
    # dma_heap: Picamera2/libcamera and V4L2 webcams.
    for group in ("gpiochip", "ttyACM", "video4linux", "media", "dma_heap"):
        assert allowed.get(f"char-{group}") == "rw", group
    # Either would hide every device above whatever DeviceAllow says.
    assert unit["Service"].get("PrivateDevices", ["no"]) == ["no"]
    assert "PrivateUsers" not in unit["Service"]


def _analyze() -> str:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed (it comes with the systemd package)")
    return tool


def _verify(tool: str, text: str, folder: Path) -> list[str]:
    """Problems systemd-analyze verify reports about the unit itself."""
    # verify insists that ExecStart's binary exists; /opt/tableref is not installed here.
    text = re.sub(r"^ExecStart=\S+", "ExecStart=/bin/true", text, flags=re.MULTILINE)
    path = folder / UNIT.name
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [tool, "verify", str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    output = (done.stdout + done.stderr).splitlines()
    # Only lines about this unit: a container without a running systemd adds
    # unrelated complaints about the host's own units.
    problems = [line for line in output if UNIT.name in line]
    if done.returncode != 0 and not problems:
        pytest.skip(f"systemd-analyze verify cannot run here: {' | '.join(output)[:300]}")
    return problems


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    tool = _analyze()
    assert _verify(tool, UNIT.read_text(encoding="utf-8"), tmp_path) == []


def test_systemd_analyze_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    """The filter above does not hide real problems: a typo'd directive is reported."""
    tool = _analyze()
    text = UNIT.read_text(encoding="utf-8").replace("ProtectHome=yes", "ProtectHome=maybe")
    text = text.replace("DevicePolicy=closed", "DevicePolicy=closed\nDeviceAlow=char-media rw")
    problems = "\n".join(_verify(tool, text, tmp_path))
    assert "ProtectHome" in problems or "protect home" in problems.lower()
    assert "DeviceAlow" in problems


def test_systemd_analyze_security_exposure(tmp_path: Path) -> None:
    tool = _analyze()
    path = tmp_path / UNIT.name
    shutil.copy(UNIT, path)
    done = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout + done.stderr)
    if found is None:
        pytest.skip(f"systemd-analyze security --offline not supported: {done.stderr[:200]}")
    # 0 is locked down, 10 is unprotected; under 3 is what systemd calls "OK".
    assert float(found.group(1)) < 3.0, done.stdout
