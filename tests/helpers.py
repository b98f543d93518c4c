"""Small builders shared by the tests: a match from a list of inputs."""

from __future__ import annotations

from typing import Any

from controller.harness import Simulation, simulate
from controller.scenario import parse_scenario

Input = dict[str, Any]


def scenario_doc(inputs: list[Input], **match: Any) -> dict[str, Any]:
    """A scenario document (as parsed TOML) for ann v ben."""
    settings: dict[str, Any] = {"players": ["ann", "ben"], "plays": 2, "first_tosser": "ann"}
    settings.update(match)
    if settings.get("format") == "edinburgh":
        settings.pop("plays")
    return {"game": "heads-and-tails", "match": settings, "input": inputs}


def run(inputs: list[Input], **match: Any) -> Simulation:
    """Simulate ann v ben with these inputs."""
    return simulate(parse_scenario(scenario_doc(inputs, **match), "test.toml"))


def decided(inputs: list[Input], **match: Any) -> list[tuple[Any, ...]]:
    """(kind, rule, against, to) of every non-notice ruling."""
    return [
        (r.kind.value, r.rule, r.against, r.to)
        for r in run(inputs, **match).rulings
        if r.kind.value != "notice"
    ]


def play(
    t: float, call: str | None = "heads", face: str = "heads", caller: str = "ben"
) -> list[Input]:
    """One clean attempt starting at ``t``: go, toss, call, fault line, landing."""
    out: list[Input] = [{"at": t, "type": "go"}, {"at": t + 2, "type": "toss"}]
    if call is not None:
        out.append({"at": t + 2.2, "type": "call", "player": caller, "call": call})
    out += [
        {"at": t + 2.5, "type": "fault_line"},
        {"at": t + 2.9, "type": "landed", "face": face},
    ]
    return out


def live_toss(service: Any, clock: Any, floor: Any, landing: Any) -> None:
    """Drive a live Heads & Tails service through one play whose coin is
    ``landing`` on the synthetic ``floor`` (Go, a toss, ben calls tails,
    the coin past the fault line), then poll the camera at 10 Hz until it
    stops asking (the landing judged) or 4 s have passed."""
    import json

    def cmd(verb: str, **fields: object) -> None:
        service.submit_command(verb, json.dumps({"cmd_id": verb, **fields}).encode())
        service.step_once(0)

    cmd("go")
    clock.advance_to(clock.mono_ns() + 2 * 10**9)
    cmd("toss", upward=True)
    cmd("call", player="ben", call="tails")
    clock.advance_to(clock.mono_ns() + 300_000_000)
    cmd("fault_line")
    floor.drop(landing)
    for _ in range(40):  # 4 s of preview frames at 10 Hz
        wake = service.next_wake()
        assert wake is not None
        clock.advance_to(wake)
        service.step_once(0)
        if service.camera.due() is None:
            break
