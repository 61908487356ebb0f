"""Repairing ambiguity: while the board has solutions other than the answer, move an impostor cell
(a star of an alternative that is empty in the answer) into a neighbouring region.

Moving cell c out of region R kills every alternative with a star on c: R now holds only k - 1 of that
alternative's stars. The answer's stars never move, so the answer survives every move; the donor region
must stay one piece. An impostor inside its region, with no other region beside it, moves together with
the shortest path of non-answer cells that leads from it to another region, and whatever that path
would cut off from the region's answer stars, into the smallest region beside it. The impostor chosen
is one shared by the most alternatives found; among those, one whose move leaves its region more than
2k cells (published boards have few tiny regions), and never one that leaves a gift (2k - 1 cells, its
stars forced) while another legal move does not.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import reachable
from engine.games.starbattle.count import Search, monotonic


@dataclass(slots=True)
class RepairOutcome:
    unique: bool
    rounds: int
    reason: str = ""          # "ambiguous" (round cap), "stuck" (no legal move), "slow-count", "timeout"


def repair(n: int, search: Search, regions: list[int], answer: tuple[int, ...], rng: random.Random, *,
           max_rounds: int, alternatives: int = 8, deadline: float = 0.0,
           count_budget: int = 0, keep: int | None = None) -> RepairOutcome:
    """Edit `regions` in place until the answer is the only solution or the round cap is reached.

    `search` must already hold `regions`; it is kept in step with every move. A count that visits more
    than `count_budget` search nodes gives up on this drawing ("slow-count"): the search's time has a
    heavy tail, and a fresh drawing is cheaper than waiting it out. (Nodes, not seconds, so that a
    seed gives the same board on any machine.) `keep`: a move ranks first when it leaves its region
    more than this many cells (default 2k; a style with compact pieces asks for more).
    """
    answer_cells = set(answer)
    k = len(answer) // n
    keep = 2 * k if keep is None else keep      # a move leaving its region more cells ranks first
    members_of: dict[int, set[int]] = {}          # each region's cells, kept in step with every move
    for i, label in enumerate(regions):
        members_of.setdefault(label, set()).add(i)
    for rounds in range(max_rounds + 1):
        found, complete = search.solve(alternatives + 1, (), (), deadline, rng.getrandbits(64) | 1,
                                       count_budget)
        if not complete:
            timed_out = deadline and monotonic() > deadline
            return RepairOutcome(False, rounds, "timeout" if timed_out else "slow-count")
        others = [sol for sol in found if sol != answer]
        if not others:
            return RepairOutcome(True, rounds)
        if rounds == max_rounds:
            break
        shared = Counter(cell for sol in others for cell in sol if cell not in answer_cells)
        ranked = sorted(shared, key=lambda cell: (-shared[cell], rng.random()))
        # Published boards have no gifts (a region of 2k - 1 cells, its stars forced) and few tiny
        # regions: among the legal moves of the impostors shared by the most alternatives (ties are
        # common), take one that leaves its region more than 2k cells, else more than 2k - 1; a move
        # that makes a gift only when every legal move does.
        best, best_rank, best_shared = None, 3, 0
        for cell in ranked:
            if best_rank < 2 and shared[cell] < best_shared:
                break
            move = _move_out(n, regions, cell, answer_cells, rng, members_of)
            if move is None:
                continue
            left = len(members_of[regions[cell]]) - len(move[0])
            rank = 0 if left > keep else 1 if left > 2 * k - 1 else 2
            if rank < best_rank:
                best, best_rank, best_shared = move, rank, shared[cell]
                if rank == 0:
                    break
        if best is None:
            return RepairOutcome(False, rounds, "stuck")
        path, target = best
        for moved in path:
            members_of[regions[moved]].discard(moved)
            members_of[target].add(moved)
            regions[moved] = target
        search.set_regions(regions)
    return RepairOutcome(False, max_rounds, "ambiguous")


def _move_out(n: int, regions: list[int], cell: int, answer_cells: set[int], rng: random.Random,
              members_of: dict[int, set[int]]) -> tuple[list[int], int] | None:
    """The cells to hand over and the region to receive them, or None when there is no legal move.

    The nearest cell of the impostor's region that borders another region is found breadth-first
    through non-answer cells; the path to it is handed over, together with any part of the region that
    the path would cut off from the region's answer stars (so the donor stays one piece).
    `members_of` gives each region's cells.
    """
    neighbours = orthogonal_neighbours(n)
    own = regions[cell]
    members = members_of[own]
    stars = members & answer_cells
    parent = {cell: -1}
    queue = deque([cell])
    while queue:
        here = queue.popleft()
        for nb in neighbours[here]:
            if nb not in parent and nb in members and nb not in answer_cells:
                parent[nb] = here
                queue.append(nb)
        targets = sorted({regions[nb] for nb in neighbours[here]} - {own})
        if not targets:
            continue
        path = [here]
        while parent[path[-1]] != -1:
            path.append(parent[path[-1]])
        kept = reachable(n, members - set(path), next(iter(stars)))
        if stars <= kept:
            # the smallest neighbour takes the cells: repair should not grow one region into a sprawl
            smallest = min(targets, key=lambda label: (len(members_of[label]), rng.random()))
            return sorted(members - kept), smallest
    return None

