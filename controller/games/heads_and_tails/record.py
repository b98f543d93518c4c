"""The match record a player keeps (2.6.4): every attempt, ruling and the result."""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.heads_and_tails.state import Attempt, Outcome, Phase, State
from controller.model import JSON, Ruling, RulingKind
from controller.timebase import ns_to_seconds


def _at(t_ns: int | None, origin_ns: int) -> float | None:
    return None if t_ns is None else ns_to_seconds(t_ns - origin_ns)


def _attempt_json(attempt: Attempt | None, origin_ns: int) -> dict[str, JSON]:
    if attempt is None:
        return {}
    call = attempt.call
    return {
        "go_at": _at(attempt.go_ns, origin_ns),
        "toss_at": _at(attempt.toss_ns, origin_ns),
        "call": None if call is None else call.face.value,
        "call_at": None if call is None else _at(call.t_ns, origin_ns),
        "fault_line_at": _at(attempt.fault_line_ns, origin_ns),
        "landed_at": _at(attempt.landed_ns, origin_ns),
        "face": None if attempt.face is None else attempt.face.value,
        "in_area": attempt.in_area,
        "touched_table": attempt.touched_table,
    }


def _outcome_json(outcome: Outcome, ids: Sequence[str], origin_ns: int) -> dict[str, JSON]:
    overruled_by: list[JSON] = [ids[o] for o in outcome.ordinals[1:]]
    return {
        "play": outcome.play + 1,
        "tosser": outcome.tosser,
        "ruling": ids[outcome.ordinals[0]],
        "overruled_by": overruled_by,
        "result": outcome.kind.value,
        "rule": outcome.rule,
        "against": outcome.against,
        "to": outcome.to,
        "at": _at(outcome.t_ns, origin_ns),
        **_attempt_json(outcome.attempt, origin_ns),
    }


def record_json(state: State, rulings: Sequence[Ruling], origin_ns: int) -> dict[str, JSON]:
    """The record as one JSON document."""
    settings = state.settings
    ids = [r.id for r in rulings]
    over = [r for r in rulings if r.kind is RulingKind.MATCH_OVER]
    impaired: list[JSON] = [*sorted(settings.visually_impaired)]
    return {
        "game": "heads-and-tails",
        "players": list(settings.players),
        "format": settings.format.value,
        "plays": settings.plays,
        "first_tosser": settings.first_tosser,
        "visually_impaired": impaired,
        "attempts": [_outcome_json(o, ids, origin_ns) for o in state.outcomes],
        "rulings": [r.to_json_dict() for r in rulings],
        "score": dict(state.score),
        "finished": state.phase is Phase.OVER,
        "winner": dict(over[-1].extra).get("winner") if over else None,
    }


def _line(outcome: Outcome, ids: Sequence[str], origin_ns: int) -> str:
    attempt = outcome.attempt
    facts: list[str] = []
    if attempt is not None:
        if attempt.go_ns is not None:
            facts.append(f"go {_at(attempt.go_ns, origin_ns)} s")
        if attempt.toss_ns is not None:
            facts.append(f"toss {_at(attempt.toss_ns, origin_ns)} s")
        if attempt.call is not None:
            facts.append(f"call {attempt.call.face.value} at {_at(attempt.call.t_ns, origin_ns)} s")
        if attempt.face is not None:
            where = "in the area" if attempt.in_area else "outside the area"
            facts.append(f"landed {attempt.face.value} {where}")
    parties = [f"to {outcome.to}"] if outcome.to else []
    parties += [f"against {outcome.against}"] if outcome.against else []
    result = f"{outcome.kind.value} ({'; '.join([outcome.rule, *parties])})"
    later = [ids[o] for o in outcome.ordinals[1:]]
    overruled = f" [overruled by {', '.join(later)}]" if later else ""
    return f"  {'; '.join(facts) or 'no toss'} -> {result} [{ids[outcome.ordinals[0]]}]{overruled}"


def record_text(state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
    """The record as plain text for printing."""
    doc = record_json(state, rulings, origin_ns)
    a, b = state.settings.players
    lines = [
        "Heads & Tails match record",
        f"Players: {a} v {b}; {doc['format']} format, {doc['plays']} play(s); "
        f"first tosser {doc['first_tosser']}",
        "",
    ]
    ids = [r.id for r in rulings]
    play = None
    for outcome in state.outcomes:
        if outcome.play != play:
            play = outcome.play
            lines.append(f"Play {play + 1}: {outcome.tosser} tosses")
        lines.append(_line(outcome, ids, origin_ns))
    lines += ["", "Rulings:"]
    lines += [f"  {r.id:>12}  {r.at:9.3f} s  {r.kind.value:<10} {r.rule or '-':<6} {r.detail}"
              for r in rulings]  # fmt: skip
    score = f"{a} {state.points[0]} - {state.points[1]} {b}"
    if state.phase is not Phase.OVER:
        result = f"not finished ({score})"
    elif doc["winner"] is None:
        result = f"{score}: a tie"
    else:
        result = f"{score}: {doc['winner']} wins"
    lines += ["", f"Result: {result}", ""]
    return "\n".join(lines)
