"""A tiny fourth game that lives only in the tests: Latin squares.

Fill an n x n grid (n = 4..6) with the symbols 1..n so that each appears once in every row and every
column. Three techniques: naked single, hidden single, naked pair. It shows that a game is one module
exporting GAME: registered (`engine.register`; for other processes an entry point or PUZZLEFLEET_GAMES), it
is generated, solved, stored, exported, served, drawn and played with no change outside this folder.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from engine import ENGINE_VERSION, DeadlineExceeded, InvalidBoard, InvalidRules
from engine.core.grid import lines
from engine.games.base import Game, Picture, PlaySpec, distinct, hints_from_steps
from engine.games.model import BoardModel
from engine.ladder import Ladder, Step, Technique, run
from engine.ladder.fun import fun_score

SIZES = range(4, 7)
BANDS = ("easy", "hard")


@dataclass(frozen=True, slots=True)
class LatinRules:
    size: int

    game = "latin"

    def __post_init__(self) -> None:
        if type(self.size) is not int or self.size not in SIZES:
            raise InvalidRules(f"latin squares are {SIZES.start}..{SIZES.stop - 1} wide, not {self.size!r}")

    def __str__(self) -> str:
        return f"latin {self.size}"

    def to_json(self) -> dict[str, int]:
        return {"size": self.size}


@dataclass(frozen=True)
class LatinBoard:
    n: int
    givens: str                          # n*n characters, '.' for empty
    solution: str = ""
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    game = "latin"

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(f"latin {self.n}:{canonical(self.n, self.givens)}".encode()).hexdigest()

    @property
    def id(self) -> str:
        return self.fingerprint[:16]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "game": "latin", "rules": {"size": self.n}, "givens": self.givens,
                               "solution": self.solution, **self.extra}
        if self.seed is not None:
            out["seed"] = self.seed
        return out


def canonical(n: int, grid: str) -> str:
    """The least of the grid's 8 symmetric copies, each with its symbols renamed in reading order."""
    cells = [[grid[r * n + c] for c in range(n)] for r in range(n)]
    forms = []
    for _ in range(4):
        cells = [list(row) for row in zip(*cells[::-1])]                   # rotate a quarter turn
        for copy in (cells, [list(row) for row in zip(*cells)]):          # and its transpose
            names: dict[str, str] = {}
            text = "".join(ch if ch == "." else names.setdefault(ch, str(len(names) + 1))
                           for row in copy for ch in row)
            forms.append(text)
    return min(forms)


class LatinRulesModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: StrictInt = Field(ge=SIZES.start, le=SIZES.stop - 1)


class LatinBoardModel(BoardModel):
    game: Literal["latin"]
    rules: LatinRulesModel
    givens: StrictStr
    solution: StrictStr = ""

    @model_validator(mode="after")
    def _consistent(self) -> LatinBoardModel:
        n = self.rules.size
        symbols = set("123456"[:n])
        if len(self.givens) != n * n or set(self.givens) - symbols - {"."}:
            raise ValueError(f"givens must be {n * n} characters, 1-{n} or '.'")
        if self.solution and (len(self.solution) != n * n or set(self.solution) - symbols
                              or any(g not in (".", s) for g, s in zip(self.givens, self.solution))):
            raise ValueError(f"solution must be {n * n} symbols 1-{n} that agree with the givens")
        return self


# --- solving -----------------------------------------------------------------------------------------

def _units(n: int) -> list[tuple[str, list[int]]]:
    return ([(f"row {r + 1}", [r * n + c for c in range(n)]) for r in range(n)]
            + [(f"column {c + 1}", [r * n + c for r in range(n)]) for c in range(n)])


def _where(n: int, cell: int) -> str:
    return f"row {cell // n + 1} column {cell % n + 1}"


class LatinState:
    """Placed symbols and the candidates (bit s-1 for symbol s) of the empty cells."""

    def __init__(self, n: int, givens: str) -> None:
        self.n, self.full = n, (1 << n) - 1
        self.values = [0 if ch == "." else int(ch) for ch in givens]
        self.cands = [0 if v else self.full for v in self.values]
        self.units = _units(n)
        for cell, value in enumerate(self.values):
            if value:
                self._clear_peers(cell, value)

    def _clear_peers(self, cell: int, value: int) -> None:
        for _, unit in self.units:
            if cell in unit:
                for other in unit:
                    self.cands[other] &= ~(1 << (value - 1))

    def apply(self, step: Step) -> None:
        for x in step.place:
            cell, value = divmod(x, 8)
            self.values[cell], self.cands[cell] = value, 0
            self._clear_peers(cell, value)
        for x in step.eliminate:
            cell, value = divmod(x, 8)
            self.cands[cell] &= ~(1 << (value - 1))

    def is_solved(self) -> bool:
        return all(self.values)

    def is_contradiction(self) -> bool:
        return any(not v and not c for v, c in zip(self.values, self.cands))


