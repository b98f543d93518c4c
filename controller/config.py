"""The service config: one TOML file per table, validated strictly at start-up.

An unknown key, a wrong type or an out-of-range value is a :class:`ConfigError`
naming the file, the table and the key: a typo must stop the service, not be
ignored (the house style, after Klipper). Paths in the file are relative to the
file's own folder, so a config works the same from any working directory.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "t.toml").write_text('''
... [table]
... venue = "hall-a"
... id = "t1"
... game = "heads-and-tails"
... [match]
... players = ["ann", "ben"]
... plays = 4
... [brokr]
... url = "mqtt://127.0.0.1"
... ''')
>>> load_config(folder / "t.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
controller.config.ConfigError: .../t.toml: field 'brokr': unknown key (known: ...)
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from controller.errors import InputError
from controller.games.registry import SUPPORTED, module_for, supported_names
from controller.model import Game
from controller.sensors.lines import LineKind, Role, SensorSettings, parse_sensors
from controller.strict import Table, load_toml
from vision.settings import CameraSettings, parse_camera

TOPIC_ROOT = "tableref/v1"
"""Every topic of a table is under ``tableref/v1/<venue>/<table>/`` (contracts.md section 3)."""


def topic_base(venue: str, table: str) -> str:
    """The prefix of every topic of one table (``contracts.md`` section 3).

    >>> topic_base("hall-a", "t7")
    'tableref/v1/hall-a/t7/'
    """
    return f"{TOPIC_ROOT}/{venue}/{table}/"


DEFAULT_JOURNAL = "tableref-journal.sqlite"
DEFAULT_HEARTBEAT_S = 1.0
HEARTBEAT_RANGE = (0.1, 60.0)
DEFAULT_KEEPALIVE_S = 30
KEEPALIVE_RANGE = (5, 3600)
DEFAULT_RESEND_ON_RECONNECT = 1000
RESEND_ON_RECONNECT_RANGE = (0, 100_000)
DEFAULT_MAX_PAYLOAD = 4096
MAX_PAYLOAD_RANGE = (256, 65536)
SCHEMES = {"mqtt": (1883, False), "mqtts": (8883, True)}
"""URL scheme -> (default port, TLS)."""

BRIDGE_SIM = "sim"
"""``[hardware] bridge = "sim"``: a simulated board behind a pty pair."""


class ConfigError(InputError):
    """A config file that cannot be run as written."""


class Backend(StrEnum):
    """Where sensor inputs come from."""

    SIM = "sim"  # no hardware: inputs come from commands and the simulator
    GPIO = "gpio"  # light gates and buttons on the Pi's own GPIO (lgpio)
    BRIDGE = "bridge"  # a microcontroller over USB CDC (firmware_bridge)


@dataclass(frozen=True, slots=True)
class BrokerSettings:
    """How to reach the MQTT broker.

    >>> b = BrokerSettings(host="broker.lan", port=8883, tls=True, username="table-t1",
    ...     password="s3cret", client_id="table-t1")
    >>> b.url
    'mqtts://broker.lan:8883'
    >>> "s3cret" in repr(b)
    False
    """

    host: str
    port: int
    tls: bool
    username: str | None = None
    # Kept out of repr so that logging a config never leaks the secret.
    password: str | None = field(default=None, repr=False)
    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None
    keepalive: int = DEFAULT_KEEPALIVE_S
    client_id: str = "tableref"
    # Acked rulings published again after a reconnect (0: none).
    resend_on_reconnect: int = DEFAULT_RESEND_ON_RECONNECT

    @property
    def url(self) -> str:
        """The broker as a URL (no credentials)."""
        scheme = "mqtts" if self.tls else "mqtt"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{host}:{self.port}"


@dataclass(frozen=True, slots=True)
class Config:
    """A validated config file: everything the service needs to start."""

    source: str
    venue: str
    table: str
    game: Game
    journal: Path
    heartbeat_s: float
    match: Any
    """The game's match settings (its :meth:`GameModule.parse_match`)."""
    broker: BrokerSettings | None
    backend: Backend
    max_payload_bytes: int
    sensors: SensorSettings = field(default_factory=SensorSettings)
    bridge: str | None = None  # backend "bridge": "sim" or the board's serial port path
    camera: CameraSettings | None = None
    """The ``[camera]`` table (docs/vision.md); None: no camera, the spotter enters landings."""

    @property
    def topic_prefix(self) -> str:
        """The topic every message of this table starts with (ends with '/').

        >>> from controller.games.heads_and_tails import MatchSettings
        >>> Config("x.toml", "hall-a", "t1", Game.HEADS_AND_TAILS, Path("j"), 1.0,
        ...     MatchSettings(players=("ann", "ben"), first_tosser="ann"), None,
        ...     Backend.SIM, 4096).topic_prefix
        'tableref/v1/hall-a/t1/'
        """
        return topic_base(self.venue, self.table)


