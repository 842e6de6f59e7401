"""Every rule id of the spec (RULES.md, read from the shared folder beside the repository) is cited
by a test — in the name or docstring of a test function in tests/test_*.py — and every rule the
software implements is cited in its code too (mq/, code and data files, and net/ for the rules
the network keeps), so deleting the last test or the last mention of a rule fails here.

Compact citations count for every id they name: "Q-EXPLORE-1..5" (a range), "Q-HELP-1, 2, 4" and
"Q-CARD-3/4" (more numbers of the same section).  Ids not cited yet are listed below with the
reason; the goal is to shrink those lists to nothing, and an id that is cited after all must leave
its list (the test says so)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).parent
ROOT = TESTS.parent
CODE = (ROOT / "mq", ROOT / "net")

# Rules no test cites yet: id -> why.
NOT_TESTED: dict[str, str] = {}
# Rules the software does not implement (so nothing in mq/ or net/ cites them): id -> why.
NOT_IMPLEMENTED: dict[str, str] = {}

SECTION = re.compile(r"^## (Q-[A-Z]+)\b")
ITEM = re.compile(r"^(\d+)\. ")
# An id, optionally followed by a range ("..5", "–5") or more numbers (", 2", "/4") of its section.
CITATION = re.compile(r"(Q-[A-Z]+)(?:-(\d+)((?:\s*(?:\.\.|–|,|/)\s*\d+(?![\d-]))*))?(?![\w-])")
MORE = re.compile(r"(\.\.|–|,|/)\s*(\d+)")


def spec_path() -> Path:
    """RULES.md in ``shared/`` beside the repository (CI's layout), or beside a folder above it
    (a worktree nested one level deeper)."""
    for folder in (ROOT,) + tuple(ROOT.parents):
        path = folder.parent / "shared" / "RULES.md"
        if path.is_file():
            return path
    raise AssertionError(f"no shared/RULES.md beside {ROOT} or any folder above it")


def spec_ids(text: str, section_re: re.Pattern = SECTION) -> list[str]:
    """The ids of RULES.md: ``Q-X-n`` for the numbered rules of each ``## Q-X`` section, or ``Q-X``
    itself for a section without numbered rules (Q-CHARITY), in the document's order."""
    ids: list[str] = []
    section, numbers = None, []
    for line in text.splitlines() + ["## end"]:
        if line.startswith("## ") or line.startswith("---"):
            if section:
                ids += [f"{section}-{n}" for n in numbers] if numbers else [section]
            m = section_re.match(line)
            section, numbers = (m.group(1) if m else None), []
        elif section and ITEM.match(line):
            numbers.append(int(ITEM.match(line).group(1)))
    return ids


def cited_in(text: str, citation_re: re.Pattern = CITATION) -> set[str]:
    """Every id a text cites, compact citations expanded."""
    out = set()
    for m in citation_re.finditer(text):
        section, first, tail = m.group(1), m.group(2), m.group(3) or ""
        if first is None:
            out.add(section)
            continue
        last = int(first)
        out.add(f"{section}-{last}")
        for sep, n in MORE.findall(tail):
            n = int(n)
            numbers = range(last + 1, n + 1) if sep in ("..", "–") else (n,)
            out.update(f"{section}-{k}" for k in numbers)
            last = n
    return out


def _test_citations(cite=cited_in, names: bool = True) -> dict[str, list[str]]:
    """rule id -> the tests whose docstring (and, with ``names``, whose name) cites it."""
    out: dict[str, list[str]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                text = (node.name + "\n" if names else "") + (ast.get_docstring(node) or "")
                for rule in sorted(cite(text)):
                    out.setdefault(rule, []).append(f"{path.name}::{node.name}")
    return out


def _code_citations(cite=cited_in) -> set[str]:
    out = set()
    for folder in CODE:
        for path in sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".pyx", ".toml")):
            out |= cite(path.read_text(encoding="utf-8"))
    return out


def _gaps(ids: list[str], cited, excluded: dict[str, str]) -> tuple[list[str], list[str]]:
    """The ids neither cited nor excluded, and the excluded ids that are cited after all."""
    return [rule for rule in ids if rule not in cited and rule not in excluded], [r for r in excluded if r in cited]


IDS = spec_ids(spec_path().read_text(encoding="utf-8"))

# -- CLASSIC.md (the Classic mode, ids C-<SECTION>-<n>), beside RULES.md ------------------------------
C_SECTION = re.compile(r"^## (C-[A-Z]+)\b")
C_CITATION = re.compile(r"(?<![\w-])(C-[A-Z]+)(?:-(\d+)((?:\s*(?:\.\.|–|,|/)\s*\d+(?![\d-]))*))?(?![\w-])")

