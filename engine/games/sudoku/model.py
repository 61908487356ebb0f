"""The board JSON of 9x9 Sudoku: `givens` and `solution` are 81 characters row by row."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, model_validator

from engine.errors import PuzzleError
from engine.games.model import BoardModel


class SudokuRulesModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: Literal[9] = 9


class SudokuBoardModel(BoardModel):
    """A Sudoku board: `givens` has a digit or '.' per cell ('0' reads as empty); `solution`, when
    known, 81 digits that agree with the givens."""
    game: Literal["sudoku"]
    rules: SudokuRulesModel = SudokuRulesModel()
    givens: StrictStr = Field(description="81 characters, row by row: 1-9, or '.' for an empty cell")
    solution: StrictStr = ""

    @model_validator(mode="after")
    def _consistent(self) -> SudokuBoardModel:
        from engine.games.sudoku.givens import check_solution, read_givens
        try:
            givens = read_givens(self.givens)
            if self.solution:
                check_solution(givens, self.solution)
        except PuzzleError as exc:
            raise ValueError(str(exc)) from None
        self.givens = givens
        return self
