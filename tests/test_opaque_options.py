"""The layers above the engine never name a game's options: the games declare them (`Game.options`, a
pydantic model) and every layer asks. No module of puzzlefleet/, workers/ or store/ (the migrations
aside: they move columns that once had these names) names `stars`, `diagonals` or `band_by`, as an
identifier or as a string of its own (a JSON key, a column)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = {"stars", "diagonals", "band_by"}
LAYERS = ("puzzlefleet", "workers", "store")
EXCLUDED = (ROOT / "store" / "migrations",)


def _names(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        named = {ast.Name: "id", ast.Attribute: "attr", ast.arg: "arg", ast.keyword: "arg",
                 ast.FunctionDef: "name", ast.AsyncFunctionDef: "name", ast.ClassDef: "name",
                 ast.alias: "asname"}.get(type(node))
        value = getattr(node, named, None) if named else None
        if isinstance(node, ast.alias):
            value = node.asname or node.name.rsplit(".", 1)[-1]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            value = node.value
        if value in OPTIONS:
            found.append((getattr(node, "lineno", 0), value))
    return found


def test_no_layer_above_the_engine_names_a_game_option() -> None:
    offenders = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            if any(path.is_relative_to(excluded) for excluded in EXCLUDED):
                continue
            for line, name in _names(ast.parse(path.read_text(), str(path))):
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert offenders == []


def test_the_guard_sees_each_kind_of_naming() -> None:
    code = ("def f(stars): return stars\nx.diagonals = 1\ng(band_by=2)\nrow['stars']\n"
            "from m import diagonals\nclass band_by: pass\n")
    assert sorted(name for _, name in _names(ast.parse(code))) == sorted(
        ["stars", "stars", "diagonals", "band_by", "stars", "diagonals", "band_by"])
