"""puzzlefleet's engine: pure computation, no I/O. Every random choice flows from a seed passed in.

Public API: `Rules`/`Board` values, `generate`, `count_solutions`, the puzz.link codec, typed errors;
Sudoku: `SudokuBoard`, `parse_sudoku_line`, `generate_sudoku`, `describe_sudoku` (engine.games.sudoku).
The compiled modules (`_search`) are private; this package maps options onto them.
"""

from engine.core.rng import derive_seed
from engine.errors import DeadlineExceeded, InvalidBoard, InvalidRules, PuzzleError
from engine.games.starbattle import (Board, Count, GenerationStats, Rules, Settings, count_solutions,
                                     generate)
from engine.games.starbattle.generator import describe
from engine.games.starbattle.grade import BANDS
from engine.games.starbattle.pzpr import from_url, to_url
from engine.games.sudoku import SudokuBoard
from engine.games.sudoku import count_solutions as count_sudoku
from engine.games.sudoku import describe as describe_sudoku
from engine.games.sudoku import generate as generate_sudoku
from engine.games.sudoku import parse_line as parse_sudoku_line
from engine.games.sudoku.generator import check_band as check_sudoku_band
from engine.games.sudoku.rules import SudokuRules
from engine.version import ENGINE_VERSION


GAMES = ("queens", "starbattle", "sudoku")

# --- the registry: one place that maps a game onto its rules, boards, generator and solver ----------

def rules_for(game: str, size: int, stars: int | None = None, diagonals: bool = False,
              band_by: str | None = None, band: str | None = None) -> Rules | SudokuRules:
    """The rules of a generation request (as the command line gives them), checked together with the
    band asked for where the game has bands of its own."""
    if game == "sudoku":
        if stars is not None or diagonals:
            raise InvalidRules("sudoku has no stars or diagonals")
        rules = SudokuRules(size, band_by or "technique")
        check_sudoku_band(band, rules.band_by)
        return rules
    if band_by not in (None, "technique"):
        raise InvalidRules(f"{game} bands are by technique only")
    if band is not None and band not in BANDS:
        raise InvalidRules(f"unknown band {band!r}: expected one of {', '.join(BANDS)}")
    if game == "queens":
        if stars not in (None, 1):
            raise InvalidRules("queens has 1 star per unit; use --game starbattle for more")
        return Rules(size, 1, diagonals)
    if game == "starbattle":
        return Rules(size, 2 if stars is None else stars, diagonals)
    raise InvalidRules(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")


def parse_rules(text: str) -> Rules | SudokuRules:
    """Rules from their text form ("queens 8", "starbattle 10 2", "sudoku 9", ...)."""
    return SudokuRules.parse(text) if text.split()[:1] == ["sudoku"] else Rules.parse(text)


def generate_board(rules: Rules | SudokuRules, seed: int, *, band: str | None = None,
                   timeout: float | None = None):
    """(board, stats) for any game; DeadlineExceeded carries the stats in args[1]."""
    if isinstance(rules, SudokuRules):
        return generate_sudoku(seed, band=band, band_by=rules.band_by, timeout=timeout)
    return generate(rules, seed, band=band, timeout=timeout)


def board_from_json(data: object) -> Board | SudokuBoard:
    """A board of any game from the JSON contract (InvalidBoard when malformed)."""
    if isinstance(data, dict) and data.get("game") == "sudoku":
        return SudokuBoard.from_json(data)
    return Board.from_json(data)


def solve_board(board: Board | SudokuBoard) -> tuple[str, dict]:
    """Count to 2 and, when unique, grade: ("unique" | "several" | "none", the board's JSON filled in
    with its solution, status, difficulty, fun and solve path)."""
    if isinstance(board, SudokuBoard):
        found = count_sudoku(board.givens, 2).solutions
        solved = board.with_solution(found[0]) if found else board
        out = solved.to_json() if len(found) == 1 else board.to_json()
        out["solution"] = found[0] if found else ""
    else:
        found = count_solutions(board.rules, board.regions, 2).solutions
        solved = Board(board.rules, board.regions, found[0]) if found else board
        out = board.to_json()
        out["solution"] = [[cell // board.n, cell % board.n] for cell in found[0]] if found else []
    status = {0: "none", 1: "unique"}.get(len(found), "several")
    out["status"] = status
    if status == "unique":
        out.update(describe_board(solved))
    return status, out


def describe_board(board: Board | SudokuBoard) -> dict:
    """The grade, fun and solve path of a proved board, as the JSON contract's fields."""
    return describe_sudoku(board) if isinstance(board, SudokuBoard) else describe(board)


__all__ = ["BANDS", "ENGINE_VERSION", "GAMES", "Board", "Count", "DeadlineExceeded", "GenerationStats",
           "InvalidBoard", "InvalidRules", "PuzzleError", "Rules", "Settings", "SudokuBoard", "count_solutions",
           "derive_seed", "describe", "describe_sudoku", "from_url", "generate", "generate_sudoku",
           "parse_sudoku_line", "to_url",
           "SudokuRules", "board_from_json", "describe_board", "generate_board", "parse_rules", "rules_for",
           "solve_board"]
