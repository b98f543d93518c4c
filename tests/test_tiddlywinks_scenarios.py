"""The tiddlywinks scenario corpus cites every clause the engine applies."""

from __future__ import annotations

from pathlib import Path

from controller.harness import simulate
from controller.model import RulingKind
from controller.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "tests" / "scenarios").glob("tiddlywinks-*.toml"))

# Every clause the tiddlywinks engine can cite on its own.
ENGINE_CLAUSES = {
    "5(a)", "5(c)", "5(d)", "6(a)", "6(b)", "7(a)", "8", "9(a)", "9(b)", "9(c)", "10(a)",
    "10(b)", "11(a)", "11(b)", "11(d)", "11(e)", "12(a)", "12(a)(i)", "12(a)(ii)", "12(b)",
    "12(b)(i)", "12(b)(ii)", "12(c)", "12(d)", "14",
}  # fmt: skip


def test_the_corpus_covers_every_clause_the_engine_applies() -> None:
    cited: set[str] = set()
    for path in FILES:
        result = simulate(load_scenario(path))
        assert result.failures == [], path.name
        cited |= {r.rule for r in result.rulings if r.rule}
        for ruling in result.rulings:
            if ruling.kind is not RulingKind.NOTICE:
                assert ruling.rule is not None, f"{path.name}: {ruling.id} cites no rule"
    missing = ENGINE_CLAUSES - cited
    assert not missing, f"no scenario makes the engine cite {sorted(missing)}"
    assert cited <= ENGINE_CLAUSES, f"clauses cited but not listed: {cited - ENGINE_CLAUSES}"
