"""The embedded run: a job run by local processes instead of the fleet, no broker.

It is a job like any other: recorded in the store, its slots worked by `workers.slot.run_slots` (the
code a worker's task runs) over ranges of consecutive slots, in this process or a local process pool.
So slot i of a run with seed S tries the same seeds derive_seed(S, i, 0), derive_seed(S, i, 1), ...,
boards are deduplicated and stored in the same transactions, rejections are counted the same way, and
`puzzlefleet jobs` shows the run's progress like a fleet job's.
"""

from __future__ import annotations

import math
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from store import create_job, init_db, make_engine, session
from store.progress import read_jobs
from workers.params import JobParams
from workers.slot import MAX_SLOTS_PER_TASK, run_slots, slot_ranges

RANGES_PER_PROCESS = 4      # small enough ranges that a slow one does not leave the other processes idle


@dataclass
class Summary:
    requested: int
    accepted: int = 0
    rejected: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    engine_seconds: float = 0.0     # summed over attempts, as a job's `seconds`
    job: int | None = None

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


_process_db: dict[str | None, Engine] = {}


def _run_range(db_url: str | None, job_id: int, start: int, stop: int, params: dict[str, Any],
               seed: int) -> dict[str, Any]:
    """One range of slots, as a worker's task runs it (in a pool process: one engine per process)."""
    db = _process_db.get(db_url)
    if db is None:
        db = _process_db[db_url] = make_engine(db_url)
    return run_slots(db=db, job_id=job_id, start=start, stop=stop, params=params, seed=seed,
                     budget=math.inf, hand_over=_never)


def _never(start: int, stop: int) -> None:
    raise AssertionError("an embedded range has no budget to run out of")


def run(params: JobParams, *, count: int, seed: int, jobs: int, db_url: str | None,
        progress: bool = False) -> Summary:
    """Generate `count` new boards into the store as one job; returns the summary (accepted may fall
    short when a slot keeps timing out or repeating stored boards, after the job's max_attempts)."""
    started = time.perf_counter()
    db = make_engine(db_url)
    init_db(db)
    data = params.to_json()
    with session(db) as s:
        job_id = create_job(session=s, game=params.game, rules=str(params.rules()), band=params.band,
                            params=data, seed=seed, requested=count)
    db.dispose()                # no pooled connection inherited by the pool's processes
    bar = Progress(count, progress)
    per_range = max(1, min(MAX_SLOTS_PER_TASK, count // (max(jobs, 1) * RANGES_PER_PROCESS)))
    ranges = slot_ranges(range(count), per_range)
    done = rejected = 0

    def finished(summary: dict[str, Any]) -> None:
        nonlocal done, rejected
        done += summary["accepted"] + summary["failed"]
        rejected += sum(summary["rejected"].values())
        bar.update(done, rejected)

    try:
        if jobs <= 1:
            for start, stop in ranges:
                finished(_run_range(db_url, job_id, start, stop, data, seed))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                pending: set[Future] = {pool.submit(_run_range, db_url, job_id, start, stop, data, seed)
                                        for start, stop in ranges}
                try:
                    while pending:
                        completed, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in completed:
                            finished(future.result())
                except BaseException:
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    finally:
        bar.close()
        for engine in _process_db.values():
            engine.dispose()
        _process_db.clear()
    db.dispose()
    job = read_jobs(url=db_url, job_id=job_id)[0]       # the reader `puzzlefleet jobs` uses
    return Summary(requested=count, accepted=job["stored"], rejected=Counter(job["rejected"]),
                   seconds=time.perf_counter() - started, engine_seconds=job["seconds"], job=job_id)
