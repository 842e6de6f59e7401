"""The modules of net/ form layers (docs/net.md "Modules"): each imports only modules of lower
layers, at the top of the file or (the commands and tools, which load what a command needs) in a
function.  The roles (net.sequencer, net.follower) name net.peer for type annotations only: they
reach their peer through the reference it gave them (net/peer.py, "the role interface")."""
from __future__ import annotations

import ast
from pathlib import Path

import net

# Bottom to top.  A module may import any module of a lower layer, none of its own or a higher one.
LAYERS = (
    ("__init__", "wire", "identity", "incarnation", "limits", "membership", "chatlog", "signing"),
    ("transport", "seats", "gamelog"),
    ("discovery", "admission", "catchup", "election", "seeding", "options", "port", "desync"),
    ("replica",),
    ("replay", "sequencer", "follower"),
    ("peer",),
    ("byzantine",),
    ("client", "sim", "harness"),
    ("textclient", "netlab"),
    ("cli",),
)
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
NET = Path(net.__file__).parent
TYPES_ONLY = {("sequencer", "peer"), ("follower", "peer"), ("byzantine", "sim")}  # under ``if TYPE_CHECKING:``


def net_imports(path: Path) -> list[tuple[str, int, bool]]:
    """(net module imported, line, whether only for type checking) for every import of a net
    module in the file (``from net import x`` names module ``x``)."""
    tree = ast.parse(path.read_text())
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            typing_only |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    out = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[1] for a in node.names if a.name.startswith("net.")]
        elif isinstance(node, ast.ImportFrom) and node.module == "net":
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("net."):
            names = [node.module.split(".")[1]]
        out += [(name, node.lineno, id(node) in typing_only) for name in names]
    return out


def test_every_net_module_has_a_layer():
    modules = {p.stem for p in NET.glob("*.py")}
    assert modules == set(LAYER), "declare the new module's layer here and its row in docs/net.md"


def test_no_net_module_imports_its_own_layer_or_one_above_it():
    problems = []
    for path in sorted(NET.glob("*.py")):
        for target, line, typing_only in net_imports(path):
            if typing_only and (path.stem, target) in TYPES_ONLY:
                continue
            if LAYER[target] >= LAYER[path.stem]:
                problems.append(f"{path.name}:{line} imports {target} (layer {LAYER[target]} >= {LAYER[path.stem]})")
    assert problems == []


def test_the_module_map_names_every_net_module():
    text = (NET.parent / "docs" / "net.md").read_text()
    missing = [p.name for p in sorted(NET.glob("*.py")) if p.stem != "__init__" and f"| `net/{p.name}` |" not in text]
    assert missing == []
