"""The service config: defaults, every way to get it wrong, and the shipped examples."""

from __future__ import annotations

import copy
import dataclasses
import doctest
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import controller.config
from controller.config import (
    Backend,
    BrokerSettings,
    Config,
    ConfigError,
    describe,
    load_config,
    parse_broker_url,
)
from controller.errors import InputError
from controller.games.heads_and_tails.state import Format
from controller.model import Game
from controller.sensors.lines import (
    Active,
    LineConfig,
    LineKind,
    PinFactory,
    Pull,
    Role,
    SensorSettings,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "config"

Doc = dict[str, dict[str, Any]]
DELETE = object()

BASE: Doc = {
    "table": {"venue": "hall-a", "id": "t1", "game": "heads-and-tails"},
    "match": {"players": ["ann", "ben"], "plays": 4},
}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value != value:
        return "nan"
    return json.dumps(value)  # a JSON string or list of strings is valid TOML


def _toml(doc: Doc) -> str:
    lines = []
    for section, keys in doc.items():
        if not isinstance(keys, dict):
            lines.insert(0, f"{section} = {_value(keys)}")
            continue
        lines.append(f"[{section}]")
        lines.extend(f"{key} = {_value(value)}" for key, value in keys.items())
    return "\n".join(lines) + "\n"


def _doc(changes: dict[str, Any] | None = None) -> Doc:
    """BASE with ``{"section.key": value}`` changes (DELETE removes; "section" alone
    replaces the whole table)."""
    doc = copy.deepcopy(BASE)
    for name, value in (changes or {}).items():
        section, _, key = name.partition(".")
        if not key:
            if value is DELETE:
                doc.pop(section)
            else:
                doc[section] = value
        elif value is DELETE:
            doc[section].pop(key)
        else:
            doc.setdefault(section, {})[key] = value
    return doc


def _write(folder: Path, changes: dict[str, Any] | None = None, name: str = "table.toml") -> Path:
    path = folder / name
    path.write_text(_toml(_doc(changes)), encoding="utf-8")
    return path


def _error(path: Path) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return info.value


# --- what a valid file gives ---------------------------------------------------------


def test_minimal_config_takes_the_defaults(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path))
    assert config.source == str(tmp_path / "table.toml")
    assert (config.venue, config.table, config.game) == ("hall-a", "t1", Game.HEADS_AND_TAILS)
    assert config.journal == tmp_path / "tableref-journal.sqlite"
    assert config.heartbeat_s == 1.0
    assert config.broker is None
    assert config.backend is Backend.SIM
    assert config.max_payload_bytes == 4096
    assert config.match.players == ("ann", "ben")
    assert config.match.plays == 4 and config.match.first_tosser == "ann"
    assert config.topic_prefix == "tableref/v1/hall-a/t1/"


def test_match_table_is_read_like_a_scenario_match(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        {
            "match.format": "edinburgh",
            "match.plays": DELETE,
            "match.first_tosser": "ben",
            "match.visually_impaired": ["ann"],
            "match.toss_window_seconds": 20,
        },
    )
    match = load_config(path).match
    assert match.format is Format.EDINBURGH and match.plays == 1
    assert match.first_tosser == "ben"
    assert match.visually_impaired == frozenset({"ann"})
    assert match.toss_window_ns == 20_000_000_000


def test_relative_paths_are_relative_to_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "etc").mkdir()
    _write(tmp_path / "etc", {"table.journal": "data/j.sqlite"})
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("etc/table.toml"))
    monkeypatch.chdir("/")  # the service may change directory later: the path must hold
    assert config.journal.is_absolute()
    assert config.journal == tmp_path / "etc" / "data" / "j.sqlite"


def test_absolute_journal_path_is_kept(tmp_path: Path) -> None:
    path = _write(tmp_path, {"table.journal": "/var/lib/tableref/journal.sqlite"})
    assert load_config(path).journal == Path("/var/lib/tableref/journal.sqlite")


