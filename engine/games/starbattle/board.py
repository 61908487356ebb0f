"""A Star Battle family board as a value: rules, regions and (once proved) its solution, with the JSON
form of the contract in DESIGN.md. Parsing checks shape and labels and raises InvalidBoard, one line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.fingerprint import fingerprint
from engine.errors import InvalidBoard, PuzzleError
from engine.games.starbattle.rules import Rules


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

    @property
    def fingerprint(self) -> str:
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
        if not isinstance(data, dict):
            raise InvalidBoard("a board must be a JSON object")
        try:
            rules = Rules.from_json(data.get("game"), data.get("rules"))
        except PuzzleError as exc:
            raise InvalidBoard(str(exc)) from None
        n = rules.size
        rows = data.get("regions")
        if (not isinstance(rows, list) or len(rows) != n
                or any(not isinstance(row, list) or len(row) != n for row in rows)):
            raise InvalidBoard(f'"regions" must be {n} rows of {n} region numbers')
        flat = [label for row in rows for label in row]
        if any(not isinstance(label, int) or isinstance(label, bool) or not 0 <= label < n
               for label in flat):
            raise InvalidBoard(f"region numbers must be whole numbers 0..{n - 1}")
        if len(set(flat)) != n:
            raise InvalidBoard(f"a {n}x{n} board needs all {n} regions, found {len(set(flat))}")
        solution = data.get("solution", [])
        if not isinstance(solution, list):
            raise InvalidBoard('"solution" must be a list of [row, column] pairs')
        cells = []
        for pair in solution:
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(type(x) is int and 0 <= x < n for x in pair)):
                raise InvalidBoard('"solution" must list [row, column] pairs on the board')
            cells.append(pair[0] * n + pair[1])
        seed = data.get("seed")
        return cls(rules, tuple(flat), tuple(sorted(cells)), seed if isinstance(seed, int) else None)
