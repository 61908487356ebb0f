"""The interlocking drawing style: every drawing is a sound partition (one piece per region, k of the
answer's stars in each), generated boards are unique (by the independent reference counter), graded
and carry the style, same seed gives the same board, tuning never breaks uniqueness, and the style's
gate passes the published sample."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.core.regions import labels_in_pieces
from engine.games.starbattle.shape import region_corners
from engine.games.starbattle import Rules
from engine.games.starbattle import styles
from engine.games.starbattle.count import count_solutions, new_search
from engine.games.starbattle.draw import plant
from engine.games.starbattle.generator import generate
from engine.games.starbattle.reference import reference_solutions
from engine.games.starbattle.repair import repair

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "starbattle_calibration_sample.jsonl"
STYLE = styles.named("interlocking")
SOUND_RULES = [Rules(n, k) for n, k in ((6, 1), (8, 1), (9, 1), (10, 2), (11, 2), (12, 2), (13, 3), (14, 3))]


def test_registered_for_every_star_count() -> None:
    assert "interlocking" in styles.names()
    assert styles.default_for(Rules(10, 2)).NAME == styles.default_for(Rules(14, 3)).NAME == "interlocking"
    assert all(STYLE.available(rules) for rules in (Rules(8), Rules(10, 2), Rules(14, 3)))


@pytest.mark.parametrize("rules", SOUND_RULES, ids=str)
def test_drawings_are_sound(rules: Rules) -> None:
    n, k = rules.size, rules.stars
    drawn = 0
    for seed in range(30):
        rng = random.Random(seed)
        answer = plant(rules, rng)
        regions = STYLE.draw(rules, answer, rng, spread=rng.uniform(0.05, 1.2))
        if regions is None:
            continue
        drawn += 1
        assert len(regions) == n * n and sorted(set(regions)) == list(range(n))
        assert labels_in_pieces(n, regions) == []
        assert sorted(regions[cell] for cell in answer) == sorted(list(range(n)) * k)
        assert min(regions.count(label) for label in range(n)) >= 2 * k
    assert drawn >= 27


# One 10x10 2-star board in the default lane; three more in the slow one.
@pytest.mark.parametrize("rules, seeds", [(Rules(8), range(4)), (Rules(10, 2), range(1)),
                                          pytest.param(Rules(10, 2), range(1, 4), marks=pytest.mark.slow)],
                         ids=["queens 8", "starbattle 10 2", "starbattle 10 2, more seeds"])
def test_boards_are_unique_and_graded(rules: Rules, seeds: range) -> None:
    for seed in seeds:
        board, _ = generate(rules, seed, style="interlocking")
        assert reference_solutions(rules, board.regions, 2) == [board.solution]
        data = board.to_json()
        assert data["difficulty"]["band"] in ("easy", "medium", "hard", "expert")
        assert data["generation"]["style"] == "interlocking"
        assert data["generation"]["style_score"] >= STYLE.gates(rules).min_shape
        assert labels_in_pieces(rules.size, board.regions) == []


@pytest.mark.slow
def test_three_star_board() -> None:
    rules = Rules(14, 3)
    board, _ = generate(rules, 1, style="interlocking", timeout=120)
    assert count_solutions(rules, board.regions, 2).solutions == (board.solution,)
    assert board.to_json()["generation"]["style"] == "interlocking"


def test_same_seed_same_board() -> None:
    first, _ = generate(Rules(10, 2), 11, style="interlocking")
    again, _ = generate(Rules(10, 2), 11, style="interlocking")
    assert first.to_json() | {"generation": None} == again.to_json() | {"generation": None}


def _corners(n: int, regions) -> int:
    return sum(region_corners(n, regions).values())


def test_tune_brings_a_repaired_drawing_back_toward_its_drawn_outline() -> None:
    """Repair moves single cells and adds outline corners to a drawing; tuning takes corners back off
    toward the drawing's own count (never adding any beyond it), keeps the board unique, the regions
    whole and the style's score as high as it was."""
    rules = Rules(10, 2)
    tuned = 0
    for seed, answer, drawn, regions in _repaired_drawings(rules, range(12)):
        out = STYLE.tune(rules, regions, answer, random.Random(seed), 400, tuple(drawn))
        assert count_solutions(rules, out, 2).solutions == (answer,)
        assert STYLE.score(rules, out) >= STYLE.score(rules, regions)
        assert labels_in_pieces(rules.size, out) == []
        goal = _corners(rules.size, drawn)
        assert max(0, _corners(rules.size, out) - goal) <= max(0, _corners(rules.size, regions) - goal)
        tuned += _corners(rules.size, out) < _corners(rules.size, regions)
    assert tuned >= 2


def test_gate_passes_the_published_sample() -> None:
    verdicts = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        board = json.loads(line)
        rules = Rules(board["rules"]["size"], board["rules"]["stars"])
        regions = [label for row in board["regions"] for label in row]
        verdicts.append(STYLE.score(rules, regions) >= STYLE.gates(rules).min_shape)
    assert len(verdicts) >= 20
    assert sum(verdicts) / len(verdicts) >= 0.95


