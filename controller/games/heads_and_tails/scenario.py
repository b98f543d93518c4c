"""Reading Heads & Tails scenario inputs (``contracts.md`` section 2)."""

from __future__ import annotations

from controller.games.heads_and_tails.events import (
    Call,
    CoinChange,
    CoinTouched,
    Face,
    FaultLine,
    Go,
    Landed,
    Overrule,
    Replacement,
    SpotterAction,
    SpotterCall,
    Toss,
    Touch,
    Toucher,
    TouchWhat,
)
from controller.games.heads_and_tails.state import (
    DEFAULT_TOSS_WINDOW_NS,
    DEFAULT_VI_GRACE_NS,
    Format,
    MatchSettings,
)
from controller.model import LAST, Event
from controller.strict import Table
from controller.timebase import ns_to_seconds, seconds_to_ns

# Every clause of the rule text, and its sections, so a spotter's citation
# can be checked: (article.section, number of clauses).
_SECTIONS = {
    "1.1": 4, "1.2": 2, "1.3": 4, "1.4": 3, "1.5": 2, "1.6": 3,
    "2.1": 11, "2.2": 4, "2.3": 5, "2.4": 3, "2.5": 5, "2.6": 5, "2.7": 4,
    "3.1": 5, "3.2": 4, "4.1": 1, "4.2": 1, "4.3": 1,
}  # fmt: skip
CLAUSES = frozenset(
    {*_SECTIONS, *(f"{s}.{n}" for s, count in _SECTIONS.items() for n in range(1, count + 1))}
)

INPUT_TYPES = (
    "go", "toss", "call", "fault_line", "touch", "coin_touched", "landed", "spotter",
    "coin_change",
)  # fmt: skip


def parse_match(table: Table) -> MatchSettings:
    """The ``[match]`` table."""
    players = table.strings("players")
    if len(players) != 2 or len(set(players)) != 2 or not all(p.strip() for p in players):
        raise table.fail("players", f"expected two distinct non-empty ids, got {players!r}")
    fmt = table.choice("format", Format, Format.STANDARD)
    if fmt is Format.EDINBURGH:
        plays = table.integer("plays", 1, minimum=1)
        if plays != 1:
            raise table.fail("plays", "an Edinburgh match is a single toss (3.2.1)")
    else:
        plays = table.integer("plays", minimum=1)
    first = table.string("first_tosser", players[0])
    if first not in players:
        raise table.fail("first_tosser", f"{first!r} is not one of the players {players}")
    impaired = table.strings("visually_impaired", [])
    for player in impaired:
        if player not in players:
            raise table.fail("visually_impaired", f"{player!r} is not one of the players")
    grace = table.number("vi_grace_seconds", ns_to_seconds(DEFAULT_VI_GRACE_NS), minimum=0.0)
    window = table.number(
        "toss_window_seconds", ns_to_seconds(DEFAULT_TOSS_WINDOW_NS), minimum=0.001
    )
    table.finish()
    return MatchSettings(
        players=(players[0], players[1]),
        first_tosser=first,
        format=fmt,
        plays=plays,
        visually_impaired=frozenset(impaired),
        vi_grace_ns=seconds_to_ns(grace),
        toss_window_ns=seconds_to_ns(window),
    )


def _player(table: Table, key: str, settings: MatchSettings, required: bool) -> str | None:
    player: str | None = table.string(key) if required else table.string(key, None)
    if player is not None and player not in settings.players:
        raise table.fail(key, f"{player!r} is not one of the players {list(settings.players)}")
    return player


def _rule(table: Table) -> str | None:
    rule: str | None = table.string("rule", None)
    if rule is not None and rule not in CLAUSES:
        raise table.fail("rule", f"{rule!r} is not a clause of the Heads & Tails rules")
    return rule


def _spotter(table: Table, t_ns: int, settings: MatchSettings) -> Event:
    action = table.choice("action", SpotterAction)
    rule = _rule(table)
    reason = table.string("reason", "")
    if action is not SpotterAction.OVERRULE:
        against = _player(table, "against", settings, action is SpotterAction.FAULT)
        return SpotterCall(t_ns=t_ns, action=action, rule=rule, against=against, reason=reason)
    ref = table.raw("ruling")
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        raise table.fail("ruling", f"expected a ruling id, a seq number or {LAST!r}")
    kind = table.choice("replace_with", Replacement)
    to = _player(table, "to", settings, False)
    against = _player(table, "against", settings, False)
    if kind in (Replacement.POINT, Replacement.FAULT) and to is None and against is None:
        raise table.fail("to", f"a {kind.value} needs 'to' or 'against'")
    if to is not None and to == against:
        raise table.fail("against", "cannot be the same player as 'to'")
    return Overrule(
        t_ns=t_ns, ref=ref, replace_with=kind, to=to, against=against, rule=rule, reason=reason
    )


def parse_input(kind: str, table: Table, t_ns: int, settings: MatchSettings) -> Event:
    """One ``[[input]]`` whose ``type`` and ``at`` have been read already."""
    event: Event
    if kind == "go":
        event = Go(t_ns=t_ns)
    elif kind == "toss":
        event = Toss(
            t_ns=t_ns,
            upward=table.boolean("upward", True),
            below_fault_line=table.boolean("below_fault_line", False),
        )
    elif kind == "call":
        player = _player(table, "player", settings, True)
        event = Call(t_ns=t_ns, player=player or "", word=table.string("call"))
    elif kind == "fault_line":
        event = FaultLine(t_ns=t_ns)
    elif kind == "touch":
        event = Touch(t_ns=t_ns, what=table.choice("what", TouchWhat))
    elif kind == "coin_touched":
        event = CoinTouched(t_ns=t_ns, who=table.choice("who", Toucher))
    elif kind == "landed":
        event = Landed(
            t_ns=t_ns,
            face=table.choice("face", Face),
            in_area=table.boolean("in_area", True),
            evidence=table.string("evidence", ""),
        )
    elif kind == "coin_change":
        event = CoinChange(t_ns=t_ns, player=_player(table, "player", settings, True) or "")
    elif kind == "spotter":
        event = _spotter(table, t_ns, settings)
    else:
        raise table.fail("type", f"{kind!r} is not an input type ({', '.join(INPUT_TYPES)})")
    table.finish()
    return event
