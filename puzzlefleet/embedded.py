"""The embedded run: a job run by local processes instead of the fleet, no broker.

It is a job like any other: recorded in the store, its slots worked by `jobs.slot.run_slots` (the
code a worker's task runs) over ranges of consecutive slots, in `--jobs` local worker processes.
So slot i of a run with seed S tries the same seeds derive_seed(S, i, 0), derive_seed(S, i, 1), ...,
boards are deduplicated and stored in the same transactions, rejections are counted the same way, and
`puzzlefleet jobs` shows the run's progress like a fleet job's.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from queue import Empty
from typing import Any

from sqlalchemy import Engine

from puzzlefleet.progress import Progress
from store import (StoreError, create_job, get_job, init_db, list_job_boards, make_engine, session,
                   set_job_state)
from jobs.params import JobParams
from jobs.slot import MAX_SLOTS_PER_TASK, run_slots, slot_ranges

RANGES_PER_PROCESS = 4      # small enough ranges that a slow one does not leave the other processes idle


@dataclass
class Summary:
    requested: int
    accepted: int = 0
    rejected: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    engine_seconds: float = 0.0     # summed over attempts, as a job's `seconds`
    job: int | None = None
    interrupted: bool = False       # stopped by Ctrl-C: `accepted` boards were stored before it
    first_ids: list[str] = field(default_factory=list)   # of the boards stored, the first few (by slot)

    def line(self) -> str:
        reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(self.rejected.items())) or "none"
        rate = self.accepted / self.seconds if self.seconds else 0.0
        return (f"accepted {self.accepted} of {self.requested}; rejected: {reasons}; "
                f"{rate:.2f} boards/s in {self.seconds:.2f} s")


SHOWN_IDS = 5               # ids of stored boards a summary carries
GRACE_SECONDS = 1.5         # after Ctrl-C, how long processes may take to record what they made


def _work(db_url: str | None, job_id: int, params: dict[str, Any], seed: int, ranges: Any, results: Any,
          stop: Any) -> None:
    """A worker process: ranges of slots from `ranges` until it gets None or `stop` is set; sends
    ("attempt", status) for each recorded attempt, ("range", summary) for each finished range and
    ("error", message) if the store or the parameters fail."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)          # the parent decides when to stop
    db = make_engine(db_url)

    def observe(_job: JobParams, _seconds: float, reasons: Counter, status: str) -> None:
        results.put(("attempt", status, sum(reasons.values())))

    try:
        while not stop.is_set():
            item = ranges.get()
            if item is None:
                break
            start, end = item
            results.put(("range", run_slots(db=db, job_id=job_id, start=start, stop=end, params=params,
                                            seed=seed, budget=math.inf, hand_over=_never, observe=observe,
                                            cancelled=stop.is_set)))
    except Exception as exc:          # the store or the parameters: said once, in the parent
        results.put(("error", f"{exc}"))
    finally:
        db.dispose()


def _never(start: int, stop: int) -> None:
    raise AssertionError("an embedded range has no budget to run out of")


def processes(jobs: int, count: int) -> int:
    """How many processes a run of `count` boards with `--jobs` `jobs` has: never more than boards."""
    return max(1, min(jobs, count))


