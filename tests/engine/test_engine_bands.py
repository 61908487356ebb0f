"""Generation with grading: every board carries its solve path, band, fun and shape; a band asked
for is met exactly; hand-made boards clear the fun bar that generated boards must clear."""

import json
from pathlib import Path

import pytest

from engine import InvalidRules
from engine.games.starbattle import Rules, count_solutions
from engine.games.starbattle.gates import gates_for
from engine.games.starbattle.generator import Settings, describe, generate
from engine.games.starbattle.grade import grade
from engine.games.starbattle.pzpr import from_url
from engine.ladder.fun import fun_score

CORPUS = json.loads((Path(__file__).parents[1] / "data" / "starbattle_published.json").read_text())


@pytest.mark.parametrize("rules, band", [(Rules(8), "easy"), (Rules(8), "medium"), (Rules(9), "easy"),
                                         (Rules(10, 2), "easy"), (Rules(10, 2), "medium"),
                                         (Rules(10, 2), "hard")], ids=str)
def test_a_band_asked_for_is_met_exactly(rules, band):
    for seed in range(2):
        board, stats = generate(rules, seed, band=band, timeout=60)
        data = board.to_json()
        assert data["difficulty"]["band"] == band
        assert grade(board).band == band                    # the stored grade is the measurement
        assert data["fun"]["score"] >= gates_for(rules).min_fun
        assert data["shape"]["score"] >= gates_for(rules).min_shape
        assert count_solutions(rules, board.regions, 2).solutions == (board.solution,)


def test_the_stored_path_replays_to_the_answer():
    board, _ = generate(Rules(9), 4)
    data = board.to_json()
    n = board.n
    placed = {r * n + c for step in data["steps"] for r, c in step["place"]}
    assert placed == set(board.solution)
    assert sum(step["cost"] for step in data["steps"]) == data["difficulty"]["score"]
    assert all(step["why"] and step["technique"] for step in data["steps"])
    assert describe(board)["steps"] == data["steps"]


def test_rejections_are_counted_by_reason():
    _, stats = generate(Rules(10, 2), 1, band="hard", timeout=60)
    assert stats.rejected and set(stats.rejected) <= {
        "draw-failed", "ambiguous", "stuck", "slow-count", "timeout", "unsolvable", "wrong-band", "dull",
        "ugly", "unproved", "unlike-published"}


def test_an_unknown_band_is_refused():
    with pytest.raises(InvalidRules, match="unknown band"):
        generate(Rules(8), 1, band="legendary")


def test_hand_made_boards_mostly_clear_the_fun_bar():
    boards = [from_url(item["url"]) for item in CORPUS if from_url(item["url"]).n <= 13]
    passing = [fun_score(grade(board).tiers).score >= gates_for(board.rules).min_fun for board in boards]
    assert sum(passing) >= len(boards) * 2 // 3, passing


def test_the_boundary_climb_keeps_boards_unique_and_lands_in_the_band():
    climbing = Settings(climb_steps=40)
    for seed in range(2):
        board, _ = generate(Rules(10, 2), seed, band="hard", settings=climbing, timeout=120)
        assert board.extra["difficulty"]["band"] == "hard" == grade(board).band
        assert count_solutions(board.rules, board.regions, 2).solutions == (board.solution,)


def test_easy_boards_hunted_by_the_capped_ladder_are_unique_and_easy():
    for seed in range(6):
        board, stats = generate(Rules(9), seed, band="easy", timeout=60)
        assert board.extra["difficulty"]["band"] == "easy" == grade(board).band
        assert grade(board, cap=2).solved
        assert count_solutions(board.rules, board.regions, 2).solutions == (board.solution,)