# Classic rules no test cites yet, and Classic rules the software does not implement: id -> why.
C_NOT_IMPLEMENTED: dict[str, str] = {}
C_NOT_TESTED: dict[str, str] = dict(C_NOT_IMPLEMENTED)


def classic_ids(text: str) -> list[str]:
    """The ids of CLASSIC.md, read as spec_ids reads RULES.md."""
    return spec_ids(text, C_SECTION)


def classic_cited_in(text: str) -> set[str]:
    return cited_in(text, C_CITATION)


C_IDS = classic_ids((spec_path().parent / "CLASSIC.md").read_text(encoding="utf-8"))


def test_the_spec_s_ids_are_read_from_rules_md():
    """Every section's numbered rules, in order, no duplicates; the revision paragraph's ids exist."""
    text = spec_path().read_text(encoding="utf-8")
    assert len(IDS) == len(set(IDS)) and len(IDS) > 100
    assert IDS[:5] == [f"Q-LAW-{n}" for n in range(1, 6)] and "Q-CHARITY" in IDS
    revised = text.split("**Revised", 1)[1].split("\n\n", 1)[0]
    assert cited_in(revised) and cited_in(revised) <= set(IDS)


def test_compact_citations_count_for_every_id_they_name():
    assert cited_in("Q-EXPLORE-1..5") == {f"Q-EXPLORE-{n}" for n in range(1, 6)}
    assert cited_in("(Q-HELP-1, 2, Q-DIGI-3)") == {"Q-HELP-1", "Q-HELP-2", "Q-DIGI-3"}
    assert cited_in("Q-CARD-3/4 (timing) and Q-CHARITY") == {"Q-CARD-3", "Q-CARD-4", "Q-CHARITY"}
    assert cited_in("Q-LAW-1, 4, 5 hold") == {"Q-LAW-1", "Q-LAW-4", "Q-LAW-5"}
    assert cited_in("Q-COMBAT-4..6, 9 and Q-CHAR") == {"Q-COMBAT-4", "Q-COMBAT-5", "Q-COMBAT-6", "Q-COMBAT-9", "Q-CHAR"}


def test_every_rule_id_is_cited_by_a_test():
    """Each id of RULES.md (but the commented NOT_TESTED ones) is cited by a test function."""
    cited = _test_citations()
    missing, stale = _gaps(IDS, cited, NOT_TESTED)
    assert not missing, f"rule ids no test's name or docstring cites: {missing}"
    assert not stale, f"cited by a test now, remove from NOT_TESTED: {stale} ({[cited[r] for r in stale]})"


def test_every_implemented_rule_is_cited_in_the_code():
    """Each id of RULES.md (but the commented NOT_IMPLEMENTED ones) is cited in mq/ or net/."""
    missing, stale = _gaps(IDS, _code_citations(), NOT_IMPLEMENTED)
    assert not missing, f"rule ids no code cites: {missing}"
    assert not stale, f"cited in the code now, remove from NOT_IMPLEMENTED: {stale}"


def test_the_exclusions_name_ids_of_the_spec():
    assert set(NOT_TESTED) <= set(IDS) and set(NOT_IMPLEMENTED) <= set(IDS)
    assert all(NOT_TESTED.values()) and all(NOT_IMPLEMENTED.values())


def test_classic_ids_are_read_from_classic_md():
    assert len(C_IDS) == len(set(C_IDS)) and len(C_IDS) > 100
    assert C_IDS[:2] == ["C-LAW-1", "C-LAW-2"] and "C-SRC" in C_IDS and "C-EPIC-15" in C_IDS
    assert classic_cited_in("C-HELP-1..3, C-RUN-2/4 (as Q-RUN-2)") == {"C-HELP-1", "C-HELP-2", "C-HELP-3", "C-RUN-2",
                                                                        "C-RUN-4"}
    assert classic_cited_in("ABC-DEF-1") == set()


def test_every_classic_rule_id_is_cited_by_a_test():
    """Each id of CLASSIC.md (but the C_NOT_TESTED ones, each with its reason) is cited in the
    docstring of a test function."""
    missing, stale = _gaps(C_IDS, _test_citations(classic_cited_in, names=False), C_NOT_TESTED)
    assert not missing, f"Classic rule ids no test's docstring cites: {missing}"
    assert not stale, f"cited by a test now, remove from C_NOT_TESTED: {stale}"


def test_every_implemented_classic_rule_is_cited_in_the_code():
    missing, stale = _gaps(C_IDS, _code_citations(classic_cited_in), C_NOT_IMPLEMENTED)
    assert not missing, f"Classic rule ids no code cites: {missing}"
    assert not stale, f"cited in the code now, remove from C_NOT_IMPLEMENTED: {stale}"
    assert set(C_NOT_TESTED) <= set(C_IDS) and all(C_NOT_TESTED.values())
