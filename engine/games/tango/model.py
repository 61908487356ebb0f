"""The board JSON of Tango: `rules.size` (even, 4 to 12), `givens` (n * n characters: S sun, M moon,
'.' empty), `clues` (each two neighbouring cells [row, column] in reading order and its kind, `same`
for `=` or `opposite` for `×`) and `solution` (n * n characters of S and M, or empty)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from engine.errors import PuzzleError
from engine.games.model import BoardModel

Cell = Annotated[list[StrictInt], Field(min_length=2, max_length=2, description="[row, column], from 0")]


class TangoRulesModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: StrictInt = Field(6, ge=4, le=12, description="the grid's side: even, 4 to 12 (6 as published)")


class ClueModel(BaseModel):
    """A clue on the edge between two neighbouring cells: `same` (=, alike) or `opposite` (×, differ)."""
    model_config = ConfigDict(extra="allow")
    cells: list[Cell] = Field(min_length=2, max_length=2, description="two neighbouring cells, the first "
                              "above or left of the second")
    kind: Literal["same", "opposite"]


class TangoBoardModel(BoardModel):
    """A Tango board: every row and column holds as many suns as moons, never three alike side by side;
    the clues say which neighbours are alike (=) or differ (×)."""
    game: Literal["tango"]
    rules: TangoRulesModel = TangoRulesModel()
    givens: StrictStr = Field("", description="n * n characters, row by row: S (sun), M (moon) or '.' "
                              "(empty); empty or missing when there are none")
    clues: list[ClueModel] = []
    solution: StrictStr = Field("", description="n * n characters of S and M, row by row; empty when not known")

    @model_validator(mode="after")
    def _consistent(self) -> TangoBoardModel:
        from engine.games.tango.board import board_of
        try:
            board = board_of(self.rules.size, self.givens,
                             [(clue.cells, clue.kind) for clue in self.clues], self.solution)
        except PuzzleError as exc:
            raise ValueError(str(exc)) from None
        self.givens = board.givens
        return self


__all__ = ["ClueModel", "TangoBoardModel", "TangoRulesModel"]
