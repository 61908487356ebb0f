"""A job's size and band checked against what its game offers, as `enqueue` and the worker both check
them: no size is the game's only one, a size or a band it cannot have is a BadTask in one line."""

from __future__ import annotations

import pytest

from jobs.params import BadTask, JobParams


def test_a_job_without_a_size_gets_the_games_only_one() -> None:
    assert JobParams.from_json({"game": "sudoku"}).size == 9
    assert JobParams.from_json({"game": "sudoku", "band_by": "clues", "band": "hard"}).size == 9
    params = JobParams.build(game="killer", band="easy")
    assert params.size == 9 and params.to_json()["size"] == 9
    assert JobParams.from_json(params.to_json()) == params


@pytest.mark.parametrize("data, message", [
    ({"game": "queens"}, "size is required: queens offers sizes 4–20"),
    ({"game": "starbattle", "stars": 3}, "size is required: starbattle offers sizes 12–16 with --stars 3"),
    ({"game": "queens", "size": 21}, "queens offers sizes 4–20, not 21"),
    ({"game": "sudoku", "size": 8}, "sudoku offers only 9×9, not 8"),
    ({"game": "queens", "size": 7, "band": "expert"}, "queens 7×7 has no expert boards ("),
])
def test_a_size_or_band_the_game_cannot_have_is_a_bad_task(data, message) -> None:
    with pytest.raises(BadTask) as caught:
        JobParams.from_json(data)
    assert message in str(caught.value) and "\n" not in str(caught.value)
