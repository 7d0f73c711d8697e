"""The package's import structure, read from the AST: parts, levels, upward imports and cycles.

    python bench/import_structure.py [--package ir_rag_axioms] [--modules]

A *part* is a top-level module or subpackage of the package (``analysis``, ``axioms``, ``settings``, ...); the
package root's ``__init__`` is the part ``(root)``. Every ``import``/``from ... import`` of the package counts;
``from pkg import name`` counts as an import of ``pkg.name`` when that is a module. Only explicit imports count
(not the parent packages Python runs first). An import is *import-time* when it runs on import (module level,
not under ``if TYPE_CHECKING``) and *deferred* when it sits inside a function.

- upward imports: an import of a package's own ``__init__`` (its facade: the package root, ``axioms``, ...) from a
  module inside that package, or a deferred (or type-checking) import
  that closes a loop: its target already imports the importer, through import-time imports and the deferred imports
  taken before it (in the order of the modules' names);
- levels: modules and parts ordered by the longest chain of the other imports below them (level 0 imports nothing
  of the package), a remaining import-time cycle collapsed to one node;
- cycles: strongly connected groups of modules that import each other (any import, deferred ones included)
  around a loop, leaving out the imports of a facade from inside its package (those are upward).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = "(root)"


def modules(package_dir: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of the package."""
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _import_time(tree: ast.Module) -> set[int]:
    """ids of the import nodes that run on import: outside functions and ``if TYPE_CHECKING`` blocks."""
    found: set[int] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                visit(ast.Module(body=child.orelse, type_ignores=[]))
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.add(id(child))
            visit(child)

    visit(tree)
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """(imported module, line, import-time) for each import of a module of the package in ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    at_import = _import_time(tree)
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                targets.append(sub if sub in known else source)
        for target in targets:
            while target and target not in known:  # import a.b.c where only a.b is a module of ours
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, node.lineno, id(node) in at_import))
    return found


def part(module: str, package: str) -> str:
    """The part of ``module``: its first component below the package (the root's __init__: ``(root)``)."""
    rest = module.removeprefix(package).lstrip(".")
    return rest.split(".")[0] if rest else ROOT


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; singletons included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
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
                components.append(sorted(component))
    return components


def _levels(graph: dict[str, set[str]]) -> dict[str, int]:
    """Longest chain of imports below each node, strongly connected groups collapsed to one node."""
    groups = strongly_connected(graph)
    group_of = {n: i for i, g in enumerate(groups) for n in g}
    level: dict[int, int] = {}
    for i, group in enumerate(groups):  # Tarjan emits a group after every group it reaches
        below = {group_of[t] for n in group for t in graph[n]} - {i}
        level[i] = 1 + max((level[j] for j in below), default=-1)
    return {n: level[group_of[n]] for n in graph}


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    """Whether ``goal`` can be reached from ``start`` along ``graph``'s edges."""
    seen, todo = {start}, [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        for child in graph[node] - seen:
            seen.add(child)
            todo.append(child)
    return False


def structure(package_dir: Path, package: str) -> dict:
    """Parts, import edges, levels, upward imports and cycles of the package in ``package_dir``."""
    known = modules(package_dir, package)
    every: dict[str, set[str]] = {m: set() for m in known}
    at_import: dict[str, set[str]] = {m: set() for m in known}
    first_line: dict[tuple[str, str], int] = {}
    for name, path in known.items():
        for target, line, runs_on_import in imports(name, path, known):
            every[name].add(target)
            first_line.setdefault((name, target), line)
            if runs_on_import:
                at_import[name].add(target)
    def facade(source: str, target: str) -> bool:  # target is a package that contains source
        return source.startswith(target + ".") or (target == package and source != package)

    accepted = {m: {t for t in at_import[m] if not facade(m, t)} for m in known}
    upward = [(s, t, first_line[(s, t)]) for s in sorted(known) for t in sorted(every[s]) if facade(s, t)]
    for source in sorted(known):
        for target in sorted(every[source] - at_import[source]):
            if facade(source, target):
                continue
            if _reaches(accepted, target, source):
                upward.append((source, target, first_line[(source, target)]))
            else:
                accepted[source].add(target)
    module_level = _levels(accepted)
    parts = sorted({part(m, package) for m in known})
    part_graph: dict[str, set[str]] = {p: set() for p in parts}
    part_imports = set()
    for source in known:
        for target in every[source]:
            a, b = part(source, package), part(target, package)
            if a != b:
                part_imports.add((a, b))
                if target in accepted[source]:
                    part_graph[a].add(b)
    part_level = _levels(part_graph)
    no_facades = {m: {t for t in every[m] if not facade(m, t)} for m in known}
    cycles = [c for c in strongly_connected(no_facades) if len(c) > 1]
    return {"modules": len(known), "parts": parts, "imports": sum(len(t) for t in every.values()),
            "part_imports": len(part_imports), "module_levels": module_level, "levels": part_level,
            "upward": upward, "cycles": cycles}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="ir_rag_axioms")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]), help="repository root")
    args = parser.parse_args(argv)
    s = structure(Path(args.root) / args.package, args.package)
    by_level: dict[int, list[str]] = defaultdict(list)
    for p, lv in s["levels"].items():
        by_level[lv].append(p)
    print(f"{s['modules']} modules, {len(s['parts'])} parts, {s['imports']} module imports "
          f"({s['part_imports']} between parts), {max(by_level) + 1} levels of parts, "
          f"{max(s['module_levels'].values()) + 1} levels of modules")
    for lv in sorted(by_level):
        print(f"  level {lv}: {', '.join(sorted(by_level[lv]))}")
    print(f"upward imports: {len(s['upward'])}")
    for source, target, line in s["upward"]:
        print(f"  {source}:{line} -> {target}")
    print(f"cycles: {len(s['cycles'])}")
    for cycle in s["cycles"]:
        print(f"  {' <-> '.join(m.removeprefix(args.package + '.') for m in cycle)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
