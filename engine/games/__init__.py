"""The game registry: every layer iterates these `Game` objects instead of naming games.

The built-in games are the packages in BUILTIN, each exporting `GAME` under its package's name.
Games from other packages come through entry points of the group "puzzlefleet.games" (ENTRY_POINTS),
each naming a module (or object) that exports `GAME`: installing such a distribution is all it takes.
Without one, a fleet can still name modules that export `GAME` in the environment variable
PUZZLEFLEET_GAMES (comma-separated), and a process can call `register(game)`. The registry loads them
on first use of the full list; asking for one built-in game by name imports that package alone: a
command that makes Queens boards does not pay for importing Star Battle, Sudoku or any other package.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import InvalidBoard, InvalidRules
from engine.games.base import (EdgeClue, Game, GameOptions, Gates, Offer, OptionSpec, Outline, Picture, PlaySpec,
                               StyleGroup, look_up_other_games_options, option, spans)
from engine.games.model import board_schema as _board_schema, board_type as _board_type

BUILTIN = (                 # one game package a line: adding a game adds its line
    "engine.games.queens",
    "engine.games.starbattle",
    "engine.games.sudoku",
    "engine.games.killer",
    "engine.games.tango",
)
ENTRY_POINTS = "puzzlefleet.games"
PLUGINS_VARIABLE = "PUZZLEFLEET_GAMES"

_games: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game (replacing one of the same name); returns it."""
    if not isinstance(game, Game):
        raise TypeError(f"not a Game: {game!r}")
    _games[game.name] = game
    return game


def unregister(name: str) -> None:
    _games.pop(name, None)


def _game_from(source: str, load: Callable[[], Any]) -> Game:
    """The `GAME` of what `load` returns (a module or object); InvalidRules in one line, naming
    `source`, when what it names is missing or exports no Game. (A module that fails in its own
    code stays loud: that is a bug to see whole.)"""
    try:
        exported = getattr(load(), "GAME", None)
    except (ImportError, AttributeError) as exc:
        reason = next(iter(str(exc).splitlines()), type(exc).__name__)
        raise InvalidRules(f"{source}: cannot load it: {reason}") from None
    if not isinstance(exported, Game):
        raise InvalidRules(f"{source}: exports no Game as GAME (got {type(exported).__name__})")
    return exported


def _module_game(module_name: str, source: str) -> Game:
    return _game_from(source, lambda: importlib.import_module(module_name))


def _plugin_games() -> list[Game]:
    """The games of other packages: entry points first, then the modules PUZZLEFLEET_GAMES names."""
    from importlib.metadata import entry_points     # read only when every game is listed
    modules = [name.strip() for name in os.environ.get(PLUGINS_VARIABLE, "").split(",") if name.strip()]
    return [*(_game_from(f"entry point {point.name} = {point.value} ({ENTRY_POINTS})", point.load)
              for point in entry_points(group=ENTRY_POINTS)),
            *(_module_game(name, f"{PLUGINS_VARIABLE}: {name}") for name in modules)]


def _load() -> None:
    global _loaded
    if _loaded:
        return
    found: dict[str, Game] = {}
    # All or nothing: one that fails leaves the registry as it was.
    for game in (*(_module_game(name, name) for name in BUILTIN), *_plugin_games()):
        found.setdefault(game.name, game)
    registered = dict(_games)       # by register(), or one built-in imported alone by game_named
    _games.clear()
    _games.update({name: registered.pop(name, game) for name, game in found.items()}, **registered)
    _loaded = True


def all_games() -> tuple[Game, ...]:
    """Every registered game, built-in ones first."""
    _load()
    return tuple(_games.values())


def names() -> tuple[str, ...]:
    return tuple(game.name for game in all_games())


def bands() -> tuple[str, ...]:
    """Every band some game's request may ask for, in the order the games list them."""
    return tuple(dict.fromkeys(band for game in all_games() for band in game.bands))


def is_band(value: Any) -> bool:
    """Whether some game lists this band (`value in bands()`), asking the games already imported
    first: a command naming its game before the band imports no other game."""
    if any(value in game.bands for game in _games.values()):
        return True
    return value in bands()


def style_names() -> tuple[str, ...]:
    """Every drawing style some game's request may ask for, in the order the games list them."""
    return tuple(dict.fromkeys(name for game in all_games() for name in game.style_names()))


def check_style_filter(style: str, *, game: str | None = None, size: int | None = None,
                       **rules: Any) -> None:
    """InvalidRules (one line) when no board matching these filters (None: any) can have been drawn
    in `style`: a listing's filter by style is checked as a request's style is."""
    if style not in style_names():
        raise InvalidRules(f"unknown style {style!r}: expected one of {', '.join(style_names())}")
    for candidate in all_games() if game is None else (game_named(game),):
        if any(style in group.styles for group in candidate.style_groups() if group.matches(size=size, **rules)):
            return
    where = " ".join(f"{name} {value}" for name, value in (("game", game), ("size", size), *rules.items())
                     if value is not None)
    raise InvalidRules(f"style {style!r} draws no boards of {where}")


def offer_table() -> str:
    """What every game offers, a line per kind of request: its sizes and bands, and the sizes where a
    band is never found (which a request is refused at once)."""
    lines = []
    for game in all_games():
        for offer in game.offers():
            bands = []
            for band in offer.bands:
                missing = [size for size in offer.sizes if (size, band) in offer.unreachable]
                if len(missing) < len(offer.sizes):
                    bands.append(band + (f" (not at {spans(missing)})" if missing else ""))
            sizes = f"{offer.sizes[0]}×{offer.sizes[0]}" if len(offer.sizes) == 1 else spans(offer.sizes)
            lines.append(f"  {game.request_words(offer.options)} {sizes}: {', '.join(bands)}")
    return "\n".join(lines)


