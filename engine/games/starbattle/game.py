"""The Star Battle family as Game objects: Queens (1 star, optionally the chess diagonals) and Star
Battle (1-3 stars). Both are one class; `engine.games.queens` and this package each export an
instance."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core.grid import area_cells, lines
from engine.core.regions import colour_areas
from engine.errors import InvalidBoard, InvalidRules, PuzzleError
from engine.games.base import (Game, GameOptions, Gates, Offer, Picture, PlaySpec, StyleGroup, apart, at_most,
                               hints_from_steps, option)
from engine.games.starbattle import styles as drawing_styles
from engine.games.starbattle.board import Board, region_letter
from engine.games.starbattle.count import count_solutions
from engine.games.starbattle.generator import band_distance, describe, generate, nudge
from engine.games.starbattle.glyphs import CROSS, DRAWING, STAR
from engine.games.starbattle.grade import BANDS
from engine.games.starbattle.model import StarBoard
from engine.games.starbattle.pzpr import from_url, to_url
from engine.games.starbattle.reach import UNREACHABLE
from engine.games.starbattle.rules import DIAGONAL_SIZE_RANGE, SIZE_RANGE, Rules

# 256-colour terminal backgrounds that stay distinguishable side by side (Okabe-Ito first).
_BACKGROUNDS = [214, 117, 36, 227, 32, 166, 175, 250, 108, 180, 147, 223, 66, 152, 217, 144, 189, 137,
                109, 230]


_STARS = {"help": "stars per unit, for games with stars (default: the game's)", "ge": min(SIZE_RANGE),
          "le": max(SIZE_RANGE), "refusal": "{game} has no stars"}


class QueensOptions(GameOptions):
    stars: int = option(1, **_STARS)       # only 1: Queens sends any other count to Star Battle
    diagonals: bool = option(False, help="no two stars on a diagonal, for games with that rule", absent=False,
                             refusal="{game} has no diagonal rule", label="diag")


class StarBattleOptions(GameOptions):
    stars: int = option(2, **_STARS)


class StarFamily(Game):
    """Stars in an n x n grid of n regions: k per row, column and region, no two touching."""

    model = StarBoard
    bands = BANDS
    input_mode = "marks"
    text_form = "a puzz.link starbattle URL"
    drawing = DRAWING

    def __init__(self, name: str, title: str, *, default_stars: int, options: type[GameOptions],
                 unreachable: Mapping[tuple[Rules, str], str]) -> None:
        """`unreachable`: the (rules, band) no board is found in, with why (the member's own package
        measures them)."""
        self.name = name                    # type: ignore[misc]  # an instance per family member
        self.title = title                  # type: ignore[misc]
        self.default_stars = default_stars
        self.options = options              # type: ignore[misc]
        self._unreachable = dict(unreachable)
        self._offers: tuple[Offer, ...] | None = None

    # --- rules ------------------------------------------------------------------------------------

    def may_record(self, name: str, value: Any) -> bool:
        # One star per unit is Queens' and more are Star Battle's (Rules.game), whatever the spec allows.
        if name == "stars" and isinstance(value, int) and (value == 1) != (self.default_stars == 1):
            return False
        return super().may_record(name, value)

    def rules(self, *, size: int, band: str | None = None, **options: Any) -> Rules:
        chosen = self.read_options(options).model_dump()
        if self.default_stars == 1 and chosen["stars"] != 1:
            raise InvalidRules(f"{self.name} has 1 star per unit; use --game starbattle for more")
        self.check_band(band)
        self.check_offered(size, chosen, band)
        rules = Rules(size, chosen["stars"], chosen.get("diagonals", False))
        if rules.game != self.name:
            raise InvalidRules(f"{rules.stars} star(s) per unit is {rules.game}, not {self.name}")
        return rules

    def sample_request(self) -> dict[str, Any]:
        return {"size": 6} if self.default_stars == 1 else {"size": 8, "stars": self.default_stars}

    def parse_rules(self, text: str) -> Rules:
        rules = Rules.parse(text)
        if rules.game != self.name:
            raise InvalidRules(f"cannot read {self.name} rules from {text!r}")
        return rules

    def _all_rules(self) -> list[Rules]:
        """Every rules value this game takes, by stars, then diagonals, then size."""
        found = []
        for stars, plain in SIZE_RANGE.items():
            for diagonals in (False, True) if "diagonals" in self.options.model_fields and stars == 1 else (False,):
                low, high = DIAGONAL_SIZE_RANGE if diagonals else plain
                found.extend(rules for size in range(low, high + 1)
                             if (rules := Rules(size, stars, diagonals)).game == self.name)
        return found

    def offers(self) -> tuple[Offer, ...]:
        """One offer per stars and diagonal rule, over the sizes `Rules` takes for them."""
        if self._offers is None:
            grouped: dict[tuple[tuple[str, Any], ...], list[Rules]] = {}
            for rules in self._all_rules():
                options = tuple((name, getattr(rules, name)) for name in self.options.model_fields)
                grouped.setdefault(options, []).append(rules)
            self._offers = tuple(
                Offer(dict(options), tuple(rules.size for rules in group), self.bands,
                      {(rules.size, band): why for (rules, band), why in self._unreachable.items() if rules in group})
                for options, group in grouped.items())
        return self._offers

    # --- drawing styles ---------------------------------------------------------------------------

    def styles(self, rules: Rules) -> tuple[str, ...]:
        default = drawing_styles.default_for(rules).NAME
        others = (name for name in drawing_styles.names()
                  if name != default and drawing_styles.named(name).available(rules))
        return (default, *others)

    def style_groups(self) -> tuple[StyleGroup, ...]:
        groups: list[StyleGroup] = []
        for rules in self._all_rules():
            spec = {"stars": rules.stars, "diagonals": rules.diagonals}
            offered = self.styles(rules)
            last = groups[-1] if groups else None
            if last is not None and last.rules == spec and last.styles == offered and last.sizes[1] == rules.size - 1:
                groups[-1] = StyleGroup(spec, (last.sizes[0], rules.size), offered)
            else:
                groups.append(StyleGroup(spec, (rules.size, rules.size), offered))
        return tuple(groups)

    # --- boards -----------------------------------------------------------------------------------

    def board_from_json(self, data: Any) -> Board:
        model = self.validate(data)
        assert isinstance(model, StarBoard)
        if model.game != self.name:
            raise InvalidBoard(f"game: not {self.name}")
        n = model.rules.size
        rules = Rules(n, model.rules.stars, model.rules.diagonals)
        cells = sorted(r * n + c for r, c in model.solution)
        return Board(rules, tuple(label for row in model.regions for label in row), tuple(cells), model.seed)

    def parse_text(self, line: str) -> Board | None:
        if "starbattle/" not in line:
            return None
        board = from_url(line)
        return board if board.game == self.name else None

    def generate(self, rules: Rules, seed: int, *, band: str | None = None,
                 timeout: float | None = None, style: str | None = None) -> tuple[Board, Any]:
        # One message for a style these rules do not take, whichever layer asked.
        return generate(rules, seed, band=band, timeout=timeout, style=self.check_style(rules, style))

    def solutions(self, board: Board, limit: int) -> list[tuple[int, ...]]:
        return list(count_solutions(board.rules, board.regions, limit).solutions)

    def with_solution(self, board: Board, solution: tuple[int, ...]) -> Board:
        return Board(board.rules, board.regions, tuple(solution), board.seed)

    def solution_json(self, board: Board, solution: tuple[int, ...] | None) -> list[list[int]]:
        return [[cell // board.n, cell % board.n] for cell in solution or ()]

    def describe(self, board: Board) -> dict[str, Any]:
        return describe(board)

    def nudge(self, board: Board, rng: random.Random) -> Board | None:
        return nudge(board, rng)

    def band_distance(self, board: Board, band: str) -> tuple[int, int] | None:
        self.check_band(band)
        return band_distance(board, band)

    def gates(self, board: Board) -> Gates:
        # the gates of the style the map looks most like, as `describe` scores its shape in
        return drawing_styles.closest(board.rules, board.regions).gates(board.rules)

    def resemblance(self, a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
        """The share of stars two boards' answers have on the same cells, of the board with fewer stars;
        0 for boards of different games or sizes. On the contract's scale as it stands: above 0.6 the
        boards are near-duplicates, while two 10×10 two-star answers made apart share about a fifth."""
        if a.get("game") != b.get("game") or (a.get("rules") or {}).get("size") != (b.get("rules") or {}).get("size"):
            return 0.0
        first, second = ({(int(r), int(c)) for r, c in board.get("solution") or ()} for board in (a, b))
        if not first or not second:
            return 0.0
        return len(first & second) / min(len(first), len(second))

    def daily_positions(self) -> tuple[tuple[str, ...], ...]:
        """The family's positions, given once, by its Star Battle member (the Queens one gives none):
        Star Battle 10×10 two-star easy to expert, then Queens 8×8 easy, 9×9 medium and hard. They are
        the set's first seven positions, kept in this order so that a date's seeds for them do not move."""
        if self.default_stars == 1:
            return ()
        return (*((str(Rules(10, self.default_stars)), band) for band in self.bands),
                (str(Rules(8)), "easy"), (str(Rules(9)), "medium"), (str(Rules(9)), "hard"))

    def to_url(self, board: Board) -> str:
        if board.rules.diagonals:
            # puzz.link has no type with the diagonal rule: a 1-star Star Battle URL has other answers.
            raise PuzzleError("puzz.link has no Queens with the diagonal rule")
        return to_url(board)

    # --- for people -------------------------------------------------------------------------------

    def text(self, data: Mapping[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
        """The header, the puzzle (each cell its region's letter), then, with the solution, the grid
        again with a star (* or ★) on the answer's cells."""
        board = self.validate_grid(data)
        assert isinstance(board, StarBoard)
        rules = board.rules
        lines = [f"# {board.id or '?'} {board.game} {rules.size}x{rules.size} stars={rules.stars}"
                 + (" diagonals" if rules.diagonals else "")]
        grids = [set()] + ([{(r, c) for r, c in board.solution}] if with_solution and board.solution else [])
        shade = colour_areas(board.regions, len(_BACKGROUNDS)) if colour else {}   # touching regions differ
        for number, stars in enumerate(grids):
            if number:
                lines.append("solution")
            for r, row in enumerate(board.regions):
                if colour:
                    lines.append("".join(
                        f"\x1b[48;5;{_BACKGROUNDS[shade[label]]}m\x1b[30m "
                        f"{'★' if (r, c) in stars else region_letter(label)} \x1b[0m"
                        for c, label in enumerate(row)))
                else:
                    lines.append(" ".join("*" if (r, c) in stars else region_letter(label)
                                          for c, label in enumerate(row)))
        return "\n".join(lines)

    def rules_sentence(self, data: Mapping[str, Any]) -> str:
        rules = data.get("rules") or {}
        k = rules.get("stars") or 1
        text = (f"Place {'one star' if k == 1 else f'{k} stars'} in every row, every column and every "
                "coloured region; no two stars touch, not even diagonally")
        return text + ("; no two stars share a diagonal line." if rules.get("diagonals") else ".")

    def _rules_sentence_ms(self, data: Mapping[str, Any]) -> str:
        """The rules in Malay, for the player's `?lang=ms`."""
        rules = data.get("rules") or {}
        k = rules.get("stars") or 1
        text = (f"Letakkan {'satu bintang' if k == 1 else f'{k} bintang'} dalam setiap baris, setiap lajur "
                "dan setiap kawasan berwarna; tiada dua bintang yang bersentuhan, walaupun secara pepenjuru")
        return text + ("; tiada dua bintang yang berkongsi garis pepenjuru." if rules.get("diagonals") else ".")

    def picture(self, data: Mapping[str, Any], *, solution: bool = False) -> Picture:
        board = self.validate_grid(data)
        assert isinstance(board, StarBoard)
        stars = tuple(sorted((r, c, STAR, False) for r, c in board.solution)) if solution else ()
        return Picture(board.rules.size, tuple(map(tuple, board.regions)), True, symbols=stars)

    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        board = self.validate(data)
        assert isinstance(board, StarBoard)
        n = board.rules.size
        rows_and_columns = lines(n)
        regions = area_cells(board.regions)
        # the names the solve path's sentences use: rows and columns from 1, regions by letter
        named = {f"row {i + 1}": rows_and_columns[i] for i in range(n)}
        named.update({f"column {i + 1}": rows_and_columns[n + i] for i in range(n)})
        named.update({f"region {region_letter(label)}": cells for label, cells in enumerate(regions)})
        units = rows_and_columns + regions
        answer = [""] * (n * n)
        for r, c in board.solution:
            answer[r * n + c] = STAR
        # no two stars touch, nor (classic Queens) share a diagonal line
        near = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        far = [(d * sr, d * sc) for d in range(2, n) for sr in (-1, 1) for sc in (-1, 1)] if board.rules.diagonals else []
        return PlaySpec(
            mode="marks", n=n, areas=tuple(map(tuple, board.regions)), coloured=True, units=units,
            answer=tuple(answer), symbols=(CROSS, STAR), notes=(CROSS,),
            checks=(*(at_most(STAR, board.rules.stars, unit) for unit in units), apart(STAR, near + far)),
            letters=tuple(map(region_letter, range(n))), hints=hints_from_steps(board.steps, named),
            rules={"ms": self._rules_sentence_ms(data)},
            words={"en": {STAR: "star", CROSS: "crossed out"}, "ms": {STAR: "bintang", CROSS: "dipangkah"}})


GAME = StarFamily("starbattle", "Star Battle", default_stars=2, options=StarBattleOptions, unreachable=UNREACHABLE)
