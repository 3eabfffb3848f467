"""The stages import one way: a module imports its own layer and the layers below, never above,
and no set of modules imports itself around (no import cycle, function-level imports included).

Imports under `if TYPE_CHECKING:` are annotations only and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "auditor"

# lowest first; a module belongs to the first layer one of whose prefixes its path starts with
LAYERS = [
    ("base", ["__init__.py", "location.py", "limits.py", "dtypes.py", "progress.py"]),
    ("frontend", ["frontend/"]),
    ("interpret", ["interpret/"]),
    ("engines", ["engines/"]),
    ("settings", ["settings.py"]),
    ("evaluation", ["evaluation/"]),
    ("pairing", ["pairing/"]),
    ("checks", ["checks/"]),
    ("coverage", ["coverage.py"]),
    ("result", ["result.py"]),
    ("incremental", ["incremental/"]),
    ("stages", ["stages.py"]),
    ("pipeline", ["pipeline.py"]),
    ("report", ["report/", "baseline.py"]),
    ("cli", ["cli.py", "__main__.py"]),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(name: str) -> int:
    relative = name.removeprefix("auditor").lstrip(".").replace(".", "/")
    candidates = [relative + ".py", relative + "/", relative + "/__init__.py"]
    for rank, (_, prefixes) in enumerate(LAYERS):
        if relative == "" and "__init__.py" in prefixes:
            return rank
        if any(c.startswith(p) for c in candidates for p in prefixes if relative):
            return rank
    raise AssertionError(f"{name} is in no layer: add it to LAYERS")


def runtime_imports(path: Path) -> set[str]:
    """The auditor modules `path` imports, outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "auditor")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "auditor":
                found.add(node.module)
                for alias in node.names:  # `from auditor.x import y`: y may be a module
                    dotted = f"{node.module}.{alias.name}"
                    if PACKAGE.parent.joinpath(*dotted.split(".")).with_suffix(".py").exists():
                        found.add(dotted)
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: runtime_imports(path) & set(modules) for name, path in modules.items()}


def test_every_import_goes_down_the_layers():
    wrong = []
    for name, imported in sorted(graph().items()):
        for other in sorted(imported):
            if layer_of(other) > layer_of(name):
                wrong.append(
                    f"{name} ({LAYERS[layer_of(name)][0]}) imports {other} "
                    f"({LAYERS[layer_of(other)][0]})"
                )
    assert not wrong, "\n".join(wrong)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected sets of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            members = []
            while True:
                member = stack.pop()
                members.append(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle():
    edges = {name: {o for o in imported if o != name} for name, imported in graph().items()}
    # a package's __init__ importing its own modules is how packages work, not a cycle
    for name in edges:
        edges[name] = {o for o in edges[name] if not name.startswith(o + ".")}
    assert cycles(edges) == []


def test_the_checks_can_fail():
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert (
        layer_of("auditor.cli") > layer_of("auditor.settings") > layer_of("auditor.frontend.parse")
    )
    assert "auditor.checks" in runtime_imports(PACKAGE / "cli.py")
