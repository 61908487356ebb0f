"""Repairing ambiguity: while the board has solutions other than the answer, move an impostor cell
(a star of an alternative that is empty in the answer) into a neighbouring region.

Moving cell c out of region R kills every alternative with a star on c: R now holds only k - 1 of that
alternative's stars. The answer's stars never move, so the answer survives every move; the donor region
must stay one piece. An impostor inside its region, with no other region beside it, moves together with
the shortest path of non-answer cells that leads from it to another region, and whatever that path
would cut off from the region's answer stars, into the smallest region beside it. The impostor chosen
is one shared by the most alternatives found; among those, one whose move leaves its region more than
2k cells (published boards have few tiny regions), and never one that leaves a gift (2k - 1 cells, its
stars forced) while another legal move does not. A style may ask for roomy moves: one that leaves its
region that many cells is then looked for among all the impostors first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.games.starbattle._repair import INCOMPLETE, STUCK, UNIQUE, repair_rounds
from engine.games.starbattle.count import Search, monotonic


@dataclass(slots=True)
class RepairOutcome:
    unique: bool
    rounds: int
    reason: str = ""          # "ambiguous" (round cap, or stalled), "stuck" (no legal move), "slow-count", "timeout"


def repair(n: int, search: Search, regions: list[int], answer: tuple[int, ...], rng: random.Random, *,
           max_rounds: int, alternatives: int = 8, deadline: float = 0.0,
           count_budget: int = 0, keep: int | None = None, stall: int = 0, roomy: bool = False) -> RepairOutcome:
    """Edit `regions` in place until the answer is the only solution or the round cap is reached.

    `search` must already hold `regions`; it is kept in step with every move. A count that visits more
    than `count_budget` search nodes gives up on this drawing ("slow-count"): the search's time has a
    heavy tail, and a fresh drawing is cheaper than waiting it out. (Nodes, not seconds, so that a
    seed gives the same board on any machine.) `keep`: a move ranks first when it leaves its region
    more than this many cells (default 2k; a style with compact pieces asks for more). A non-zero
    `stall` gives up ("ambiguous") once that many rounds have passed since a count last found fewer
    solutions than every count before it: such a repair is going round in circles. `roomy`: a move
    that leaves its region more than `keep` cells is taken from any impostor before a tighter move of
    the most shared ones, and the roomiest of the equally good moves is taken (fewer small regions,
    for more rounds and more drawings given up).
    """
    k = len(answer) // n
    keep = 2 * k if keep is None else keep      # a move leaving its region more cells ranks first
    # Published boards have no gifts (a region of 2k - 1 cells, its stars forced) and few tiny
    # regions: among the legal moves of the impostors shared by the most alternatives (ties are
    # common), take one that leaves its region more than 2k cells, else more than 2k - 1; a move
    # that makes a gift only when every legal move does. The rounds (a count, then that move) run
    # compiled (_repair.pyx: repair_rounds, _best_move), one map of the board serving them all.
    ended, rounds = repair_rounds(n, search, regions, answer, rng, max_rounds, alternatives, deadline,
                                  count_budget, keep, stall, roomy)
    if ended == UNIQUE:
        return RepairOutcome(True, rounds)
    if ended == INCOMPLETE:
        timed_out = deadline and monotonic() > deadline
        return RepairOutcome(False, rounds, "timeout" if timed_out else "slow-count")
    if ended == STUCK:
        return RepairOutcome(False, rounds, "stuck")
    return RepairOutcome(False, rounds, "ambiguous")
