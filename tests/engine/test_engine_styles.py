"""Drawing styles: every style draws sound regions, `composed` boards are unique (by the independent
reference counter) and graded, `organic` gives the boards of before styles, an unknown style is one
line of InvalidRules, and the composed gate passes the hand-drawn sample."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.core.regions import labels_in_pieces
from engine.errors import InvalidRules
from engine.games.starbattle import Rules
from engine.games.starbattle import styles
from engine.games.starbattle.draw import plant
from engine.games.starbattle.generator import Settings, generate
from engine.games.starbattle.reference import reference_solutions

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "queens_handmade_sample.jsonl"

# Board ids (fingerprints of the regions) generated before styles existed, seeds 0-3, when one-star
# boards had a fun bar of 55 (BEFORE_FUN).
BEFORE_STYLES = {
    "queens 8": ("90c8a20a965a236b", "7b6237cd38cd0332", "e02cfbaf510d1a6c", "a86f86e10ba7fff4"),
    "queens 9": ("9a164ff465bc8006", "5185aa66e04d3e9b", "4e5058debadfe459", "d1cdebee599064db"),
    "starbattle 10 2": ("cfd29000510f3ea4", "cee7eb390edd2857", "a1e34cc4cdd4b4f0", "897472bd9146129e"),
    "queens 8 diagonals": ("9ea53b316ba9855f", "efb4ed866608ba6f", "2a9330b173a452bb", "137463b57958f744"),
}

BEFORE_FUN = {1: 55}

SOUND_RULES = [Rules(n, 1, d) for n in range(5, 15) for d in (False, True)]


def test_registry() -> None:
    assert styles.names() == ("organic", "composed", "interlocking", "pictured")
    assert styles.named("composed").NAME == "composed"
    assert styles.default_for(Rules(8)).NAME == "pictured"           # as the daily Queens boards
    assert [styles.default_for(Rules(n)).NAME for n in (6, 7, 11, 12)] == ["composed", "pictured", "pictured", "composed"]
    assert styles.default_for(Rules(8, 1, True)).NAME == "composed"   # as people draw classic Queens
    assert styles.default_for(Rules(10, 2)).NAME == "interlocking"        # as the site draws them
    for name in styles.names():
        module = styles.named(name)
        for attribute in ("draw", "score", "gates", "tune", "available", "repair_keep", "keep"):
            assert callable(getattr(module, attribute))


@pytest.mark.parametrize("name", ["nope", ""])
def test_unknown_style_is_one_line_invalid_rules(name: str) -> None:
    with pytest.raises(InvalidRules) as caught:
        generate(Rules(8), 1, style=name)
    message = str(caught.value)
    assert "\n" not in message and "organic" in message and "composed" in message


def test_composed_refuses_more_stars() -> None:
    with pytest.raises(InvalidRules):
        generate(Rules(10, 2), 1, style="composed")


@pytest.mark.parametrize("rules", SOUND_RULES, ids=str)
@pytest.mark.parametrize("name", ["organic", "composed"])
def test_drawings_are_sound(name: str, rules: Rules) -> None:
    """Each region one piece holding exactly one of the answer's stars, on many seeds."""
    style = styles.named(name)
    drawn = 0
    for seed in range(40):
        rng = random.Random(seed)
        answer = plant(rules, rng)
        regions = style.draw(rules, answer, rng)
        if regions is None:
            continue
        drawn += 1
        n = rules.size
        assert len(regions) == n * n and sorted(set(regions)) == list(range(n))
        assert labels_in_pieces(n, regions) == []
        assert sorted(regions[cell] for cell in answer) == list(range(n))
    assert drawn >= 30


def test_organic_draws_starbattle_too() -> None:
    rules = Rules(10, 2)
    rng = random.Random(3)
    answer = plant(rules, rng)
    regions = styles.named("organic").draw(rules, answer, rng)
    assert regions is not None and labels_in_pieces(10, regions) == []


@pytest.mark.parametrize("text", sorted(BEFORE_STYLES))
def test_organic_is_the_board_of_before(text: str) -> None:
    rules = Rules.parse(text)
    settings = Settings(min_fun=BEFORE_FUN.get(rules.stars))
    for seed, expected in enumerate(BEFORE_STYLES[text]):
        named, _ = generate(rules, seed, style="organic", settings=settings)
        assert named.id == expected
        # every board names its style, the default's too (the default may change)
        assert named.to_json()["style"] == named.to_json()["generation"]["style"] == "organic"
        if styles.default_for(rules).NAME == "organic":
            default, _ = generate(rules, seed)
            assert named.to_json() | {"generation": None} == default.to_json() | {"generation": None}


@pytest.mark.parametrize("rules", [Rules(n, 1, d) for n in (5, 6, 7, 8) for d in (False, True)], ids=str)
def test_composed_boards_are_unique_and_graded(rules: Rules) -> None:
    for seed in range(6):
        board, _ = generate(rules, seed, style="composed")
        assert reference_solutions(rules, board.regions, 2) == [board.solution]
        data = board.to_json()
        assert data["difficulty"]["band"] in ("easy", "medium", "hard", "expert")
        assert data["generation"]["style"] == "composed"
        assert data["generation"]["style_score"] >= styles.named("composed").gates(rules).min_shape
        assert labels_in_pieces(rules.size, board.regions) == []


def test_composed_same_seed_same_board() -> None:
    first, _ = generate(Rules(9), 11, style="composed")
    again, _ = generate(Rules(9), 11, style="composed")
    assert first.to_json() | {"generation": None} == again.to_json() | {"generation": None}


def test_composed_gate_passes_the_hand_drawn_sample() -> None:
    composed = styles.named("composed")
    verdicts = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        board = json.loads(line)
        rules = Rules(board["rules"]["size"])
        regions = [label for row in board["regions"] for label in row]
        verdicts.append(composed.score(rules, regions) >= composed.gates(rules).min_shape)
    assert len(verdicts) >= 50
    assert sum(verdicts) / len(verdicts) >= 0.95


def test_solve_scores_a_brought_board_in_the_style_it_looks_most_like() -> None:
    """`solve` reports the shape score and gates of the style a board is closest to (the widest margin
    over that style's shape gate), and names it; hand-drawn boards mostly look composed."""
    from engine import game_named
    from engine.games.starbattle.board import Board

    queens = game_named("queens")
    seen = []
    for line in SAMPLE.read_text().splitlines()[:6]:
        data = json.loads(line)
        rules = Rules(data["rules"]["size"])
        regions = tuple(label for row in data["regions"] for label in row)
        status, out = queens.solve(Board(rules, regions))
        closest = styles.closest(rules, regions)
        assert status == "unique" and out["shape"]["style"] == closest.NAME
        assert out["shape"]["score"] == closest.score(rules, regions)
        assert out["gates"]["shape"] == (closest.score(rules, regions) >= closest.gates(rules).min_shape)
        seen.append(closest.NAME)
    assert seen.count("composed") >= 4


def test_solve_applies_the_closest_styles_gates_where_they_differ_from_organic() -> None:
    """Beyond 14x14 organic has no shape gate; composed has one. A composed 15x15 board brought to
    `solve` is judged by composed's gates, shape included."""
    from engine import game_named
    from engine.games.starbattle.board import Board

    made, _ = generate(Rules(15), 1)
    assert made.to_json()["style"] == "composed" and styles.named("organic").gates(Rules(15)).min_shape is None
    status, out = game_named("queens").solve(Board(made.rules, made.regions))
    assert status == "unique" and out["shape"]["style"] == "composed"
    assert out["gates"] == {"fun": True, "shape": True}
