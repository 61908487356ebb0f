"""The embedded run: generate boards with a local process pool and write them to the store, no broker.

Slot i of a run with seed S tries seeds derive_seed(S, i, 0), derive_seed(S, i, 1), ... until it yields a
board the store does not already hold, so a run is reproducible board by board. Workers only compute;
this process alone writes, so a board is either stored whole or not at all.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from engine import Rules, derive_seed
from store import init_db, make_engine, save_board, session
from workers.slot import generate_one  # one attempt of a slot: the same code in the fleet's tasks


@dataclass
class Summary:
    requested: int
    accepted: int = 0
    rejected: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    engine_seconds: float = 0.0     # summed over attempts, as a job's `seconds`

    def line(self) -> str:
        reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(self.rejected.items())) or "none"
        rate = self.accepted / self.seconds if self.seconds else 0.0
        return (f"accepted {self.accepted} of {self.requested}; rejected: {reasons}; "
                f"{rate:.2f} boards/s in {self.seconds:.2f} s")


class Progress:
    """A one-line progress bar on stderr, redrawn in place on a terminal, silent otherwise."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.started = total, enabled, time.perf_counter()

    def update(self, done: int, rejected: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        rate = done / max(time.perf_counter() - self.started, 1e-9)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} "
                         f"rejected {rejected} {rate:.1f} boards/s")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def run(rules: Rules, *, count: int, seed: int, jobs: int, timeout: float | None, db_url: str | None,
        band: str | None = None,
        max_attempts: int = 20, progress: bool = False) -> Summary:
    """Generate `count` new boards into the store; returns the summary (accepted may fall short when a
    slot keeps timing out or repeating stored boards, after `max_attempts` tries)."""
    engine = make_engine(db_url)
    init_db(engine)
    summary = Summary(requested=count)
    bar = Progress(count, progress)
    started = time.perf_counter()
    attempts = {slot: 0 for slot in range(count)}
    text = str(rules)

    def record(slot: int, result: dict[str, Any]) -> bool:
        """Store the result; True when the slot is finished (stored, or out of attempts)."""
        summary.rejected.update(result["rejected"])
        summary.engine_seconds += result["seconds"]
        if result["timeout"]:
            summary.rejected["timeout"] += 1
        elif result["board"] is not None:
            with session(engine) as db:
                stored = save_board(session=db, data=result["board"], fingerprint=result["fingerprint"])
            if stored:
                summary.accepted += 1
                return True
            summary.rejected["duplicate"] += 1
        attempts[slot] += 1
        return attempts[slot] >= max_attempts

    def seed_of(slot: int) -> int:
        return derive_seed(seed, slot, attempts[slot])

    if jobs <= 1:
        for slot in range(count):
            while not record(slot, generate_one(text, seed_of(slot), timeout, band)):
                pass
            bar.update(slot + 1, sum(summary.rejected.values()))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending: dict[Future, int] = {pool.submit(generate_one, text, seed_of(s), timeout, band): s
                                          for s in range(count)}
            done = 0
            while pending:
                future = next(iter(wait(pending, return_when=FIRST_COMPLETED).done))
                slot = pending.pop(future)
                if record(slot, future.result()):
                    done += 1
                    bar.update(done, sum(summary.rejected.values()))
                else:
                    pending[pool.submit(generate_one, text, seed_of(slot), timeout, band)] = slot
    bar.close()
    summary.seconds = time.perf_counter() - started
    engine.dispose()
    return summary