@pytest.mark.parametrize(
    ("changes", "attribute", "expected"),
    [
        ({"table.heartbeat_seconds": 0.1}, "heartbeat_s", 0.1),
        ({"table.heartbeat_seconds": 60}, "heartbeat_s", 60.0),
        ({"commands.max_payload_bytes": 256}, "max_payload_bytes", 256),
        ({"commands.max_payload_bytes": 65536}, "max_payload_bytes", 65536),
        ({"hardware.backend": "gpio"}, "backend", Backend.GPIO),
        ({"hardware.backend": "bridge", "hardware.bridge": "sim"}, "backend", Backend.BRIDGE),
        ({"hardware": {}}, "backend", Backend.SIM),
        ({"commands": {}}, "max_payload_bytes", 4096),
    ],
)
def test_limits_are_inclusive_and_tables_optional(
    tmp_path: Path, changes: dict[str, Any], attribute: str, expected: object
) -> None:
    assert getattr(load_config(_write(tmp_path, changes)), attribute) == expected


@pytest.mark.parametrize(
    ("resend", "expected"),
    [({}, 1000), ({"resend_on_reconnect": 0}, 0), ({"resend_on_reconnect": 100_000}, 100_000)],
)
def test_resend_on_reconnect_default_and_limits(
    tmp_path: Path, resend: dict[str, int], expected: int
) -> None:
    path = _write(tmp_path, {"broker": {"url": "mqtt://h", **resend}})
    broker = load_config(path).broker
    assert broker is not None and broker.resend_on_reconnect == expected


@pytest.mark.parametrize(("keepalive"), [5, 3600])
def test_keepalive_limits_are_inclusive(tmp_path: Path, keepalive: int) -> None:
    path = _write(tmp_path, {"broker": {"url": "mqtt://h", "keepalive": keepalive}})
    broker = load_config(path).broker
    assert broker is not None and broker.keepalive == keepalive


