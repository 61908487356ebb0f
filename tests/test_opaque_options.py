"""The layers above the engine, and the engine's shared layers, never name a game's options or rules.

The games declare their options (`Game.options`, a pydantic model) and every layer asks them; what a
game draws and how its cells take input are the game's to say in game-neutral parts (`Picture`,
`PlaySpec`). So:
- no Python module of puzzlefleet/, workers/ or store/ (the migrations aside: they move columns that
  once had these names) names any registered game's option, or a word of a game's rules, as an
  identifier or as a string of its own (a JSON key, a column);
- no other file of those layers (the player's JavaScript, HTML and CSS) names one as a word;
- the shared engine (the contract, the registry, the board model, engine/core/, engine/ladder/) and the
  renderer and the player name none of them anywhere, comments and docstrings included.
The option names come from the registry, so a new game's options are guarded with no edit here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]
RULE_WORDS = {"stars", "diagonals", "no_touch", "per_unit", "cages"}     # the words of games' rules
LAYERS = ("puzzlefleet", "workers", "store")
EXCLUDED = (ROOT / "store" / "migrations",)
SHARED = (ROOT / "engine" / "games" / "base.py", ROOT / "engine" / "games" / "__init__.py",
          ROOT / "engine" / "games" / "model.py", ROOT / "engine" / "core",
          ROOT / "engine" / "ladder", ROOT / "store" / "render", ROOT / "store" / "api" / "player.py",
          ROOT / "store" / "api" / "static")
SOURCES = ("*.py", "*.pyx", "*.pxd", "*.js", "*.html", "*.css")


def guarded() -> set[str]:
    """Every registered game's option names, and the rules' words."""
    return {spec.name for spec in engine.option_specs()} | RULE_WORDS


def _names(tree: ast.AST, words: set[str]) -> list[tuple[int, str]]:
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
        if value in words:
            found.append((getattr(node, "lineno", 0), value))
    return found


def _words(text: str, words: set[str]) -> list[tuple[int, str]]:
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, sorted(words))) + r")(?![A-Za-z0-9_])")
    return [(text.count("\n", 0, hit.start()) + 1, hit.group(1)) for hit in pattern.finditer(text)]


def _files(*places: Path) -> list[Path]:
    out = []
    for place in places:
        out.extend([place] if place.is_file() else sorted(p for glob in SOURCES for p in place.rglob(glob)))
    return [p for p in out if not any(p.is_relative_to(excluded) for excluded in EXCLUDED)]


def test_no_layer_above_the_engine_names_a_game_option() -> None:
    words, offenders = guarded(), []
    for path in _files(*(ROOT / layer for layer in LAYERS)):
        text = path.read_text(encoding="utf-8")
        hits = _names(ast.parse(text, str(path)), words) if path.suffix == ".py" else _words(text, words)
        offenders.extend(f"{path.relative_to(ROOT)}:{line}: {name}" for line, name in hits)
    assert offenders == []


def test_the_shared_layers_name_no_rule_of_a_game_anywhere() -> None:
    words = guarded()
    offenders = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in _files(*SHARED)
                 for line, name in _words(path.read_text(encoding="utf-8"), words)]
    assert offenders == []


def test_the_guard_knows_every_games_options() -> None:
    for game in engine.all_games():
        assert {spec.name for spec in game.option_specs()} <= guarded(), game.name
    assert {"stars", "diagonals"} <= guarded()


def test_the_guard_sees_each_kind_of_naming() -> None:
    code = ("def f(stars): return stars\nx.diagonals = 1\ng(band_by=2)\nrow['stars']\n"
            "from m import diagonals\nclass band_by: pass\n")
    assert sorted(name for _, name in _names(ast.parse(code), guarded())) == sorted(
        ["stars", "stars", "diagonals", "band_by", "stars", "diagonals", "band_by"])
    script = "if (play.per_unit) crossAround(stars);\n// no_touch here\nconst staircases = 1;"
    assert _words(script, guarded()) == [(1, "per_unit"), (1, "stars"), (2, "no_touch")]
