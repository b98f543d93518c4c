"""Tournament Points: tiles to TPs by margin (rule 4a), time penalties (3b),
conservation and clamping (3c), and the default award (6c).

TPs are kept in integer tenths (``tp10``) so that sums are exact: the two
players' TPs of a game always add up to exactly 20.0.

>>> table = TpTable.default()
>>> table.convert((25, 18))     # a margin of 7
(140, 60)
>>> time_penalties(1_260_000)   # 21:00.0 taken: 20:00 or more, and 1 full minute over
2
>>> after_penalties((140, 60), (2, 0))
(120, 80)
>>> after_penalties((190, 10), (0, 3))   # clamped: nobody scores more than 20.0
(200, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from controller.errors import InputError
from controller.model import JSON
from controller.strict import Table, load_toml

TOTAL_TP10 = 200
"""20.0 TPs are shared out for each game (4a, 3c)."""
DRAW_TP10 = 100
MS_PER_MINUTE = 60_000
DEFAULT_LIMIT_MS = 20 * MS_PER_MINUTE  # 3a
MAX_MARGIN = 1_000
"""No Tantrix tile score comes near this: a larger margin in a table is a typo."""

# The default margin table: NOT the official score sheet's table, which is not
# in our rule text. A linear placeholder with the shape rule 4a describes (20 TPs
# shared by margin, 10.0-10.0 for a draw): the winner gains 1.0 TP per 2 tiles
# of margin, from 11.0-9.0 at a margin of 1-2 up to 20.0-0.0 at 19 or more.
# docs/tantrix.md says how to replace it with the sheet used on the day.
_DEFAULT_ROWS = ((0, 100), *((2 * k - 1, 100 + 10 * k) for k in range(1, 11)))


def tp(tp10: int) -> float:
    """Tenths of a TP as the number a ruling shows.

    >>> tp(135), tp(200)
    (13.5, 20.0)
    """
    return tp10 / 10


def tp10_of(value: float) -> int | None:
    """A TP value in tenths, or None if it has more than one decimal place.

    >>> tp10_of(13.5), tp10_of(13.25)
    (135, None)
    """
    tenths = round(value * 10)
    return tenths if abs(tenths - value * 10) < 1e-6 else None


@dataclass(frozen=True, slots=True)
class TpTable:
    """The margin table: ``rows`` are (smallest margin, winner's TPs in tenths),
    by ascending margin, the first for margin 0 (a draw: 10.0 each). The loser
    gets the rest of the 20.0.

    >>> TpTable(((0, 100), (5, 150))).winner_tp10(4), TpTable(((0, 100), (5, 150))).winner_tp10(9)
    (100, 150)
    """

    rows: tuple[tuple[int, int], ...]
    source: str = field(default="default", compare=False)
    """Where the table came from: "default", "[match] tp_table" or a file path."""

    def __post_init__(self) -> None:
        problem = _problem(self.rows)
        if problem is not None:
            raise ValueError(problem)

    @classmethod
    def default(cls) -> TpTable:
        """The documented default (a placeholder, see ``docs/tantrix.md``)."""
        return cls(_DEFAULT_ROWS)

    def winner_tp10(self, margin: int) -> int:
        """The winner's TPs (tenths) for a tile margin of ``margin`` (>= 0)."""
        if margin < 0:
            raise ValueError(f"a margin is not negative, got {margin}")
        best = self.rows[0][1]
        for smallest, tenths in self.rows:
            if margin >= smallest:
                best = tenths
        return best

    def convert(self, tiles: tuple[int, int]) -> tuple[int, int]:
        """Both players' TPs (tenths, same order as ``tiles``) from their tile scores."""
        left, right = tiles
        winner = self.winner_tp10(abs(left - right))
        if left >= right:
            return winner, TOTAL_TP10 - winner
        return TOTAL_TP10 - winner, winner

    def to_toml(self) -> dict[str, JSON]:
        """The table as ``[match.tp_table]`` reads it back: margin -> winner's TPs."""
        return {str(margin): tp(tenths) for margin, tenths in self.rows}


def _problem(rows: Sequence[tuple[int, int]]) -> str | None:
    """Why ``rows`` is not a margin table, or None."""
    if not rows or rows[0] != (0, DRAW_TP10):
        return "the table must start with margin 0 (a draw) at 10.0"
    for (m1, t1), (m2, t2) in pairwise(rows):
        if m2 <= m1:
            return f"margins must ascend, {m2} comes after {m1}"
        if t2 < t1:
            return f"a larger margin cannot earn fewer TPs: {tp(t2)} at {m2} after {tp(t1)} at {m1}"
    for margin, tenths in rows:
        if not DRAW_TP10 <= tenths <= TOTAL_TP10:
            return f"the winner's TPs must be 10.0 to 20.0, got {tp(tenths)} at margin {margin}"
        if not 0 <= margin <= MAX_MARGIN:
            return f"a margin must be 0 to {MAX_MARGIN}, got {margin}"
    return None


def parse_tp_table(table: Table, source: str) -> TpTable:
    """A margin table from TOML: keys are the smallest margins ("0", "1", "3", ...),
    values the winner's TPs (one decimal place at most)."""
    rows: list[tuple[int, int]] = []
    for key in table.names():
        if not key.isdigit():
            raise table.fail(key, "a key is the smallest tile margin of its row (0, 1, 3, ...)")
        value = table.number(key, minimum=10.0, maximum=20.0)
        tenths = tp10_of(value)
        if tenths is None:
            raise table.fail(key, f"TPs have one decimal place at most, got {value}")
        rows.append((int(key), tenths))
    table.finish()
    rows.sort()
    problem = _problem(rows)
    if problem is not None:
        raise table.fail(None, problem)
    return TpTable(tuple(rows), source)


def load_tp_table(path: Path, table: Table, key: str) -> TpTable:
    """The margin table in the file ``path`` (a top-level ``[tp_table]`` table);
    an error names ``key`` of ``table`` and what is wrong in the file."""
    try:
        top = Table(load_toml(path), str(path), "")
        inner = top.table("tp_table")
        assert inner is not None  # table() raises when it is missing
        result = parse_tp_table(inner, str(path))
        top.finish()
    except InputError as exc:
        raise table.fail(key, f"in the file it names: {exc}") from None
    return result


def time_penalties(taken_ms: int, limit_ms: int = DEFAULT_LIMIT_MS) -> int:
    """Rule 3b: 1 penalty at the limit or more, 1 more per further full minute.

    >>> [time_penalties(ms) for ms in (1_199_900, 1_200_000, 1_259_999, 1_260_000, 1_350_000)]
    [0, 1, 1, 2, 3]
    """
    if taken_ms < limit_ms:
        return 0
    return 1 + (taken_ms - limit_ms) // MS_PER_MINUTE


def after_penalties(
    base: tuple[int, int], penalties: tuple[int, int], per_penalty10: int = 10
) -> tuple[int, int]:
    """Rule 3c: each penalty moves ``per_penalty10`` from the player to the
    opponent; the net move is applied once and clamped so that nobody has
    more than 20.0 or less than 0.0, and the two still add up to 20.0.

    >>> after_penalties((100, 100), (1, 1))
    (100, 100)
    >>> after_penalties((10, 190), (3, 3))    # netted before clamping
    (10, 190)
    """
    transfer = (penalties[0] - penalties[1]) * per_penalty10
    left = min(TOTAL_TP10, max(0, base[0] - transfer))
    return left, TOTAL_TP10 - left
