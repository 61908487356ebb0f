"""The composed style's compiled pieces and path cuts (styles/_composed.pyx: pieces, cut_paths) against
the plain Python they replaced, kept here as oracles only: the same maps and the same draws from the
generator (its state after each drawing), for every layout, on one- and two-digit sizes, so that a
seed keeps giving the same boards."""

from __future__ import annotations

import random

import pytest

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import UNASSIGNED
from engine.games.starbattle import Rules
from engine.games.starbattle.draw import plant
from engine.games.starbattle.styles import composed
from engine.games.starbattle.styles._composed import place


def python_pieces(n: int, regions: list[int], answer: tuple[int, ...], rng: random.Random) -> None:
    stars = set(answer)
    free = [label for label, cell in enumerate(answer)
            if all(regions[nb] == UNASSIGNED for nb in orthogonal_neighbours(n)[cell] if nb not in stars)]
    if not free:
        return
    background = rng.choice(free)
    placed = {label for label, cell in enumerate(answer) if label not in free}
    open_cells = sum(lab == UNASSIGNED for lab in regions) + len(free)
    share = rng.uniform(0.15, 0.35)
    mean = max(2.0, open_cells * (1 - share) / max(1, len(free) - 1))
    mirror = rng.random() < 0.7
    order = [label for label in free if label != background]
    rng.shuffle(order)
    for label in order:
        if label in placed:
            continue
        placed.add(label)
        size = max(3, round(rng.uniform(0.5, 1.6) * mean))
        cells = place(n, regions, answer[label], label, size, stars, rng, composed.THIN)
        if not mirror or not cells:
            continue
        image = [(cell // n) * n + n - 1 - cell % n for cell in cells]
        inside = [cell for cell in image if cell in stars]
        if len(inside) != 1 or set(image) & set(cells):
            continue
        other = regions[inside[0]]
        if other in placed or other == background or any(
                regions[cell] != UNASSIGNED for cell in image if cell != inside[0]):
            continue
        placed.add(other)
        for cell in image:
            regions[cell] = other


def python_cut_paths(n: int, regions: list[int], answer: tuple[int, ...], paths, rng: random.Random) -> None:
    neighbours = orthogonal_neighbours(n)
    stars = set(answer)
    runs = []
    for path in paths:
        run: list[int] = []
        for cell in path:
            if run and cell not in neighbours[run[-1]]:
                runs.append(run)
                run = []
            if regions[cell] == UNASSIGNED or cell in stars:
                if run and regions[cell] != UNASSIGNED and cell not in stars:
                    runs.append(run)
                    run = []
                run.append(cell)
            elif run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    for run in runs:
        at = [i for i, cell in enumerate(run) if cell in stars and regions[cell] == answer.index(cell)]
        if not at:
            continue
        cuts = [0] + [(rng.randint(a + 1, b) + rng.randint(a + 1, b) + 1) // 2
                      for a, b in zip(at, at[1:])] + [len(run)]
        for (low, high), i in zip(zip(cuts, cuts[1:]), at):
            for cell in run[low:high]:
                regions[cell] = regions[run[i]]


def drawings(rules: Rules, seed: int, count: int) -> list[tuple[list[int] | None, tuple]]:
    """`count` composed drawings on answers planted from `seed`, each with the generator's state after it."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        answer = plant(rules, rng)
        out.append((composed.draw(rules, answer, rng), rng.getstate()))
    return out


@pytest.mark.parametrize("rules", [Rules(n, 1, d) for n in (5, 6, 8, 9, 11, 14) for d in (False, True)], ids=str)
def test_compiled_pieces_and_cuts_draw_as_the_python_did(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = [drawing for seed in range(12) for drawing in drawings(rules, seed, 4)]
    monkeypatch.setattr(composed, "pieces", lambda n, regions, answer, rng, thin: python_pieces(n, regions, answer, rng))
    monkeypatch.setattr(composed, "cut_paths", python_cut_paths)
    python = [drawing for seed in range(12) for drawing in drawings(rules, seed, 4)]
    assert compiled == python


@pytest.mark.parametrize("seed", range(40))
def test_compiled_cuts_on_each_layout_as_the_python_did(seed: int) -> None:
    """Every kind of path (rings, a spiral, staircases, corner bands, stripes) on a map with pieces
    already placed, cut by both, from the same generator state."""
    n = 6 + seed % 7
    rng = random.Random(seed)
    answer = plant(Rules(n), rng)
    regions = [UNASSIGNED] * (n * n)
    for label, cell in enumerate(answer):
        regions[cell] = label
    if seed % 2:
        python_pieces(n, regions, answer, rng)
    layouts = [[composed._ring(n, d) for d in range((n + 1) // 2)],
               [[c for d in range((n + 1) // 2) for c in composed._ring(n, d)]],
               composed._staircase(n, rng), composed._corner_bands(n, rng), composed._stripes(n, rng)]
    for paths in layouts:
        state = rng.getstate()
        mine, theirs = list(regions), list(regions)
        composed.cut_paths(n, mine, answer, paths, rng)
        after = rng.getstate()
        rng.setstate(state)
        python_cut_paths(n, theirs, answer, paths, rng)
        assert mine == theirs and rng.getstate() == after