def run(params: JobParams, *, count: int, seed: int, jobs: int, db_url: str | None,
        progress: bool = False) -> Summary:
    """Generate `count` new boards into the store as one job, in `jobs` processes; returns the
    summary (accepted may fall short when a slot keeps timing out or repeating stored boards, after
    the job's max_attempts). Ctrl-C stops it within GRACE_SECONDS (a second one at once): what was
    stored is kept and the summary says so (`interrupted`)."""
    started = time.perf_counter()
    db = make_engine(db_url)
    init_db(db)
    data = params.to_json()
    with session(db) as s:
        job_id = create_job(session=s, game=params.game, rules=str(params.rules()), band=params.band,
                            params=data, seed=seed, requested=count)
    bar = Progress(count, progress)
    workers = processes(jobs, count)
    per_range = max(1, min(MAX_SLOTS_PER_TASK, count // (workers * RANGES_PER_PROCESS)))
    ranges = slot_ranges(range(count), per_range)
    try:
        if workers == 1:
            interrupted, error = _in_this_process(db, job_id, data, seed, ranges, bar)
        else:
            db.dispose()        # no pooled connection inherited by the worker processes
            interrupted, error = _in_processes(db_url, job_id, data, seed, ranges, workers, bar)
    finally:
        bar.close()
    if error is not None:
        db.dispose()
        raise StoreError(error)
    with session(db) as s:
        if interrupted:         # ended here, so that no sweep of a fleet on this store resumes it
            set_job_state(session=s, job_id=job_id, state="incomplete", error="interrupted (Ctrl-C)")
        first_ids = [board["id"] for board in list_job_boards(session=s, job_id=job_id, limit=SHOWN_IDS)]
        job = get_job(session=s, job_id=job_id)
    db.dispose()
    assert job is not None
    return Summary(requested=count, accepted=job["stored"], rejected=Counter(job["rejected"]),
                   seconds=time.perf_counter() - started, engine_seconds=job["seconds"], job=job_id,
                   interrupted=interrupted, first_ids=first_ids)


def _in_this_process(db: Engine, job_id: int, params: dict[str, Any], seed: int,
                     ranges: list[tuple[int, int]], bar: Progress) -> tuple[bool, str | None]:
    """The ranges one after another here, on the run's own engine (no process to start, no second
    connection to open: a small run stays quick). The first
    Ctrl-C asks the slot loop to stop after its attempt, and interrupts that attempt after
    GRACE_SECONDS; a second interrupts at once. Returns (interrupted, error)."""
    stop = threading.Event()
    counts = Counter()

    def first_ctrl_c(_signum: int, _frame: Any) -> None:
        stop.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)       # the second one interrupts
        signal.signal(signal.SIGALRM, signal.default_int_handler)
        signal.setitimer(signal.ITIMER_REAL, GRACE_SECONDS)

    def observe(_job: JobParams, _seconds: float, reasons: Counter, status: str) -> None:
        counts["stored"] += status == "stored"
        counts["rejected"] += sum(reasons.values())
        bar.update(counts["stored"], counts["rejected"])

    previous = signal.signal(signal.SIGINT, first_ctrl_c), signal.getsignal(signal.SIGALRM)
    try:
        for start, end in ranges:
            if stop.is_set():
                break
            run_slots(db=db, job_id=job_id, start=start, stop=end, params=params, seed=seed, budget=math.inf,
                      hand_over=_never, observe=observe, cancelled=stop.is_set)
    except KeyboardInterrupt:
        pass                        # the attempt under way is not recorded; what was is kept
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
    return stop.is_set(), None


def _in_processes(db_url: str | None, job_id: int, params: dict[str, Any], seed: int,
                  ranges: list[tuple[int, int]], workers: int, bar: Progress) -> tuple[bool, str | None]:
    """The ranges shared by `workers` processes. Ctrl-C reaches the parent alone (the workers ignore
    it); it sets the stop flag, waits GRACE_SECONDS for the workers to record their work, then kills
    the rest; a second Ctrl-C kills them at once. Returns (interrupted, error)."""
    import multiprocessing          # here: a one-process run (--jobs 1, or one board) does without it
    context = multiprocessing.get_context("fork")
    queue, results, stop = context.Queue(), context.Queue(), context.Event()
    for item in ranges:
        queue.put(item)
    for _ in range(workers):
        queue.put(None)
    processes = [context.Process(target=_work, args=(db_url, job_id, params, seed, queue, results, stop),
                                 name=f"puzzlefleet-generate-{n}", daemon=True) for n in range(workers)]
    for process in processes:
        process.start()
    interrupted, error, done, rejected, left = False, None, 0, 0, len(ranges)
    # Ctrl-C raises here even when whoever started us ignored SIGINT (a shell's background job, a
    # CI runner): Python then keeps that setting, and the run would never stop. The one-process path
    # sets its own handler for the same reason.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        while left and error is None:
            try:
                message = results.get(timeout=0.2)
            except Empty:
                if not any(process.is_alive() for process in processes) and results.empty():
                    error = "the worker processes ended before the job did"
                continue
            if message[0] == "attempt":
                done += message[1] == "stored"
                rejected += message[2]
                bar.update(done, rejected)
            elif message[0] == "range":
                left -= 1
            else:
                error = message[1]
    except KeyboardInterrupt:
        interrupted = True
    finally:
        stop.set()
        try:
            _wind_down(processes, GRACE_SECONDS if interrupted or error else 30.0)
        finally:
            signal.signal(signal.SIGINT, previous)
    return interrupted, error


def _wind_down(processes: list[Any], grace: float) -> None:
    """Wait up to `grace` seconds for the processes to record their work and end, then kill the rest
    (a killed attempt is simply not recorded: its store transaction rolls back). A second Ctrl-C
    kills them at once."""
    deadline = time.monotonic() + grace
    try:
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
    except KeyboardInterrupt:
        pass
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join()
