"""Support for the technique soundness tests (no tests here): random boards, random partial positions,
and the brute-force oracle (the compiled search) saying which cells some or every solution uses."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.games.starbattle import Rules, generate
from engine.games.starbattle.count import new_search
from engine.games.starbattle.draw import draw_regions, plant
from engine.games.starbattle.techniques import StarState, ladder_for
from engine.ladder import Step, run

ORACLE_LIMIT = 3000

# (size, stars, diagonals): the board kinds the tests sweep
KINDS = [(5, 1, False), (6, 1, False), (7, 1, False), (8, 1, False), (9, 1, False),
         (5, 1, True), (6, 1, True), (7, 1, True), (8, 1, True), (9, 1, True),
         (8, 2, False), (9, 2, False), (10, 2, False), (12, 3, False)]


@dataclass(frozen=True)
class Truth:
    solutions: int            # how many solutions extend the position (fewer than ORACLE_LIMIT)
    some: int                 # cells that some solution has a star on (bitset)
    every: int                # cells that every solution has a star on (bitset; 0 when none)


@dataclass
class Case:
    rules: Rules
    regions: tuple[int, ...]
    state: StarState
    truth: Truth
    from_answer: bool         # built from a known solution, so at least one solution must extend it


def random_board(rng: random.Random, kind, unique: bool | None = None):
    """(rules, regions, answer): a generated unique board, or (unique=False) regions drawn around a
    planted answer without repair, which usually leaves several solutions."""
    n, k, d = kind
    rules = Rules(n, k, d)
    if unique is None:
        unique = rng.random() < 0.6
    if k >= 3:
        unique = False        # 3-star boards take long to make unique; drawn ones test as well
    if unique:
        board, _ = generate(rules, rng.getrandbits(32))
        return rules, board.regions, board.solution
    while True:
        answer = plant(rules, rng)
        regions = draw_regions(rules, answer, rng, spread=rng.uniform(0.2, 0.9),
                               gifts=rng.choice((0, 1)) if k == 1 else 0)
        if regions is not None:
            return rules, tuple(regions), answer


def truth(rules: Rules, regions, state: StarState, limit: int = ORACLE_LIMIT) -> Truth | None:
    """What brute force says about a position; None when it has too many solutions to list."""
    search = new_search(rules, regions)
    found, complete = search.solve(limit, state.star_cells(), state.eliminated_cells())
    if not complete or len(found) >= limit:
        return None
    some = 0
    every = (1 << (rules.size * rules.size)) - 1 if found else 0
    for sol in found:
        mask = 0
        for cell in sol:
            mask |= 1 << cell
        some |= mask
        every &= mask
    return Truth(len(found), some, every)


def random_position(rng: random.Random, rules: Rules, regions, answer) -> StarState:
    """A partial position consistent with `answer`: some of its stars, some of its empty cells ruled
    out, sometimes with the stars' neighbours crossed off, sometimes advanced by the capped ladder."""
    n = rules.size
    answer_set = set(answer)
    keep = rng.random() * 0.7
    stars = [c for c in answer if rng.random() < keep]
    elim_p = rng.random() * rng.choice((0.1, 0.3, 0.6))
    eliminated = [c for c in range(n * n) if c not in answer_set and rng.random() < elim_p]
    state = StarState.start(rules, regions, stars, eliminated)
    if rng.random() < 0.5:
        for c in stars:
            state.cand &= ~state.geo.attack[c]
    roll = rng.random()
    if roll < 0.3:
        run(state, ladder_for(rules.stars), rng.choice((1, 2, 3)), max_steps=rng.randrange(1, 15))
    elif roll < 0.45:
        # where a person would be: partway along the full ladder's path, hypotheticals included
        run(state, ladder_for(rules.stars), None, max_steps=rng.randrange(3, 40))
    return state


def wild_position(rng: random.Random, rules: Rules, regions) -> StarState:
    """A position that may have no solution at all: random stars, random eliminations."""
    n = rules.size
    stars = rng.sample(range(n * n), rng.randrange(0, n))
    eliminated = [c for c in range(n * n) if rng.random() < 0.3]
    return StarState.start(rules, regions, stars, [c for c in eliminated if c not in stars])


def build_cases(seed: int, boards: int, per_board: int = 3, wild: float = 0.1) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    for _ in range(boards):
        kind = rng.choice(KINDS)
        rules, regions, answer = random_board(rng, kind)
        for _ in range(per_board):
            from_answer = rng.random() >= wild
            if from_answer:
                state = random_position(rng, rules, regions, answer)
            else:
                state = wild_position(rng, rules, regions)
            t = truth(rules, regions, state)
            if t is not None:
                cases.append(Case(rules, tuple(regions), state, t, from_answer))
    return cases


def check_step(step: Step, state: StarState, t: Truth) -> str | None:
    """Why `step` is unsound (or malformed) in `state` given the brute-force truth, or None."""
    if not step.progress:
        return "the step changes nothing"
    for cell in step.place:
        if not state.cand >> cell & 1:
            return f"places a star on {cell}, which is not a candidate"
        if t.solutions and not t.every >> cell & 1:
            return f"places a star on {cell}, which some solution leaves empty"
    for cell in step.eliminate:
        if not state.cand >> cell & 1:
            return f"rules out {cell}, which is not a candidate"
        if t.some >> cell & 1:
            return f"rules out {cell}, which a solution uses"
    return None


def describe(case: Case, step) -> str:
    s = case.state
    return (f"{case.rules} regions={list(case.regions)} stars={list(s.star_cells())} "
            f"eliminated={list(s.eliminated_cells())} solutions={case.truth.solutions}\n"
            f"{s.picture()}\n{step}")
