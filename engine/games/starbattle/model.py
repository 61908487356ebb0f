"""The board JSON of the Star Battle family (Queens, classic-diagonal Queens, Star Battle)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from engine.core.regions import labels_in_pieces
from engine.errors import PuzzleError
from engine.games.model import BoardModel
from engine.games.starbattle.board import region_letter
from engine.games.starbattle.rules import Rules


class StarRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: StrictInt = Field(description="rows = columns = regions")
    stars: StrictInt = Field(1, description="stars per row, column and region (Queens: 1)")
    diagonals: StrictBool = Field(False, description="classic Queens: no two stars on a diagonal")


class StarBoard(BoardModel):
    """A Queens or Star Battle board: `regions` numbers each cell's region 0..n-1, row by row;
    `solution` lists the star cells [row, column]."""
    game: Literal["queens", "starbattle"]
    rules: StarRules
    regions: list[list[StrictInt]]
    solution: list[tuple[StrictInt, StrictInt]] = []

    @model_validator(mode="after")
    def _consistent(self) -> StarBoard:
        rules = self.rules
        if self.game == "queens" and rules.stars != 1:
            raise ValueError("a queens board has 1 star per unit")
        try:
            Rules(rules.size, rules.stars, rules.diagonals)
        except PuzzleError as exc:
            raise ValueError(str(exc)) from None
        n = rules.size
        if len(self.regions) != n or any(len(row) != n for row in self.regions):
            raise ValueError(f'"regions" must be {n} rows of {n} region numbers')
        labels = {label for row in self.regions for label in row}
        if any(not 0 <= label < n for label in labels):
            raise ValueError(f"region numbers must be whole numbers 0..{n - 1}")
        if len(labels) != n:
            raise ValueError(f"a {n}x{n} board needs all {n} regions, found {len(labels)}")
        broken = labels_in_pieces(n, [label for row in self.regions for label in row])
        if broken:
            label = broken[0]
            raise ValueError(f"region {region_letter(label)} (number {label}) is in pieces: a region is "
                             "one connected area")
        if any(not (0 <= r < n and 0 <= c < n) for r, c in self.solution):
            raise ValueError('"solution" must list [row, column] pairs on the board')
        return self

