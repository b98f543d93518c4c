"""The game record: every shot with the winks before and after it, every
ruling, the result, and the inputs that replay it (deliverable 3)."""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.tiddlywinks.codec import encode, encode_match
from controller.games.tiddlywinks.geometry import COLOURS, Mat, Place, tiddlies
from controller.games.tiddlywinks.state import Phase, ShotRecord, State
from controller.model import JSON, Ruling, RulingKind
from controller.timebase import ns_to_seconds


def mat_json(mat: Mat) -> list[JSON]:
    """The winks not behind their baselines, as observation entries."""
    out: list[JSON] = []
    for w in mat:
        if w.place is Place.POTTED:
            out.append({"id": w.id, "potted": True})
        elif w.place is Place.FIELD:
            entry: dict[str, JSON] = {"id": w.id, "x": w.x, "y": w.y}
            if w.on:
                entry["on"] = list(w.on)
            out.append(entry)
    return out


def _shot_json(shot: ShotRecord, origin_ns: int) -> dict[str, JSON]:
    return {
        "number": shot.number,
        "turn": shot.turn,
        "colour": shot.colour.value,
        "wink": shot.wink,
        "nominated": shot.nominated,
        "at": ns_to_seconds(shot.t_ns - origin_ns),
        "counted": shot.counted,
        "potted": list(shot.potted),
        "left_field": list(shot.left_field),
        "before": mat_json(shot.before),
        "after": mat_json(shot.after),
        **({"evidence": shot.evidence} if shot.evidence else {}),
    }


def inputs_json(state: State, origin_ns: int) -> list[JSON]:
    """The game's inputs as scenario ``[[input]]`` tables (ticks left out: the
    harness makes them again from the engine's deadlines)."""
    out: list[JSON] = []
    for event in state.log:
        kind, payload = encode(event)
        out.append({"at": ns_to_seconds(event.t_ns - origin_ns), "type": kind, **payload})
    return out


def record_json(state: State, rulings: Sequence[Ruling], origin_ns: int) -> dict[str, JSON]:
    """The record as one JSON document; ``scenario`` replays it."""
    settings = state.settings
    over = [r for r in rulings if r.kind is RulingKind.MATCH_OVER]
    match = encode_match(settings)
    return {
        "game": "tiddlywinks",
        "format": settings.format.value,
        "players": {c.value: settings.player(c) for c in COLOURS},
        "squidge_off_winner": None if state.winner is None else state.winner.value,
        "shots": [_shot_json(s, origin_ns) for s in state.shots],
        "potted_out": [[c.value for c in g] for g in state.out_order],
        "tiddlies": {c.value: n for c, n in tiddlies(state.mat).items()},
        "rulings": [r.to_json_dict() for r in rulings],
        "score": dict(over[-1].score) if over else {},
        "finished": state.phase is Phase.OVER,
        "winner": dict(over[-1].extra).get("winner") if over else None,
        "scenario": {"game": "tiddlywinks", "match": match, "input": inputs_json(state, origin_ns)},
    }


def _shot_line(shot: ShotRecord, origin_ns: int) -> str:
    facts = [f"{shot.colour.value}" + (f" {shot.wink}" if shot.wink else "")]
    if shot.nominated:
        facts.append("nominated wink")
    if shot.potted:
        facts.append("potted " + ", ".join(shot.potted))
    if shot.left_field:
        facts.append("off the field " + ", ".join(shot.left_field))
    if not shot.counted:
        facts.append("not counted")
    if shot.evidence:
        facts.append(f"evidence {shot.evidence}")
    moved = [w for w in shot.after if w not in shot.before and w.place is Place.FIELD]
    where = "; ".join(f"{w.id} at ({w.x:.1f}, {w.y:.1f})" for w in moved)
    at = ns_to_seconds(shot.t_ns - origin_ns)
    return f"  {shot.number:>3}. {at:9.3f} s  turn {shot.turn:>3}  {', '.join(facts)}" + (
        f"  [{where}]" if where else ""
    )


def record_text(state: State, rulings: Sequence[Ruling], origin_ns: int) -> str:
    """The record as plain text for printing."""
    settings = state.settings
    doc = record_json(state, rulings, origin_ns)
    who = ", ".join(f"{c.value} {settings.player(c)}" for c in COLOURS)
    lines = [
        "Tiddlywinks game record",
        f"{settings.format.value.capitalize()}: {who}",
        f"Squidge-off won by {doc['squidge_off_winner'] or '-'}",
        "",
        "Shots:",
        *(_shot_line(s, origin_ns) for s in state.shots),
        "",
        "Rulings:",
        *(
            f"  {r.id:>12}  {r.at:9.3f} s  {r.kind.value:<14} {r.rule or '-':<9} {r.detail}"
            for r in rulings
        ),
    ]
    tally = ", ".join(f"{c} {n}" for c, n in tiddlies(state.mat).items())
    score = ", ".join(f"{p} {v}" for p, v in (doc["score"] or {}).items())  # type: ignore[union-attr]
    result = f"{score}" if state.phase is Phase.OVER else "not finished"
    lines += ["", f"Tiddlies: {tally}", f"Result: {result}", ""]
    return "\n".join(lines)
