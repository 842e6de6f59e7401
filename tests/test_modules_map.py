"""docs/modules.md maps every module of mq/ outside the engine, and the packages keep to the
imports it says: the cards import nothing else of the project but ``mq.cliargs`` (their command),
the bots no front end, table or network."""
from __future__ import annotations

import ast
from pathlib import Path

import mq

MQ = Path(mq.__file__).parent
DOC = (MQ.parent / "docs" / "modules.md").read_text()
PACKAGES = ("", "cards", "bots", "tui")


def _modules():
    for pkg in PACKAGES:
        for path in sorted((MQ / pkg).glob("*.py")):
            yield pkg, path


def _project_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module in ("mq", "net"):
            out |= {f"{node.module}.{a.name}" for a in node.names}  # (every such name is a module)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return {m for m in out if m.split(".")[0] in ("mq", "net", "bench")}


def test_every_module_has_a_paragraph():
    missing = []
    for pkg, path in _modules():
        name = f"`mq/{path.name}`" if not pkg else f"`{path.name}`"
        section = DOC if not pkg else DOC.split(f"## mq/{pkg}", 1)[1].split("\n## ", 1)[0]
        if f"**{name}**" not in section:
            missing.append(f"mq/{pkg + '/' if pkg else ''}{path.name}")
    assert missing == []


def test_the_cards_and_the_bots_keep_to_their_imports():
    allowed = {"cards": ("mq.cards", "mq.cliargs"), "bots": ("mq.bots", "mq.rules", "mq.classic", "mq.cards", "mq.core")}
    problems = [f"mq/{pkg}/{path.name} imports {m}" for pkg, path in _modules() if pkg in allowed
                for m in sorted(_project_imports(path)) if not m.startswith(allowed[pkg])]
    assert problems == []
