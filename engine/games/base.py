"""The game contract: everything the layers above the engine may know about a game, as one object.

A game is one package under `engine/games/<name>/` that exports `GAME`, an instance of a `Game`
subclass; the registry (`engine.games`) lists them. The command line, the fleet, the store, the
pictures, the API and the player ask the game object, never the game's name, so adding a game touches
no module outside its package (see docs/ARCHITECTURE.md, "Adding a game").

A *board value* is the game's own immutable board type. It must have `game` (the name), `fingerprint`
(64 hex characters, the same for every symmetric or relabelled copy), `id` (its first 16) and
`to_json()` (the board JSON contract, see `engine.games.model`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.errors import InvalidBoard, InvalidRules, PuzzleError
from engine.games.model import BoardModel, Step, first_error, validate_board
from engine.ladder.tune import Distance, Tuned, tune as tune_loop

InputMode = Literal["marks", "digits"]
_NOT_DRAWN = ("steps", "difficulty", "fun", "shape", "generation")


class GameOptions(BaseModel):
    """A game's request options beyond its size and band, one field per option, each declared with
    `option(...)`: its name, type, range, default and help. The layers above read them as `OptionSpec`s
    (the command line's flags, a task's JSON keys, the read API's filters) and never name one."""
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


_REFUSAL = "{game} has no {name}"


def option(default: Any, *, help: str, ge: int | None = None, le: int | None = None, absent: Any = None,
           refusal: str | None = None, metavar: str | None = None, label: str | None = None) -> Any:
    """One field of a `GameOptions` model. `absent`: the value a game without this option has (taken
    as no request at all by such a game, and matched by its boards in a filter); `refusal`: the line a
    game without it says to any other value ("{game}" is its name); `metavar`: the flag's value name;
    `label`: the word a listing shows for a yes/no option in force."""
    extra = {"absent": absent, "refusal": refusal, "metavar": metavar, "label": label}
    return Field(default, description=help, ge=ge, le=le, json_schema_extra=extra)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One request option as every layer above the engine sees it (from a `GameOptions` field)."""
    name: str                       # the JSON key, the API filter; --name-with-dashes on the command line
    kind: type                      # int, bool or str
    default: Any
    help: str
    choices: tuple[str, ...] = ()   # str options: the values taken
    low: int | None = None          # int options: the range
    high: int | None = None
    absent: Any = None
    refusal: str = _REFUSAL
    metavar: str | None = None
    label: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def refuse(self, game: str) -> InvalidRules:
        return InvalidRules(self.refusal.format(game=game, name=self.name))

    def check(self, value: Any) -> str | None:
        """Why `value` is not one this option takes (one line), or None."""
        if self.kind is bool:
            return None if isinstance(value, bool) else f"{self.name} must be true or false, not {value!r}"
        if self.kind is int:
            if not isinstance(value, int) or isinstance(value, bool) or not (
                    (self.low is None or value >= self.low) and (self.high is None or value <= self.high)):
                bounds = "" if self.low is None and self.high is None else f" {self.low}..{self.high}"
                return f"{self.name} must be a whole number{bounds}, not {value!r}"
            return None
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            return f"unknown {self.name} {value!r}: expected one of {', '.join(self.choices)}"
        return None

    def merged(self, other: OptionSpec) -> OptionSpec:
        """The option as the games declaring it take it between them: the widest range, every choice."""
        if other.kind is not self.kind:
            raise TypeError(f"option {self.name} is declared as {self.kind.__name__} and {other.kind.__name__}")
        low = None if self.low is None or other.low is None else min(self.low, other.low)
        high = None if self.high is None or other.high is None else max(self.high, other.high)
        choices = tuple(dict.fromkeys(self.choices + other.choices))
        return replace(self, low=low, high=high, choices=choices)


@cache          # a model's fields never change: every task and filter asks again
def option_specs_of(model: type[GameOptions]) -> tuple[OptionSpec, ...]:
    """The options a `GameOptions` model declares, in its field order."""
    specs = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        annotation, choices = info.annotation, ()
        if get_origin(annotation) is Literal:
            choices, annotation = tuple(get_args(annotation)), str
        bounds = {key: getattr(rule, key) for rule in info.metadata for key in ("ge", "le") if hasattr(rule, key)}
        specs.append(OptionSpec(name, annotation, info.default, info.description or "", choices,
                                bounds.get("ge"), bounds.get("le"), extra.get("absent"),
                                extra.get("refusal") or _REFUSAL, extra.get("metavar"), extra.get("label")))
    return tuple(specs)


@dataclass(frozen=True, slots=True)
class StyleGroup:
    """The drawing styles a request may ask for, the default first, for the rules of sizes
    `sizes[0]..sizes[1]` whose other fields are `rules` (as in the board JSON's rules, less the
    size). What `GET /games` lists, and what a filter by style is checked against when not all the
    rules are known."""
    rules: Mapping[str, Any]
    sizes: tuple[int, int]
    styles: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"rules": dict(self.rules), "sizes": list(self.sizes), "styles": list(self.styles)}

    def matches(self, *, size: int | None = None, **rules: Any) -> bool:
        """Whether rules with these fields (None: any) fall in this group."""
        if size is not None and not self.sizes[0] <= size <= self.sizes[1]:
            return False
        return all(value is None or self.rules.get(name, value) == value for name, value in rules.items())


@dataclass(frozen=True, slots=True)
class Gates:
    """The bars a generated board must clear to be kept, on its fun and shape scores (0-100); None: the
    game's generator has no such gate. The generator and `solve` read them from the same `Game.gates`."""
    min_fun: int | None = None
    min_shape: int | None = None

    def verdict(self, *, fun: int | None, shape: int | None) -> dict[str, bool]:
        """Per gate the game has, whether scores like these pass it (a missing score fails)."""
        out = {}
        for gate, minimum, score in (("fun", self.min_fun, fun), ("shape", self.min_shape, shape)):
            if minimum is not None:
                out[gate] = score is not None and score >= minimum
        return out


@dataclass(frozen=True, slots=True)
class Outline:
    """A group of cells outlined together, whatever it means in the game (cells whose digits add up
    to its label, say): a dashed line inset inside the cells, and `label` small in the corner of its
    first cell (the top-most, then left-most). Cells are numbered r * n + c."""
    label: str
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EdgeClue:
    """A clue standing on the edge between two side-by-side cells (r * n + c, the upper or left one
    first), drawn as `symbol` centred on that edge: as lines where the game's `Drawing` has a mark for
    it, else as type."""
    cells: tuple[int, int]
    symbol: str


Point = tuple[float, float]
Stroke = tuple[float, float, float, float]      # a line segment (x0, y0, x1, y1)


@dataclass(frozen=True, slots=True)
class Glyph:
    """A cell symbol drawn as a shape rather than type, so that it looks the same in SVG, PNG and the
    player whatever fonts a machine has: `polygons(cx, cy, size)` gives the closed polygons that draw it
    centred on (cx, cy) in a cell `size` wide (pure arithmetic), filled with `fill` and edged with
    `stroke` (CSS colours)."""
    polygons: Callable[[float, float, float], list[list[Point]]]
    fill: str
    stroke: str


@dataclass(frozen=True, slots=True)
class EdgeMark:
    """A clue on an edge drawn as lines rather than type: `strokes(cx, cy, cell)` gives the segments
    that draw it centred on (cx, cy), the middle of the edge, between cells `cell` wide."""
    strokes: Callable[[float, float, float], list[Stroke]]


@dataclass(frozen=True, slots=True)
class Drawing:
    """How a game's symbols look, declared by the game and composed by the pictures and the player:
    `glyphs` are the cell symbols drawn as shapes and `marks` the clues on edges drawn as lines, by
    symbol; every other symbol is drawn as type."""
    glyphs: Mapping[str, Glyph] = field(default_factory=dict)
    marks: Mapping[str, EdgeMark] = field(default_factory=dict)

    def symbols(self) -> tuple[str, ...]:
        """Every symbol this drawing draws its own way."""
        return (*self.glyphs, *self.marks)


@dataclass(frozen=True, slots=True)
class Picture:
    """What to draw, in grid terms, from game-neutral parts: `areas` gives each cell's area (a region,
    a Sudoku box, or one area for a grid without them; thick lines run between areas), `coloured`
    fills areas with the palette (else paper white), `symbols` are what stands in cells as (row,
    column, symbol, given?): type, or a shape where the game's `Drawing` has a glyph for the symbol;
    `outlines` and `edges` as their types say. Rows and columns from 0."""
    n: int
    areas: tuple[tuple[int, ...], ...]
    coloured: bool
    symbols: tuple[tuple[int, int, str, bool], ...] = ()
    outlines: tuple[Outline, ...] = ()
    edges: tuple[EdgeClue, ...] = ()


def spans(numbers: Sequence[int]) -> str:
    """Whole numbers as people write a list of them: "6–11", "4, 6, 8, 10, 12", "4–7, 9"."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


@dataclass(frozen=True, slots=True)
class Offer:
    """One kind of request a game takes: its options in full (as `read_options(...).model_dump()` gives
    them), the sizes it takes with them, the bands a request may ask for, and the (size, band) cells no
    board is ever found in, each with why (a clause, from the game's own measurements: see its package).
    A request for such a cell is refused at once instead of drawing boards until its attempts run out."""
    options: Mapping[str, Any]
    sizes: tuple[int, ...]
    bands: tuple[str, ...]
    unreachable: Mapping[tuple[int, str], str] = field(default_factory=dict)

    def bands_at(self, size: int) -> tuple[str, ...]:
        """The bands a board of this size can be had in."""
        return tuple(band for band in self.bands if (size, band) not in self.unreachable)


# Conflict checks: what the player page marks as a conflict while a person plays, declared by the game
# from these few game-neutral rules (JSON, read by the page). A cell's "symbol" is what the player put
# there or what was given; a game's memo marks (PlaySpec.notes) never count.

def at_most(symbol: str, count: int, cells: Sequence[int]) -> dict[str, Any]:
    """More than `count` of `symbol` among `cells` is a conflict (a full count also lets the page's
    auto-memo fill the rest of the cells)."""
    return {"check": "at_most", "symbol": symbol, "count": count, "cells": list(cells)}


def apart(symbol: str, offsets: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """Two cells holding `symbol` whose (row, column) difference is one of `offsets` conflict."""
    return {"check": "apart", "symbol": symbol, "offsets": [list(offset) for offset in offsets]}


def no_run(length: int) -> dict[str, Any]:
    """`length` cells side by side in a row or column holding the same symbol conflict."""
    return {"check": "no_run", "length": length}


def alike(a: int, b: int) -> dict[str, Any]:
    """Cells `a` and `b` must hold the same symbol."""
    return {"check": "same", "cells": [a, b]}


def unlike(a: int, b: int) -> dict[str, Any]:
    """Cells `a` and `b` must hold different symbols."""
    return {"check": "different", "cells": [a, b]}


def distinct(cells: Sequence[int]) -> dict[str, Any]:
    """A symbol twice among `cells` is a conflict."""
    return {"check": "distinct", "cells": list(cells)}


def adds_up(total: int, cells: Sequence[int]) -> dict[str, Any]:
    """The symbols in `cells`, read as numbers and all different, add up to `total`: a conflict once
    they are all filled and do not; for the selected cell the page lists the sets that still fit."""
    return {"check": "sum", "total": total, "cells": list(cells)}


@dataclass(frozen=True, slots=True)
class PlaySpec:
    """What the player page needs, whatever the game, from game-neutral parts.

    `mode` says how a cell takes input: "marks", a tap cycles it through `symbols` and back to empty
    (the page draws them as the pictures do); "digits", a tap selects it and a pad of `symbols` fills
    it, with pencil notes. `notes` are the marks among `symbols` that are the player's own memos (a ×
    for "no star here"): the answer never needs one, and a drag lays the first of them across cells.
    `givens` and `answer` hold one symbol per cell ("" for none: in `answer`, a cell that any memo or
    nothing completes). `checks` are the conflict rules the page marks (`at_most`, `apart`, `no_run`,
    `alike`, `unlike`, `distinct`, `adds_up`). `areas` gives each cell's area (thick lines between
    them); `units` are the cell lists a digits page highlights around the selected cell. `letters`
    names each area (by label) as words for people do ("region C"), shown on the board on request;
    empty when areas go unnamed. `outlines` and `edges` are drawn as in `Picture`. `hints` is the
    stored solve path (`hints_from_steps`). `rules` is the rules sentence and `words` the names of
    the symbols (for screen readers), by language code, for the languages the game words them in
    beyond English (`words` may hold "en" too). `phrases` are the page's own words the game puts its
    way, by language code then the page's key: "sum" names the selected cell's sum check ("{s}" its
    total), "sums" words the sets that still make it ("{s}", "{k}" cells, "{list}")."""
    n: int
    areas: tuple[tuple[int, ...], ...]
    coloured: bool
    units: tuple[tuple[int, ...], ...]
    answer: tuple[str, ...]
    mode: InputMode = "marks"
    symbols: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    givens: tuple[str, ...] = ()
    checks: tuple[Mapping[str, Any], ...] = ()
    outlines: tuple[Outline, ...] = ()
    edges: tuple[EdgeClue, ...] = ()
    letters: tuple[str, ...] = ()
    hints: tuple[dict[str, Any], ...] = ()
    rules: Mapping[str, str] = field(default_factory=dict)
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    phrases: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.mode not in get_args(InputMode):
            raise ValueError(f"unknown input mode {self.mode!r}: expected one of {', '.join(get_args(InputMode))}")
        if any(note not in self.symbols for note in self.notes):
            raise ValueError("every memo mark must be one of the symbols")

    def to_json(self) -> dict[str, Any]:
        out = {spec.name: getattr(self, spec.name) for spec in fields(self)}
        out["outlines"] = [{"label": o.label, "cells": list(o.cells)} for o in self.outlines]
        out["edges"] = [{"cells": list(e.cells), "symbol": e.symbol} for e in self.edges]
        return out


# How a game finds another game's request option (read_options, for one it lacks): the registry's
# `option_spec`, which the registry (engine.games, importing this module) hands over as it loads.
_other_games_option: Callable[[str], OptionSpec | None] = lambda name: None


def look_up_other_games_options(option_spec: Callable[[str], OptionSpec | None]) -> None:
    """Make `option_spec` (the registry's: an option some game takes, by name) what `Game.read_options`
    asks of an option its game lacks."""
    global _other_games_option
    _other_games_option = option_spec


class Game(ABC):
    """One game. Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]                 # as in the board JSON's "game" and the command line's --game
    title: ClassVar[str]                # for people: "Star Battle"
    model: ClassVar[type[BoardModel]]   # the pydantic model of its board JSON
    bands: ClassVar[tuple[str, ...]]    # the bands a request may ask for, easiest first
    options: ClassVar[type[GameOptions]] = GameOptions   # its request options beyond size and band
    input_mode: ClassVar[InputMode] = "marks"
    text_form: ClassVar[str | None] = None   # a one-line board text `parse_text` reads, for messages
    drawing: ClassVar[Drawing] = Drawing()   # its symbols' shapes and edge marks; the rest drawn as type

    @property
    def queue(self) -> str:
        """The fleet queue its generation tasks go to."""
        return self.name

    # --- rules ---------------------------------------------------------------------------------

    @abstractmethod
    def rules(self, *, size: int, band: str | None = None, **options: Any) -> Any:
        """The rules of a generation request, its options by name as `read_options` takes them, checked
        together with the band (InvalidRules, one line). `str(rules)` is its canonical text form, first
        word the game's name; `rules.to_json()` the board JSON's `rules`."""

    @abstractmethod
    def sample_request(self) -> dict[str, Any]:
        """A small request of this game that makes a board quickly: its size and options as `rules`
        takes them. Every layer's contract test makes a board of each registered game from it."""

    @abstractmethod
    def parse_rules(self, text: str) -> Any:
        """Rules from their text form, whose first word is the game's name: str(rules) parses back."""

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The request options this game takes (its `options` model's fields)."""
        return option_specs_of(self.options)

    def recorded_options(self) -> tuple[OptionSpec, ...]:
        """The options its boards record in their JSON's `rules`: what a listing shows and filters on."""
        rules_model = self.model.model_fields["rules"].annotation
        recorded = getattr(rules_model, "model_fields", {})
        return tuple(spec for spec in self.option_specs() if spec.name in recorded)

    def may_record(self, name: str, value: Any) -> bool:
        """Whether a board of this game can record option `name` at `value` (a listing filtered on it
        then looks at this game's boards): by default, whether it records the option and takes that
        value; a game whose rules send some values to another game says so."""
        spec = next((spec for spec in self.recorded_options() if spec.name == name), None)
        return spec is not None and spec.check(value) is None

    def read_options(self, values: Mapping[str, Any]) -> GameOptions:
        """This game's options from values by name (the flags given, a task's JSON keys): None leaves an
        option at its default, and another game's option given at the value games without it have (its
        `absent`) asks for nothing; any other value the game does not take is refused (InvalidRules,
        one line)."""
        chosen = {}
        own = {spec.name: spec for spec in self.option_specs()}
        for name, value in values.items():
            spec = own.get(name)
            if value is None:
                continue
            if spec is None:
                foreign = _other_games_option(name)     # every game's options: only for one this game lacks
                if foreign is None:
                    raise InvalidRules(f"{self.name} has no option {name!r}")
                if type(value) is type(foreign.absent) and value == foreign.absent:
                    continue
                raise foreign.refuse(self.name)
            problem = spec.check(value)
            if problem:
                raise InvalidRules(problem)
            chosen[name] = value
        try:
            return self.options(**chosen)
        except ValidationError as exc:
            raise InvalidRules(first_error(exc)) from None

    def board_rules(self, rules: Mapping[str, Any]) -> Any:
        """The rules value of a board JSON's `rules` (InvalidRules): the store keeps its `to_json()` and
        its canonical text, `str()`."""
        own = {spec.name: rules[spec.name] for spec in self.option_specs() if spec.name in rules}
        return self.rules(size=rules.get("size"), **own)

    def check_band(self, band: str | None) -> None:
        if band is not None and band not in self.bands:
            raise InvalidRules(f"unknown band {band!r}: expected one of {', '.join(self.bands)}")

    # --- sizes and bands on offer -------------------------------------------------------------------

    def offers(self) -> tuple[Offer, ...]:
        """Every kind of request the game takes, with its sizes and bands (`Offer`); empty for a game
        that declares none: its `rules` alone then checks a request's size, and no size is implied."""
        return ()

    def offer(self, options: Mapping[str, Any]) -> Offer | None:
        """The offer for these options (in full, as `read_options(...).model_dump()` gives them)."""
        return next((offer for offer in self.offers() if dict(offer.options) == dict(options)), None)

    def only_size(self, options: Mapping[str, Any]) -> int | None:
        """The size a request with these options (by name, as `read_options` takes them) gets when it
        names none: the one size they take, or None when they take several (or the game declares none)."""
        offer = self.offer(self.read_options(options).model_dump())
        return offer.sizes[0] if offer is not None and len(offer.sizes) == 1 else None

    def request_words(self, options: Mapping[str, Any], size: int | None = None) -> str:
        """A request as people name it: the game, the size, and the flags of the options set apart from
        their defaults, each as its command-line flag ("GAME 14×14 --FLAG VALUE", "GAME --YES-NO-FLAG")."""
        words = [self.name] + ([f"{size}×{size}"] if size is not None else [])
        for spec in self.option_specs():
            value = options.get(spec.name, spec.default)
            if value != spec.default:
                words.append(spec.flag if spec.kind is bool else f"{spec.flag} {value}")
        return " ".join(words)

    def sizes_offered(self, options: Mapping[str, Any]) -> str | None:
        """The sizes these options (in full) take, in words: "sizes 4–16 with --FLAG", "only 9×9";
        None when the game offers nothing for them."""
        offer = self.offer(options)
        if offer is None:
            return None
        named = self.request_words(options)
        where = f" with {named.split(' ', 1)[1]}" if " " in named else ""
        first = offer.sizes[0]
        return (f"only {first}×{first}" if len(offer.sizes) == 1 else f"sizes {spans(offer.sizes)}") + where

    def check_offered(self, size: Any, options: Mapping[str, Any], band: str | None) -> None:
        """InvalidRules (one line) for a size these options (in full) do not take, naming those they do,
        or for a band no board of that size is ever found in, naming those that are; nothing for options
        the game offers nothing for (its `rules` says what is wrong with them)."""
        offer = self.offer(options)
        if offer is None:
            return
        if size not in offer.sizes:
            raise InvalidRules(f"{self.name} offers {self.sizes_offered(options)}, not {size!r}")
        why = offer.unreachable.get((size, band)) if band is not None else None
        if why is not None:
            at = self.request_words(options, size)
            raise InvalidRules(f"{at} has no {band} boards ({why}); bands at {at.split(' ', 1)[1]}: "
                               f"{', '.join(offer.bands_at(size))}")

    # --- drawing styles ---------------------------------------------------------------------------

    def styles(self, rules: Any) -> tuple[str, ...]:
        """The drawing styles a request for these rules may ask for, the default first; empty for a
        game without styles (the default)."""
        return ()

    def style_groups(self) -> tuple[StyleGroup, ...]:
        """`styles(rules)` for every rules the game takes, as groups of sizes; empty without styles."""
        return ()

    def style_names(self) -> tuple[str, ...]:
        """Every style some request of this game may ask for."""
        return tuple(dict.fromkeys(name for group in self.style_groups() for name in group.styles))

    def check_style(self, rules: Any, style: str | None) -> str | None:
        """The style boards of these rules are drawn in when `style` is asked for (None: the default,
        or None for a game without styles); InvalidRules (one line) for a style these rules do not take."""
        offered = self.styles(rules)
        if style is None:
            return offered[0] if offered else None
        if not offered:
            raise InvalidRules(f"{self.name} has no drawing styles")
        if style not in offered:
            raise InvalidRules(f"no drawing style {style!r} for {rules}: expected one of {', '.join(offered)}")
        return style

    # --- boards ---------------------------------------------------------------------------------

    def validate(self, data: Any) -> BoardModel:
        """The board JSON checked against the game's model; InvalidBoard names the field and why."""
        return validate_board(self.model, data)

    def validate_grid(self, data: Any) -> BoardModel:
        """The model of the board without its solve path and grades: what a picture or a text needs,
        checked at a fraction of the cost of a long path."""
        if isinstance(data, Mapping):
            data = {key: value for key, value in data.items() if key not in _NOT_DRAWN}
        return self.validate(data)

    @abstractmethod
    def board_from_json(self, data: Any) -> Any:
        """The board value of a board JSON (InvalidBoard when malformed); a solution is a claim."""

    def parse_text(self, line: str) -> Any | None:
        """A board from a one-line text form of this game, or None when the line is not one."""
        return None

    @abstractmethod
    def generate(self, rules: Any, seed: int, *, band: str | None = None,
                 timeout: float | None = None, style: str | None = None) -> tuple[Any, Any]:
        """(board, stats): a proved, graded board and the statistics of its making (`stats.rejected`:
        candidates turned away, by reason), drawn in `style` (None: the default for the rules; a game
        without styles refuses any, see `check_style`). A board of a game with styles names its style
        in its JSON (`style`, and `generation.style`). DeadlineExceeded (the stats in args[1]) when
        `timeout` passes first."""

    @abstractmethod
    def solutions(self, board: Any, limit: int) -> list[Any]:
        """Up to `limit` solutions of the board."""

    @abstractmethod
    def with_solution(self, board: Any, solution: Any) -> Any:
        """The board value with this solution filled in."""

    @abstractmethod
    def solution_json(self, board: Any, solution: Any | None) -> Any:
        """A solution in the board JSON's form (None: the empty form)."""

    @abstractmethod
    def describe(self, board: Any) -> dict[str, Any]:
        """The grade, fun (and shape) and solve path of a proved board, as board JSON fields."""

    def gates(self, board: Any) -> Gates:
        """The bars the generator sets for boards like this one (its rules); none by default."""
        return Gates()

    # --- tuning toward a band (engine.ladder.tune) ---------------------------------------------------

    def nudge(self, board: Any, rng: random.Random) -> Any | None:
        """One small change of a proved board that tuning may try (Star Battle family: a boundary cell
        handed to the neighbouring region), drawn with `rng`; None when this try found none. A game
        that offers no changes (the default) is never tuned."""
        return None

    def band_distance(self, board: Any, band: str) -> Distance | None:
        """How far the measured difficulty of a board lies from `band` (the measure the grade's bands
        are cut on): 0, or a tuple starting 0, when in it; None when the board is not proved unique or
        not graded. A game that offers no changes (the default) says so: InvalidRules, one line."""
        raise InvalidRules(f"{self.name} boards are not tuned toward a band")

    def tune(self, board: Any, band: str, rng: random.Random, budget: int, *, deadline: float = 0.0) -> Tuned:
        """The shared tuning loop with this game's changes and measure: `nudge` kept while the board
        stays unique and moves toward `band`, until in it or after `budget` tries. The board must be
        proved and graded (InvalidBoard otherwise)."""
        start = self.band_distance(board, band)
        if start is None:
            raise InvalidBoard("only a proved, graded board can be tuned")
        return tune_loop(board, start, nudge=self.nudge, measure=lambda changed: self.band_distance(changed, band),
                         rng=rng, budget=budget, deadline=deadline)

    def solve(self, board: Any, *, grade: bool = True) -> tuple[str, dict[str, Any]]:
        """Count to 2 and, when unique and `grade` is set, grade: ("unique" | "several" | "none", the
        board's JSON filled in with its solution, status, difficulty, fun, shape, solve path and
        `gates`: per gate of the game's generator, whether it would accept the board)."""
        found = self.solutions(board, 2)
        out = (self.with_solution(board, found[0]) if len(found) == 1 else board).to_json()
        out["solution"] = self.solution_json(board, found[0] if found else None)
        status = {0: "none", 1: "unique"}.get(len(found), "several")
        out["status"] = status
        if status == "unique" and grade:
            out.update(self.describe(self.with_solution(board, found[0])))
            out["gates"] = self.gates(board).verdict(fun=_score(out, "fun"), shape=_score(out, "shape"))
        return status, out

    def to_url(self, board: Any) -> str:
        """The board as a puzz.link URL; PuzzleError when the game has none."""
        raise PuzzleError(f"{self.name} boards have no puzz.link form")

    # --- for people -------------------------------------------------------------------------------

    @abstractmethod
    def text(self, data: Mapping[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
        """The board as text: a header line, then the grid (ANSI colours with `colour`, where the game
        has colours to show)."""

    @abstractmethod
    def rules_sentence(self, data: Mapping[str, Any]) -> str:
        """The rules in one sentence, for print pages and the player."""

    @abstractmethod
    def picture(self, data: Mapping[str, Any], *, solution: bool = False) -> Picture:
        """What to draw for a board JSON (InvalidBoard when it cannot be drawn)."""

    @abstractmethod
    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        """What the player page needs for a board JSON."""

    def resemblance(self, a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
        """How alike two solved boards of this game are to a player, on one scale for every game: 1 for
        the same answer, about 0 for two boards made apart, and above 0.6 near-duplicates, which the
        daily set keeps apart (`jobs.daily.MAX_OVERLAP`: the threshold lives in this scale, so each
        game scales its own measure to it). 0 for boards of different games or rules.

        By default, for answers that are strings of one symbol per cell: the share of cells whose
        answers agree beyond chance, (agree - 1/k) / (1 - 1/k) for answers using k symbols, at least 0.
        Two random 9x9 Sudoku grids agree on about 1/9 of their cells and two grids of two symbols on
        about half: both 0 here, and above 0.6 takes 64% or 80% of the cells alike. A game whose answers
        are mostly blank (a few marks among empty cells) says what matters."""
        if a.get("game") != b.get("game") or a.get("rules") != b.get("rules"):
            return 0.0
        first, second = a.get("solution"), b.get("solution")
        if not isinstance(first, str) or not isinstance(second, str) or len(first) != len(second) or not first:
            return 0.0
        agree = sum(x == y for x, y in zip(first, second)) / len(first)
        chance = 1 / len(set(first) | set(second))
        return agree if chance >= 1 else max(0.0, (agree - chance) / (1 - chance))

    def daily_positions(self) -> tuple[tuple[str, ...], ...]:
        """What this game adds to the default daily set (`jobs/daily.py`, when the operator sets no
        plan), in order: (rules text, band[, drawing style]) per position, each checked as an
        operator's plan is. By default one position: the rules of `sample_request()` in the game's
        second-easiest band, or none when the game does not take that band for them."""
        if not self.bands:
            return ()
        band = self.bands[min(1, len(self.bands) - 1)]
        try:
            return ((str(self.rules(**self.sample_request(), band=band)), band),)
        except PuzzleError:
            return ()

    def heading(self, data: Mapping[str, Any]) -> str:
        """A short title for a board: "Queens 8×8"."""
        n = (data.get("rules") or {}).get("size", "?")
        return f"{self.title} {n}×{n}"


def _score(described: Mapping[str, Any], name: str) -> int | None:
    return (described.get(name) or {}).get("score")


def hints_from_steps(steps: Sequence[Step], units: Mapping[str, Sequence[int]],
                     symbols: Sequence[str] | None = None) -> tuple[dict[str, Any], ...]:
    """The solve path (a board model's steps) as the player teaches it: every step, eliminations
    included, with the cells it places and clears ([row, column], plus the symbol where the game
    places symbols: the step's number itself, a digit, or `symbols[number]` for a game whose steps
    number its symbols), the cells of each unit it reasons about (`units` maps the game's unit names,
    as steps word them, to cells r * n + c; a name it lacks is left out) and its sentence."""
    def cell(entry: Sequence[int]) -> list[Any]:
        if len(entry) < 3:
            return list(entry)
        return [entry[0], entry[1], symbols[entry[2]] if symbols is not None else str(entry[2])]

    return tuple({"place": [cell(place) for place in step.place], "clear": [cell(gone) for gone in step.eliminate],
                  "units": [list(units[name]) for name in step.units if name in units], "why": step.why}
                 for step in steps)


__all__ = ["Drawing", "EdgeClue", "EdgeMark", "Game", "GameOptions", "Gates", "Glyph", "InputMode", "Offer", "OptionSpec",
           "Outline", "Picture", "PlaySpec", "Point", "Stroke", "StyleGroup", "adds_up", "alike", "apart", "at_most",
           "distinct", "hints_from_steps", "look_up_other_games_options", "no_run", "option", "option_specs_of",
           "spans", "unlike"]
