"""Killer Sudoku in every band the game generates, through the fleet and through `generate`, each board
proved unique again by a solver of this module's own: plain backtracking that shares no code with the
engine's counter, so a fault there cannot hide itself here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine import InvalidRules, game_named
from tests.workers.conftest import Fleet

# Both tests keep the machine's cores busy (generating, then solving): one after the other.
pytestmark = [pytest.mark.xdist_group("killer-bands")]

KILLER = game_named("killer")
BOARDS = 24
SEED = 25

DIGITS = frozenset(range(1, 10))
UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)]                                      # rows
         + [[r * 9 + c for r in range(9)] for c in range(9)]                                    # columns
         + [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)])  # boxes
UNITS_OF = [[u for u, unit in enumerate(UNITS) if cell in unit] for cell in range(81)]


def generated_bands() -> list[str]:
    """The bands the game takes a generation request for (it also lists bands it only grades)."""
    bands = []
    for band in KILLER.bands:
        try:
            KILLER.rules(size=9, band=band)
        except InvalidRules:
            continue
        bands.append(band)
    return bands


def cage_cells(cages: list[dict[str, Any]]) -> list[list[int]]:
    return [[r * 9 + c for r, c in cage["cells"]] for cage in cages]


def follows_the_rules(cages: list[dict[str, Any]], digits: str) -> bool:
    """A filled grid (81 digits) with every row, column and box holding 1-9 and every cage distinct
    digits that add up to its sum."""
    grid = [int(ch) for ch in digits]
    return (len(grid) == 81 and all({grid[cell] for cell in unit} == DIGITS for unit in UNITS)
            and all(len({grid[cell] for cell in cells}) == len(cells)
                    and sum(grid[cell] for cell in cells) == cage["sum"]
                    for cells, cage in zip(cage_cells(cages), cages)))


def killer_solutions(cages: list[dict[str, Any]], givens: str = "", limit: int = 2) -> list[str]:
    """Up to `limit` solutions, by backtracking. A cell keeps a digit only if no row, column or box of
    it holds that digit, its cage can still be completed with it, and no cage lying whole in one of its
    units must hold that digit; the search branches where the choice is narrowest: the cell with the
    fewest digits left, or the unit with the fewest places left for a digit. Each full grid is checked
    against every rule before it counts."""
    cells_of = list(zip(cage_cells(cages), (cage["sum"] for cage in cages)))
    grid = [int(ch) if ch.isdigit() else 0 for ch in givens] if givens else [0] * 81
    solutions: list[str] = []
    cage_answers: dict[tuple[Any, ...], tuple[dict[int, set[int]], frozenset[int]]] = {}
    # the units each cage lies in whole: a digit the cage must hold is nowhere else in them
    units_holding = [[unit for unit in UNITS if set(cells) <= set(unit)] for cells, _ in cells_of]

    def cage_candidates(cells: list[int], total: int,
                        options: dict[int, frozenset[int]]) -> tuple[dict[int, set[int]], frozenset[int]]:
        """The digits each empty cell of the cage takes in some completion of the cage, and the digits
        every completion puts in its empty cells."""
        empty = [cell for cell in cells if grid[cell] == 0]
        key = (tuple(cells), tuple(grid[cell] for cell in cells), tuple(options[cell] for cell in empty))
        if key in cage_answers:         # most cages are untouched by the last move: their answer stands
            return cage_answers[key]
        kept: dict[int, set[int]] = {cell: set() for cell in empty}
        placed = [grid[cell] for cell in cells if grid[cell]]
        done: dict[tuple[int, frozenset[int]], bool] = {}
        endings: list[frozenset[int]] = []         # the cage's digits in each completion

        def completes(i: int, used: frozenset[int], left: int) -> bool:   # cells i.. can add up to `left`
            if i == len(empty):
                if left == 0:
                    endings.append(used)
                return left == 0
            if (i, used) not in done:
                after = len(empty) - i - 1          # cells still empty after this one
                found = False
                for digit in options[empty[i]] - used:
                    rest = left - digit             # must lie within what `after` distinct digits make
                    if after * (after + 1) // 2 <= rest <= after * (19 - after) // 2 \
                            and completes(i + 1, used | {digit}, rest):
                        kept[empty[i]].add(digit)
                        found = True
                done[i, used] = found
            return done[i, used]

        if len(set(placed)) == len(placed):
            completes(0, frozenset(placed), total - sum(placed))
        must = frozenset.intersection(*endings) - set(placed) if endings else frozenset()
        cage_answers[key] = kept, must
        return kept, must

    def search() -> None:
        in_unit = [{grid[cell] for cell in unit} for unit in UNITS]
        candidates = {cell: DIGITS.difference(*(in_unit[u] for u in UNITS_OF[cell]))
                      for cell in range(81) if grid[cell] == 0}
        free = dict(candidates)             # what the rows, columns and boxes leave each cell
        for (cells, total), units in zip(cells_of, units_holding):
            kept, must = cage_candidates(cells, total, free)
            for cell, digits in kept.items():
                candidates[cell] = candidates[cell] & digits
            for unit in units if must else ():
                for cell in unit:
                    if cell not in cells and cell in candidates:
                        candidates[cell] = candidates[cell] - must
        if not candidates:
            if follows_the_rules(cages, "".join(map(str, grid))):
                solutions.append("".join(map(str, grid)))
            return
        branches = [[(cell, digit) for digit in sorted(digits)] for cell, digits in candidates.items()]
        for u, unit in enumerate(UNITS):
            places: dict[int, list[tuple[int, int]]] = {digit: [] for digit in DIGITS - in_unit[u]}
            for cell in unit:
                for digit in candidates.get(cell, ()):
                    places[digit].append((cell, digit))
            branches.extend(places.values())
        for cell, digit in min(branches, key=len):      # an empty branch is a dead end
            grid[cell] = digit
            search()
            grid[cell] = 0
            if len(solutions) >= limit:
                return

    search()
    return solutions


def assert_sound(board: dict[str, Any], band: str) -> None:
    """The board is a Killer Sudoku of the asked band whose one solution is the one it stores."""
    cages, solution = board["cages"], board["solution"]
    covered = sorted(cell for cells in cage_cells(cages) for cell in cells)
    assert covered == list(range(81)), f"{board['id']}: the cages do not cover every cell exactly once"
    assert follows_the_rules(cages, solution), f"{board['id']}: the stored solution breaks a rule"
    found = killer_solutions(cages, board.get("givens", ""))
    assert found == [solution], f"{board['id']}: {len(found)} solutions (up to 2), expected the stored one alone"
    assert board["difficulty"]["band"] == band, board["id"]


def per_band(bands: list[str]) -> dict[str, int]:
    """BOARDS boards shared out over the bands, as evenly as they go."""
    share, extra = divmod(BOARDS, len(bands))
    return {band: share + (i < extra) for i, band in enumerate(bands)}


def puzzlefleet(db_url: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).with_name("puzzlefleet")), *args], cwd=cwd, timeout=120,
                          env={**os.environ, "PUZZLEFLEET_DB": db_url}, capture_output=True, text=True)


def exported(run: Callable[..., subprocess.CompletedProcess], *filters: str) -> list[dict[str, Any]]:
    result = run("export", "--game", "killer", "--format", "json", *filters)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.fleet
@pytest.mark.slow
def test_the_fleet_makes_unique_killer_boards_in_every_band(fleet_factory: Callable[..., Fleet],
                                                            tmp_path: Path) -> None:
    bands = generated_bands()
    assert bands, KILLER.bands
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}")
    fleet.worker("w1", queues="killer")
    checked = 0
    for band, count in per_band(bands).items():
        result = fleet.cli("enqueue", "--game", "killer", "--size", "9", "--band", band, "--count", str(count),
                           "--seed", str(SEED), "--wait", "--json")
        assert result.returncode == 0, f"{band}: {result.stderr}"
        status = json.loads(result.stdout.splitlines()[-1])       # the job line first, then its end
        assert (status["state"], status["stored"], status["failed"]) == ("done", count, 0), status
        boards = exported(fleet.cli, "--job", str(status["job"]))
        assert len(boards) == count
        for board in boards:
            assert_sound(board, band)
        checked += len(boards)
    assert checked == BOARDS == len({board["id"] for board in exported(fleet.cli)})


def test_generate_makes_a_unique_killer_board_in_every_band_and_refuses_the_graded_only_ones(
        tmp_path: Path) -> None:
    generated = generated_bands()
    for band in KILLER.bands:
        run = partial(puzzlefleet, f"sqlite:///{tmp_path / f'{band}.db'}", tmp_path)     # a fresh store each
        result = run("generate", "--game", "killer", "--size", "9", "--band", band, "--count", "1",
                     "--seed", str(SEED))
        if band not in generated:
            assert result.returncode == 2 and "graded, not generated" in result.stderr, (band, result.stderr)
            continue
        assert result.returncode == 0, f"{band}: {result.stderr}"
        boards = exported(run)
        assert len(boards) == 1
        assert_sound(boards[0], band)
