"""Generating a Sudoku board: fill a random grid, dig clues out, prove, grade.

By technique (the default; Tatham's Solo): clues are tried for removal in a random order (in 180-degree
pairs when `symmetric`); a clue goes only while the ladder capped at the asked band's top technique
still solves the board and the counter (stopping at 2) still finds one solution (the ladder alone
proves uniqueness, except through the unique rectangle, which assumes it; counting first is also
cheaper, since most failed removals are ambiguous boards). The dig loop is compiled (_logic.dig). When no clue can go, the board is graded uncapped (the same path, since the
capped ladder never stalled) and kept only if its band is exactly the one asked for; otherwise the
whole grid is redrawn. Without a band the dig is capped at the expert tier and any band is kept.
The beyond band (trial and error) is graded but not generated: random digging almost never leaves a
board that the expert tier cannot finish (none in 87,805 minimal boards tried).

By clues (`band_by="clues"`, the usual clue-count bands easy 36-40, medium 30-35, hard 24-29): a target
count is drawn inside the band and clues are removed, each kept when removing it would allow a second
solution (the counter, stopping at 2), until the target is reached; a grid that cannot get down to
it is redrawn. The board is then graded by technique anyway and both grades are stored.

Every drawing that fails says why, counted by reason in GenerationStats.rejected: wrong-band,
clue-floor (the dig stopped above the clue band), unproved (the counter disagrees: never expected).

Same seed, same board: every random choice comes from one `random.Random(seed)`.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.errors import DeadlineExceeded, InvalidRules
from engine.games.sudoku.board import SudokuBoard
from engine.games.sudoku._logic import dig
from engine.games.sudoku.count import count_solutions, monotonic
from engine.games.sudoku.fill import fill
from engine.games.sudoku.grade import Grade, QuickGrade, grade, quick_from_ids, steps_json
from engine.games.sudoku.rules import BAND_BY, CLUE_BANDS, GENERATED
from engine.games.sudoku.techniques import BANDS, TOP_OF_TIER, order_ids
from engine.ladder.fun import fun_score
from engine.version import ENGINE_VERSION


@dataclass(slots=True)
class GenerationStats:
    grids: int = 0                    # complete grids drawn
    ladder_runs: int = 0              # capped ladder solves while digging
    counts: int = 0                   # counter calls while digging
    rejected: Counter = field(default_factory=Counter)   # reason -> grids rejected
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"grids": self.grids, "ladder_runs": self.ladder_runs, "counts": self.counts,
                "rejected": dict(self.rejected), "seconds": round(self.seconds, 6)}


def check_band(band: str | None, band_by: str) -> None:
    if band_by not in BAND_BY:
        raise InvalidRules(f"unknown band_by {band_by!r}: expected one of {', '.join(BAND_BY)}")
    if band == "beyond" and band_by == "technique":
        raise InvalidRules("the beyond band is graded, not generated: digging almost never leaves a board "
                           "that needs trial and error")
    allowed = GENERATED if band_by == "technique" else tuple(CLUE_BANDS)
    if band is not None and band not in allowed:
        raise InvalidRules(f"unknown band {band!r} by {band_by}: expected one of {', '.join(allowed)}")


def _groups(rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    """Cells in the order their clues are tried: single cells, or 180-degree pairs."""
    if symmetric:
        groups = [(c, 80 - c) if c != 40 else (40,) for c in range(41)]
    else:
        groups = [(c,) for c in range(81)]
    rng.shuffle(groups)
    return groups


def generate(seed: int, *, band: str | None = None, band_by: str = "technique", symmetric: bool = False,
             timeout: float | None = None) -> tuple[SudokuBoard, GenerationStats]:
    """A proved-unique board of the asked band (see the module notes).

    Raises DeadlineExceeded (carrying the stats in `args[1]`) when `timeout` seconds pass first.
    """
    check_band(band, band_by)
    started = time.perf_counter()
    deadline = monotonic() + timeout if timeout else 0.0
    rng = random.Random(seed)
    stats = GenerationStats()

    def out_of_time() -> DeadlineExceeded:
        stats.seconds = time.perf_counter() - started
        return DeadlineExceeded(f"no {band or 'unique'} sudoku board within {timeout} s", stats)

    while True:
        if deadline and monotonic() > deadline:
            raise out_of_time()
        grid = fill(rng.getrandbits(64))
        stats.grids += 1
        if band_by == "clues":
            lo, hi = CLUE_BANDS[band] if band else (24, 40)
            target = rng.randint(lo, hi)
            givens = _dig_by_count(grid, rng, symmetric, lo, target, stats)
            if 81 - givens.count(".") > target:
                stats.rejected["clue-floor"] += 1
                continue
            quick = None
        else:
            cap = TOP_OF_TIER[BANDS.index(band) + 1 if band else 4]
            givens, quick = _dig_by_ladder(grid, rng, symmetric, cap, stats)
            if band is not None and quick.band != band:
                stats.rejected["wrong-band"] += 1
                continue
        proof = count_solutions(givens, 2)
        if proof.solutions != (grid,):
            stats.rejected["unproved"] += 1
            continue
        graded = grade(givens)
        if not graded.solved or (quick is not None and (graded.band, graded.score) != (quick.band, quick.score)):
            stats.rejected["unproved"] += 1
            continue
        stats.seconds = time.perf_counter() - started
        board = SudokuBoard(givens, grid, seed)
        extra = _fields(board, graded, band if band_by == "clues" else None)
        extra["generation"] = stats.to_json()
        return SudokuBoard(givens, grid, seed, extra), stats


def _dig_by_ladder(grid: str, rng: random.Random, symmetric: bool, cap: str,
                   stats: GenerationStats) -> tuple[str, QuickGrade]:
    """Remove clues while the board stays unique and the capped ladder still solves it."""
    givens, used, runs, counts = dig(grid, _groups(rng, symmetric), order_ids(cap))
    stats.ladder_runs += runs
    stats.counts += counts
    return givens, quick_from_ids(1, used)


def _dig_by_count(grid: str, rng: random.Random, symmetric: bool, floor: int, target: int,
                  stats: GenerationStats) -> str:
    """Remove clues down to `target`, keeping any whose removal allows a second solution."""
    givens, _, _, counts = dig(grid, _groups(rng, symmetric), (), floor, target)
    stats.counts += counts
    return givens


def _fields(board: SudokuBoard, graded: Grade, clue_band: str | None) -> dict[str, Any]:
    difficulty: dict[str, Any] = graded.difficulty_json()
    difficulty["clues"] = board.clues
    if clue_band is not None:
        difficulty["band_by"] = "clues"
        difficulty["technique_band"] = graded.band
        difficulty["band"] = clue_band
    else:
        difficulty["band_by"] = "technique"
    return {"difficulty": difficulty, "fun": fun_score(graded.tiers).to_json(),
            "steps": steps_json(graded.steps), "engine_version": ENGINE_VERSION}


def describe(board: SudokuBoard) -> dict[str, Any]:
    """The grade, fun and solve path of a proved board, as the JSON contract's fields."""
    return _fields(board, grade(board), None)


def clue_band(clues: int) -> str | None:
    """The clue-count band of a clue count (None outside 24..40)."""
    for name, (lo, hi) in CLUE_BANDS.items():
        if lo <= clues <= hi:
            return name
    return None


__all__ = ["BAND_BY", "CLUE_BANDS", "GENERATED", "GenerationStats", "check_band", "clue_band", "describe", "generate"]
