"""Every scenario file in tests/scenarios/ and examples/ meets its [[expect]]s."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.harness import simulate
from controller.model import RulingKind
from controller.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "tests" / "scenarios").glob("*.toml")) + sorted(
    (ROOT / "examples").glob("*.toml")
)

# Every clause the Heads & Tails engine can cite on its own.
ENGINE_CLAUSES = {
    "1.3.3", "1.3.4", "2.1.1", "2.1.2", "2.1.4", "2.1.5", "2.1.6", "2.1.7", "2.1.8",
    "2.1.10", "2.1.11", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.3.1", "2.3.2", "2.3.4",
    "2.3.5", "2.6.1", "2.7.2", "2.7.4", "3.2.1", "4.2.1",
}  # fmt: skip


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_scenario_meets_its_expects(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.expects, f"{path.name} has no [[expect]] tables"
    result = simulate(scenario)
    assert result.failures == []
    for ruling in result.rulings:
        if ruling.kind is not RulingKind.NOTICE:
            assert ruling.rule is not None, f"{ruling.id} cites no rule"


def test_corpus_covers_every_clause_the_engine_applies() -> None:
    cited: set[str] = set()
    for path in FILES:
        cited |= {r.rule for r in simulate(load_scenario(path)).rulings if r.rule}
    missing = ENGINE_CLAUSES - cited
    assert not missing, f"no scenario makes the engine cite {sorted(missing)}"
