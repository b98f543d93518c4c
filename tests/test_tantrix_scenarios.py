"""The Tantrix scenario corpus covers every clause the engine cites.

(``tests/test_scenarios.py`` already runs each file against its expects.)
Rule 11 (the Controller ends the game) comes only from the shared
``end_match`` command, which is no scenario input: a unit test covers it.
"""

from __future__ import annotations

from pathlib import Path

from controller.harness import simulate
from controller.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "tests" / "scenarios").glob("tantrix-*.toml")) + sorted(
    (ROOT / "examples").glob("tantrix-*.toml")
)
ENGINE_CLAUSES = {"1h", "2h", "3b", "3c", "3d", "4a", "4c", "5a", "5b", "5c", "6a", "6b"}


def test_every_clause_the_tantrix_engine_cites_has_a_scenario() -> None:
    cited: set[str] = set()
    for path in FILES:
        cited |= {r.rule for r in simulate(load_scenario(path)).rulings if r.rule}
    assert ENGINE_CLAUSES - cited == set()
    assert cited - ENGINE_CLAUSES == set(), "a new clause: add it to ENGINE_CLAUSES"
