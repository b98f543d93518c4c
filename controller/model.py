"""Events, decisions and rulings: the shapes every engine and sink shares.

An engine returns :class:`Decision` objects; the runtime stamps each one with
its table, boot and sequence number to make a :class:`Ruling`, the public JSON
payload of ``contracts.md`` section 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
Score: TypeAlias = tuple[tuple[str, int | float], ...]
"""A match score as (player id, points) pairs in seat order."""

PAYLOAD_VERSION = 1


class Game(StrEnum):
    """The games tableref referees; the value is the ``game`` field of a ruling."""

    HEADS_AND_TAILS = "heads-and-tails"
    TIDDLYWINKS = "tiddlywinks"
    TANTRIX = "tantrix"
    BACKGAMMON = "backgammon"


class RulingKind(StrEnum):
    """The ``kind`` of a ruling. Games add their own kinds here."""

    POINT = "point"
    FAULT = "fault"
    LET = "let"
    INVALID = "invalid"
    NOTICE = "notice"
    OVERRULED = "overruled"
    MATCH_OVER = "match_over"
    SUSPENDED = "suspended"  # a sensor is faulty: automated rulings need the spotter
    FLAG = "flag"  # a game clock's flag fell (the game's flag policy follows)
    GAME_OVER = "game_over"  # one game ended with its result (Tantrix 4a, 6b; backgammon 5.12)
    PENALTY = "penalty"  # points moved against a player (time penalties, overtime, late start)
    CLOCK = "clock"  # clocks brought in, paused, resumed or adjusted: on the record
    CUBE = "cube"  # backgammon: a double offered or taken (5.9)
    CRAWFORD = "crawford"  # backgammon: the next game is the Crawford game (5.11)
    ALERT = "alert"  # the controller is called (Tantrix 3d: more than 25 minutes taken)
    SQUIDGE_OFF = "squidge_off"  # tiddlywinks 5(a): the squidge-off won, or a resquidge
    FORFEIT = "forfeit"  # tiddlywinks 7(a), 9(c): a colour's shot is forfeited
    FREE_TURNS = "free_turns"  # tiddlywinks 11(a): free turns awarded, with their number
    NOMINATED_WINK = "nominated_wink"  # tiddlywinks 11(d): failure to free
    POT_OUT = "pot_out"  # tiddlywinks 8: a colour potted out
    TIME_LIMIT = "time_limit"  # tiddlywinks 9(b): time is up, the last rounds counted
    FOUL = "foul"  # tiddlywinks 12: a foul shot seen or declared, and its outcome
    UMPIRE = "umpire"  # tiddlywinks 14: an umpire's decision (final)


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """An input to an engine, stamped with the time it happened (``mono_ns``)."""

    t_ns: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Tick(Event):
    """Time has reached a deadline the engine asked to be woken for."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What an engine decided, before the runtime gives it an id.

    ``ordinal`` counts the decisions of one match from 0, in the order the
    engine made them; ``overrules`` is the ordinal of a decision this one
    replaces. Both stay inside the controller: the runtime maps them to ids.
    """

    ordinal: int
    kind: RulingKind
    rule: str | None
    against: str | None
    to: str | None
    score: Score
    detail: str
    t_ns: int
    overrules: int | None = None
    extra: tuple[tuple[str, JSON], ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Ruling:
    """A stamped ruling, exactly the payload of ``contracts.md`` section 1.

    >>> r = Ruling(id="t1:0:1", seq=1, kind=RulingKind.NOTICE, rule="2.1.1",
    ...            game=Game.HEADS_AND_TAILS, at=0.0, against=None, to=None,
    ...            score=(("ann", 0), ("ben", 0)), detail="Ready - Go")
    >>> r.to_json_dict()["score"]
    {'ann': 0, 'ben': 0}
    """

    id: str
    seq: int
    kind: RulingKind
    rule: str | None
    game: Game
    at: float
    against: str | None
    to: str | None
    score: Score
    detail: str
    overrules: str | None = None
    extra: tuple[tuple[str, JSON], ...] = field(default=())

    def to_json_dict(self) -> dict[str, JSON]:
        """The ruling as the JSON object subscribers receive."""
        out: dict[str, JSON] = {
            "v": PAYLOAD_VERSION,
            "id": self.id,
            "seq": self.seq,
            "kind": self.kind.value,
            "rule": self.rule,
            "game": self.game.value,
            "at": self.at,
            "against": self.against,
            "to": self.to,
            "score": dict(self.score),
            "detail": self.detail,
        }
        if self.overrules is not None:
            out["overrules"] = self.overrules
        out.update(self.extra)
        return out

    def to_json(self) -> str:
        """One line of compact JSON."""
        return json.dumps(self.to_json_dict(), separators=(",", ":"), ensure_ascii=False)


LAST = "last"
"""A ruling reference meaning the most recent ruling that can be overruled."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RulingTarget(Event):
    """An event that refers to an earlier ruling (an overrule, a confirmation).

    ``ref`` is what the user wrote: a ruling id, its seq number, or ``"last"``.
    The runtime, which alone knows ids, fills in ``ordinal`` (the engine's own
    number for that decision) before the engine sees the event; ``None`` with
    ``ref == "last"`` leaves the choice to the engine.
    """

    ref: str | int = LAST
    ordinal: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Resumed(Event):
    """The service restarted mid-match; ``down_ns`` of wall time went unseen.

    Journaled and fed like any input, so the engine records the gap as a
    ruling for the TD and replay reproduces it.
    """

    down_ns: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EndMatch(Event):
    """The TD ends the match as it stands."""

    reason: str = ""
