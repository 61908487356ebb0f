"""The shared renderer (store/render) and the player page's assets (store/api/static) know no game:
none of the games' symbols, names or clue words appear in them. Each game declares how its symbols
look in its own package (`Game.drawing`) and words its own clues, and the shared code composes that;
this grep keeps it so. The symbols are gathered from the games themselves, through the registry:
what their drawings declare and what a board of each shows in its pictures and its player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.games import all_games

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / "store" / "render", ROOT / "store" / "api" / "static")
SOURCES = (".py", ".js", ".css", ".html")
# the clue and piece words the games use, beside the registry's names and titles
CLUE_WORDS = {"cage", "star", "queen", "sun", "moon", "killer", "sudoku", "tango", "queens", "starbattle"}


def _words(text: str) -> list[str]:
    """The words of a text, identifiers split at underscores and humps ("cageOf": cage, of), lower case."""
    return [part.lower() for run in re.findall(r"[A-Za-z]+", text)
            for part in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", run)]


def _game_terms() -> tuple[set[str], set[str]]:
    """(symbols, words): every symbol some game draws, and every game's name, title words and one-word
    symbol names, with the clue words."""
    symbols: set[str] = set()
    words = set(CLUE_WORDS)
    for game in all_games():
        symbols.update(game.drawing.symbols())
        words.add(game.name.lower())
        words.update(_words(game.title))
        board, _ = game.generate(game.rules(**game.sample_request()), 1)
        _, data = game.solve(board)
        picture = game.picture(data, solution=True)
        spec = game.play(data)
        symbols.update(symbol for _, _, symbol, _ in picture.symbols)
        symbols.update(edge.symbol for edge in (*picture.edges, *spec.edges))
        symbols.update(symbol for symbol in (*spec.symbols, *spec.givens, *spec.answer) if symbol)
        words.update(name.lower() for names in spec.words.values() for name in names.values() if name.isalpha())
    return symbols, words


def offences(text: str, symbols: set[str], words: set[str]) -> list[str]:
    """What in `text` names a game: a symbol (one in ASCII only as a quoted literal, since "=" and
    digits are everywhere in code) or a word (or its plural)."""
    found = []
    for symbol in sorted(symbols):
        quoted = [q + symbol + q for q in "\"'`"] if symbol.isascii() else [symbol]
        found.extend(f"symbol {form}" for form in quoted if form in text)
    for word in _words(text):
        if word in words or (word.endswith("s") and word[:-1] in words):
            found.append(f"word {word!r}")
    return found


@pytest.fixture(scope="module")
def terms() -> tuple[set[str], set[str]]:
    return _game_terms()


def test_the_games_declare_symbols_to_look_for(terms: tuple[set[str], set[str]]) -> None:
    symbols, words = terms
    for game in all_games():
        assert game.name in words
    # every game's shapes and edge marks come from its drawing, and some game draws some
    assert any(game.drawing.glyphs for game in all_games()) and any(game.drawing.marks for game in all_games())
    assert all(symbol in symbols for game in all_games() for symbol in game.drawing.symbols())


def test_the_grep_finds_a_game_where_one_is_named(terms: tuple[set[str], set[str]]) -> None:
    symbols, words = terms
    glyph = next(symbol for game in all_games() for symbol in game.drawing.glyphs)
    name = all_games()[0].name
    assert offences(f"const {name}Cells = 1;", symbols, words) == [f"word {name!r}"]
    assert offences(f"if symbol == {glyph!r}:", symbols, words) == [f"symbol {glyph}"]
    assert offences('labels = {"cages": 2}', symbols, words) == ["word 'cages'"]
    assert offences("const start = restart(x === 0);", symbols, words) == []


def test_no_shared_drawing_code_names_a_game(terms: tuple[set[str], set[str]]) -> None:
    symbols, words = terms
    paths = sorted(path for folder in SHARED for path in folder.rglob("*") if path.suffix in SOURCES)
    assert paths
    found = [f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()[:100]}"
             for path in paths
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for what in offences(line, symbols, words)]
    assert not found, "shared drawing code names a game (declare it on the game instead):\n" + "\n".join(found)
