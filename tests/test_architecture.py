"""The package's imports run one way: no module imports, directly or not, a module that imports
it, and no package (``extractor.runs``, ``extractor.review``, a top-level module...) does either,
lazy imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import extractor

PACKAGE = Path(extractor.__file__).parent


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Every module of the package at ``root`` and the package's modules it imports (lazy
    imports included)."""
    name_of_root = root.name
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == name_of_root:
                for alias in node.names:
                    child = f"{node.module}.{alias.name}"
                    targets.add(child if child in modules else node.module)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name.split(".")[0] == name_of_root)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The import graph between the package's parts: each subpackage (``extractor.review`` with
    all its modules) and each top-level module (``extractor.grounding``) is one node."""

    def part(module: str) -> str:
        return ".".join(module.split(".")[:2])

    parts: dict[str, set[str]] = {}
    for module, targets in graph.items():
        parts.setdefault(part(module), set()).update(part(t) for t in targets)
    return {name: targets - {name} for name, targets in parts.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_no_package_imports_another_that_imports_it() -> None:
    assert cycles(package_graph(import_graph())) == []


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_cycle_between_packages_is_found_through_a_lazy_import(tmp_path: Path) -> None:
    """Two packages whose modules form no cycle, but the packages do: one import is inside a
    function, as the code's lazy imports are."""
    root = tmp_path / "made"
    files = {
        "a/top.py": "from made.b.low import y\n",
        "b/top.py": "def late():\n    from made.a.low import x\n",
        "a/low.py": "", "b/low.py": "", "a/__init__.py": "", "b/__init__.py": "", "__init__.py": "",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    graph = import_graph(root)
    assert cycles(graph) == []  # module by module, none
    assert cycles(package_graph(graph)) == [["made.a", "made.b"]]


def test_the_package_root_is_imported_by_no_module() -> None:
    graph = import_graph()
    assert [name for name, targets in graph.items() if "extractor" in targets] == []
