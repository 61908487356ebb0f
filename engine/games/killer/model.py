"""The board JSON of 9x9 Killer Sudoku: `cages` (each a sum and its cells [row, column]), optional
`givens` (81 characters, '.' for empty) and `solution` (81 digits), as Sudoku writes them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from engine.errors import PuzzleError
from engine.games.model import BoardModel

Cell = Annotated[list[StrictInt], Field(min_length=2, max_length=2, description="[row, column], from 0")]


class KillerRulesModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: Literal[9] = 9


class CageModel(BaseModel):
    """One cage: its cells hold distinct digits that add up to `sum`."""
    model_config = ConfigDict(extra="allow")
    sum: StrictInt = Field(ge=1, le=45)
    cells: list[Cell] = Field(min_length=1, max_length=9)


class KillerBoardModel(BoardModel):
    """A Killer Sudoku board: every cell in exactly one connected cage whose sum distinct digits can
    make; `givens`, when present, has a digit or '.' per cell; `solution`, when known, 81 digits."""
    game: Literal["killer"]
    rules: KillerRulesModel = KillerRulesModel()
    cages: list[CageModel] = Field(min_length=9, max_length=81)
    givens: StrictStr = Field("", description="81 characters, row by row: 1-9, or '.' for an empty cell; "
                              "empty or missing when there are none")
    solution: StrictStr = ""

    @model_validator(mode="after")
    def _consistent(self) -> KillerBoardModel:
        from engine.games.killer.board import board_of
        try:
            board = board_of([(cage.sum, [tuple(cell) for cell in cage.cells]) for cage in self.cages],
                             self.givens, self.solution)
        except PuzzleError as exc:
            raise ValueError(str(exc)) from None
        if self.givens:             # '0' read as empty; a board without givens keeps none
            self.givens = board.givens
        return self
