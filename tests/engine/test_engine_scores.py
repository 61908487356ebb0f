"""Fun and shape scores: each part moves the score the way its docstring says."""

from engine.core.shape import shape_score
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


def test_rectangles_and_slivers_are_penalised():
    boxes = _grid(["0011", "0011", "2233", "2233"])            # four 2x2 squares
    ragged = _grid(["0001", "0211", "2213", "2333"])
    stripes = _grid(["0000", "1111", "2222", "3333"])
    box, rag, stripe = shape_score(4, boxes), shape_score(4, ragged), shape_score(4, stripes)
    assert box.rectangles == 4 and stripe.slivers == 4 and rag.rectangles == rag.slivers == 0
    assert rag.score > box.score and rag.score > stripe.score


def test_a_long_tentacle_is_counted():
    snake = _grid(["00000", "11110", "22220", "33330", "44444"])
    assert shape_score(5, snake).tentacles >= 1
