"""What the harness, the service, replay and the CLI need of a game.

Each game package exposes one object that satisfies :class:`GameModule`:
its engine, how its ``[match]`` table and its inputs are read (scenario files,
commands and the journal share one format), and how its match record is
written. :func:`controller.games.registry.module_for` finds it by
:class:`~controller.model.Game`, so nothing outside ``controller/games/``
names a particular game.

The inputs every game shares (a deadline ``tick``, ``resumed`` after a
restart, ``end_match`` by the TD, sensor ``health``) are encoded and decoded
here, once.

>>> kind, payload = encode_common(Resumed(t_ns=5, down_ns=7))
>>> kind, payload
('resumed', {'down_ns': 7})
>>> decode_common(kind, Table(payload, "j", "input 1", InputError), 5)
Resumed(t_ns=5, down_ns=7)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from controller.engine import Engine
from controller.errors import InputError
from controller.model import JSON, EndMatch, Event, Game, Resumed, Ruling, Tick
from controller.sensors.health import HealthEvent
from controller.strict import Table

if TYPE_CHECKING:
    from controller.camera import TableCamera
    from vision.settings import CameraSettings

S = TypeVar("S")
M = TypeVar("M")
M_contra = TypeVar("M_contra", contravariant=True)

InputParser = Callable[[str, Table, int], Event]
"""One file's input parser: ``(kind, table, t_ns)`` to the event."""

COMMON_KINDS = ("tick", "resumed", "end_match", "health")
"""Journal kinds every game shares; none of them is a scenario input type."""


class GameEngine(Engine[S], Protocol[S, M_contra]):
    """An engine that can start a match and say why it would refuse an input."""

    def start(self, settings: M_contra) -> S:
        """The state before the first input of a match played with ``settings``."""
        ...

    def refusal(self, state: S, event: Event) -> str | None:
        """Why a command carrying ``event`` makes no sense now (nothing is
        changed and the command is answered with this reason), or None."""
        ...


