"""9x9 Sudoku as a Game object. Its board, counter and generator are imported by the methods that use
them: listing the games' options (every command that names a game) loads this module alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from engine.core.grid import area_cells, lines
from engine.errors import InvalidBoard, InvalidRules
from engine.games.base import Game, GameOptions, Offer, Picture, PlaySpec, distinct, hints_from_steps, option
from engine.games.sudoku.model import SudokuBoardModel
from engine.games.sudoku.reach import UNREACHABLE
from engine.games.sudoku.rules import BAND_BY, BANDS, CLUE_BANDS, GENERATED, SudokuRules

if TYPE_CHECKING:
    from engine.games.sudoku.board import SudokuBoard

BOXES = tuple(tuple((r // 3) * 3 + c // 3 for c in range(9)) for r in range(9))
UNITS = lines(9) + area_cells(BOXES)        # rows, columns, boxes: the order unit_name counts


class NineByNine(Game):
    """What the 9x9 digit games (Sudoku and Killer Sudoku) share as games: the grid, its boxes drawn
    as uncoloured areas, digits in cells, and the player's pad."""

    input_mode = "digits"

    def sample_request(self) -> dict[str, Any]:
        return {"size": 9}

    def with_solution(self, board: Any, solution: str) -> Any:
        return board.with_solution(solution)

    def solution_json(self, board: Any, solution: str | None) -> str:
        return solution or ""

    def digits_picture(self, givens: str, solution: str | None, *, with_solution: bool, **parts: Any) -> Picture:
        """The boxes, the givens and (with the solution) the digits solved, plus the game's `parts`."""
        if with_solution and not solution:
            raise InvalidBoard("the board has no solution to draw")
        digits = tuple((i // 9, i % 9, given, True) if given != "." else (i // 9, i % 9, solution[i], False)
                       for i, given in enumerate(givens) if given != "." or with_solution)
        return Picture(9, BOXES, False, symbols=digits, **parts)

    def digits_play(self, givens: str, answer: str, hints: tuple[dict[str, Any], ...], rules_ms: str,
                    checks: tuple[Any, ...] = (), **parts: Any) -> PlaySpec:
        """The pad of digits over the boxes: no digit twice in a row, column or box, plus the game's own
        `checks` and `parts`."""
        return PlaySpec(mode="digits", n=9, areas=BOXES, coloured=False, units=UNITS, answer=tuple(answer),
                        symbols=tuple("123456789"), checks=(*map(distinct, UNITS), *checks),
                        givens=tuple("" if ch == "." else ch for ch in givens), hints=hints,
                        rules={"ms": rules_ms}, **parts)


class SudokuOptions(GameOptions):
    band_by: Literal[BAND_BY] = option(     # type: ignore[valid-type]  # BAND_BY's values
        BAND_BY[0], help="bands by the hardest technique needed (default) or, where the game has them, by clue count",
        absent="technique", refusal="{game} bands are by technique only", metavar="HOW")


class Sudoku(NineByNine):
    name = "sudoku"
    title = "Sudoku"
    model = SudokuBoardModel
    bands = BANDS
    options = SudokuOptions
    text_form = "an 81-character Sudoku line"

    def rules(self, *, size: int, band: str | None = None, **options: Any) -> SudokuRules:
        from engine.games.sudoku.generator import check_band
        chosen = self.read_options(options)
        check_band(band, chosen.band_by)
        self.check_offered(size, chosen.model_dump(), band)
        return SudokuRules(size, chosen.band_by)

    def offers(self) -> tuple[Offer, ...]:
        """9×9, banded by technique (the bands a board is generated for) or by clue count."""
        return tuple(Offer({"band_by": how}, (9,), bands, {(9, band): why for (by, band), why in UNREACHABLE.items()
                                                           if by == how})
                     for how, bands in (("technique", GENERATED), ("clues", tuple(CLUE_BANDS))))

    def parse_rules(self, text: str) -> SudokuRules:
        return SudokuRules.parse(text)

    def board_from_json(self, data: Any) -> SudokuBoard:
        model = self.validate(data)
        assert isinstance(model, SudokuBoardModel)
        from engine.games.sudoku.board import SudokuBoard
        return SudokuBoard(model.givens, model.solution, model.seed)

    def parse_text(self, line: str) -> SudokuBoard | None:
        from engine.games.sudoku.board import parse_line
        return parse_line(line) if set(line) <= set(".0123456789") else None

    def generate(self, rules: SudokuRules, seed: int, *, band: str | None = None,
                 timeout: float | None = None, style: str | None = None) -> tuple[SudokuBoard, Any]:
        self.check_style(rules, style)          # no styles: any is refused
        from engine.games.sudoku.generator import generate
        return generate(seed, band=band, band_by=rules.band_by, timeout=timeout)

    def solutions(self, board: SudokuBoard, limit: int) -> list[str]:
        from engine.games.sudoku.count import count_solutions
        return list(count_solutions(board.givens, limit).solutions)

    def describe(self, board: SudokuBoard) -> dict[str, Any]:
        from engine.games.sudoku.generator import describe
        return describe(board)

    def daily_positions(self) -> tuple[tuple[str, ...], ...]:
        """9×9, banded by technique: medium and hard."""
        rules = str(self.rules(size=9))
        return ((rules, "medium"), (rules, "hard"))

    def text(self, data: Mapping[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
        return self.board_from_json(data).to_text(with_solution=with_solution)

    def rules_sentence(self, data: Mapping[str, Any]) -> str:
        return "Fill every row, column and 3×3 box with the digits 1 to 9, each once."

    def _rules_sentence_ms(self) -> str:
        """The rules in Malay, for the player's `?lang=ms`."""
        return "Isi setiap baris, lajur dan kotak 3×3 dengan digit 1 hingga 9, setiap satu sekali sahaja."

    def picture(self, data: Mapping[str, Any], *, solution: bool = False) -> Picture:
        board = self.validate_grid(data)
        assert isinstance(board, SudokuBoardModel)
        return self.digits_picture(board.givens, board.solution, with_solution=solution)

    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        from engine.games.sudoku.board import unit_name
        board = self.validate(data)
        assert isinstance(board, SudokuBoardModel)
        hints = hints_from_steps(board.steps, {unit_name(u): cells for u, cells in enumerate(UNITS)})
        return self.digits_play(board.givens, board.solution, hints, self._rules_sentence_ms())


GAME = Sudoku()
