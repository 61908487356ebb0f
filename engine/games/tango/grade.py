"""Grading a Tango board the way a person solves it: the ladder (techniques.py) from the givens, the
cheapest technique that moves first, restarting from the bottom after every step. That solve is the
path a player is shown, and the band is read from it.

The band is the tier of the hardest technique the path needs (pairs, sandwiches, clues and the
balance: easy; the = pairs and the pair counts: medium; the ways a line can be completed: hard;
two lines together, chains and trial: expert), bumped up while the summed cost of the path passes the
band's ceiling (a long path of easy steps is more work than a short one). The ceilings were set on the
250 published LinkedIn boards of the calibration file (bench/bench_tango.py) so that their bands
spread 46 easy, 108 medium, 65 hard and 31 expert (18%, 43%, 26%, 12%); every one of them is
finished without trial, two need line-pair. The ceilings scale with the grid's area (the path's
length does). A board the ladder cannot finish gets no band.

The path is found by the compiled rungs (_ladder.pyx: pair to line-pair, with a compiled check of
whether chain would find anything) and, where they stall, by the Python finders above them (chain,
trial); each step is then worded by its Python finder of one place (techniques.AT), so the path and
its words are the Python ladder's (reference_grade runs that ladder alone; the tests hold them equal).
The generator words only the boards it keeps (`path`, then `worded`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import DeadlineExceeded
from engine.games.tango._ladder import COMPILED, STOPS, Position
from engine.games.tango.board import TangoBoard
from engine.games.tango.count import clue_triples, codes, monotonic
from engine.games.tango.techniques import AT, BANDS, LADDER, TABLE, TangoState
from engine.ladder import Step, run
from engine.ladder.fun import fun_score
from engine.ladder.grade import LadderGrade
from engine.ladder.loop import summarize
from engine.version import ENGINE_VERSION

# The summed cost a 6x6 path may reach and keep its band (the published boards' spread, see above).
CEILINGS = {"easy": 34, "medium": 41, "hard": 50}
CALIBRATED_AREA = 36
HARD_TIER = 3          # steps of this tier and above are the fun score's hard ones


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    values: str                  # the grid the ladder reached ('.' where it stopped)


def band_for(hardest_tier: int, score: int, n: int = 6) -> str:
    """The band of a finished solve: the hardest tier's, bumped while the score passes its ceiling."""
    index = min(max(hardest_tier, 1), len(BANDS)) - 1
    scale = n * n / CALIBRATED_AREA
    while index < len(BANDS) - 1 and score > CEILINGS[BANDS[index]] * scale:
        index += 1
    return BANDS[index]


@dataclass(frozen=True, slots=True)
class Path:
    """The ladder's solve path without its words: each step as (technique, cost, placements sorted)."""
    steps: tuple[tuple[str, int, tuple[int, ...]], ...]
    solved: bool
    contradiction: bool
    values: str                  # the grid reached
    where: tuple[int | Step, ...] = ()      # each step's line (clue number for `clue`), or the Step
                                            # itself when a Python finder took it

    @property
    def tiers(self) -> tuple[int, ...]:
        return tuple(LADDER[name].tier for name, _, _ in self.steps)

    @property
    def score(self) -> int:
        return sum(cost for _, cost, _ in self.steps)

    def band(self, n: int) -> str | None:
        """The band of the path, None when it did not solve the board."""
        return band_for(max(self.tiers, default=0), self.score, n) if self.solved else None


