"""Tango through the fleet: every band the game takes, from its own queue, each board proved unique
again by a solver of this module's own (plain backtracking over cells that shares no code with the
engine's counter) and checked against the published rules."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import game_named
from tests.workers.conftest import Fleet

TANGO = game_named("tango")
SEED = 3
PER_BAND = 3


def follows_the_rules(board: dict[str, Any], grid: str) -> bool:
    """Half suns and half moons in every row and column, never three alike side by side, every clue
    kept, every given in place."""
    n = board["rules"]["size"]
    lines = [grid[r * n:(r + 1) * n] for r in range(n)] + [grid[c::n] for c in range(n)]
    return (all(line.count("S") == n // 2 and "SSS" not in line and "MMM" not in line for line in lines)
            and all(g in (".", s) for g, s in zip(board["givens"], grid))
            and all((grid[a * n + b] == grid[c * n + d]) == (clue["kind"] == "same")
                    for clue in board["clues"] for (a, b), (c, d) in [clue["cells"]]))


def solutions(board: dict[str, Any], limit: int = 2) -> list[str]:
    """Up to `limit` grids, cell by cell in reading order; a prefix is cut as soon as a finished row,
    a column's count, a run of three or a clue between two filled cells rules it out."""
    n = board["rules"]["size"]
    clues = {}
    for clue in board["clues"]:
        (a, b), (c, d) = clue["cells"]
        clues.setdefault(max(a * n + b, c * n + d), []).append((min(a * n + b, c * n + d), clue["kind"] == "same"))
    grid: list[str] = []
    found: list[str] = []

    def fits(i: int, symbol: str) -> bool:
        r, c = divmod(i, n)
        if board["givens"][i] not in (".", symbol):
            return False
        if c >= 2 and grid[i - 1] == grid[i - 2] == symbol or r >= 2 and grid[i - n] == grid[i - 2 * n] == symbol:
            return False
        if sum(grid[r * n + k] == symbol for k in range(c)) >= n // 2:
            return False
        if sum(grid[k * n + c] == symbol for k in range(r)) >= n // 2:
            return False
        return all((grid[j] == symbol) == same for j, same in clues.get(i, ()))

    def place(i: int) -> None:
        if len(found) >= limit:
            return
        if i == n * n:
            found.append("".join(grid))
            return
        for symbol in "SM":
            if fits(i, symbol):
                grid.append(symbol)
                place(i + 1)
                grid.pop()

    place(0)
    return found


def test_the_checker_sees_a_second_solution() -> None:
    """The module's own solver counts every grid of an empty 4x4 board (as many as itertools finds by
    stacking balanced rows), each one by the rules."""
    empty = {"rules": {"size": 4}, "givens": "." * 16, "clues": []}
    assert len(solutions(empty, 100)) == 90          # 6 balanced rows, 4 of them stacked with balanced columns
    assert all(follows_the_rules(empty, grid) for grid in solutions(empty, 100))


@pytest.mark.fleet
def test_the_fleet_makes_unique_tango_boards_in_every_band(fleet_factory: Callable[..., Fleet],
                                                           tmp_path: Path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}")
    fleet.worker("w1", queues=TANGO.queue)
    stored = set()
    for band in TANGO.bands:
        result = fleet.cli("enqueue", "--game", "tango", "--size", "6", "--band", band, "--count", str(PER_BAND),
                           "--seed", str(SEED), "--wait", "--json")
        assert result.returncode == 0, f"{band}: {result.stderr}"
        status = json.loads(result.stdout.splitlines()[-1])
        assert (status["state"], status["stored"], status["failed"]) == ("done", PER_BAND, 0), status
        listed = fleet.cli("export", "--job", str(status["job"]), "--format", "json")
        assert listed.returncode == 0, listed.stderr
        boards = [json.loads(line) for line in listed.stdout.splitlines()]
        assert len(boards) == PER_BAND
        for board in boards:
            assert board["game"] == "tango" and board["difficulty"]["band"] == band
            assert solutions(board) == [board["solution"]], board["id"]
            assert follows_the_rules(board, board["solution"])
            assert [step["place"][0][2] in (0, 1) for step in board["steps"]] and board["steps"]
            stored.add(board["id"])
    assert len(stored) == PER_BAND * len(TANGO.bands)
