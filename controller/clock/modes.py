"""What each mode does with the time a player uses in one turn.

Every function takes the stage, the seat's time at the start of the turn
(``main`` ms and, in byo-yomi, ``periods`` left) and ``used``: the ms its
clock has run in this turn, pauses excluded. All integer ms.

"Remaining" is the time until the flag falls if the clock keeps running: in
simple delay it excludes the delay still to run (the main display does not
move during it); in byo-yomi it includes the periods left. It falls by one
ms per ms (simple delay: once the delay is over), so a display can
interpolate it, and the flag falls when it reaches 0.

>>> fischer = Stage(Mode.FISCHER, 60_000, increment_ms=2_000)
>>> remaining(fischer, 60_000, 0, 5_000), end_move(fischer, 60_000, 0, 5_000)
(55000, (57000, 0))
>>> delay = Stage(Mode.SIMPLE_DELAY, 60_000, delay_ms=5_000)
>>> remaining(delay, 60_000, 0, 3_000), remaining(delay, 60_000, 0, 8_000)
(60000, 57000)
>>> flag_used(delay, 60_000, 0)
65000
"""

from __future__ import annotations

from controller.clock.control import Mode, Stage


def remaining(stage: Stage, main: int, periods: int, used: int) -> int:
    """Time left until the flag after ``used`` ms of this turn."""
    match stage.mode:
        case Mode.SIMPLE_DELAY:
            return main - max(0, used - stage.delay_ms)
        case Mode.BYO_YOMI:
            return main + periods * stage.period_ms - used
        case _:
            return main - used


def delay_left(stage: Stage, used: int) -> int:
    """Delay still to run in this turn (Bronstein: what is not yet earned back)."""
    if stage.mode in (Mode.SIMPLE_DELAY, Mode.BRONSTEIN):
        return max(0, stage.delay_ms - used)
    return 0


def flag_used(stage: Stage, main: int, periods: int) -> int:
    """How much of this turn may be used before the flag falls (0: at once)."""
    if stage.mode is Mode.SIMPLE_DELAY:
        return stage.delay_ms + main if main > 0 else 0
    return max(0, remaining(stage, main, periods, 0))


def periods_now(stage: Stage, main: int, periods: int, used: int) -> int:
    """Byo-yomi periods not yet used up, counting the one in progress."""
    if stage.mode is not Mode.BYO_YOMI or used <= main:
        return periods
    return max(0, periods - (used - main) // stage.period_ms)


def held(stage: Stage, main: int, periods: int, used: int) -> tuple[int, int]:
    """The seat's (main, periods) when its clock stops mid-turn (game over, flag).

    No move was made, so nothing is added and no period is reset: the total
    is kept exactly (a part-used period shows as negative main time).
    """
    left = periods_now(stage, main, periods, used)
    return remaining(stage, main, periods, used) - left * stage.period_ms, left


def end_move(stage: Stage, main: int, periods: int, used: int) -> tuple[int, int]:
    """The seat's (main, periods) after a move that took ``used`` ms.

    >>> byo = Stage(Mode.BYO_YOMI, 10_000, periods=3, period_ms=30_000)
    >>> end_move(byo, 10_000, 3, 9_000)   # in main time
    (1000, 3)
    >>> end_move(byo, 10_000, 3, 39_999)  # within the first period: it resets
    (0, 3)
    >>> end_move(byo, 10_000, 3, 40_000)  # the first period ran out: one is gone
    (0, 2)
    """
    match stage.mode:
        case Mode.FISCHER:
            return main - used + stage.increment_ms, periods
        case Mode.BRONSTEIN:
            return main - used + min(stage.delay_ms, used), periods
        case Mode.SIMPLE_DELAY:
            return main - max(0, used - stage.delay_ms), periods
        case Mode.BYO_YOMI:
            return _byo_yomi_move(stage, main, periods, used)
        case _:
            return main - used, periods


def _byo_yomi_move(stage: Stage, main: int, periods: int, used: int) -> tuple[int, int]:
    if used <= main:
        return main - used, periods
    spent = (used - main) // stage.period_ms
    if spent >= periods:
        # Every period ran out (counting on past zero): the overtime stays.
        return remaining(stage, main, periods, used), 0
    return 0, periods - spent
