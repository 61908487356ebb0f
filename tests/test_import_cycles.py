"""No import cycles among our modules: the graph of who imports whom (grimp's, counting imports inside
functions and under TYPE_CHECKING) has no strongly connected component of more than one module. A
submodule imports from the module that defines a name, not from its package; a package's `__init__`
may import its submodules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp

CHECKED = ("engine", "store", "jobs", "workers", "puzzlefleet")       # the packages whose modules are checked (and graphed together)


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    work.append((nxt, iter(graph.get(nxt, ()))))
                    break
                if nxt in stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = stack[stack.index(node):]
                    del stack[stack.index(node):]
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": ["b"], "b": ["c", "d"], "c": ["a"], "d": ["e"], "e": ["d", "f"], "f": [], "g": ["g"]}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": ["b"], "b": ["c"], "c": []}) == []


def test_no_import_cycles() -> None:
    graph = grimp.build_graph(*CHECKED, include_external_packages=False, cache_dir=None)
    imports = {module: sorted(graph.find_modules_directly_imported_by(module)) for module in sorted(graph.modules)}
    assert len(imports) > 100                  # the packages were found and graphed
    assert cycles(imports) == []
