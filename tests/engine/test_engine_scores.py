"""Fun and shape scores: each part moves the score the way its docstring says."""

from dataclasses import replace

from engine.games.starbattle.shape import ShapeFeatures, shape_features, shape_penalties, shape_score
from engine.ladder.fun import fun_score


def test_an_early_climax_with_floods_beats_a_late_grind():
    early = [1, 4, 1, 2, 1, 3, 1, 1, 2, 1, 3, 1, 2, 1, 1, 3, 1, 1, 2, 1]
    late = [1, 1, 1, 2, 1, 1, 2, 1, 1, 1, 1, 3, 3, 3, 3, 3, 4, 4, 3, 1]
    good, bad = fun_score(early), fun_score(late)
    assert good.climax_at < 0.1 and bad.climax_at > 0.7
    assert good.aha == 4 and bad.aha == 0
    assert bad.longest_hard_run == 8 and good.longest_hard_run == 1
    assert good.score >= 85 > 40 >= bad.score


def test_quick_share_is_best_between_half_and_seventy_percent():
    in_band = fun_score([3, 1, 1, 1, 3, 1, 1, 1, 2, 2])        # 60% from the easiest tier
    all_easy = fun_score([3] + [1] * 19)                       # 95% easiest
    assert 0.5 <= in_band.quick_share <= 0.7
    assert all_easy.quick_share > 0.9 and all_easy.score < in_band.score


def test_empty_path_scores_zero():
    assert fun_score([]).score == 0


def _grid(rows):
    return [int(ch) for row in rows for ch in row]


def test_gifts_depend_on_the_stars():
    """A region whose stars its size forces: a single cell at k = 1, a run of three at k = 2."""
    single = _grid(["0111", "2111", "2333", "2333"])
    run_of_three = _grid(["0111", "0221", "0221", "3333"])
    assert shape_score(4, single, 1).gifts == 1
    assert shape_score(4, run_of_three, 1).gifts == 0 and shape_score(4, run_of_three, 2).gifts == 1
    assert shape_score(4, run_of_three, 1).score - shape_score(4, run_of_three, 2).score == 25


def test_each_penalty_starts_where_published_boards_end():
    even = ShapeFeatures(8, (5, 6, 7, 8, 8, 9, 10, 11), tiny=0, straight=1, boundary_per_row=5.5,
                         perimeter_per_cell=2.0, fill=0.7, interior_per_row=0.4)
    assert sum(shape_penalties(even, 1).values()) == 0
    sprawl = replace(even, sizes=(2, 2, 2, 3, 5, 6, 14, 30), tiny=4)
    assert shape_penalties(sprawl, 1)["largest"] == round(40 * (30 / 8 - 2.5))
    assert shape_penalties(sprawl, 1)["tiny"] == 12
    assert shape_penalties(replace(even, straight=5), 1)["straight"] == 16


def test_tidy_boxes_and_full_stripes_score_low():
    boxes = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]      # Sudoku's nine boxes
    stripes = [r for r in range(8) for _ in range(8)]                        # every row a region
    assert shape_score(9, boxes).score < 60 and shape_penalties(shape_features(9, boxes), 1)["compact"]
    assert shape_score(8, stripes).straight == 8 and shape_score(8, stripes).score < 60


def test_features_count_what_they_say():
    regions = _grid(["0001", "0211", "2213", "2333"])
    features = shape_features(4, regions)
    assert features.sizes == (4, 4, 4, 4) and features.tiny == 0 and features.straight == 0
    # each edge between two regions once
    boundary = sum(regions[i] != regions[i + 1] for i in range(16) if i % 4 < 3) + \
        sum(regions[i] != regions[i + 4] for i in range(12))
    assert features.boundary_per_row == boundary / 4
    assert features.interior_per_row == 0


def test_region_corners_count_the_outline_of_known_shapes() -> None:
    """A rectangle has 4 corners, an L 6, a T 8, a plus 12, a ring 8 (4 outside, 4 round its hole);
    two cells touching only at a corner give that point 2."""
    from engine.games.starbattle.shape import region_corners

    def corners_of(rows: list[str]) -> int:
        n = len(rows)
        return region_corners(n, [1 if ch == "#" else 0 for row in rows for ch in row])[1]

    assert corners_of(["....", ".##.", ".##.", "...."]) == 4
    assert corners_of(["#...", "#...", "##..", "...."]) == 6
    assert corners_of(["###.", ".#..", ".#..", "...."]) == 8
    assert corners_of([".#.", "###", ".#."]) == 12
    assert corners_of(["###", "#.#", "###"]) == 8
    assert corners_of(["#.", ".#"]) == 8