def path(board: TangoBoard, cap: str | int | None = None, *, deadline: float = 0.0) -> Path:
    """The ladder's path on `board` (techniques up to `cap`), found by the compiled rungs (_ladder.pyx)
    and, where they stall, the Python ones above them (chain, trial): the same path as
    engine.ladder.run with techniques.LADDER, without the words. DeadlineExceeded when `deadline`
    (monotonic seconds, 0: none) passes."""
    allowed = LADDER.capped(cap)
    top = len(allowed) - 1
    position = Position(board.n, codes(board.givens), clue_triples(board.clues))
    steps: list[tuple[str, int, tuple[int, ...]]] = []
    where: list[int | Step] = []
    while True:
        stop, found = position.run(min(top, COMPILED), deadline)
        steps += [(TABLE[rung].name, cost, place) for rung, cost, place, _ in found]
        where += [at for _, _, _, at in found]
        if STOPS[stop] == "late":
            raise DeadlineExceeded(f"the ladder ran out of time after {len(steps)} steps")
        if STOPS[stop] != "stalled" or top <= COMPILED:
            break
        state = None
        for technique in allowed[COMPILED + 1:]:
            if deadline and monotonic() > deadline:
                raise DeadlineExceeded(f"the ladder ran out of time after {len(steps)} steps")
            if technique.name == "chain" and not position.chain_finds():
                continue                        # the compiled check: chain would find nothing
            state = state or TangoState.start(board, position.grid(), deadline=deadline)
            step = technique.find(state)
            if step is not None:
                break
        else:
            break                               # stalled: nothing allowed makes progress
        position.place(step.place)
        steps.append((step.technique, step.cost, tuple(sorted(step.place))))
        where.append(step)
    return Path(tuple(steps), STOPS[stop] == "solved", STOPS[stop] == "contradiction", position.grid(),
                tuple(where))


def worded(board: TangoBoard, found: Path, *, deadline: float = 0.0) -> Grade | None:
    """The grade of a path, each step worded by its Python finder of one place (techniques.AT) on the
    position it was taken in; None when a finder does not find what the path says (the compiled
    rungs and the Python ones disagree: never expected)."""
    state = TangoState.start(board, deadline=deadline)
    steps = []
    for (name, cost, place), at in zip(found.steps, found.where):
        if isinstance(at, Step):
            step: Step | None = at
        else:
            hit = AT[name](state, at)
            step = None if hit is None else Step(name, LADDER[name].cost if hit.cost is None else hit.cost,
                                                   hit.place, (), hit.units, hit.why)
        if step is None or step.cost != cost or tuple(sorted(step.place)) != place:
            return None
        state.apply(step)
        steps.append(step)
    result = summarize(steps, LADDER, found.solved, found.contradiction)
    return Grade.measured(result, LADDER, found.band(board.n), values=state.grid())


def grade(board: TangoBoard, cap: str | int | None = None, *, deadline: float = 0.0) -> Grade:
    """Solve `board` with the ladder (techniques up to `cap`: a name, a tier or "tier N"; None for all)
    and grade the path. `deadline` (monotonic seconds, 0: none) bounds the solve, trial's included.
    The path is found by the compiled rungs and worded by the Python finders; where they disagree
    (never expected) the Python ladder alone grades it."""
    graded = worded(board, path(board, cap, deadline=deadline), deadline=deadline)
    return graded if graded is not None else reference_grade(board, cap, deadline=deadline)


def reference_grade(board: TangoBoard, cap: str | int | None = None, *, deadline: float = 0.0) -> Grade:
    """The grade by the Python ladder alone (engine.ladder.run over techniques.LADDER)."""
    state = TangoState.start(board, deadline=deadline)
    result = run(state, LADDER, cap, deadline=deadline)
    band = band_for(result.hardest_tier, result.total_cost, board.n) if result.solved else None
    return Grade.measured(result, LADDER, band, values=state.grid())


def steps_json(steps: list[Step], n: int) -> list[dict[str, Any]]:
    """Steps in the board JSON's form: each placement as [row, column, value], value 0 sun, 1 moon."""
    def triples(placed: tuple[int, ...]) -> list[list[int]]:
        return [[(x >> 1) // n, (x >> 1) % n, x & 1] for x in placed]
    return [{"technique": s.technique, "cost": s.cost, "place": triples(s.place), "eliminate": [],
             "units": list(s.units), "why": s.why} for s in steps]


def describe(board: TangoBoard, graded: Grade | None = None) -> dict[str, Any]:
    """The grade, fun and solve path of a proved board, as the board JSON's fields."""
    graded = graded or grade(board)
    return {"difficulty": graded.difficulty_json(), "fun": fun_score(graded.tiers, hard_tier=HARD_TIER).to_json(),
            "steps": steps_json(graded.steps, board.n), "engine_version": ENGINE_VERSION}


__all__ = ["CEILINGS", "HARD_TIER", "Grade", "Path", "band_for", "describe", "grade", "path", "reference_grade",
           "steps_json", "worded"]
