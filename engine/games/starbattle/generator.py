"""Generating a Star Battle family board: plant an answer, draw regions, repair, prove, grade, judge.

A unique board is graded by the ladder (grade.py); with a band asked for, the region-size spread is
steered toward it, and a near miss can be tuned into it by the shared loop (engine/ladder/tune.py: a
boundary nudge is kept when the board stays unique and its grade moves toward the band; by default
where that measured faster than drawing afresh, `tuning_budget`); then the fun of the solve path, the
shape of the regions and (for a tuned map, again) the style's likeness must pass.
Every drawing that fails says why, counted by reason in GenerationStats.rejected:
draw-failed, ambiguous, stuck, slow-count, timeout, unsolvable (beyond the ladder), wrong-band, dull, ugly.

Same seed, same board: every random choice comes from one `random.Random(seed)` (a deadline can cut a
run short, but never changes the board a run returns).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from types import ModuleType

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import stays_connected_without
from engine.games.starbattle.shape import shape_score
from engine.errors import DeadlineExceeded, InvalidRules
from engine.games.starbattle.board import Board
from engine.games.starbattle.count import count_solutions, monotonic, new_search
from engine.games.starbattle import styles
from engine.games.starbattle.draw import plant
from engine.games.starbattle.grade import BANDS, STARBATTLE_CUTS, Grade, grade, steps_json
from engine.games.starbattle.repair import repair
from engine.games.starbattle.rules import Rules
from engine.ladder.fun import fun_score
from engine.ladder.tune import Tuned, tune
from engine.version import ENGINE_VERSION

# Region-size spread per band: uneven sizes leave tiny regions that pin their stars at once (easy),
# even sizes interlock (hard). Without a band, about the size profile of published boards.
SPREAD = {None: (0.15, 0.5), "easy": (0.7, 1.2), "medium": (0.4, 0.8), "hard": (0.15, 0.5),
          "expert": (0.05, 0.35)}


@dataclass(frozen=True, slots=True)
class Settings:
    spread: float | None = None       # region-size spread; None draws one per drawing from SPREAD[band]
    gifts: int | None = None          # single-cell regions at k = 1; None: one for easy Queens, else 0
    max_rounds: int | None = None     # repair rounds per drawing; None: round_cap(rules)
    drawings_per_answer: int = 4      # region drawings tried on one planted answer before planting again
    alternatives: int = 8             # alternatives collected per repair round
    count_budget: int = 300_000       # search nodes (0.1-0.2 s) one count may take before the
                                      # drawing is abandoned
    min_fun: int | None = None        # boards whose solve path scores lower are dull; None: gates_for(rules)
    min_shape: int | None = None      # boards whose regions score lower are ugly; None: gates_for(rules)
    # Boundary nudges the shared tuning loop may try on a near miss (a board one band off the asked
    # band); None: tuning_budget(rules, band), where tuning was measured to beat drawing afresh.
    climb_steps: int | None = None
    tune_steps: int | None = None     # boundary nudges per row after repair; None: the style's TUNE_STEPS
    # Keep drawings and finished maps as often as the style's fitted likeness says (styles/__init__.py, `keep`);
    # off only to fit that likeness on the style's own output (bench/fit_likeness.py).
    sample: bool = True


@dataclass(slots=True)
class GenerationStats:
    answers: int = 0                  # answers planted
    drawings: int = 0                 # region drawings (each one growth plus up to max_rounds repairs)
    repair_rounds: int = 0
    tuned: int = 0                    # near misses tuning changed at least once
    rejected: Counter = field(default_factory=Counter)   # reason -> drawings rejected
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"answers": self.answers, "drawings": self.drawings, "repair_rounds": self.repair_rounds,
                "tuned": self.tuned, "rejected": dict(self.rejected), "seconds": round(self.seconds, 6)}


# The ladder without its last rung: case analysis (trial-cases) reads hand-made boards that stall
# every other rung, but one search can carry thousands of cases on at 14x14, so the generator turns
# away a drawing that needs it, as it did before that rung existed.
GENERATION_CAP = "trial-long"


# Where tuning a near miss reaches the band sooner than drawing afresh (bench/bench_band_tuning.py,
# BENCHMARKS.md "Grading"): hard and expert two- and three-star boards from 12x12 on. Elsewhere drawing
# alone is as fast or faster (Queens 7x7-11x11, 10x10 2-star), and no tuning measure tried brought a
# Queens 8x8 hard board to expert, so a nudge there would only cost time.
TUNED_BANDS = ("hard", "expert")
TUNED_FROM_SIZE = 12
TUNE_BUDGET = 40


def tuning_budget(rules: Rules, band: str | None) -> int:
    """The nudges a near miss of these rules gets by default (0: not tuned)."""
    tuned = rules.stars >= 2 and rules.size >= TUNED_FROM_SIZE and band in TUNED_BANDS
    return TUNE_BUDGET if tuned else 0


def round_cap(rules: Rules) -> int:
    """Repair rounds a drawing gets by default: 40, or 30 n on one-star boards larger than 10x10.

    Carrying on with repair is far cheaper than growing new regions on large one-star boards (Queens
    16x16: 0.8 s -> 0.04 s median with 30 n), where a round is a count of microseconds. With two or
    three stars a round is a count of a far larger search (about 0.1 s at 14x14 3-star), and repair
    either works early or not at all: of 144 drawings at 14x14 3-star (bench/repair_rounds.py), every
    one of the 83 made unique was unique within 38 rounds, while a drawing carried on to 420 rounds
    cost 12-40 s and never became unique (BENCHMARKS.md)."""
    return 30 * rules.size if rules.size > 10 and rules.stars == 1 else 40


def generate(rules: Rules, seed: int, *, band: str | None = None, settings: Settings = Settings(),
             timeout: float | None = None, style: str | None = None) -> tuple[Board, GenerationStats]:
    """A board whose only solution is the planted answer (proved twice: by repair and by a fresh
    count), solved by the ladder without guessing, graded `band` when one is given, fun and shapely.

    `style` names the drawing style (`styles.names()`); None is the game's default. The style drawn
    in is written into the board's JSON (`style`, and `generation.style` with `style_score`). An
    unknown style, or one that cannot draw these rules, raises InvalidRules.

    Raises DeadlineExceeded (carrying the stats in `args[1]`) when `timeout` seconds pass first.
    """
    if band is not None and band not in BANDS:
        raise InvalidRules(f"unknown band {band!r}: expected one of {', '.join(BANDS)}")
    drawing = styles.for_rules(rules, style)
    started = time.perf_counter()
    deadline = monotonic() + timeout if timeout else 0.0
    rng = random.Random(seed)
    stats = GenerationStats()
    k1 = rules.stars == 1
    max_rounds = settings.max_rounds if settings.max_rounds is not None else round_cap(rules)
    gates = drawing.gates(rules)
    min_fun = gates.min_fun if settings.min_fun is None else settings.min_fun
    min_shape = gates.min_shape if settings.min_shape is None else settings.min_shape
    tune_steps = drawing.TUNE_STEPS if settings.tune_steps is None else settings.tune_steps
    climb_steps = tuning_budget(rules, band) if settings.climb_steps is None else settings.climb_steps
    plants = getattr(drawing, "PLANTS", False)
    stall = drawing.repair_stall(rules) if hasattr(drawing, "repair_stall") else 0
    roomy = drawing.repair_roomy(rules) if hasattr(drawing, "repair_roomy") else False

    def out_of_time(what: str) -> DeadlineExceeded:
        stats.seconds = time.perf_counter() - started
        return DeadlineExceeded(f"no {what} {rules} board within {timeout} s", stats)

    def graded_in_time(board: Board, cap: int | str = GENERATION_CAP) -> Grade:
        try:
            return grade(board, cap, deadline=deadline)
        except DeadlineExceeded:
            raise out_of_time(band or "unique") from None

    while True:
        try:
            # a style that plants its own answer draws one per drawing
            answer = () if plants else plant(rules, rng, deadline)
        except DeadlineExceeded:
            raise out_of_time("unique") from None
        stats.answers += 1
        for _ in range(settings.drawings_per_answer):
            if deadline and monotonic() > deadline:
                raise out_of_time(band or "unique")
            stats.drawings += 1
            low, high = SPREAD[band]
            spread = settings.spread if settings.spread is not None else rng.uniform(low, high)
            gifts = settings.gifts
            if gifts is None:
                # published boards have no single-cell regions: one gift, for easy Queens only
                gifts = 1 if band == "easy" and k1 else 0
            if plants:        # the style finds the answer in its own drawing (the planted one unused)
                made = drawing.draw_planted(rules, rng, spread=spread, gifts=gifts, deadline=deadline)
                regions, answer = made if made is not None else (None, answer)
            else:
                regions = drawing.draw(rules, answer, rng, spread=spread, gifts=gifts)
            if regions is None:
                stats.rejected["draw-failed"] += 1
                continue
            # a likeness judged on the drawing: a map set aside here costs a drawing, not a repair
            if settings.sample and not drawing.keep(rules, regions, rng, drawn=True):
                stats.rejected["unlike-published"] += 1
                continue
            drawn = tuple(regions)               # repair moves cells in place
            board = Board(rules, drawn, answer, seed)
            # Hunting easy boards: when the ladder capped at tier 2 finishes the raw drawing, every
            # placement was forced, which proves the answer unique without repair. (The uncapped
            # ladder would take the same path: it reaches tier 3 only when tiers 1-2 find nothing.)
            # Measured: halves the time of Queens 9x9 easy; at k >= 2 the capped ladder stalls slowly
            # on raw drawings (10x10 2-star easy: 0.14 s per board against 0.02 s without), so Queens only.
            graded = graded_in_time(board, cap=2) if band == "easy" and k1 else None
            if graded is None or not graded.solved or graded.stars != answer:
                search = new_search(rules, regions)
                outcome = repair(rules.size, search, regions, answer, rng, max_rounds=max_rounds,
                                 alternatives=settings.alternatives, deadline=deadline,
                                 count_budget=settings.count_budget, keep=drawing.repair_keep(rules),
                                 stall=stall, roomy=roomy)
                stats.repair_rounds += outcome.rounds
                if not outcome.unique:
                    stats.rejected[outcome.reason] += 1
                    continue
                # repair moves single cells and roughens the style's look: the style nudges it back
                try:
                    regions = drawing.tune(rules, regions, answer, rng, tune_steps * rules.size, drawn,
                                           deadline=deadline)
                except DeadlineExceeded:
                    raise out_of_time(band or "unique") from None
                board = Board(rules, tuple(regions), answer, seed)
                graded = None
            if settings.sample and not drawing.keep(rules, regions, rng, drawn=False):
                stats.rejected["unlike-published"] += 1
                continue
            proof = count_solutions(rules, regions, 2, deadline=deadline)   # the re-check, always
            if not proof.complete:
                stats.rejected["timeout"] += 1
                continue
            if proof.solutions != (answer,):       # never expected: repair and the proof disagree
                stats.rejected["unproved"] += 1
                continue
            # The shape needs only the regions: judged before the grade, which can take seconds on
            # large boards, and an ugly drawing is then turned away without one.
            shape = shape_json(board, drawing)
            if min_shape is not None and shape["score"] < min_shape:
                stats.rejected["ugly"] += 1
                continue
            graded = graded or graded_in_time(board)
            drawn_map, kept_nudges = board.regions, 0
            if not graded.solved:
                stats.rejected["unsolvable"] += 1
                continue
            if band is not None and graded.band != band:
                # only a near miss (the next band over) is worth tuning
                if climb_steps and abs(BANDS.index(graded.band) - BANDS.index(band)) == 1:
                    try:
                        board, graded, tuned = tune_toward(board, graded, band, rng, climb_steps, deadline)
                    except DeadlineExceeded:
                        raise out_of_time(band) from None
                    stats.tuned += tuned.kept > 0
                    kept_nudges = tuned.kept
                    shape = shape_json(board, drawing)   # tuning moved borders
                if graded.band != band:
                    stats.rejected["wrong-band"] += 1
                    continue
                if min_shape is not None and shape["score"] < min_shape:
                    stats.rejected["ugly"] += 1
                    continue
                # a tuned map is a new map: the likeness judges it as it judged the one it came from
                if board.regions != drawn_map and settings.sample \
                        and not drawing.keep(rules, board.regions, rng, drawn=False):
                    stats.rejected["unlike-published"] += 1
                    continue
            fun = fun_score(graded.tiers)
            if min_fun is not None and fun.score < min_fun:
                stats.rejected["dull"] += 1
                continue
            stats.seconds = time.perf_counter() - started
            finished = _finished(board, graded, fun.to_json(), shape, stats)
            # Every board names its style, the default's too: the default may change, and a stored
            # board must say what it was drawn in.
            finished.extra["style"] = drawing.NAME
            finished.extra["generation"]["style"] = drawing.NAME
            finished.extra["generation"]["style_score"] = shape["score"]
            finished.extra["generation"]["tuned_nudges"] = kept_nudges   # boundary changes tuning kept
            return finished, stats


def describe(board: Board) -> dict:
    """The grade, fun, shape and solve path of a proved board, as the JSON contract's fields (the
    board must be unique; the ladder's path is its proof when it finishes). The shape is scored in
    the style the map looks most like (`styles.closest`)."""
    graded = grade(board)
    return _fields(board, graded, fun_score(graded.tiers).to_json(),
                   shape_json(board, styles.closest(board.rules, board.regions)))


def shape_json(board: Board, style: ModuleType) -> dict:
    """The shape features of a map, with its score (the shape gate's) and style: the style's own."""
    features = shape_score(board.n, board.regions, board.rules.stars).to_json()
    return features | {"score": style.score(board.rules, board.regions), "style": style.NAME}


def _fields(board: Board, graded: Grade, fun: dict, shape: dict) -> dict:
    return {"difficulty": graded.difficulty_json(), "fun": fun, "shape": shape,
            "steps": steps_json(graded.steps, board.n), "engine_version": ENGINE_VERSION}


def _finished(board: Board, graded: Grade, fun: dict, shape: dict, stats: GenerationStats) -> Board:
    extra = _fields(board, graded, fun, shape)
    extra["generation"] = stats.to_json()
    return Board(board.rules, board.regions, board.solution, board.seed, extra)


def nudge(board: Board, rng: random.Random) -> Board | None:
    """One boundary change for tuning: a random cell off the answer, on a region boundary, handed to a
    neighbouring region, when its own region stays one piece; None when the cell drawn allows none.
    The answer stays a solution (no region loses or gains a star); whether it stays the only one is
    for `band_distance` to prove."""
    n = board.n
    cell = rng.randrange(n * n)
    regions = board.regions
    targets = sorted({regions[nb] for nb in orthogonal_neighbours(n)[cell]} - {regions[cell]})
    if cell in board.solution or not targets or not stays_connected_without(n, regions, [cell]):
        return None
    trial = list(regions)
    trial[cell] = rng.choice(targets)
    return Board(board.rules, tuple(trial), board.solution, board.seed)


def band_distance(board: Board, band: str, *, deadline: float = 0.0) -> tuple[int, int] | None:
    """How far the measured difficulty of `board` lies from `band`: (bands between, then how far the
    score lies from the band), (0, 0) in it; None when the answer is not the only solution (proved by
    the count) or the capped ladder does not finish (the generator turns such a board away)."""
    return _distance(board, band, deadline=deadline)[0]


def _distance(board: Board, band: str, *, deadline: float = 0.0) -> tuple[tuple[int, int] | None, Grade | None]:
    if count_solutions(board.rules, board.regions, 2, deadline=deadline).solutions != (board.solution,):
        return None, None
    graded = grade(board, GENERATION_CAP, deadline=deadline)
    if not graded.solved:
        return None, graded
    return _graded_distance(board.rules, graded, band), graded


def _graded_distance(rules: Rules, graded: Grade, band: str) -> tuple[int, int]:
    goal, now = BANDS.index(band), BANDS.index(graded.band)
    if goal == now:
        return (0, 0)
    if rules.stars >= 2:
        # the band is a score range: how far the score lies outside it
        edges = (0, *STARBATTLE_CUTS, None)
        low, high = edges[goal], edges[goal + 1]
        return (abs(goal - now), low - graded.score if graded.score < low else graded.score - high + 1)
    # one star: the band is the hardest tier (or, for easy and medium, the score); within the band it
    # has, a higher score for a harder band asked, a lower one for an easier
    return (abs(goal - now), -graded.score if goal > now else graded.score)


def tune_toward(board: Board, graded: Grade, band: str, rng: random.Random, budget: int,
                deadline: float = 0.0) -> tuple[Board, Grade, Tuned[Board]]:
    """The shared tuning loop (engine.ladder.tune) on a proved, graded board: boundary nudges kept
    while the board stays unique and its grade moves toward `band`. Returns the board, its grade and
    what the loop did."""
    grades = {board.regions: graded}

    def measure(candidate: Board) -> tuple[int, int] | None:
        found, regraded = _distance(candidate, band, deadline=deadline)
        if regraded is not None:
            grades[candidate.regions] = regraded
        return found

    done = tune(board, _graded_distance(board.rules, graded, band), nudge=nudge, measure=measure, rng=rng,
                budget=budget, deadline=deadline)
    return done.board, grades[done.board.regions], done
