"""The engine's modules form layers (docs/engine.md "Module map"): each module of mq.rules imports
only modules of lower layers, at the top of the file.  No import cycle can hide behind a
function-local import, and a rule fix that needs a module from above it has to move the code it
needs down instead (effects at the bottom, reaction windows in the middle, turn flow on top)."""
from __future__ import annotations

import ast
from pathlib import Path

import mq.rules

# Bottom to top.  A module may import any module of a lower layer, none of its own or a higher one.
LAYERS = (
    ("node", "errors", "events"),
    ("state", "actions"),
    ("character", "tx", "codec", "hashing", "view"),
    ("board", "conditions"),
    ("draws",),
    ("effects",),
    ("newgame", "monsters"),
    ("combat",),
    ("powers", "query"),
    ("legal",),
    ("windows",),
    ("flow",),
    ("reducer",),
    ("invariants",),
    ("__init__",),
)
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
RULES = Path(mq.rules.__file__).parent
# What the engine may import from outside itself: the standard library's pure parts, the core, the cards.
OUTSIDE = {"__future__", "collections.abc", "dataclasses", "fractions", "functools", "operator", "os", "typing",
           "mq.core", "mq.cards"}
# The public contract (__init__) dispatches on the mode to the Classic engine, which is built on the
# lower layers of this one; nothing else here may import it.
CONTRACT_ONLY = {"mq.classic"}


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, at top level) for every import in the file; ``from mq.rules import
    x`` names module ``mq.rules.x``, ``from mq import x`` module ``mq.x`` (every such name in the
    engine is a module)."""
    tree = ast.parse(path.read_text())
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module in ("mq", "mq.rules"):
                out += [(f"{node.module}.{alias.name}", node.lineno, id(node) in top) for alias in node.names]
            else:
                out.append((node.module, node.lineno, id(node) in top))
    return out


def test_every_engine_module_has_a_layer():
    modules = {p.stem for p in RULES.glob("*.py")}
    assert modules == set(LAYER), "declare the new module's layer here and in docs/engine.md"


def test_no_module_imports_its_own_layer_or_one_above_it():
    problems = []
    for path in sorted(RULES.glob("*.py")):
        for module, line, _ in imports(path):
            if module.startswith("mq.rules."):
                target = module.split(".")[2]
                if LAYER[target] >= LAYER[path.stem]:
                    problems.append(f"{path.name}:{line} imports {target} (layer {LAYER[target]} >= "
                                    f"{LAYER[path.stem]})")
            elif module not in OUTSIDE and not (module in CONTRACT_ONLY and path.stem == "__init__"):
                problems.append(f"{path.name}:{line} imports {module}")
    assert problems == []


def test_no_function_local_imports():
    problems = [f"{path.name}:{line} imports {module} inside a function"
                for path in sorted(RULES.glob("*.py")) for module, line, top in imports(path) if not top]
    assert problems == []


def test_the_check_sees_a_violation(tmp_path):
    """The parser finds a function-local import and the modules of `from mq(.rules) import x`."""
    f = tmp_path / "combat.py"
    f.write_text("from mq import tui\nfrom mq.rules import flow\n\ndef g():\n    from mq.rules.legal import x\n")
    assert imports(f) == [("mq.tui", 1, True), ("mq.rules.flow", 2, True), ("mq.rules.legal", 5, False)]
