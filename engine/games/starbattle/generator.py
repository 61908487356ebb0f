"""Generating a Star Battle family board: plant an answer, draw regions, repair, prove.

Same seed, same board: every random choice comes from one `random.Random(seed)` (a deadline can cut a
run short, but never changes the board a run returns).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from engine.errors import DeadlineExceeded
from engine.games.starbattle.board import Board
from engine.games.starbattle.count import count_solutions, monotonic, new_search
from engine.games.starbattle.draw import draw_regions, plant
from engine.games.starbattle.repair import repair
from engine.games.starbattle.rules import Rules
from engine.version import ENGINE_VERSION


@dataclass(frozen=True, slots=True)
class Settings:
    spread: float | None = None       # region-size spread; None draws one per drawing from 0.2..0.9
    gifts: int | None = None          # single-cell regions at k = 1; None: 1-2 gifts about half the time
    max_rounds: int | None = None     # repair rounds per drawing; None: 40 up to 10x10, else 30 n
    drawings_per_answer: int = 4      # region drawings tried on one planted answer before planting again
    alternatives: int = 8             # alternatives collected per repair round
    count_budget: int = 300_000       # search nodes (0.1-0.2 s) one count may take before the
                                      # drawing is abandoned


@dataclass(slots=True)
class GenerationStats:
    answers: int = 0                  # answers planted
    drawings: int = 0                 # region drawings (each one growth plus up to max_rounds repairs)
    repair_rounds: int = 0
    rejected: Counter = field(default_factory=Counter)   # reason -> drawings rejected
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"answers": self.answers, "drawings": self.drawings, "repair_rounds": self.repair_rounds,
                "rejected": dict(self.rejected), "seconds": round(self.seconds, 6)}


def generate(rules: Rules, seed: int, *, settings: Settings = Settings(),
             timeout: float | None = None) -> tuple[Board, GenerationStats]:
    """A board whose only solution is the planted answer (proved twice: by repair and by a fresh count).

    Raises DeadlineExceeded (carrying the stats in `args[1]`) when `timeout` seconds pass first.
    """
    started = time.perf_counter()
    deadline = monotonic() + timeout if timeout else 0.0
    rng = random.Random(seed)
    stats = GenerationStats()
    k1 = rules.stars == 1
    # Carrying on with repair is far cheaper than growing new regions, so large boards get more rounds.
    max_rounds = settings.max_rounds
    if max_rounds is None:
        max_rounds = 40 if rules.size <= 10 else 30 * rules.size
    while True:
        try:
            answer = plant(rules, rng, deadline)
        except DeadlineExceeded as exc:
            stats.seconds = time.perf_counter() - started
            raise DeadlineExceeded(str(exc), stats) from None
        stats.answers += 1
        for _ in range(settings.drawings_per_answer):
            if deadline and monotonic() > deadline:
                stats.seconds = time.perf_counter() - started
                raise DeadlineExceeded(f"no unique {rules} board within {timeout} s", stats)
            stats.drawings += 1
            spread = settings.spread if settings.spread is not None else rng.uniform(0.2, 0.9)
            gifts = settings.gifts
            if gifts is None:
                gifts = rng.choice((0, 0, 1, 2)) if k1 else 0
            regions = draw_regions(rules, answer, rng, spread=spread, gifts=gifts)
            if regions is None:
                stats.rejected["draw-failed"] += 1
                continue
            search = new_search(rules, regions)
            outcome = repair(rules.size, search, regions, answer, rng, max_rounds=max_rounds,
                             alternatives=settings.alternatives, deadline=deadline,
                             count_budget=settings.count_budget)
            stats.repair_rounds += outcome.rounds
            if not outcome.unique:
                stats.rejected[outcome.reason] += 1
                continue
            proof = count_solutions(rules, regions, 2, deadline=deadline)
            if not proof.complete:
                stats.rejected["timeout"] += 1
                continue
            if proof.solutions != (answer,):       # never expected: repair and the proof disagree
                stats.rejected["unproved"] += 1
                continue
            stats.seconds = time.perf_counter() - started
            extra = {"engine_version": ENGINE_VERSION, "generation": stats.to_json()}
            return Board(rules, tuple(regions), answer, seed, extra), stats