def naked_single(state: LatinState) -> Step | None:
    for cell, cands in enumerate(state.cands):
        if cands and cands & (cands - 1) == 0:
            value = cands.bit_length()
            return Step("naked-single", 1, (cell * 8 + value,), (),
                        why=f"{_where(state.n, cell)} can only hold {value}")
    return None


def hidden_single(state: LatinState) -> Step | None:
    for name, unit in state.units:
        for value in range(1, state.n + 1):
            places = [cell for cell in unit if state.cands[cell] >> (value - 1) & 1]
            if len(places) == 1 and value not in (state.values[cell] for cell in unit):
                return Step("hidden-single", 2, (places[0] * 8 + value,), (), (name,),
                            f"{value} has one place left in {name}: {_where(state.n, places[0])}")
    return None


def naked_pair(state: LatinState) -> Step | None:
    for name, unit in state.units:
        pairs = [cell for cell in unit if bin(state.cands[cell]).count("1") == 2]
        for i, a in enumerate(pairs):
            for b in pairs[i + 1:]:
                if state.cands[a] != state.cands[b]:
                    continue
                gone = tuple(cell * 8 + v for cell in unit if cell not in (a, b)
                             for v in range(1, state.n + 1) if state.cands[a] & state.cands[cell] & (1 << (v - 1)))
                if gone:
                    symbols = [v for v in range(1, state.n + 1) if state.cands[a] >> (v - 1) & 1]
                    return Step("naked-pair", 5, (), gone, (name,),
                                f"{_where(state.n, a)} and {_where(state.n, b)} hold {symbols[0]} and "
                                f"{symbols[1]} between them, so no other cell of {name} does")
    return None


# The technique table: name, tier, cost, finder.
TABLE = (("naked-single", 1, 1, naked_single), ("hidden-single", 1, 2, hidden_single),
         ("naked-pair", 2, 5, naked_pair))
LADDER = Ladder(Technique(name, order, tier, cost, find) for order, (name, tier, cost, find) in enumerate(TABLE))


def count_solutions(n: int, givens: str, limit: int) -> list[str]:
    """Up to `limit` solutions, by backtracking on the cell with the fewest candidates."""
    found: list[str] = []
    values = [0 if ch == "." else int(ch) for ch in givens]

    def allowed(cell: int) -> list[int]:
        r, c = divmod(cell, n)
        used = {values[r * n + k] for k in range(n)} | {values[k * n + c] for k in range(n)}
        return [v for v in range(1, n + 1) if v not in used]

    def search() -> None:
        empty = [cell for cell in range(n * n) if not values[cell]]
        if not empty:
            found.append("".join(map(str, values)))
            return
        cell = min(empty, key=lambda x: len(allowed(x)))
        for value in allowed(cell):
            values[cell] = value
            search()
            values[cell] = 0
            if len(found) >= limit:
                return

    for cell in range(n * n):
        if values[cell]:
            value, values[cell] = values[cell], 0
            if value not in allowed(cell):
                return []
            values[cell] = value
    search()
    return found