def _merged(specs: Any) -> tuple[OptionSpec, ...]:
    by_name: dict[str, OptionSpec] = {}
    for spec in specs:
        by_name[spec.name] = by_name[spec.name].merged(spec) if spec.name in by_name else spec
    return tuple(by_name.values())


def _games_for(name: str | None) -> tuple[Game, ...]:
    """The games whose options a request naming game `name` is read against: every game; but when a
    game of another package cannot be loaded and `name` is a built-in one, the built-in games (a
    broken plugin does not stop `generate --game queens`, and a built-in game still refuses an option it lacks by name)."""
    try:
        return all_games()
    except InvalidRules:
        if name is None or f"engine.games.{name}" not in BUILTIN:
            raise
        return tuple(_find(module.rsplit(".", 1)[1]) for module in BUILTIN)


def option_specs(game: str | None = None) -> tuple[OptionSpec, ...]:
    """Every request option some game takes, once each (as the games declaring it take it between
    them), in the order the games list them: the command line's flags, a task's JSON keys. `game`:
    the game the request names, if known (_games_for)."""
    return _merged(spec for one in _games_for(game) for spec in one.option_specs())


def own_option_specs(name: Any) -> tuple[OptionSpec, ...] | None:
    """The request options of the built-in game `name`, importing no other game; None when `name` is
    no built-in game. A request naming that game and giving only its options reads the same against
    these as against every game's (option_specs: each merged spec takes at least every value the
    game's own does)."""
    if not isinstance(name, str) or f"engine.games.{name}" not in BUILTIN:
        return None
    return game_named(name).option_specs()


def option_spec(name: str) -> OptionSpec | None:
    """The request option of this name some game takes, or None."""
    return next((spec for spec in option_specs() if spec.name == name), None)


look_up_other_games_options(option_spec)      # a game asked for an option it lacks asks every game


_recorded: list[tuple[tuple[Game, ...], tuple[OptionSpec, ...]]] = []


def recorded_option_specs(game: str | None = None) -> tuple[OptionSpec, ...]:
    """Every option some game's boards record in their rules: the read API's and listings' filters.
    `game`: the game the request names, if known (_games_for)."""
    games = _games_for(game)
    # Kept for the registry as it is: a listing asks once a board, and merging costs more than the page.
    if _recorded and len(_recorded[0][0]) == len(games) and all(a is b for a, b in zip(_recorded[0][0], games)):
        return _recorded[0][1]
    specs = _merged(spec for one in games for spec in one.recorded_options())
    _recorded[:] = [(games, specs)]
    return specs


def _find(name: Any) -> Game | None:
    """The game of this name or None, importing a built-in one alone; InvalidRules (one line) when
    the full list is needed and a game of another package cannot be loaded."""
    if not isinstance(name, str):
        return None
    if name not in _games and not _loaded and f"engine.games.{name}" in BUILTIN:
        register(_module_game(f"engine.games.{name}", f"engine.games.{name}"))
    if name not in _games:
        _load()
    return _games.get(name)


def game_named(name: Any) -> Game:
    """The game of this name; InvalidRules for an unknown one."""
    game = _find(name)
    if game is None:
        raise InvalidRules(f"unknown game {name!r}: expected one of {', '.join(names())}")
    return game


def is_game(name: Any) -> bool:
    return _find(name) is not None


def game_of(data: Any) -> Game:
    """The game a board JSON belongs to (its "game" field); InvalidBoard when there is none."""
    if not isinstance(data, Mapping):
        raise InvalidBoard("a board must be a JSON object")
    try:
        return game_named(data.get("game"))
    except InvalidRules as exc:
        raise InvalidBoard(f"game: {exc}") from None


def parse_rules(text: str) -> Any:
    """Rules from their text form ("queens 8", "starbattle 10 2", "sudoku 9", ...)."""
    words = text.split() if isinstance(text, str) else []
    if not words:
        raise InvalidRules(f"cannot read rules from {text!r}")
    return game_named(words[0]).parse_rules(text)


def board_from_json(data: Any) -> Any:
    """A board value of any game from the board JSON (InvalidBoard when malformed)."""
    return game_of(data).board_from_json(data)


def board_schema() -> dict[str, Any]:
    """The JSON Schema of a board of any registered game."""
    return _board_schema([game.model for game in all_games()])


def board_type() -> Any:
    """The type of a board of any registered game (the read API's model of a board answer)."""
    return _board_type([game.model for game in all_games()])


def board_schema_text() -> str:
    """The schema as published (docs/board.schema.json, GET /schema/board.json): stable JSON text."""
    return json.dumps(board_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


__all__ = ["BUILTIN", "ENTRY_POINTS", "EdgeClue", "Game", "GameOptions", "Gates", "Offer", "OptionSpec", "Outline",
           "PLUGINS_VARIABLE", "Picture", "PlaySpec", "StyleGroup", "bands", "board_from_json", "board_schema",
           "board_schema_text", "board_type", "check_style_filter", "all_games", "game_named", "game_of", "is_game", "names", "option",
           "offer_table", "option_spec", "option_specs", "own_option_specs", "parse_rules", "recorded_option_specs", "register", "style_names",
           "unregister"]
