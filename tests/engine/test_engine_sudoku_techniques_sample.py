"""The default lane's twin of the Sudoku soundness sweep (test_engine_sudoku_techniques.py, the slow
lane): every technique of the table against the true answer on a smaller pool of positions drawn the
same way, so an unsound deduction shows between two edits, not only in CI's slow lane."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest

from engine.games.sudoku._logic import IDS
from engine.games.sudoku.techniques import TABLE, UNIQUENESS
from test_engine_sudoku_support import build_cases, check_step

pytestmark = [pytest.mark.xdist_group("sudoku-sample")]


@lru_cache(maxsize=1)
def pool():
    return build_cases(seed=20261205, puzzles=250, per_puzzle=3)


def test_every_technique_is_sound_on_a_sample_of_positions():
    fired: Counter[str] = Counter()
    for case in pool():
        for entry in TABLE:
            if entry.name in UNIQUENESS and case.solutions != 1:
                continue
            found = case.pos.find(IDS[entry.name])
            if found is None:
                continue
            assert found[0] == IDS[entry.name]
            fired[entry.name] += 1
            problem = check_step(found, case)
            assert problem is None, f"{entry.name} {problem} in {case.pos.values()} marks {case.pos.marks()}"
    # every technique must fire on the sample (each does 39 times or more), or it proves little
    assert min(fired[entry.name] for entry in TABLE) >= 20, fired
