"""The Sudoku generator: every technique band yields boards graded exactly that band and proved
unique by an independent count (the pure-Python reference); clue bands land inside their clue range;
same seed, same board; the JSON contract; bad parameters and the deadline."""

from __future__ import annotations

import pytest

from engine.errors import DeadlineExceeded, InvalidRules
from engine.games.sudoku.board import SudokuBoard
from engine.games.sudoku.generator import CLUE_BANDS, clue_band, describe, generate
from engine.games.sudoku.grade import grade
from engine.games.sudoku.reference import reference_solutions

SEEDS = range(4)


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
def test_technique_bands_are_exact_and_unique(band):
    for seed in SEEDS:
        board, stats = generate(seed, band=band)
        assert reference_solutions(board.givens, 2) == [board.solution]
        graded = grade(board.givens)
        assert graded.solved and graded.band == band
        difficulty = board.extra["difficulty"]
        assert difficulty["band"] == band and difficulty["band_by"] == "technique"
        assert difficulty["score"] == graded.score and difficulty["hardest"] == graded.hardest
        assert difficulty["clues"] == board.clues
        assert stats.grids == 1 + sum(stats.rejected.values())
        assert set(stats.rejected) <= {"wrong-band"}


EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def test_beyond_is_graded_not_generated():
    graded = grade(EASTER_MONSTER)
    assert graded.solved and graded.band == "beyond" and graded.hardest == "trial-and-error"
    assert reference_solutions(EASTER_MONSTER, 2) == [graded.values]
    with pytest.raises(InvalidRules, match="beyond band is graded, not generated"):
        generate(1, band="beyond")


def test_without_a_band_any_band_up_to_expert():
    for seed in SEEDS:
        board, _ = generate(seed)
        assert board.extra["difficulty"]["band"] in ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize("band", list(CLUE_BANDS))
def test_clue_bands(band):
    lo, hi = CLUE_BANDS[band]
    counts = set()
    for seed in range(8):
        board, stats = generate(seed, band=band, band_by="clues")
        assert lo <= board.clues <= hi
        counts.add(board.clues)
        assert reference_solutions(board.givens, 2) == [board.solution]
        difficulty = board.extra["difficulty"]
        assert difficulty["band"] == band and difficulty["band_by"] == "clues"
        assert difficulty["technique_band"] == grade(board.givens).band
        assert clue_band(board.clues) == band
        assert set(stats.rejected) <= {"clue-floor"}
    assert len(counts) > 1                      # a random target inside the band


def test_same_seed_same_board():
    for band in ("easy", "hard"):
        first, _ = generate(7, band=band)
        again, _ = generate(7, band=band)
        assert first.givens == again.givens and first.solution == again.solution
        assert first.extra["steps"] == again.extra["steps"]
    assert generate(8, band="easy")[0].givens != generate(9, band="easy")[0].givens


def test_symmetric_boards():
    for seed in range(3):
        board, _ = generate(seed, band="medium", symmetric=True)
        assert all((board.givens[c] == ".") == (board.givens[80 - c] == ".") for c in range(81))
        clued, _ = generate(seed, band="hard", band_by="clues", symmetric=True)
        assert all((clued.givens[c] == ".") == (clued.givens[80 - c] == ".") for c in range(81))


def test_board_json_contract():
    board, _ = generate(3, band="hard")
    data = board.to_json()
    for key in ("id", "game", "rules", "givens", "solution", "difficulty", "fun", "steps",
                "engine_version", "seed", "generation"):
        assert key in data
    assert data["game"] == "sudoku" and data["rules"] == {"size": 9} and data["seed"] == 3
    assert data["id"] == board.fingerprint[:16]
    step = data["steps"][0]
    assert set(step) == {"technique", "cost", "place", "eliminate", "units", "why"}
    placed = [p for s in data["steps"] for p in s["place"]]
    assert len(placed) == 81 - board.clues
    assert all(board.solution[r * 9 + c] == str(d) for r, c, d in placed)
    assert sum(s["cost"] for s in data["steps"]) == data["difficulty"]["score"]
    assert 0 <= data["fun"]["score"] <= 100
    again = SudokuBoard.from_json(data)
    assert again.givens == board.givens and again.solution == board.solution
    assert describe(again)["difficulty"]["band"] == "hard"


def test_bad_parameters():
    with pytest.raises(InvalidRules, match="unknown band"):
        generate(1, band="fiendish")
    with pytest.raises(InvalidRules, match="unknown band"):
        generate(1, band="expert", band_by="clues")
    with pytest.raises(InvalidRules, match="band_by"):
        generate(1, band_by="vibes")


def test_deadline():
    with pytest.raises(DeadlineExceeded) as err:
        generate(1, band="expert", timeout=1e-9)
    assert err.value.args[1].grids >= 0
