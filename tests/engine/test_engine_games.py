"""The game registry and the Game contract: every built-in game answers every question a layer may
ask, its board JSON goes through one model, and no module outside a game's package names a game."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import InvalidBoard, InvalidRules, all_games, game_named, game_of

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = tuple(module.rsplit(".", 1)[1] for module in engine.games.BUILTIN)


def test_the_registry_lists_the_built_in_games_in_order() -> None:
    assert BUILT_IN[:4] == ("queens", "starbattle", "sudoku", "killer")
    assert engine.names()[:len(BUILT_IN)] == BUILT_IN
    assert [game.queue for game in all_games()][:len(BUILT_IN)] == list(BUILT_IN)
    with pytest.raises(InvalidRules, match="unknown game 'chess'"):
        game_named("chess")
    with pytest.raises(InvalidBoard, match="JSON object"):
        game_of([1, 2])


def test_asking_for_one_built_in_game_imports_it_alone() -> None:
    """A fresh process: game_named("sudoku") loads no other game package, and the full list that
    follows still puts the built-in games first, in order."""
    script = ("import sys, engine; engine.game_named('sudoku');"
              "print(sorted(m for m in sys.modules if m.startswith('engine.games.') and m.count('.') == 2));"
              "print([g.name for g in engine.all_games()]); print(engine.is_game('queens'), engine.is_game('chess'))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["['engine.games.base', 'engine.games.model', 'engine.games.sudoku']",
                                str(list(BUILT_IN)), "True False"]


def test_a_game_module_imports_by_its_dotted_path() -> None:
    """`import engine.games.starbattle.generator as generator` works in a fresh process: the registry's
    list of games is `all_games()`, so no name in `engine` hides the `engine.games` package."""
    script = ("import engine.games.starbattle.generator as generator, engine;"
              "print(engine.games.__name__, generator.__name__)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["engine.games", "engine.games.starbattle.generator"]


def test_a_band_of_the_game_asked_for_imports_no_other_game() -> None:
    """What `generate --game sudoku --band hard` checks of its band: the game named first answers,
    and only a band it lacks makes every game load (the answer is that of the full list)."""
    script = ("import sys, engine; engine.game_named('sudoku'); print(engine.is_band('hard'));"
              "print(sorted(m for m in sys.modules if m.startswith('engine.games.') and m.count('.') == 2));"
              "print(engine.is_band('nope'), engine.is_band('beyond'), 'engine.games.starbattle' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["True", "['engine.games.base', 'engine.games.model', 'engine.games.sudoku']",
                                "False True True"]
    assert set(engine.bands()) == {band for game in all_games() for band in game.bands}
    assert all(engine.is_band(band) for band in engine.bands()) and not engine.is_band(None)


def test_listing_every_games_options_loads_no_other_games_generator() -> None:
    """What `generate --game queens` does with the other games: their options become flags (the whole
    registry loads), but Sudoku's and Killer's boards, counters, ladders and generators stay unloaded
    until asked for; their package names still give what they export."""
    script = ("import sys, engine; engine.option_specs('queens');"
              "print(sorted(m for m in sys.modules if m.startswith(('engine.games.sudoku.', 'engine.games.killer.'))));"
              "from engine.games.killer import describe; from engine.games.sudoku import generate, BANDS;"
              "from engine.games.killer.grade import grade;"
              "print(callable(grade), callable(describe), callable(generate), BANDS == engine.game_named('sudoku').bands)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "['engine.games.killer.game', 'engine.games.killer.model', 'engine.games.killer.reach', "
        "'engine.games.killer.rules', 'engine.games.sudoku.game', 'engine.games.sudoku.model', "
        "'engine.games.sudoku.reach', 'engine.games.sudoku.rules']",
        "True True True True"]


@pytest.mark.parametrize("name", engine.names())
def test_a_game_answers_every_layer(name: str) -> None:
    game = game_named(name)
    rules = game.rules(**game.sample_request())
    assert game.parse_rules(str(rules)) == rules and engine.parse_rules(str(rules)) == rules
    board, stats = game.generate(rules, 11, timeout=60)
    data = board.to_json()
    model = game.validate(data)
    assert model.game == name and model.id == board.id and model.steps
    assert game.board_from_json(data) == board
    assert json.loads(model.model_dump_json(exclude_unset=True)) == data     # the model keeps every field
    status, solved = game.solve(game.board_from_json({k: v for k, v in data.items() if k != "solution"}))
    assert status == "unique" and solved["solution"] == data["solution"] and solved["steps"] == data["steps"]
    picture = game.picture(data, solution=True)
    assert picture.n == len(picture.areas) == rules.size
    assert picture.symbols and all(0 <= r < rules.size and 0 <= c < rules.size for r, c, _, _ in picture.symbols)
    spec = game.play(data)
    assert spec.mode == game.input_mode and len(spec.hints) == len(data["steps"])
    assert len(spec.answer) == rules.size ** 2 and set(spec.answer) <= {"", *spec.symbols}
    assert len(spec.givens) in (0, rules.size ** 2) and set(spec.givens) <= {"", *spec.symbols}
    assert json.loads(json.dumps(spec.to_json(), ensure_ascii=False)) == json.loads(json.dumps(spec.to_json()))
    assert game.text(data).splitlines()[0].startswith(f"# {board.id} {name}")
    assert game.rules_sentence(data) and game.heading(data).startswith(game.title)
    assert isinstance(stats.rejected, dict)


@pytest.mark.parametrize("data, message", [
    ({"game": "queens", "rules": {"size": 8, "stars": 2}, "regions": []}, "a queens board has 1 star per unit"),
    ({"game": "queens", "rules": {"size": "8"}, "regions": []}, "rules.size: Input should be a valid integer"),
    ({"game": "starbattle", "rules": {"size": 8, "stars": 2}, "regions": [[0] * 8] * 8},
     "needs all 8 regions"),
    ({"game": "queens", "rules": {"size": 4}, "regions": [[0, 1, 2, 3]] * 4, "steps": [{"cost": 1}]},
     "steps[0].technique: Field required"),
    ({"game": "sudoku", "givens": "1" * 81}, "appears twice"),
    ({"game": "sudoku", "givens": "." * 81, "seed": -1}, "seed: Input should be greater than or equal to 0"),
])
def test_invalid_boards_name_the_field_and_the_reason_in_one_line(data: dict, message: str) -> None:
    with pytest.raises(InvalidBoard) as err:
        engine.board_from_json(data)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_published_schema_is_the_models() -> None:
    published = (ROOT / "docs" / "board.schema.json").read_text(encoding="utf-8")
    assert published == engine.board_schema_text(), "regenerate it: make schema"
    schema = json.loads(published)
    assert {"StarBoard", "SudokuBoardModel"} <= set(schema["$defs"])
    assert schema["discriminator"]["propertyName"] == "game"


def _game_literals(path: Path) -> list[tuple[int, str]]:
    names = set(engine.names())
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = node.value.split()
            if node.value in names or (words and words[0] in names and len(words) <= 3):
                found.append((node.lineno, node.value))
    return found


def test_no_module_outside_a_game_package_names_a_game() -> None:
    """Layers ask the Game object; the daily set's default plan too (Game.daily_positions)."""
    outside = [p for folder in ("engine", "store", "workers", "puzzlefleet") for p in (ROOT / folder).rglob("*.py")
               if "games" not in p.relative_to(ROOT).parts[:2]]
    named = {str(p.relative_to(ROOT)): hits for p in outside if (hits := _game_literals(p))}
    assert named == {}


