"""A Star Battle family board as a value: rules, regions and (once proved) its solution, with its board
JSON (checked by the model in engine.games.starbattle.model: InvalidBoard, one line)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.games.starbattle.fingerprint import fingerprint
from engine.errors import InvalidBoard
from engine.games.starbattle.rules import Rules


REGION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def region_letter(region: int) -> str:
    """The letter a region goes by in words and in text grids: region 0 is A."""
    return REGION_LETTERS[region]


@dataclass(frozen=True)
class Board:
    rules: Rules
    regions: tuple[int, ...]                     # flat, n*n region numbers 0..n-1
    solution: tuple[int, ...] = ()               # sorted star cells, empty when not known
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)  # grade, fun, steps, stats

    @property
    def n(self) -> int:
        return self.rules.size

    @property
    def game(self) -> str:
        return self.rules.game

    @cached_property
    def fingerprint(self) -> str:
        # Kept once computed (the board is frozen): the id, the JSON and the store all ask for it.
        return fingerprint(str(self.rules), self.n, self.regions)

    @property
    def id(self) -> str:
        return self.fingerprint[:16]

    def region_rows(self) -> list[list[int]]:
        n = self.n
        return [list(self.regions[r * n:(r + 1) * n]) for r in range(n)]

    def to_json(self) -> dict[str, Any]:
        n = self.n
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "rules": self.rules.to_json(),
            "regions": self.region_rows(),
            "solution": [[cell // n, cell % n] for cell in self.solution],
        }
        out.update(self.extra)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: Any) -> Board:
        """Read a board in the JSON contract; the solution, if given, is kept as a claim to check."""
        from engine.games import game_of
        board = game_of(data).board_from_json(data)
        if not isinstance(board, Board):
            raise InvalidBoard(f"not a Star Battle family game: {data.get('game')!r}")
        return board