def test_full_broker_table(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("  s3cret\n", encoding="utf-8")
    for name in ("ca.crt", "table.crt", "table.key"):
        (tmp_path / name).write_text("PEM", encoding="utf-8")
    broker_table = {
        "url": "mqtts://broker.lan",
        "username": "table-hall-a-t1",
        "password_file": "secret",
        "ca": "ca.crt",
        "cert": "table.crt",
        "key": "table.key",
        "keepalive": 60,
    }
    broker = load_config(_write(tmp_path, {"broker": broker_table})).broker
    assert broker == BrokerSettings(
        host="broker.lan",
        port=8883,
        tls=True,
        username="table-hall-a-t1",
        password="s3cret",  # read at load time, stripped
        ca=tmp_path / "ca.crt",
        cert=tmp_path / "table.crt",
        key=tmp_path / "table.key",
        keepalive=60,
        client_id="table-hall-a-t1",  # the username (use_username_as_clientid)
    )
    assert broker.url == "mqtts://broker.lan:8883"


@pytest.mark.parametrize(
    ("broker_table", "client_id"),
    [
        ({"url": "mqtt://h"}, "tableref-hall-a-t1"),
        ({"url": "mqtt://h", "username": "u"}, "u"),
        ({"url": "mqtt://h", "username": "u", "client_id": "c"}, "c"),
        ({"url": "mqtt://h", "client_id": "c"}, "c"),
    ],
)
def test_client_id_defaults(tmp_path: Path, broker_table: dict[str, Any], client_id: str) -> None:
    broker = load_config(_write(tmp_path, {"broker": broker_table})).broker
    assert broker is not None and broker.client_id == client_id
    assert broker.tls is False and broker.port == 1883 and broker.keepalive == 30


def test_inline_password(tmp_path: Path) -> None:
    path = _write(tmp_path, {"broker": {"url": "mqtt://h", "username": "u", "password": "pw"}})
    broker = load_config(path).broker
    assert broker is not None and broker.password == "pw"


def test_config_is_frozen_and_never_shows_the_password(tmp_path: Path) -> None:
    path = _write(tmp_path, {"broker": {"url": "mqtt://h", "username": "u", "password": "pw9x"}})
    config = load_config(path)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.venue = "other"  # type: ignore[misc]
    assert "pw9x" not in repr(config)
    text = describe(config)
    assert "pw9x" not in text and "password set" in text


def test_describe_summarises_the_config(tmp_path: Path) -> None:
    path = _write(tmp_path, {"broker": {"url": "mqtt://10.0.0.2:1884", "username": "table-t1"}})
    text = describe(load_config(path))
    lines = text.splitlines()
    assert lines[0] == f"{path}: valid"
    assert "hall-a/t1, heads-and-tails" in text
    assert "ann v ben, standard, 4 plays, ann tosses first" in text
    assert str(tmp_path / "tableref-journal.sqlite") in text
    assert "mqtt://10.0.0.2:1884 as table-t1" in text
    assert "tableref/v1/hall-a/t1/#" in text
    assert "publishing off" in describe(load_config(_write(tmp_path)))


# --- every way to get it wrong names the file, the table and the key ------------------

BAD: list[tuple[dict[str, Any], str, str | None, str]] = [
    # unknown keys, one in each table (and at the top)
    ({"table.colour": "red"}, "[table]", "colour", "unknown key"),
    ({"match.colour": "red"}, "[match]", "colour", "unknown key"),
    ({"broker": {"url": "mqtt://h", "port": 1883}}, "[broker]", "port", "unknown key"),
    ({"hardware.pins": "17"}, "[hardware]", "pins", "unknown key"),
    ({"commands.max_bytes": 1}, "[commands]", "max_bytes", "unknown key"),
    ({"brokr": {"url": "mqtt://h"}}, "", "brokr", "unknown key"),
    ({"venue": "hall-a"}, "", "venue", "unknown key"),
    # missing
    ({"table": DELETE}, "", "table", "missing"),
    ({"match": DELETE}, "", "match", "missing"),
    ({"table.venue": DELETE}, "[table]", "venue", "missing"),
    ({"table.id": DELETE}, "[table]", "id", "missing"),
    ({"table.game": DELETE}, "[table]", "game", "missing"),
    ({"broker": {"username": "u"}}, "[broker]", "url", "missing"),
    # wrong types
    ({"table.venue": 1}, "[table]", "venue", "expected a string"),
    ({"table.heartbeat_seconds": "1"}, "[table]", "heartbeat_seconds", "expected an integer"),
    ({"table.journal": 3}, "[table]", "journal", "expected a string"),
    ({"broker": {"url": 1883}}, "[broker]", "url", "expected a string"),
    ({"broker": {"url": "mqtt://h", "keepalive": 1.5}}, "[broker]", "keepalive", "integer"),
    ({"hardware.backend": 3}, "[hardware]", "backend", "expected a string"),
    ({"commands.max_payload_bytes": True}, "[commands]", "max_payload_bytes", "boolean"),
    ({"match.plays": "4"}, "[match]", "plays", "expected an integer"),
    # out of range
    ({"table.heartbeat_seconds": 0.05}, "[table]", "heartbeat_seconds", "at least 0.1"),
    ({"table.heartbeat_seconds": 61}, "[table]", "heartbeat_seconds", "at most 60"),
    ({"table.heartbeat_seconds": float("nan")}, "[table]", "heartbeat_seconds", "finite"),
    ({"broker": {"url": "mqtt://h", "keepalive": 4}}, "[broker]", "keepalive", "at least 5"),
    ({"broker": {"url": "mqtt://h", "keepalive": 3601}}, "[broker]", "keepalive", "at most 3600"),
    (
        {"broker": {"url": "mqtt://h", "resend_on_reconnect": -1}},
        "[broker]",
        "resend_on_reconnect",
        "at least 0",
    ),
    (
        {"broker": {"url": "mqtt://h", "resend_on_reconnect": 100_001}},
        "[broker]",
        "resend_on_reconnect",
        "at most 100000",
    ),
    (
        {"broker": {"url": "mqtt://h", "resend_on_reconnect": "all"}},
        "[broker]",
        "resend_on_reconnect",
        "expected an integer",
    ),
    ({"commands.max_payload_bytes": 255}, "[commands]", "max_payload_bytes", "at least 256"),
    ({"commands.max_payload_bytes": 65537}, "[commands]", "max_payload_bytes", "at most 65536"),
    ({"match.players": ["ann"]}, "[match]", "players", "two distinct"),
    ({"match.plays": 0}, "[match]", "plays", "at least 1"),
    # values
    ({"table.game": "chess"}, "[table]", "game", "is not one of"),
    ({"hardware.backend": "pigpio"}, "[hardware]", "backend", "is not one of"),
    ({"table.journal": ""}, "[table]", "journal", "must not be empty"),
    # topic levels
    ({"table.venue": "hall/a"}, "[table]", "venue", "must not contain '/'"),
    ({"table.venue": "hall+"}, "[table]", "venue", "must not contain '+'"),
    ({"table.venue": "#"}, "[table]", "venue", "must not contain '#'"),
    ({"table.venue": ""}, "[table]", "venue", "must not be empty"),
    ({"table.venue": "$SYS"}, "[table]", "venue", "no leading '$'"),
    ({"table.id": "t:1"}, "[table]", "id", "must not contain ':'"),
    ({"table.id": "t/1"}, "[table]", "id", "must not contain '/'"),
    ({"table.id": " t1"}, "[table]", "id", "no outer spaces"),
    ({"table.id": "t\u00071"}, "[table]", "id", "no control characters"),
    # the broker url
    ({"broker": {"url": "http://h"}}, "[broker]", "url", "scheme 'http' is not mqtt or mqtts"),
    ({"broker": {"url": "tcp://h:1883"}}, "[broker]", "url", "is not mqtt or mqtts"),
    ({"broker": {"url": "h:1883"}}, "[broker]", "url", "expected mqtt://HOST[:PORT]"),
    ({"broker": {"url": "127.0.0.1"}}, "[broker]", "url", "expected mqtt://HOST[:PORT]"),
    ({"broker": {"url": "mqtt://"}}, "[broker]", "url", "no host"),
    ({"broker": {"url": "mqtt://:1883"}}, "[broker]", "url", "no host"),
    ({"broker": {"url": "mqtt://h:99999"}}, "[broker]", "url", "bad port"),
    ({"broker": {"url": "mqtt://h:0"}}, "[broker]", "url", "bad port"),
    ({"broker": {"url": "mqtt://h:mqtt"}}, "[broker]", "url", "bad port"),
    ({"broker": {"url": "mqtt://h/topic"}}, "[broker]", "url", "only a scheme, a host"),
    ({"broker": {"url": "mqtt://h?x=1"}}, "[broker]", "url", "only a scheme, a host"),
    ({"broker": {"url": "mqtt://u:p@h"}}, "[broker]", "url", "credentials"),
    # credentials
    (
        {"broker": {"url": "mqtt://h", "username": "u", "password": "p", "password_file": "f"}},
        "[broker]",
        "password_file",
        "not both",
    ),
    (
        {"broker": {"url": "mqtt://h", "username": "u", "password_file": "missing"}},
        "[broker]",
        "password_file",
        "no such file",
    ),
    (
        {"broker": {"url": "mqtt://h", "username": "u", "password_file": "empty"}},
        "[broker]",
        "password_file",
        "is empty",
    ),
    ({"broker": {"url": "mqtt://h", "password": "p"}}, "[broker]", "password", "needs a"),
    ({"broker": {"url": "mqtt://h", "username": "u", "password": ""}}, "[broker]", "password", ""),
    ({"broker": {"url": "mqtt://h", "username": ""}}, "[broker]", "username", "non-empty"),
    ({"broker": {"url": "mqtt://h", "client_id": "a b "}}, "[broker]", "client_id", "outer"),
    # TLS files
    ({"broker": {"url": "mqtts://h", "cert": "pem"}}, "[broker]", "key", "'key'"),
    ({"broker": {"url": "mqtts://h", "key": "pem"}}, "[broker]", "cert", "'cert'"),
    ({"broker": {"url": "mqtts://h", "ca": "nope.crt"}}, "[broker]", "ca", "no such file"),
    (
        {"broker": {"url": "mqtts://h", "cert": "pem", "key": "nope.key"}},
        "[broker]",
        "key",
        "no such file",
    ),
    ({"broker": {"url": "mqtt://h", "ca": "pem"}}, "[broker]", "ca", "need an mqtts:// url"),
    # a table that is not a table
    ({"broker": "mqtt://h"}, "[broker]", None, "expected a table"),
    ({"hardware": "sim"}, "[hardware]", None, "expected a table"),
]


@pytest.mark.parametrize(
    ("changes", "where", "key", "reason"),
    BAD,
    ids=[f"{w or 'top'}-{k}-{r}" for _, w, k, r in BAD],
)
def test_bad_config_names_file_table_and_key(
    tmp_path: Path, changes: dict[str, Any], where: str, key: str | None, reason: str
) -> None:
    (tmp_path / "empty").write_text(" \n", encoding="utf-8")
    (tmp_path / "pem").write_text("PEM", encoding="utf-8")
    path = _write(tmp_path, changes)
    error = _error(path)
    assert isinstance(error, InputError)
    assert (error.source, error.where, error.field) == (str(path), where, key)
    prefix = ": ".join(
        [str(path), *([where] if where else []), *([f"field '{key}'"] if key else [])]
    )
    assert str(error).startswith(prefix + ": "), str(error)
    assert reason in error.reason, str(error)


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[table]\nvenue = "hall-a\n', encoding="utf-8")
    error = _error(path)
    assert error.source == str(path) and error.field is None
    assert str(error).startswith(f"{path}: not valid TOML")


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    error = _error(tmp_path / "nope.toml")
    assert str(error) == f"{tmp_path / 'nope.toml'}: no such file"


def test_unreadable_password_file_names_the_key(tmp_path: Path) -> None:
    (tmp_path / "secret").mkdir()  # a folder: reading it fails
    path = _write(
        tmp_path, {"broker": {"url": "mqtt://h", "username": "u", "password_file": "secret"}}
    )
    error = _error(path)
    assert (error.where, error.field) == ("[broker]", "password_file")
    assert "cannot read" in error.reason


# --- parse_broker_url, also used by the CLI's --publish ------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mqtt://127.0.0.1", ("127.0.0.1", 1883, False)),
        ("mqtt://127.0.0.1:1884", ("127.0.0.1", 1884, False)),
        ("mqtts://broker.lan", ("broker.lan", 8883, True)),
        ("mqtts://broker.lan:443/", ("broker.lan", 443, True)),
        ("mqtt://[::1]:1885", ("::1", 1885, False)),
        ("MQTT://Broker.LAN", ("broker.lan", 1883, False)),
        (" mqtt://h:65535 ", ("h", 65535, False)),
    ],
)
def test_parse_broker_url(url: str, expected: tuple[str, int, bool]) -> None:
    assert parse_broker_url(url) == expected