def test_targets_table_has_both_kinds_in_the_features_order() -> None:
    """The fitted targets (bench/fit_targets.py) cover 14x14 3-star only (other rules tune as before),
    one per kind, each feature with a positive spread; the blocky kind has the shorter outline."""
    from engine.games.starbattle.targets import names
    from engine.games.starbattle.styles.interlocking_targets import TARGETS

    assert set(TARGETS) == {(3, 14)}
    kinds = TARGETS[(3, 14)]
    assert set(kinds) == {"blocky", "ragged"}
    for target in kinds.values():
        assert target.names == names(14)
        assert len(target.means) == len(target.scales) == len(names(14))
        assert all(scale > 0 for scale in target.scales)
        assert list(target.means[:14]) == sorted(target.means[:14])       # sorted sizes, smallest first
    boundary = names(14).index("boundary_per_row")
    assert kinds["blocky"].means[boundary] < kinds["ragged"].means[boundary]


def test_target_distance_is_zero_at_the_means_and_nearest_picks_the_kind() -> None:
    from engine.games.starbattle.targets import Target, features, names, nearest

    rules = Rules(14, 3)
    rng = random.Random(3)
    regions = STYLE.draw(rules, plant(rules, rng, 0.0), rng)
    own = Target(names(14), tuple(features(14, regions)), (1.0,) * len(names(14)))
    far = Target(names(14), tuple(value + 1 for value in own.means), own.scales)
    assert own.distance(14, regions) == pytest.approx(0.0)
    assert far.distance(14, regions) > 0
    assert nearest({"far": far, "own": own}, 14, regions) == "own"
    with pytest.raises(ValueError):
        own.distance(13, regions[:169])


def test_tune_toward_targets_keeps_the_board_unique_and_comes_closer() -> None:
    """At 14x14 3-star, tuning moves the repaired map toward the point it draws from the spread of the
    drawing's kind (the first thing it draws from its random.Random): the style's score never drops,
    and at an equal score the distance to that point never rises; the board stays unique (a fresh
    count) and regions stay whole with 6 cells or more."""
    from engine.games.starbattle.targets import nearest
    from engine.games.starbattle.styles.interlocking_targets import TARGETS

    rules, kinds = Rules(14, 3), TARGETS[(3, 14)]
    tuned = 0
    for seed, answer, drawn, regions in _repaired_drawings(rules, range(3), count_budget=300_000):
        target = kinds[nearest(kinds, 14, drawn)].sample(random.Random(seed))
        out = STYLE.tune(rules, regions, answer, random.Random(seed), 60, tuple(drawn))
        assert count_solutions(rules, out, 2).solutions == (answer,)
        assert labels_in_pieces(rules.size, out) == []
        assert min(out.count(label) for label in range(rules.size)) >= 6
        before = (STYLE.score(rules, regions), -target.distance(14, regions))
        after = (STYLE.score(rules, out), -target.distance(14, out))
        assert after[0] >= before[0]
        assert after >= before
        tuned += after > before
    assert tuned >= 1


def _repaired_drawings(rules: Rules, seeds: range, **repair_options):
    """(seed, answer, drawing, repaired map) for each seed whose drawing repair makes unique."""
    for seed in seeds:
        rng = random.Random(seed)
        answer = plant(rules, rng, 0.0)
        drawn = STYLE.draw(rules, answer, rng)
        if drawn is None:
            continue
        regions = list(drawn)
        outcome = repair(rules.size, new_search(rules, regions), regions, answer, rng, max_rounds=40,
                         keep=STYLE.repair_keep(rules), **repair_options)
        if outcome.unique:
            yield seed, answer, drawn, regions


def test_repair_stall_only_for_rules_with_targets() -> None:
    """Giving up a circling repair is for 14x14 3-star (the rules with shape targets): every other
    rules' boards stay as they were drawn before it existed."""
    from engine.games.starbattle.styles.interlocking_targets import TARGETS

    assert STYLE.repair_stall(Rules(14, 3)) == STYLE.STALL > 0
    for rules in (Rules(8), Rules(10, 2), Rules(12, 2), Rules(12, 3), Rules(13, 3)):
        assert (rules.stars, rules.size) not in TARGETS
        assert STYLE.repair_stall(rules) == 0


def test_a_stalled_repair_gives_up_on_the_path_it_would_have_taken() -> None:
    """Repair with a `stall` takes the same rounds as without one (the same draws), and stops early,
    "ambiguous", only where counts stopped finding fewer solutions for that many rounds."""
    rules = Rules(10, 2)
    stopped = 0
    for seed in range(12):
        rng = random.Random(seed)
        answer = plant(rules, rng, 0.0)
        drawn = STYLE.draw(rules, answer, rng)
        if drawn is None:
            continue
        outcomes = []
        for stall in (0, 2):
            regions, again = list(drawn), random.Random(seed)
            outcome = repair(rules.size, new_search(rules, regions), regions, answer, again, max_rounds=40,
                             count_budget=300_000, stall=stall)
            outcomes.append((outcome, regions))
        (full, full_map), (short, short_map) = outcomes
        if short.reason == "ambiguous" and short.rounds < full.rounds:
            stopped += 1
        else:
            assert (short.unique, short.rounds, short.reason, short_map) == (full.unique, full.rounds, full.reason,
                                                                           full_map)
        assert short.rounds <= full.rounds
    assert stopped >= 1
