"""One slot of a job: the one way a board is made and kept, shared by the embedded run and the fleet.

Slot i of a job with seed S tries seeds derive_seed(S, i, 0), derive_seed(S, i, 1), ... until a board
is stored that the store did not already hold, or the slot runs out of attempts. Every attempt is
recorded once (store.record_attempt), so a redelivered task resumes at the slot's next attempt and never
stores a second board. No Celery here: the task in workers.tasks is a thin wrapper around run_slot.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from sqlalchemy import Engine

from engine import DeadlineExceeded, derive_seed, generate_board, parse_rules
from store import JobNotFound, record_attempt, session, slot_status
from workers.params import BadTask, JobParams, check_ids


def generate_one(rules_text: str, seed: int, timeout: float | None, band: str | None = None
                 ) -> dict[str, Any]:
    """One attempt, pure computation: the board (or the timeout) and the drawings rejected by reason."""
    rules = parse_rules(rules_text)                # any game: the engine's registry
    started = time.perf_counter()
    try:
        board, stats = generate_board(rules, seed, band=band, timeout=timeout)
    except DeadlineExceeded as exc:
        return {"board": None, "fingerprint": None, "rejected": dict(exc.args[1].rejected), "timeout": True,
                "seconds": time.perf_counter() - started}
    return {"board": board.to_json(), "fingerprint": board.fingerprint, "rejected": dict(stats.rejected),
            "timeout": False, "seconds": time.perf_counter() - started}


def attempt_rejections(result: dict[str, Any]) -> Counter[str]:
    """Rejections of one attempt by reason; a timed-out attempt also counts one `timeout`."""
    reasons: Counter[str] = Counter(result["rejected"])
    if result["timeout"]:
        reasons["timeout"] += 1
    return reasons


def run_slot(*, db: Engine, job_id: Any, slot: Any, params: Any, seed: Any, budget: float,
             observe: Any = None) -> dict[str, Any]:
    """Attempts for one slot until it is finished or `budget` seconds would be overrun.

    Returns the summary shown in Flower: accepted (0 or 1), rejected by reason, seconds, attempts,
    the slot's state, and `continue: true` when the slot still needs a new task. Raises BadTask for
    parameters no retry can fix, StoreError for the store's faults (the caller decides what is
    transient). `observe(result, status)` is called after each recorded attempt (metrics)."""
    check_ids(job_id, slot, seed)
    job = JobParams.from_json(params)
    rules = job.rules()
    with session(db, read_only=True) as s:
        status = slot_status(session=s, job_id=job_id, slot=slot)
    if status is None:
        raise BadTask(f"no job with id {job_id}")
    summary: dict[str, Any] = {"job": job_id, "slot": slot, "accepted": 0, "rejected": {}, "seconds": 0.0,
                               "attempts": 0, "state": status.state}
    if status.state != "pending":
        return summary
    rejected: Counter[str] = Counter()
    per_attempt = min(job.timeout, budget)
    started = time.monotonic()
    attempt = status.attempts
    while attempt < job.max_attempts:
        if summary["attempts"] and time.monotonic() - started + per_attempt > budget:
            summary["continue"] = True
            break
        attempt_seed = derive_seed(seed, slot, attempt)
        result = generate_one(str(rules), attempt_seed, per_attempt, job.band)
        reasons = attempt_rejections(result)
        try:
            with session(db) as s:
                outcome = record_attempt(session=s, job_id=job_id, slot=slot, attempt=attempt,
                                         seed=attempt_seed, data=result["board"],
                                         fingerprint=result["fingerprint"], rejected=reasons,
                                         seconds=result["seconds"], max_attempts=job.max_attempts)
        except JobNotFound as exc:
            raise BadTask(str(exc)) from None
        if outcome.status == "duplicate":
            reasons["duplicate"] += 1
        if outcome.status not in ("done", "stale"):
            summary["attempts"] += 1
            summary["seconds"] += result["seconds"]
            rejected.update(reasons)
            summary["accepted"] += outcome.status == "stored"
        if observe is not None:
            observe(job, result, reasons, outcome.status)
        summary["state"] = outcome.slot_state
        if outcome.slot_state != "pending":
            break
        attempt = outcome.next_attempt
    summary["rejected"] = dict(sorted(rejected.items()))
    summary["seconds"] = round(summary["seconds"], 4)
    return summary