def test_every_game_states_its_drawing_styles_and_refuses_others() -> None:
    """styles(rules) is the default first and then what else these rules take; style_groups() states
    the same for every rules the game takes; a game without styles has none and refuses any, in one line."""
    from engine.games.starbattle import Rules
    queens, starbattle = game_named("queens"), game_named("starbattle")
    assert queens.styles(Rules(8)) == ("pictured", "organic", "composed", "interlocking")   # pictured: as the daily boards
    assert "composed" not in starbattle.styles(Rules(10, 2))                   # one-star only
    assert queens.check_style(Rules(8), None) == queens.styles(Rules(8))[0]
    for game in (queens, starbattle):
        groups = game.style_groups()
        for group in groups:
            for size in range(group.sizes[0], group.sizes[1] + 1):
                rules = Rules(size, group.rules["stars"], group.rules["diagonals"])
                assert game.styles(rules) == group.styles
    assert {"organic", "composed"} <= set(engine.style_names())
    for name in ("sudoku", "killer"):
        game = game_named(name)
        assert game.styles(game.rules(size=9)) == () and game.style_groups() == () and game.style_names() == ()
        assert game.check_style(game.rules(size=9), None) is None
        with pytest.raises(InvalidRules, match=f"^{name} has no drawing styles$"):
            game.generate(game.rules(size=9), 1, style="organic")
    with pytest.raises(InvalidRules, match="no drawing style 'composed' for starbattle 10 2"):
        starbattle.generate(Rules(10, 2), 1, style="composed")
    board, _ = queens.generate(Rules(6), 3)
    assert board.to_json()["style"] == board.to_json()["generation"]["style"] == queens.styles(Rules(6))[0]


def test_a_style_filter_is_checked_against_what_the_games_draw() -> None:
    engine.check_style_filter("composed", game="queens", size=8)
    engine.check_style_filter("organic")
    for style, filters, message in [("cubist", {}, "unknown style 'cubist'"),
                                    ("composed", {"stars": 2}, "draws no boards of stars 2"),
                                    ("composed", {"game": "queens", "size": 40}, "draws no boards of game queens size 40"),
                                    ("organic", {"game": "sudoku"}, "draws no boards of game sudoku")]:
        with pytest.raises(InvalidRules, match=message):
            engine.check_style_filter(style, **filters)


def test_a_game_package_loads_its_names_on_first_use() -> None:
    """A fresh process: Killer's package holds GAME alone until a name is asked for (PEP 562: the
    package's `__getattr__`), though dir() lists every name it exports; a name asked for is its
    submodule's; an unknown name is an AttributeError. (`grade` is the name of a submodule, so the
    package does not export the function of that name: grade.py does.)"""
    script = ("import importlib, sys; killer = importlib.import_module('engine.games.killer'); "
              "print('engine.games.killer.grade' in sys.modules, 'describe' in dir(killer), 'describe' in vars(killer));"
              "describe = killer.describe; "
              "print(describe is sys.modules['engine.games.killer.grade'].describe, 'describe' in vars(killer));"
              "exec('try:\\n killer.nothing\\nexcept AttributeError as e: print(e)')")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["False True False", "True True",
                                "module 'engine.games.killer' has no attribute 'nothing'"]
