"""The house's shape, read from the code: each layer imports only the layers below it, no import
circle (imports inside functions count, ``TYPE_CHECKING`` ones do not), no module over 1,500
lines, no function over 150 lines, at most 10 modules at the package's top.

The layers, lowest first, are the folders docs/ARCHITECTURE.md draws; a folder's ``__init__``
says what it holds and what it may import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from conftest import ROOT

#: Lowest first; a module may import its own layer and the layers before it.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"", "errors", "paths"}),  # "": the package itself (its __version__)
    frozenset({"notation"}),
    frozenset({"board"}),
    frozenset({"schemas", "data"}),
    frozenset({"routes"}),
    frozenset({"kernel"}),
    frozenset({"lib18xx"}),
    frozenset({"games"}),
    frozenset({"play"}),
    frozenset({"render"}),
    frozenset({"authoring"}),
    frozenset({"outputs", "commands", "cli", "__main__"}),
)

#: Imports that still run against the layers, each to be removed by the work named beside it
#: (issue #28).  The test fails when this list is not exactly what the code does, so an entry
#: goes as soon as its import does.
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset(
    {
        # validate checks ``rules:`` against the title registry above it (titles by entry point)
        ("ferrovia.data.validate", "ferrovia.games"),
        # the export reader of the route tools replays games (leaves the package)
        ("ferrovia.routes.exportstate", "ferrovia.play.replay"),
    }
)

#: Over-long modules and functions still being split (issue #28), as (path, name or "").
KNOWN_LONG: frozenset[tuple[str, str]] = frozenset(
    {
        ("engine/routes/search/combine.py", "_combine"),
        ("engine/routes/search/combine.py", "search"),
        ("engine/routes/search/enumerator.py", "run"),
        ("engine/routes/search/sequences.py", "run"),
        ("engine/routes/search/sequences.py", "extend"),
    }
)
#: Import circles still being broken (issue #28), each as its sorted module names.
KNOWN_CIRCLES: frozenset[tuple[str, ...]] = frozenset(
    {
        ("ferrovia.data.definition", "ferrovia.data.validate"),
    }
)

MAX_MODULE_LINES = 1500
MAX_FUNCTION_LINES = 150
MAX_TOP_MODULES = 10


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = list(rel.with_suffix("").parts)
    parts = ["ferrovia", *parts] if parts[0] == "schemas" else ["ferrovia", *parts[1:]]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    files = [*(ROOT / "engine").rglob("*.py"), *(ROOT / "schemas").rglob("*.py")]
    return {_module_name(p): p for p in sorted(files)}


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(n) for n in ast.walk(node))
    return inside


def _imports(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The ferrovia modules ``name`` imports, at any depth of its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        for target in targets:
            while target not in modules and "." in target:
                target = target.rpartition(".")[0]
            if target in modules and target != name:
                yield target


def _graph() -> dict[str, set[str]]:
    modules = _sources()
    return {name: set(_imports(name, path, modules)) for name, path in modules.items()}


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    return next(i for i, group in enumerate(LAYERS) if top in group)


def test_every_folder_of_the_package_is_a_layer() -> None:
    folders = {p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").is_file()}
    tops = {p.stem for p in (ROOT / "engine").glob("*.py")} - {"__init__"}
    placed = set().union(*LAYERS)
    assert folders | tops | {"schemas"} <= placed, sorted(folders | tops - placed)


def test_each_layer_imports_only_the_layers_below_it() -> None:
    upward = {(a, b) for a, targets in _graph().items() for b in targets if _layer(b) > _layer(a)}
    assert upward - KNOWN_UPWARD == set(), "imports against the layers"
    assert KNOWN_UPWARD - upward == set(), "gone: remove these from KNOWN_UPWARD"


def _circles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(tuple(sorted(component)))
    return found


def test_no_import_circle() -> None:
    circles = _circles(_graph())
    assert circles - KNOWN_CIRCLES == set(), "new import circles"
    assert KNOWN_CIRCLES - circles == set(), "gone: remove these from KNOWN_CIRCLES"


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {("a", "b", "c")}


def test_no_module_or_function_too_long_and_few_modules_at_the_top() -> None:
    long: set[tuple[str, str]] = set()
    for path in _sources().values():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        if len(text.splitlines()) > MAX_MODULE_LINES:
            long.add((rel, ""))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    long.add((rel, node.name))
    assert long - KNOWN_LONG == set(), "too long: split by concern, moves first"
    assert KNOWN_LONG - long == set(), "gone: remove these from KNOWN_LONG"
    top = sorted(p.stem for p in (ROOT / "engine").glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top