class GameModule(Protocol[S, M]):
    """One game, as the rest of the controller sees it."""

    @property
    def game(self) -> Game:
        """Which game this is."""
        ...

    @property
    def input_types(self) -> tuple[str, ...]:
        """The scenario ``[[input]]`` types of this game (semantic level)."""
        ...

    @property
    def verbs(self) -> frozenset[str]:
        """The ``cmd/<verb>`` verbs of this game (besides new_match/end_match)."""
        ...

    def engine(self) -> GameEngine[S, M]:
        """A fresh engine."""
        ...

    def parse_match(self, table: Table) -> M:
        """The ``[match]`` table of a scenario or config file."""
        ...

    def encode_match(self, settings: M) -> dict[str, JSON]:
        """Settings as the ``[match]`` table :meth:`parse_match` reads back."""
        ...

    def describe_match(self, settings: M) -> str:
        """One line for ``check-config``: "ann v ben, standard, 4 plays"."""
        ...

    def settings(self, state: S) -> M:
        """The settings a match state was started with."""
        ...

    def parse_input(self, kind: str, table: Table, t_ns: int, settings: M) -> Event:
        """A semantic input of type ``kind`` (one of :attr:`input_types`)."""
        ...

    def input_parser(self, settings: M) -> InputParser:
        """A parser for one file's inputs in file order, ``(kind, table, t_ns)``
        to event: a game whose inputs depend on the ones before (tiddlywinks'
        frame-level shots name winks from the mat as the file left it) keeps
        that state in the parser it returns, for this parse only."""
        ...

    def command(self, verb: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The (input type, payload) a command carries; ``verb`` is in :attr:`verbs`.

        Raises :class:`InputError` for fields that cannot go with the verb."""
        ...

    def encode(self, event: Event) -> tuple[str, dict[str, JSON]]:
        """(type, payload) of any event this game's engine takes."""
        ...

    def record_text(self, state: S, rulings: Sequence[Ruling], origin_ns: int) -> str:
        """The match record as text (``simulate --record``)."""
        ...

    def record_json(self, state: S, rulings: Sequence[Ruling], origin_ns: int) -> dict[str, JSON]:
        """The match record as JSON."""
        ...

    def caller(self, state: S) -> str | None:
        """The player whose call pad counts now (Heads & Tails), else None."""
        ...

    def toss_in_flight(self, state: S) -> bool:
        """True while a toss is in the air (Heads & Tails), else False."""
        ...

    def suspended(self, state: S) -> frozenset[str]:
        """The sensors the match holds faulty (each gave a ``suspended`` ruling)."""
        ...

    def clock(self, state: S, t_ns: int) -> dict[str, JSON] | None:
        """The ``clock`` topic payload (without ``wall``), or None for a game
        with no clock."""
        ...

    def live_camera(self, settings: CameraSettings, journal: Path) -> TableCamera | None:
        """The game's camera in the live service, for a config with a
        ``[camera]`` table (None: the game uses none). Raises
        :class:`~controller.errors.TablerefError` when it cannot be set up
        (a calibration file missing); a camera that is merely absent is a
        health event once it starts, not an error."""
        ...


class ModuleDefaults:
    """What most games' modules answer the same way; a module class inherits
    these and overrides what its game does differently. The state is a frozen
    dataclass with ``settings`` and a ``suspended`` set of sensor names."""

    def settings(self, state: Any) -> Any:
        return state.settings

    def parse_input(self, kind: str, table: Table, t_ns: int, settings: Any) -> Event:
        raise NotImplementedError  # every game reads its own inputs

    def input_parser(self, settings: Any) -> InputParser:
        # Inputs that stand alone: each is parsed on its own.
        return lambda kind, table, t_ns: self.parse_input(kind, table, t_ns, settings)

    def command(self, verb: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        # Every input type is a verb of its own, with the input's fields.
        return verb, fields

    def caller(self, state: Any) -> str | None:
        return None

    def toss_in_flight(self, state: Any) -> bool:
        return False

    def suspended(self, state: Any) -> frozenset[str]:
        return frozenset(state.suspended)

    def live_camera(self, settings: CameraSettings, journal: Path) -> TableCamera | None:
        return None


def encode_common(event: Event) -> tuple[str, dict[str, JSON]] | None:
    """(type, payload) of an input every game shares, else None."""
    match event:
        case Tick():
            return "tick", {}
        case Resumed():
            return "resumed", {"down_ns": event.down_ns}
        case EndMatch():
            return "end_match", {"reason": event.reason} if event.reason else {}
        case HealthEvent():
            return "health", {"sensor": event.sensor, "ok": event.ok, "detail": event.detail}
    return None


def decode_common(kind: str, table: Table, t_ns: int) -> Event | None:
    """The shared input of a (type, payload), or None if ``kind`` is not one."""
    event: Event
    if kind == "tick":
        event = Tick(t_ns=t_ns)
    elif kind == "resumed":
        event = Resumed(t_ns=t_ns, down_ns=table.integer("down_ns", minimum=0))
    elif kind == "end_match":
        event = EndMatch(t_ns=t_ns, reason=table.string("reason", ""))
    elif kind == "health":
        sensor = table.string("sensor")
        if not sensor:
            raise table.fail("sensor", "must name a sensor")
        detail = table.string("detail", "")
        event = HealthEvent(t_ns=t_ns, sensor=sensor, ok=table.boolean("ok"), detail=detail)
    else:
        return None
    table.finish()
    return event


def decode(
    module: GameModule[Any, M],
    kind: str,
    payload: Mapping[str, Any],
    t_ns: int,
    settings: M,
    *,
    source: str = "payload",
    where: str = "",
) -> Event:
    """The event of a journaled or commanded (type, payload), for any game;
    raises :class:`InputError` naming the field."""
    table = Table(dict(payload), source, where or kind, InputError)
    common = decode_common(kind, table, t_ns)
    if common is not None:
        return common
    if kind not in module.input_types:
        known = ", ".join((*module.input_types, *COMMON_KINDS))
        raise table.fail("type", f"{kind!r} is not an input of {module.game.value} ({known})")
    return module.parse_input(kind, table, t_ns, settings)


def encode(module: GameModule[Any, Any], event: Event) -> tuple[str, dict[str, JSON]]:
    """(type, payload) of any event, for any game."""
    return encode_common(event) or module.encode(event)


def decode_match(module: GameModule[Any, M], doc: object, source: str, where: str) -> M:
    """Settings from a ``[match]``-shaped object; :class:`InputError` names the field."""
    return module.parse_match(Table(doc, source, where, InputError))
