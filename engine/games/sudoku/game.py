"""9x9 Sudoku as a Game object. Its board, counter and generator are imported by the methods that use
them: listing the games' options (every command that names a game) loads this module alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from engine.core.grid import area_cells, lines
from engine.errors import InvalidBoard, InvalidRules
from engine.games.base import Game, GameOptions, Picture, PlaySpec, distinct, hints_from_steps, option
from engine.games.sudoku.model import SudokuBoardModel
from engine.games.sudoku.rules import BAND_BY, BANDS, SudokuRules

if TYPE_CHECKING:
    from engine.games.sudoku.board import SudokuBoard

_BOXES = tuple(tuple((r // 3) * 3 + c // 3 for c in range(9)) for r in range(9))


class SudokuOptions(GameOptions):
    band_by: Literal[BAND_BY] = option(     # type: ignore[valid-type]  # BAND_BY's values
        BAND_BY[0], help="bands by the hardest technique needed (default) or, where the game has them, by clue count",
        absent="technique", refusal="{game} bands are by technique only", metavar="HOW")


class Sudoku(Game):
    name = "sudoku"
    title = "Sudoku"
    model = SudokuBoardModel
    bands = BANDS
    options = SudokuOptions
    input_mode = "digits"
    text_form = "an 81-character Sudoku line"

    def rules(self, *, size: int, band: str | None = None, **options: Any) -> SudokuRules:
        from engine.games.sudoku.generator import check_band
        rules = SudokuRules(size, self.read_options(options).band_by)
        check_band(band, rules.band_by)
        return rules

    def sample_request(self) -> dict[str, Any]:
        return {"size": 9}

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

    def with_solution(self, board: SudokuBoard, solution: str) -> SudokuBoard:
        return board.with_solution(solution)

    def solution_json(self, board: SudokuBoard, solution: str | None) -> str:
        return solution or ""

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
        from engine.games.sudoku.board import SIZE
        board = self.validate_grid(data)
        assert isinstance(board, SudokuBoardModel)
        if solution and not board.solution:
            raise InvalidBoard("the board has no solution to draw")
        digits = []
        for i, given in enumerate(board.givens):
            if given != ".":
                digits.append((i // 9, i % 9, given, True))
            elif solution:
                digits.append((i // 9, i % 9, board.solution[i], False))
        return Picture(SIZE, _BOXES, False, symbols=tuple(digits))

    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        from engine.games.sudoku.board import SIZE, unit_name
        board = self.validate(data)
        assert isinstance(board, SudokuBoardModel)
        units = lines(SIZE) + area_cells(_BOXES)       # rows, columns, boxes: the order unit_name counts
        return PlaySpec(
            mode="digits", n=SIZE, areas=_BOXES, coloured=False, units=units,
            answer=tuple(board.solution), symbols=tuple("123456789"), checks=tuple(map(distinct, units)),
            givens=tuple("" if ch == "." else ch for ch in board.givens),
            hints=hints_from_steps(board.steps, {unit_name(u): cells for u, cells in enumerate(units)}),
            rules={"ms": self._rules_sentence_ms()})


GAME = Sudoku()