def parse_broker_url(url: str) -> tuple[str, int, bool]:
    """Split ``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]`` into (host, port, tls).

    Raises :class:`ValueError` with the reason for any other scheme, a missing
    host, a bad port, credentials, a path, a query or a fragment.

    >>> parse_broker_url("mqtt://127.0.0.1")
    ('127.0.0.1', 1883, False)
    >>> parse_broker_url("mqtts://broker.lan:9883")
    ('broker.lan', 9883, True)
    >>> parse_broker_url("http://broker.lan")
    Traceback (most recent call last):
    ...
    ValueError: scheme 'http' is not mqtt or mqtts
    """
    parts = urllib.parse.urlsplit(url.strip())
    if not parts.scheme or "://" not in url:
        raise ValueError("expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    if parts.scheme not in SCHEMES:
        raise ValueError(f"scheme {parts.scheme!r} is not mqtt or mqtts")
    default_port, tls = SCHEMES[parts.scheme]
    if parts.username is not None or parts.password is not None:
        raise ValueError("put credentials in 'username' and 'password', not in the URL")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("expected only a scheme, a host and a port, like mqtt://HOST:1883")
    host = parts.hostname
    if not host or any(c.isspace() for c in host):
        raise ValueError("no host (expected mqtt://HOST or mqtts://HOST:PORT)")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in {url.strip()!r}: expected 1..65535") from None
    if port == 0:
        raise ValueError("bad port 0: expected 1..65535")
    return host, port or default_port, tls


def load_config(path: Path) -> Config:
    """Read and validate a config file; raises :class:`ConfigError`.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.toml").write_text('''
    ... [table]
    ... venue = "hall-a"
    ... id = "t1"
    ... game = "heads-and-tails"
    ... [match]
    ... players = ["ann", "ben"]
    ... plays = 4
    ... ''')
    >>> config = load_config(folder / "t.toml")
    >>> config.table, config.broker, config.backend, config.journal == folder / DEFAULT_JOURNAL
    ('t1', None, <Backend.SIM: 'sim'>, True)
    """
    return parse_config(load_toml(path, ConfigError), path)


def parse_config(data: dict[str, Any], path: Path) -> Config:
    """Validate a parsed TOML document read from ``path``."""
    source = str(path)
    folder = path.parent.absolute()
    top = Table(data, source, "", ConfigError)
    table = _required(top, "table")
    venue = _segment(table, "venue", extra="")
    table_id = _segment(table, "id", extra=":")
    game = table.choice("game", Game)
    if game not in SUPPORTED:
        raise table.fail("game", f"{game.value!r} is not supported yet ({supported_names()})")
    journal = _path(table, "journal", folder, DEFAULT_JOURNAL)
    heartbeat = table.number(
        "heartbeat_seconds",
        DEFAULT_HEARTBEAT_S,
        minimum=HEARTBEAT_RANGE[0],
        maximum=HEARTBEAT_RANGE[1],
    )
    table.finish()
    match = module_for(game).parse_match(_required(top, "match"))
    broker_table = top.table("broker", optional=True)
    broker = None if broker_table is None else _broker(broker_table, folder, venue, table_id)
    backend, bridge = _backend(top.table("hardware", optional=True), folder)
    max_payload = _commands(top.table("commands", optional=True))
    sensors = parse_sensors(top.table("sensors", optional=True), ConfigError)
    camera_table = top.table("camera", optional=True)
    mat = game is Game.TIDDLYWINKS
    camera = None if camera_table is None else parse_camera(camera_table, folder, mat=mat)
    _camera_buttons(top, sensors, camera, game)
    top.finish()
    return Config(
        source=source,
        venue=venue,
        table=table_id,
        game=game,
        journal=journal,
        heartbeat_s=heartbeat,
        match=match,
        broker=broker,
        backend=backend,
        max_payload_bytes=max_payload,
        sensors=sensors,
        bridge=bridge,
        camera=camera,
    )


def _camera_buttons(
    top: Table, sensors: SensorSettings, camera: CameraSettings | None, game: Game
) -> None:
    """The shot button tells the mat camera a shot has ended: it needs one,
    and a game with a mat camera (tiddlywinks): elsewhere its presses would
    go nowhere."""
    if sensors.line(Role.SHOT.value) is None:
        return
    if game is not Game.TIDDLYWINKS:
        raise top.fail(
            "sensors",
            f"a 'shot' line is a tiddlywinks shot button; this table plays {game.value}",
        )
    if camera is None:
        raise top.fail("sensors", "a 'shot' line needs a [camera] (the still of the mat it takes)")


def _required(top: Table, key: str) -> Table:
    table = top.table(key)
    assert table is not None  # table() raises when a required table is missing
    return table


def _segment(table: Table, key: str, *, extra: str) -> str:
    """A string that is used as one MQTT topic level."""
    value: str = table.string(key)
    forbidden = "/+#" + extra
    if not value:
        raise table.fail(key, "must not be empty")
    bad = sorted({c for c in value if c in forbidden})
    if bad:
        shown = " ".join(repr(c) for c in bad)
        raise table.fail(key, f"{value!r} is used in MQTT topics: it must not contain {shown}")
    if value.startswith("$") or not value.isprintable() or value != value.strip():
        raise table.fail(key, f"{value!r}: no leading '$', no control characters, no outer spaces")
    return value


def _path(table: Table, key: str, folder: Path, default: str | None = None) -> Any:
    """A path, relative to the config file's folder (None when absent, no default)."""
    value: str | None = table.string(key, default)
    if value is None:
        return None
    if not value.strip():
        raise table.fail(key, "must not be empty")
    return folder / value


def _tls_file(table: Table, key: str, folder: Path, tls: bool) -> Path | None:
    path: Path | None = _path(table, key, folder)
    if path is None:
        return None
    if not tls:
        raise table.fail(key, "TLS files need an mqtts:// url")
    if not path.is_file():
        raise table.fail(key, f"no such file: {path}")
    return path


def _name(table: Table, key: str) -> str | None:
    """An optional identifier sent to the broker (a username or a client id)."""
    value: str | None = table.string(key, None)
    if value is None:
        return None
    if not value or not value.isprintable() or value != value.strip():
        raise table.fail(key, f"{value!r}: must be non-empty, printable, no outer spaces")
    if len(value.encode("utf-8")) > 65535:
        raise table.fail(key, "longer than MQTT allows (65535 bytes)")
    return value


def _broker(table: Table, folder: Path, venue: str, table_id: str) -> BrokerSettings:
    url: str = table.string("url")
    try:
        host, port, tls = parse_broker_url(url)
    except ValueError as exc:
        raise table.fail("url", str(exc)) from None
    username = _name(table, "username")
    password = _password(table, folder, username)
    ca = _tls_file(table, "ca", folder, tls)
    cert = _tls_file(table, "cert", folder, tls)
    key = _tls_file(table, "key", folder, tls)
    if cert is not None and key is None:
        raise table.fail("key", "'cert' is set, so 'key' (its private key) is needed too")
    if key is not None and cert is None:
        raise table.fail("cert", "'key' is set, so 'cert' (its certificate) is needed too")
    keepalive: int = table.integer("keepalive", DEFAULT_KEEPALIVE_S, minimum=KEEPALIVE_RANGE[0])
    if keepalive > KEEPALIVE_RANGE[1]:
        raise table.fail("keepalive", f"must be at most {KEEPALIVE_RANGE[1]}, got {keepalive}")
    client_id = _name(table, "client_id") or username or f"tableref-{venue}-{table_id}"
    resend: int = table.integer(
        "resend_on_reconnect",
        DEFAULT_RESEND_ON_RECONNECT,
        minimum=RESEND_ON_RECONNECT_RANGE[0],
    )
    if resend > RESEND_ON_RECONNECT_RANGE[1]:
        limit = RESEND_ON_RECONNECT_RANGE[1]
        raise table.fail("resend_on_reconnect", f"must be at most {limit}, got {resend}")
    table.finish()
    return BrokerSettings(
        host=host,
        port=port,
        tls=tls,
        username=username,
        password=password,
        ca=ca,
        cert=cert,
        key=key,
        keepalive=keepalive,
        client_id=client_id,
        resend_on_reconnect=resend,
    )


def _password(table: Table, folder: Path, username: str | None) -> str | None:
    password: str | None = table.string("password", None)
    file: Path | None = _path(table, "password_file", folder)
    if password is not None and file is not None:
        raise table.fail("password_file", "set 'password' or 'password_file', not both")
    if file is not None:
        key = "password_file"
        try:
            password = file.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise table.fail(key, f"no such file: {file}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise table.fail(key, f"cannot read {file}: {exc}") from None
        if not password:
            raise table.fail(key, f"{file} is empty")
    else:
        key = "password"
        if password is not None and not password:
            raise table.fail(key, "must not be empty (leave it out for no password)")
    if password is not None and username is None:
        raise table.fail(key, "a password needs a 'username'")
    return password


def _backend(table: Table | None, folder: Path) -> tuple[Backend, str | None]:
    if table is None:
        return Backend.SIM, None
    backend: Backend = table.choice("backend", Backend, Backend.SIM)
    bridge: str | None = table.string("bridge", None)
    if backend is Backend.BRIDGE and bridge is None:
        raise table.fail("bridge", "backend 'bridge' needs the board's port, or \"sim\"")
    if backend is not Backend.BRIDGE and bridge is not None:
        raise table.fail("bridge", f"only for backend = 'bridge' (backend is {backend.value!r})")
    if bridge is not None and bridge != BRIDGE_SIM:
        if not bridge.strip():
            raise table.fail("bridge", "must not be empty")
        bridge = str(folder / bridge)  # absolute paths stay as they are
    table.finish()
    return backend, bridge


def _commands(table: Table | None) -> int:
    if table is None:
        return DEFAULT_MAX_PAYLOAD
    low, high = MAX_PAYLOAD_RANGE
    size: int = table.integer("max_payload_bytes", DEFAULT_MAX_PAYLOAD, minimum=low)
    if size > high:
        raise table.fail("max_payload_bytes", f"must be at most {high}, got {size}")
    table.finish()
    return size


def describe(config: Config) -> str:
    """A short human summary of a valid config (what ``tableref check-config`` prints).

    The password is never shown, only whether one is set.

    >>> from controller.games.heads_and_tails import MatchSettings
    >>> config = Config("t.toml", "hall-a", "t1", Game.HEADS_AND_TAILS, Path("/j.sqlite"),
    ...     1.0, MatchSettings(players=("ann", "ben"), first_tosser="ann", plays=4), None,
    ...     Backend.SIM, 4096)
    >>> print(describe(config))
    t.toml: valid
      table     hall-a/t1, heads-and-tails
      match     ann v ben, standard, 4 plays, ann tosses first
      journal   /j.sqlite
      heartbeat 1 s
      broker    none (publishing off)
      hardware  sim
      sensors   no lines wired
      commands  at most 4096 bytes a payload
    """
    match = module_for(config.game).describe_match(config.match)
    lines = [
        f"{config.source}: valid",
        f"  table     {config.venue}/{config.table}, {config.game.value}",
        f"  match     {match}",
        f"  journal   {config.journal}",
        f"  heartbeat {config.heartbeat_s:g} s",
        f"  broker    {_describe_broker(config)}",
        *([f"  topics    {config.topic_prefix}#"] if config.broker else []),
        f"  hardware  {config.backend.value}" + (f" ({config.bridge})" if config.bridge else ""),
        f"  sensors   {_describe_sensors(config.sensors)}",
        f"  commands  at most {config.max_payload_bytes} bytes a payload",
        *([f"  camera    {_describe_camera(config.camera, config.game)}"] if config.camera else []),
    ]
    return "\n".join(lines)


def _describe_sensors(sensors: SensorSettings) -> str:
    """One line: the wired lines by role and pin, the factory and the timings."""
    if not sensors.lines:
        return "no lines wired"
    wired = ", ".join(f"{line.role.value}@{line.pin}" for line in sensors.lines)
    factory = sensors.pin_factory or "$GPIOZERO_PIN_FACTORY or lgpio"
    parts = [wired, f"pin factory {factory}"]
    if any(line.kind is LineKind.BUTTON for line in sensors.lines):
        parts.append(f"button lockout {sensors.button_lockout_ms} ms")
    return ", ".join(parts)


def _crop_workers(workers: int | None) -> str:
    if workers is None:
        return "worker processes, one fewer than the cores (at most 3)"
    return "the service alone" if workers == 0 else f"{workers} worker processes and the service"


def _describe_camera(camera: CameraSettings, game: Game) -> str:
    w, h = camera.still
    where = f" {camera.device}" if camera.device else ""
    if game is Game.TIDDLYWINKS:
        return (f"{camera.source.value}{where}, {w}x{h}, mat calibrated from its markers "
                f"(field of view {camera.mat_hfov_deg:g} deg), settled after "
                f"{camera.settle_ms} ms still, a still's crops read by "
                f"{_crop_workers(camera.crop_workers)}")  # fmt: skip
    fov = "" if camera.hfov_deg is None else f", field of view {camera.hfov_deg:g} deg"
    if camera.second is not None:
        fov += f"; second camera {_describe_camera(camera.second, game)}"
    return (f"{camera.source.value}{where}, {w}x{h}, calibration {camera.calibration}, "
            f"coin {camera.coin_diameter_mm:g} mm, margin {camera.margin:g}{fov}")  # fmt: skip


def _describe_broker(config: Config) -> str:
    broker = config.broker
    if broker is None:
        return "none (publishing off)"
    who = f"as {broker.username}" if broker.username else "anonymous"
    if broker.password is not None:
        who += " (password set)"
    parts = [f"{broker.url} {who}", f"client id {broker.client_id}"]
    parts.append(f"keepalive {broker.keepalive} s")
    if broker.tls:
        parts.append(f"CA {broker.ca}" if broker.ca else "system CAs")
        if broker.cert:
            parts.append(f"client cert {broker.cert}")
    return ", ".join(parts)
