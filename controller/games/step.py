"""What every engine does while it handles one event: number its decisions.

Each game's ``Step`` subclasses :class:`StepBase` with its own state type and
says how the score reads (:meth:`StepBase.current_score`); numbering,
notices and state updates are the same in every game. A step is created and
consumed inside an engine's ``step``, so engines stay pure from outside.

>>> import dataclasses
>>> @dataclasses.dataclass(frozen=True)
... class Demo:
...     decided: int = 0
>>> class DemoStep(StepBase[Demo]):
...     def current_score(self) -> Score:
...         return (("ann", 0), ("ben", 0))
>>> step = DemoStep(Demo(), t_ns=5)
>>> step.notice("1.1", "hello"), step.emit(RulingKind.LET, "2.1.4", "ann", None, "let")
(None, 1)
>>> [(d.ordinal, d.kind.value) for d in step.decisions], step.state.decided
([(0, 'notice'), (1, 'let')], 2)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Generic, Protocol, TypeVar

from controller.model import JSON, Decision, RulingKind, Score
from controller.sensors.health import HealthEvent


class Numbered(Protocol):
    """A game state that counts the decisions of its match."""

    @property
    def decided(self) -> int: ...


St = TypeVar("St", bound=Numbered)


class StepBase(Generic[St]):
    """The decisions made for one event at time ``t_ns``."""

    def __init__(self, state: St, t_ns: int) -> None:
        self.state = state
        self.t_ns = t_ns
        self.decisions: list[Decision] = []

    def current_score(self) -> Score:
        """The match score as it now stands (each game reads its own)."""
        raise NotImplementedError

    def emit(
        self,
        kind: RulingKind,
        rule: str | None,
        against: str | None,
        to: str | None,
        detail: str,
        extra: tuple[tuple[str, JSON], ...] = (),
        *,
        overrules: int | None = None,
    ) -> int:
        """Record a decision with the score as it now stands; returns its ordinal."""
        ordinal = self.state.decided
        self.decisions.append(
            Decision(
                ordinal=ordinal,
                kind=kind,
                rule=rule,
                against=against,
                to=to,
                score=self.current_score(),
                detail=detail,
                t_ns=self.t_ns,
                overrules=overrules,
                extra=extra,
            )
        )
        self.update(decided=ordinal + 1)
        return ordinal

    def notice(self, rule: str | None, detail: str, **extra: JSON) -> None:
        """An informational ruling: changes nothing."""
        self.emit(RulingKind.NOTICE, rule, None, None, detail, tuple(extra.items()))

    def update(self, **changes: Any) -> None:
        """Replace fields of the state (a frozen dataclass)."""
        self.state = dataclasses.replace(self.state, **changes)  # type: ignore[type-var]


def rule_health(
    step: StepBase[Any],
    event: HealthEvent,
    consequence: str,
    resumes: str = "automated rulings resume",
) -> None:
    """House-style rule 5, the same in every game: a faulty sensor is a
    visible ``suspended`` ruling (``consequence`` says who decides now), the
    state remembers which sensors are out, and the recovery is a notice.

    ``step.state`` has a ``suspended`` frozenset of sensor names.
    """
    named = (
        event.detail if event.detail.startswith(event.sensor) else f"{event.sensor}: {event.detail}"
    )
    out: frozenset[str] = step.state.suspended
    if not event.ok:
        step.update(suspended=out | {event.sensor})
        step.emit(RulingKind.SUSPENDED, None, None, None, f"{named}; {consequence}")
    elif event.sensor not in out:
        step.notice(None, f"{named} (it was not reported faulty)")
    else:
        rest = out - {event.sensor}
        step.update(suspended=rest)
        still = ", ".join(sorted(rest))
        step.notice(
            None, f"{named}: recovered; " + (f"still suspended for {still}" if rest else resumes)
        )
