"""Tuning toward the asked band (engine/ladder/tune.py): the keep-or-revert rule, the Star Battle
family's boundary nudges through the game contract, and tuned boards as the generator stores them:
proved unique, graded in the band, clearing the same gates as drawn boards, the same for a seed."""

import random

import pytest

from engine import InvalidBoard, InvalidRules
from engine.games import game_named
from engine.games.starbattle import Rules, count_solutions, styles
from engine.games.starbattle.board import Board
from engine.games.starbattle.generator import Settings, band_distance, generate, nudge, tuning_budget
from engine.games.starbattle.grade import grade
from engine.ladder.fun import fun_score
from engine.ladder.tune import closer, in_band, tune

TUNING = Settings(climb_steps=40)


def test_the_keep_rule_takes_only_a_measured_board_strictly_closer():
    assert closer((0, 0), (1, -5))
    assert closer((1, -9), (1, -5))
    assert not closer((1, -5), (1, -5))          # no closer: reverted
    assert not closer((2, 0), (1, -5))
    assert not closer(None, (1, -5))             # not unique or not graded: reverted
    assert in_band((0, 0)) and in_band(0) and not in_band((1, 0))


def test_the_loop_keeps_each_closer_change_and_reverts_the_rest():
    # a board is a number, the band is 10; odd numbers stand for boards that are not unique
    target, seen = 10, []

    def measure(board):
        seen.append(board)
        return None if board % 2 else abs(target - board)

    done = tune(0, 10, nudge=lambda board, rng: board + rng.choice((-2, -1, 1, 2, 3)), measure=measure,
                rng=random.Random(5), budget=200)
    assert done.board == target and done.in_band
    assert 0 < done.kept <= done.measured == len(seen) <= done.tried <= 200
    # replayed: each kept board was the first measured one closer than the board before it
    board = 0
    for candidate in seen:
        if candidate % 2 == 0 and abs(target - candidate) < abs(target - board):
            board = candidate
    assert board == done.board


def test_the_loop_stops_at_its_budget_and_reverts_changes_that_move_away():
    done = tune(5, 5, nudge=lambda board, rng: board + 1, measure=lambda board: board, rng=random.Random(1),
                budget=7)
    assert (done.board, done.distance, done.tried, done.measured, done.kept) == (5, 5, 7, 7, 0)


def test_a_nudge_moves_one_boundary_cell_off_the_answer_and_keeps_regions_whole():
    board, _ = generate(Rules(8), 3, band="medium")
    rng = random.Random(2)
    changed = [found for found in (nudge(board, rng) for _ in range(200)) if found is not None]
    assert changed
    for found in changed:
        moved = [cell for cell in range(64) if found.regions[cell] != board.regions[cell]]
        assert len(moved) == 1 and moved[0] not in board.solution
        assert found.solution == board.solution and sorted(set(found.regions)) == list(range(8))


@pytest.mark.parametrize("rules, seed", [(Rules(8), 2), (Rules(8, 1, True), 0)], ids=str)
def test_the_game_contract_tunes_a_medium_queens_board_into_hard(rules, seed):
    game = game_named("queens")
    board, _ = generate(rules, seed, band="medium")
    done = game.tune(board, "hard", random.Random(seed), 40)
    assert done.in_band and done.kept >= 1
    assert done.board.regions != board.regions
    assert count_solutions(rules, done.board.regions, 2).solutions == (board.solution,)
    assert grade(done.board).band == "hard"
    assert band_distance(done.board, "hard") == (0, 0)


def test_a_game_that_offers_no_changes_says_so():
    sudoku = game_named("sudoku")
    board, _ = sudoku.generate(sudoku.rules(**sudoku.sample_request()), 1)
    with pytest.raises(InvalidRules, match="sudoku boards are not tuned"):
        sudoku.tune(board, "hard", random.Random(1), 5)


def test_only_a_proved_board_is_tuned():
    board, _ = generate(Rules(8), 3)
    claimed = Board(board.rules, board.regions, tuple(sorted(board.solution))[1:] + (63,), 3)  # not its answer
    with pytest.raises(InvalidBoard, match="proved"):
        game_named("queens").tune(claimed, "hard", random.Random(1), 5)


@pytest.mark.parametrize("rules, band, seed", [(Rules(8), "hard", 0), (Rules(10, 2), "hard", 2)], ids=str)
def test_a_tuned_board_is_unique_in_band_and_clears_the_gates(rules, band, seed):
    board, stats = generate(rules, seed, band=band, settings=TUNING, timeout=60)
    assert board.extra["generation"]["tuned_nudges"] >= 1 and stats.tuned >= 1   # this one was tuned
    assert count_solutions(rules, board.regions, 2).solutions == (board.solution,)
    graded = grade(board)
    assert graded.band == band == board.extra["difficulty"]["band"]
    style = styles.named(board.extra["style"])
    gates = style.gates(rules)
    assert fun_score(graded.tiers).score >= gates.min_fun
    assert style.score(rules, board.regions) >= gates.min_shape
    assert board.extra["shape"]["score"] == style.score(rules, board.regions)


def test_tuning_gives_one_board_for_a_seed():
    first, _ = generate(Rules(10, 2), 2, band="hard", settings=TUNING, timeout=60)
    again, _ = generate(Rules(10, 2), 2, band="hard", settings=TUNING, timeout=60)
    assert first.regions == again.regions and first.solution == again.solution
    assert first.extra["generation"]["tuned_nudges"] == again.extra["generation"]["tuned_nudges"] >= 1


def test_near_misses_are_tuned_by_default_only_where_it_measured_faster():
    assert tuning_budget(Rules(12, 2), "hard") == tuning_budget(Rules(14, 3), "expert") > 0
    assert tuning_budget(Rules(8), "expert") == tuning_budget(Rules(11), "expert") == 0
    assert tuning_budget(Rules(10, 2), "expert") == tuning_budget(Rules(12, 2), "medium") == 0
    assert tuning_budget(Rules(12, 2), None) == 0


def test_a_default_request_tunes_a_near_miss_and_stores_a_sound_board():
    rules = Rules(12, 2)
    board, _ = generate(rules, 0, band="hard", timeout=120)        # the generator's own settings
    assert board.extra["generation"]["tuned_nudges"] >= 1
    assert count_solutions(rules, board.regions, 2).solutions == (board.solution,)
    graded = grade(board)
    assert graded.band == "hard"
    gates = styles.named(board.extra["style"]).gates(rules)
    assert fun_score(graded.tiers).score >= gates.min_fun
    assert board.extra["shape"]["score"] >= gates.min_shape