def _step_json(n: int, step: Step) -> dict[str, Any]:
    def cells(xs: tuple[int, ...]) -> list[list[int]]:
        return [[x // 8 // n, x // 8 % n, x % 8] for x in xs]
    return {"technique": step.technique, "cost": step.cost, "place": cells(step.place),
            "eliminate": cells(step.eliminate), "units": list(step.units), "why": step.why}


def describe(board: LatinBoard) -> dict[str, Any]:
    result = run(LatinState(board.n, board.givens), LADDER)
    tiers = [LADDER[step.technique].tier for step in result.steps]
    band = ("easy" if result.hardest_tier <= 1 else "hard") if result.solved else None
    return {"difficulty": {"band": band, "score": result.total_cost, "hardest": result.hardest},
            "fun": fun_score(tiers, hard_tier=2).to_json(), "steps": [_step_json(board.n, s) for s in result.steps],
            "engine_version": ENGINE_VERSION}


@dataclass
class Stats:
    rejected: Counter = field(default_factory=Counter)


class Latin(Game):
    name = "latin"
    title = "Latin square"
    model = LatinBoardModel
    bands = BANDS
    input_mode = "digits"

    def rules(self, *, size: int, band: str | None = None, **options: Any) -> LatinRules:
        self.read_options(options)          # it takes none: refuses any asked for
        self.check_band(band)
        return LatinRules(size)

    def sample_request(self) -> dict[str, Any]:
        return {"size": 4}

    def parse_rules(self, text: str) -> LatinRules:
        words = text.split()
        if len(words) != 2 or words[0] != "latin" or not words[1].isdigit():
            raise InvalidRules(f"expected 'latin N', got {text!r}")
        return LatinRules(int(words[1]))

    def board_from_json(self, data: Any) -> LatinBoard:
        model = self.validate(data)
        assert isinstance(model, LatinBoardModel)
        return LatinBoard(model.rules.size, model.givens, model.solution, model.seed)

    def generate(self, rules: LatinRules, seed: int, *, band: str | None = None,
                 timeout: float | None = None, style: str | None = None) -> tuple[LatinBoard, Stats]:
        self.check_style(rules, style)          # no styles: any is refused
        # A test may make every board take this much wall-clock time more, whatever the machine's speed
        # (the fleet's daily-set test makes its work longer than a task's budget so).
        time.sleep(float(os.environ.get("TOY_LATIN_SECONDS") or 0))
        rng, n, stats = random.Random(seed), rules.size, Stats()
        deadline = time.monotonic() + timeout if timeout else None
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise DeadlineExceeded("no board in time", stats)
            rows, cols, names = list(range(n)), list(range(n)), rng.sample(range(1, n + 1), n)
            rng.shuffle(rows)
            rng.shuffle(cols)
            answer = "".join(str(names[(rows[r] + cols[c]) % n]) for r in range(n) for c in range(n))
            givens = list(answer)
            for cell in rng.sample(range(n * n), n * n):       # dig while unique and solved by logic
                kept, givens[cell] = givens[cell], "."
                text = "".join(givens)
                if len(count_solutions(n, text, 2)) != 1 or not run(LatinState(n, text), LADDER).solved:
                    givens[cell] = kept
            board = LatinBoard(n, "".join(givens), answer, seed)
            fields = describe(board)
            if band is not None and fields["difficulty"]["band"] != band:
                stats.rejected["wrong-band"] += 1
                continue
            return LatinBoard(n, board.givens, answer, seed, fields), stats

    def solutions(self, board: LatinBoard, limit: int) -> list[str]:
        return count_solutions(board.n, board.givens, limit)

    def with_solution(self, board: LatinBoard, solution: str) -> LatinBoard:
        return LatinBoard(board.n, board.givens, solution, board.seed)

    def solution_json(self, board: LatinBoard, solution: str | None) -> str:
        return solution or ""

    def describe(self, board: LatinBoard) -> dict[str, Any]:
        return describe(board)

    def text(self, data: Mapping[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
        board = self.board_from_json(data)
        n = board.n
        grids = [board.givens] + ([board.solution] if with_solution and board.solution else [])
        lines = [f"# {data.get('id') or '?'} latin {n}x{n}"]
        for number, grid in enumerate(grids):
            lines += ["solution"] if number else []
            lines += [" ".join(grid[r * n:(r + 1) * n]) for r in range(n)]
        return "\n".join(lines)

    def rules_sentence(self, data: Mapping[str, Any]) -> str:
        n = (data.get("rules") or {}).get("size", 4)
        return f"Fill every row and every column with the symbols 1 to {n}, each once."

    def picture(self, data: Mapping[str, Any], *, solution: bool = False) -> Picture:
        board = self.board_from_json(data)
        n = board.n
        if solution and not board.solution:
            raise InvalidBoard("the board has no solution to draw")
        digits = tuple((i // n, i % n, board.givens[i], True) if board.givens[i] != "."
                       else (i // n, i % n, board.solution[i], False)
                       for i in range(n * n) if board.givens[i] != "." or solution)
        return Picture(n, tuple(tuple([0] * n) for _ in range(n)), False, symbols=digits)

    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        model = self.validate(data)
        assert isinstance(model, LatinBoardModel)
        n = model.rules.size
        return PlaySpec(mode="digits", n=n, areas=tuple(tuple([0] * n) for _ in range(n)), coloured=False,
                        units=lines(n), answer=tuple(model.solution), symbols=tuple("123456"[:n]),
                        checks=tuple(distinct(line) for line in lines(n)),
                        givens=tuple("" if ch == "." else ch for ch in model.givens),
                        hints=hints_from_steps(model.steps, dict(_units(n))))


GAME = Latin()
