"""The pictured style's concentric frames at 10x10 and 11x11: sound maps, unique boards that pass the
gates, the same board for a seed."""

from __future__ import annotations

import random

import pytest

from engine.core.regions import labels_in_pieces
from engine.games.starbattle import Rules
from engine.games.starbattle.count import count_solutions
from engine.games.starbattle.generator import generate
from engine.games.starbattle.styles import pictured, pictured_frames

KINDS = ("lr", "ud", "half", "diag", "anti", "none")


def test_a_ring_is_the_cells_at_that_depth_once_each() -> None:
    n = 10
    for depth in range(n // 2):
        cells = pictured_frames.ring(n, depth)
        assert len(cells) == len(set(cells)) == max(1, 4 * (n - 2 * depth) - 4)
        assert all(min(r, c, n - 1 - r, n - 1 - c) == depth for r, c in (divmod(cell, n) for cell in cells))
        # clockwise: each cell touches the next
        for a, b in zip(cells, cells[1:] + cells[:1]):
            (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
            assert abs(ra - rb) + abs(ca - cb) == 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [10, 11])
def test_framed_maps_are_n_pieces_inside_frames(n: int, kind: str) -> None:
    rng = random.Random(n * 7 + len(kind))
    drawn = 0
    for _ in range(10):
        regions = pictured_frames.framed(n, pictured.image(n, kind), rng,
                                         lambda size: pictured.picture(size, kind, pictured.params(size), 0.3, rng))
        if regions is None:
            continue
        drawn += 1
        assert sorted(set(regions)) == list(range(n))
        assert labels_in_pieces(n, regions) == []
        # the edge ring is two regions, each one cell wide along it
        edge = pictured_frames.ring(n, 0)
        assert {regions[cell] for cell in edge} == {0, 1}
        assert all(min(r, c, n - 1 - r, n - 1 - c) == 0
                   for r, c in (divmod(cell, n) for cell, label in enumerate(regions) if label in (0, 1)))
        assert 0 in pictured_frames.frame_rings(n, regions)
    assert drawn >= 8


@pytest.mark.parametrize("kind", ["lr", "ud", "half"])
def test_a_ring_is_cut_into_mirror_images(kind: str) -> None:
    """The cut keeps the picture's symmetry: each half is its own image or the other's."""
    n = 10
    sigma = pictured.image(n, kind)
    cells = pictured_frames.ring(n, 0)
    for seed in range(5):
        regions = pictured_frames.framed(n, sigma, random.Random(seed),
                                         lambda size: pictured.picture(size, kind, pictured.params(size), 0.3,
                                                                       random.Random(seed)))
        assert regions is not None
        same = sum(regions[cell] == regions[sigma[cell]] for cell in cells)
        assert same in (0, len(cells))


def framed_boards(n: int, seeds: range) -> list:
    """The boards `generate` makes for these seeds that are drawn as concentric frames."""
    rules = Rules(n)
    boards = [generate(rules, seed)[0] for seed in seeds]
    return [board for board in boards if pictured_frames.frame_rings(n, board.regions)[:1] == [0]
            and board.extra["style"] == "pictured"]


@pytest.mark.parametrize("n", [10, 11])
def test_framed_boards_are_unique_gated_and_seeded(n: int) -> None:
    boards = framed_boards(n, range(500, 540))
    assert boards, "no framed board among 40 seeds"
    gates = pictured.gates(Rules(n))
    for board in boards[:4]:
        assert count_solutions(board.rules, board.regions, 2).solutions == (board.solution,)
        assert board.extra["fun"]["score"] >= gates.min_fun
        assert board.extra["shape"]["score"] >= gates.min_shape
        again, _ = generate(Rules(n), board.seed)
        assert again.regions == board.regions and again.solution == board.solution
