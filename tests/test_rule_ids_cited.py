"""Every rule id the rule tests must cover is cited in the docstring of at least one test function
in tests/test_rules_*.py, so deleting the last test of a rule fails here (ids of RULES.md)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).parent


def _ids(prefix: str, numbers) -> list[str]:
    return [f"{prefix}-{n}" for n in numbers]


REQUIRED = (
    _ids("Q-LAW", range(1, 6)) + _ids("Q-SETUP", range(1, 5)) + _ids("Q-TURN", range(1, 6))
    + _ids("Q-MOVE", range(1, 6)) + _ids("Q-EXPLORE", range(1, 8)) + _ids("Q-MON", range(1, 6))
    + _ids("Q-SEARCH", range(1, 6)) + _ids("Q-COMBAT", range(1, 14)) + _ids("Q-RUN", range(1, 6))
    + _ids("Q-DEATH", range(1, 5)) + _ids("Q-BOSS", range(1, 6)) + _ids("Q-MT", range(1, 10))
    + _ids("Q-CHAR", (1, 2, 3, 6, 7)) + _ids("Q-ITEM", range(1, 10)) + _ids("Q-CARD", range(1, 9))
    + ["Q-CHARITY", "Q-DIGI-2", "Q-DIGI-3", "Q-DIGI-4", "Q-CHAR-4", "Q-CHAR-5"] + _ids("Q-HELP", (1, 2, 3, 4))
)
RULE_ID = re.compile(r"Q-[A-Z]+(?:-\d+)?(?!\d)")


def _cited() -> dict[str, list[str]]:
    """rule id -> the tests whose name or docstring cites it."""
    out: dict[str, list[str]] = {}
    for path in sorted(TESTS.glob("test_rules_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = node.name + "\n" + (ast.get_docstring(node) or "")
                for rule in RULE_ID.findall(text):
                    out.setdefault(rule, []).append(f"{path.name}::{node.name}")
    return out


def test_every_required_rule_id_is_cited_by_a_test():
    cited = _cited()
    missing = [rule for rule in REQUIRED if rule not in cited]
    assert not missing, f"rule ids no test's docstring cites: {missing}"


def test_the_required_list_itself():
    """104 ids, no duplicates, all well formed."""
    assert len(REQUIRED) == len(set(REQUIRED)) == 104
    assert all(RULE_ID.fullmatch(rule) for rule in REQUIRED)
