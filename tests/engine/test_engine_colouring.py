"""Region colouring: touching regions (sharing an edge or only a corner) never get the same colour, on
many 14×14 region layouts drawn by the generator's own region drawing, and the colouring is exact
(it fails only when no colouring exists) and deterministic."""

from __future__ import annotations

import random

import pytest

from engine.core.regions import colour_areas, touching_areas
from engine.games.starbattle.draw import draw_regions, plant
from engine.games.starbattle.rules import Rules

PALETTE_SIZE = 9            # store.render.PALETTE's length; tests/exports checks they agree


def _layouts(count: int, n: int = 14) -> list[list[list[int]]]:
    out = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        rules = Rules(n, (2, 3)[seed % 2], False)
        regions = draw_regions(rules, plant(rules, rng), rng, spread=rng.choice([0.2, 0.5, 0.9]))
        seed += 1
        if regions is not None:
            out.append([regions[r * n:(r + 1) * n] for r in range(n)])
    return out


def test_touching_counts_corners():
    areas = [[0, 0, 1],
             [0, 2, 1],
             [3, 3, 1]]
    assert touching_areas(areas) == {0: {1, 2, 3}, 1: {0, 2, 3}, 2: {0, 1, 3}, 3: {0, 1, 2}}
    corner_only = [[0, 1],
                   [1, 0]]
    assert touching_areas(corner_only) == {0: {1}, 1: {0}}


def test_no_two_touching_regions_share_a_colour_on_many_14x14_layouts():
    layouts = _layouts(200)
    most = 0
    for areas in layouts:
        colours = colour_areas(areas, PALETTE_SIZE)
        assert set(colours) == {label for row in areas for label in row}
        assert all(0 <= colour < PALETTE_SIZE for colour in colours.values())
        for label, others in touching_areas(areas).items():
            assert all(colours[label] != colours[other] for other in others), (areas, label)
        most = max(most, len(set(colours.values())))
    assert most >= 6, "the colours spread over the palette rather than the first few"


def test_colouring_is_exact_and_deterministic():
    four_at_a_corner = [[0, 1], [2, 3]]          # every pair touches: four colours are needed
    with pytest.raises(ValueError):
        colour_areas(four_at_a_corner, 3)
    assert sorted(colour_areas(four_at_a_corner, 4).values()) == [0, 1, 2, 3]
    areas = _layouts(1)[0]
    assert colour_areas(areas, PALETTE_SIZE) == colour_areas([row[:] for row in areas], PALETTE_SIZE)
