"""Game time (9) on the shared clock engine (:mod:`controller.clock`).

Tiddlywinks has no chess clock: one time limit runs for the whole game.
It is a one-seat clock (the ``left`` seat; the other never runs) in
sudden death of the limit, counting on past zero, since play goes on after
the limit (9(b)): its flag is the expiry. The optional shot limit of 9(c) is a
second clock of the same kind, started afresh whenever a shot becomes due;
its flag is the forfeit. Both are clocks of game time: they stop together
while the umpire is called and decides (14, ``td_call``) and during the
pauses of 9(a) and 12(e) (``time_out``), and stop for good at a pot-out (8)
or the end of the game. The clock engine works in whole milliseconds and
never drifts (``docs/clocks.md``).

>>> t = start(new_time(100_000, 10_000), 0)
>>> t = pause(t, PauseReason.TD_CALL, "umpire", 50_000_000_000)
>>> expiry(t), paused(t)
(None, 'umpire')
>>> expiry(resume(t, 70_000_000_000))      # 100 s of game time, 20 s not counted
120000000000
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller import clock
from controller.clock import ClockState, PauseReason, Seat, TimeControl
from controller.model import JSON

GAME = Seat.LEFT
"""The seat the game's clocks run on (the other seat never runs)."""
NS_PER_MS = 1_000_000


@dataclass(frozen=True, slots=True)
class GameTime:
    """The time limit's clock (``game``), the shot limit's (``shot``, while a
    shot is awaited in a started game) and why game time is stopped (``note``,
    free text; None when it runs). ``started``: the first shot after the
    squidge-off was played (9(a)); ``stopped``: the limit no longer applies."""

    game: ClockState
    shot_control: TimeControl
    shot: ClockState | None = None
    note: str | None = None
    reason: PauseReason | None = None
    started: bool = False
    stopped: bool = False


def _control(limit_ms: int) -> TimeControl:
    return TimeControl.sudden_death(limit_ms, count_past_zero=True)


def new_time(limit_ms: int, shot_limit_ms: int) -> GameTime:
    """Game time not yet started: ``limit_ms`` to play, ``shot_limit_ms`` a shot (9(c))."""
    return GameTime(clock.new_clock(_control(limit_ms)), _control(shot_limit_ms))


def _run(state: ClockState, t: GameTime, t_ns: int) -> ClockState:
    """``state`` started at ``t_ns``, paused at once if game time is stopped."""
    state = clock.start(state, GAME, t_ns)
    return state if t.reason is None else clock.pause(state, t.reason, t_ns)


def start(t: GameTime, t_ns: int) -> GameTime:
    """Game time starts (9(a): the first shot after the squidge-off); no-op once started."""
    if t.started:
        return t
    return replace(t, game=_run(t.game, t, t_ns), started=True)


def restart_shot(t: GameTime, t_ns: int) -> GameTime:
    """A shot becomes due: its 2 minutes (9(c)) count from ``t_ns`` in game time."""
    if not t.started or t.stopped:
        return replace(t, shot=None)
    return replace(t, shot=_run(clock.new_clock(t.shot_control), t, t_ns))


def pause(t: GameTime, reason: PauseReason, note: str, t_ns: int) -> GameTime:
    """Game time stops (no-op when it is stopped already)."""
    if t.reason is not None:
        return t
    shot = None if t.shot is None else clock.pause(t.shot, reason, t_ns)
    return replace(t, game=clock.pause(t.game, reason, t_ns), shot=shot, reason=reason, note=note)


def resume(t: GameTime, t_ns: int) -> GameTime:
    """Game time runs again (no-op when it runs)."""
    if t.reason is None:
        return t
    shot = None if t.shot is None else clock.resume(t.shot, t_ns)
    return replace(t, game=clock.resume(t.game, t_ns), shot=shot, reason=None, note=None)


def stop(t: GameTime, t_ns: int) -> GameTime:
    """The time limit no longer applies (a pot-out, 8; the game is over)."""
    return replace(t, game=clock.stop(t.game, t_ns), shot=None, stopped=True)


def extend(t: GameTime, ms: int, t_ns: int) -> GameTime:
    """Lengthen the limit (9(a): time deliberately wasted): a TD's correction."""
    return replace(t, game=clock.adjust(t.game, GAME, ms, t_ns))


def _flag(state: ClockState | None) -> int | None:
    """When ``state``'s flag falls or fell (mono_ns); None while it cannot."""
    if state is None or state.running is None:
        return None
    fell = state.seat(GAME).flag_ms
    return clock.flag_deadline(state) if fell is None else fell * NS_PER_MS


def expiry(t: GameTime) -> int | None:
    """When the time limit runs out (or ran out), if game time is running.

    A flag the clock marked at an input's own time (an input at the very
    instant of expiry) still counts until the engine applies the expiry.
    """
    return None if t.stopped or t.reason is not None else _flag(t.game)


def shot_expiry(t: GameTime) -> int | None:
    """When the awaited shot's time (9(c)) runs out, if game time is running."""
    return None if t.stopped or t.reason is not None else _flag(t.shot)


def paused(t: GameTime) -> str | None:
    """Why game time is stopped (the umpire, a pause's reason), or None."""
    return t.note


def _one_seat(doc: dict[str, JSON], name: str) -> dict[str, JSON]:
    """A clock snapshot with the seat that never runs left out."""
    return {k: {name: v[name]} if isinstance(v, dict) and name in v else v for k, v in doc.items()}


def payload(t: GameTime, t_ns: int, shot_limit: bool) -> dict[str, JSON] | None:
    """The ``clock`` topic: the shared clock snapshot of the time limit, player
    ``"game"`` (:func:`controller.clock.interpolate` works on it), with
    ``reason`` (the pause's words) and ``shot``: the same for the 9(c) shot
    limit (player ``"shot"``) while it applies, else null."""
    if not t.started:
        return None
    names: Mapping[Seat, str] = {GAME: "game", GAME.other: "-"}
    doc = _one_seat(clock.snapshot(t.game, t_ns, names), "game")
    shot: JSON = None
    if shot_limit and t.shot is not None:
        shot = _one_seat(clock.snapshot(t.shot, t_ns, {GAME: "shot", GAME.other: "-"}), "shot")
    return {**doc, "reason": t.note, "shot": shot}