@pytest.mark.parametrize(
    "url", ["", "127.0.0.1:1883", "ws://h", "mqtt://h:65536", "mqtt://h:-1", "mqtt://h#x"]
)
def test_parse_broker_url_rejects(url: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        parse_broker_url(url)


def test_broker_url_round_trips() -> None:
    for url in ("mqtt://h:1883", "mqtts://[::1]:8883"):
        host, port, tls = parse_broker_url(url)
        assert BrokerSettings(host=host, port=port, tls=tls).url == url


# --- the shipped examples -------------------------------------------------------------


def test_every_example_is_covered() -> None:
    names = {p.name for p in EXAMPLES.glob("*.toml")}
    assert names == {
        "heads-and-tails.toml",
        "heads-and-tails-broker.toml",
        "backgammon.toml",
        "tantrix.toml",
        "tiddlywinks.toml",
        "tiddlywinks-camera.toml",
    }


def test_tiddlywinks_camera_example_wires_the_mat_camera_and_the_shot_button() -> None:
    config = load_config(EXAMPLES / "tiddlywinks-camera.toml")
    assert config.camera is not None and config.camera.source.value == "picamera2"
    assert config.camera.hfov_deg == 66.0 and config.camera.settle_ms == 400
    assert config.sensors.line("shot") is not None and config.backend is Backend.GPIO
    assert "mat calibrated from its markers" in describe(config)


def test_example_without_broker_loads_in_place() -> None:
    config = load_config(EXAMPLES / "heads-and-tails.toml")
    assert config.broker is None and config.backend is Backend.SIM
    assert config.journal == EXAMPLES / "tableref-journal.sqlite"


def test_broker_example_needs_its_secret_files_beside_it() -> None:
    error = _error(EXAMPLES / "heads-and-tails-broker.toml")
    assert (error.where, error.field) == ("[broker]", "password_file")


def test_broker_example_loads_once_installed(tmp_path: Path) -> None:
    """As docs/install-pi.md installs it: in a folder with the password and the CA."""
    shutil.copy(EXAMPLES / "heads-and-tails-broker.toml", tmp_path / "table.toml")
    (tmp_path / "broker-password").write_text("s3cret\n", encoding="utf-8")
    (tmp_path / "ca.crt").write_text("PEM", encoding="utf-8")
    config = load_config(tmp_path / "table.toml")
    broker = config.broker
    assert broker is not None
    assert broker.tls and broker.port == 8883 and broker.ca == tmp_path / "ca.crt"
    assert broker.password == "s3cret"
    # The ACL template names table users table-<venue>-<id>.
    assert broker.username == broker.client_id == f"table-{config.venue}-{config.table}"
    assert config.journal == Path("/var/lib/tableref/journal.sqlite")


def test_docstring_examples() -> None:
    result = doctest.testmod(controller.config, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_config_error_is_an_input_error() -> None:
    assert issubclass(ConfigError, InputError)
    assert Config.__slots__  # frozen slotted dataclasses, like the rest of the model


# --- [sensors] and [[sensors.line]] ----------------------------------------------------

BASE_TOML = _toml(BASE)

SENSORS_TOML = """
[sensors]
pin_factory = "lgpio"
button_lockout_ms = 20
button_stuck_s = 30
beam_blocked_s = 1.5

[[sensors.line]]
role = "fault_a"
pin = 17
kind = "beam"
active = "high"

[[sensors.line]]
role = "fault_b"
pin = 27
active = "high"
pull = "none"

[[sensors.line]]
role = "call_heads"
pin = 5

[[sensors.line]]
role = "call_tails"
pin = 6
active = "high"
pull = "down"
"""


def _sensors(tmp_path: Path, text: str) -> Path:
    """BASE plus ``text``: tables after it, a top-level key before it."""
    path = tmp_path / "table.toml"
    whole = BASE_TOML + text if text.startswith(("[", "\n")) else text + BASE_TOML
    path.write_text(whole, encoding="utf-8")
    return path


def test_sensors_default_to_no_lines(tmp_path: Path) -> None:
    sensors = load_config(_write(tmp_path)).sensors
    assert sensors == SensorSettings()
    assert sensors.lines == () and sensors.pin_factory is None
    assert (sensors.button_lockout_ms, sensors.button_stuck_s, sensors.beam_blocked_s) == (
        15,
        10.0,
        2.0,
    )
    assert load_config(_sensors(tmp_path, "[sensors]\n")).sensors == SensorSettings()


def test_full_sensors_table(tmp_path: Path) -> None:
    sensors = load_config(_sensors(tmp_path, SENSORS_TOML)).sensors
    assert sensors.pin_factory is PinFactory.LGPIO
    assert sensors.lockout_ns == 20_000_000
    assert sensors.button_stuck_ns == 30_000_000_000
    assert sensors.beam_blocked_ns == 1_500_000_000
    assert sensors.lines == (
        LineConfig(role=Role.FAULT_A, pin=17, kind=LineKind.BEAM, active=Active.HIGH, pull=Pull.UP),
        LineConfig(
            role=Role.FAULT_B, pin=27, kind=LineKind.BEAM, active=Active.HIGH, pull=Pull.NONE
        ),
        # a button defaults to active low with the pull-up: a switch to ground
        LineConfig(
            role=Role.CALL_HEADS, pin=5, kind=LineKind.BUTTON, active=Active.LOW, pull=Pull.UP
        ),
        LineConfig(
            role=Role.CALL_TAILS, pin=6, kind=LineKind.BUTTON, active=Active.HIGH, pull=Pull.DOWN
        ),
    )
    line = sensors.line("fault_b")
    assert line is not None and line.pin == 27
    assert sensors.line("start_a") is None
    assert set(sensors.by_role()) == {"fault_a", "fault_b", "call_heads", "call_tails"}


def test_every_role_but_the_shot_button_is_accepted(tmp_path: Path) -> None:
    roles = [role for role in Role if role is not Role.SHOT]
    entries = "".join(
        f'[[sensors.line]]\nrole = "{role.value}"\npin = {pin}\n'
        + ('active = "low"\n' if role.kind is LineKind.BEAM else "")
        for pin, role in enumerate(roles, start=4)
    )
    sensors = load_config(_sensors(tmp_path, entries)).sensors
    assert [line.role for line in sensors.lines] == roles


def test_a_shot_line_on_a_table_without_a_mat_camera_game_is_refused(tmp_path: Path) -> None:
    entries = '[[sensors.line]]\nrole = "shot"\npin = 5\n'
    with pytest.raises(
        ConfigError, match=r"field 'sensors': a 'shot' line is a tiddlywinks shot button"
    ):
        load_config(_sensors(tmp_path, entries))


def test_lockout_limits_are_inclusive(tmp_path: Path) -> None:
    for value in (1, 200):
        text = f"[sensors]\nbutton_lockout_ms = {value}\n"
        assert load_config(_sensors(tmp_path, text)).sensors.button_lockout_ms == value


def test_describe_lists_the_wired_lines(tmp_path: Path) -> None:
    text = describe(load_config(_sensors(tmp_path, SENSORS_TOML)))
    assert (
        "  sensors   fault_a@17, fault_b@27, call_heads@5, call_tails@6, pin factory lgpio, "
        "button lockout 20 ms"
    ) in text
    assert "  sensors   no lines wired" in describe(load_config(_write(tmp_path)))


LINE = '[[sensors.line]]\nrole = "fault_a"\npin = 17\nactive = "high"\n'
BUTTON = '[[sensors.line]]\nrole = "call_heads"\npin = 5\n'

BAD_SENSORS: list[tuple[str, str, str, str]] = [
    ("[sensors]\ncolour = 1\n", "[sensors]", "colour", "unknown key"),
    ("[sensors]\npin_factory = 'pigpio'\n", "[sensors]", "pin_factory", "is not one of"),
    ("[sensors]\nbutton_lockout_ms = 0\n", "[sensors]", "button_lockout_ms", "at least 1"),
    ("[sensors]\nbutton_lockout_ms = 201\n", "[sensors]", "button_lockout_ms", "at most 200"),
    ("[sensors]\nbutton_lockout_ms = 15.5\n", "[sensors]", "button_lockout_ms", "integer"),
    ("[sensors]\nbeam_blocked_s = 0.05\n", "[sensors]", "beam_blocked_s", "at least 0.1"),
    ("[sensors]\nbeam_blocked_s = 61\n", "[sensors]", "beam_blocked_s", "at most 60"),
    ("[sensors]\nclock_reorder_ms = -1\n", "[sensors]", "clock_reorder_ms", "at least 0"),
    ("[sensors]\nclock_reorder_ms = 51\n", "[sensors]", "clock_reorder_ms", "at most 50"),
    ("[sensors]\nbutton_stuck_s = 0.5\n", "[sensors]", "button_stuck_s", "at least 1"),
    ("[sensors]\nbutton_stuck_s = 3601\n", "[sensors]", "button_stuck_s", "at most 3600"),
    ("[sensors]\nline = 3\n", "[sensors]", "line", "expected list"),
    ("sensors = 3\n", "[sensors]", "", "expected a table, got an integer"),
    (LINE + "colour = 'red'\n", "[[sensors.line]] 1", "colour", "unknown key"),
    ("[[sensors.line]]\npin = 17\n", "[[sensors.line]] 1", "role", "missing"),
    ("[[sensors.line]]\nrole = 'fault_c'\npin = 1\n", "[[sensors.line]] 1", "role", "not one of"),
    ("[[sensors.line]]\nrole = 'call_heads'\n", "[[sensors.line]] 1", "pin", "missing"),
    (BUTTON.replace("5", "28"), "[[sensors.line]] 1", "pin", "not on the header (0 to 27)"),
    (BUTTON.replace("5", "-1"), "[[sensors.line]] 1", "pin", "at least 0"),
    (BUTTON.replace("5", "'GPIO5'"), "[[sensors.line]] 1", "pin", "expected an integer"),
    (LINE.replace('active = "high"\n', ""), "[[sensors.line]] 1", "active", "missing"),
    (LINE + "active_ = 1\n", "[[sensors.line]] 1", "active_", "unknown key"),
    (LINE.replace('"high"', '"up"'), "[[sensors.line]] 1", "active", "is not one of"),
    (LINE + "pull = 'off'\n", "[[sensors.line]] 1", "pull", "is not one of"),
    (LINE + "kind = 'button'\n", "[[sensors.line]] 1", "kind", "is a beam line, not button"),
    (BUTTON + "kind = 'beam'\n", "[[sensors.line]] 1", "kind", "is a button line, not beam"),
    (BUTTON + "active = 'high'\n", "[[sensors.line]] 1", "pull", "use pull = 'down'"),
    (BUTTON + "pull = 'down'\n", "[[sensors.line]] 1", "pull", "use pull = 'up'"),
    (BUTTON.replace("5", "2") + "pull = 'none'\n", "[[sensors.line]] 1", "pull", "fixed pull-up"),
    (LINE + LINE.replace("17", "18"), "[[sensors.line]] 2", "role", "'fault_a' is wired twice"),
    (LINE + BUTTON.replace("5", "17"), "[[sensors.line]] 2", "pin", "already used by 'fault_a'"),
    (
        LINE.replace("fault_a", "start_b"),
        "[sensors]",
        "line",
        "'start_b' is the second beam of a pair: wire start_a too",
    ),
]


@pytest.mark.parametrize(
    ("text", "where", "key", "reason"),
    BAD_SENSORS,
    ids=[f"{w}-{k}-{r}" for _, w, k, r in BAD_SENSORS],
)
def test_bad_sensors_name_file_table_and_key(
    tmp_path: Path, text: str, where: str, key: str, reason: str
) -> None:
    path = _sensors(tmp_path, text)
    error = _error(path)
    assert (error.source, error.where, error.field or "") == (str(path), where, key), str(error)
    assert reason in error.reason, str(error)


def test_the_floor_camera_takes_its_lens_field_of_view_or_estimates_it(tmp_path: Path) -> None:
    # The floor camera's hfov_deg is optional: without it the focal length is
    # estimated from the markers (None here), with it the camera is placed
    # even nearly straight over the square; out of range names the key.
    plain = load_config(_write(tmp_path, {"camera": {"source": "v4l2"}}))
    assert plain.camera is not None and plain.camera.hfov_deg is None
    assert "field of view" not in describe(plain)
    wide = load_config(_write(tmp_path, {"camera": {"source": "v4l2", "hfov_deg": 102}}))
    assert wide.camera is not None and wide.camera.hfov_deg == 102.0
    assert "field of view 102 deg" in describe(wide)
    error = _error(_write(tmp_path, {"camera": {"source": "v4l2", "hfov_deg": 5}}))
    assert "[camera]" in str(error) and "hfov_deg" in str(error)
