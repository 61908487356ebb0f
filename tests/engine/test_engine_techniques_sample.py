"""The default lane's twin of the Star Battle soundness sweeps (test_engine_techniques.py, the slow
lane): every technique, the trials included, against the true answer on a smaller pool of positions
drawn the same way, so an unsound deduction shows between two edits, not only in CI's slow lane."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest

from engine.games.starbattle.techniques import ladder_for, technique_names
from test_engine_techniques_support import build_cases, check_step, describe

pytestmark = [pytest.mark.xdist_group("starbattle-sample")]


@lru_cache(maxsize=1)
def pool():
    return build_cases(seed=20261205, boards=250, per_board=2)


def test_every_technique_is_sound_on_a_sample_of_positions():
    fired: Counter[str] = Counter()
    for case in pool():
        for name in technique_names():
            step = ladder_for(case.rules.stars)[name].find(case.state)
            if step is None:
                continue
            assert step.technique == name
            fired[name] += 1
            problem = check_step(step, case.state, case.truth)
            assert problem is None, f"{name} {problem}\n{describe(case, step)}"
    # every technique must fire on the sample (each does 40 times or more), or it proves little
    assert min(fired[name] for name in technique_names()) >= 20, fired
