"""Slots of a job: the one way a board is made (generate_one, shared with the embedded run) and kept.

Slot i of a job with seed S tries seeds derive_seed(S, i, 0), derive_seed(S, i, 1), ... until a board
is stored that the store did not already hold, or the slot runs out of attempts. Every attempt is
recorded once (store.record_attempts), so a redelivered task resumes each slot at its next attempt and
never stores a second board. A task works on a range of slots, so its fixed cost (a message, the
store's transactions) is shared by several boards. No Celery here: the task in workers.tasks is a thin
wrapper around run_slots.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Engine

from engine import DeadlineExceeded, derive_seed, game_named, parse_rules
from store import Attempt, JobNotFound, pending_slots, record_attempts, session, settle_job
from store.progress import acceptance_line
from jobs.params import BadTask, JobParams, check_ids

MAX_SLOTS_PER_TASK = 64
MAX_TASKS_PER_JOB = 2000
FLUSH_SECONDS = 1.0        # the most engine time a killed task loses (its redelivery redoes it)


class HandOverFailed(Exception):
    """`hand_over` could not send the range (the broker away; its fault is the __cause__). A range a
    task splits off is then kept and worked by the task itself; one it hands over when its budget is
    spent fails the task, which is retried."""


def generate_one(rules_text: str, seed: int, timeout: float | None, band: str | None = None,
                 style: str | None = None) -> dict[str, Any]:
    """One attempt, pure computation: the board (or the timeout) and the drawings rejected by reason."""
    rules = parse_rules(rules_text)
    started = time.perf_counter()
    try:
        board, stats = game_named(rules.game).generate(rules, seed, band=band, timeout=timeout, style=style)
    except DeadlineExceeded as exc:
        # The contract puts the stats in args[1]; a deadline that escapes from deeper (a ladder run out
        # of time inside a game's generator) carries none: still a timeout, not a crash of the slot.
        stats = exc.args[1] if len(exc.args) > 1 else None
        return {"board": None, "fingerprint": None, "rejected": dict(getattr(stats, "rejected", {})), "timeout": True,
                "seconds": time.perf_counter() - started}
    return {"board": board.to_json(), "fingerprint": board.fingerprint, "rejected": dict(stats.rejected),
            "timeout": False, "seconds": time.perf_counter() - started}


def attempt_rejections(result: dict[str, Any]) -> Counter[str]:
    """Rejections of one attempt by reason; a timed-out attempt also counts one `timeout`."""
    reasons: Counter[str] = Counter(result["rejected"])
    if result["timeout"]:
        reasons["timeout"] += 1
    return reasons


def slot_ranges(slots: Iterable[int], per_task: int) -> list[tuple[int, int]]:
    """Slots as task ranges [start, stop): runs of consecutive slots, each cut to at most per_task."""
    ranges: list[tuple[int, int]] = []
    for slot in sorted(set(slots)):
        if ranges and ranges[-1][1] == slot and slot - ranges[-1][0] < per_task:
            ranges[-1] = (ranges[-1][0], slot + 1)
        else:
            ranges.append((slot, slot + 1))
    return ranges


def slots_per_task(count: int) -> int:
    """How many slots one task of a `count`-slot job takes: enough that a task's cost (a message, a
    transaction) is small beside its boards, few enough that a job spreads over a fleet (and slow
    ranges split, below). More than MAX_SLOTS_PER_TASK only so that no job needs over
    MAX_TASKS_PER_JOB messages (sending one takes about a millisecond)."""
    return max(1, min(count // 8, max(MAX_SLOTS_PER_TASK, -(-count // MAX_TASKS_PER_JOB))))


SLOT_ARGUMENTS = ("job_id", "start", "stop", "params", "seed")


def slot_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """(job_id, start, stop, params, seed), run_slots' arguments, from a slot task's message (by
    position or by name); BadTask (one line) otherwise."""
    if len(args) > len(SLOT_ARGUMENTS) or set(kwargs) - set(SLOT_ARGUMENTS[len(args):]):
        raise BadTask(f"generate_slots takes ({', '.join(SLOT_ARGUMENTS)}), got {len(args)} positional "
                      f"argument(s) and {sorted(kwargs)}")
    values = dict(zip(SLOT_ARGUMENTS, args)) | kwargs
    missing = [name for name in SLOT_ARGUMENTS if name not in values]
    if missing:
        raise BadTask(f"generate_slots is missing {', '.join(missing)}")
    return tuple(values[name] for name in SLOT_ARGUMENTS)


def run_slots(*, db: Engine, job_id: Any, start: Any, stop: Any, params: Any, seed: Any, budget: float,
              hand_over: Callable[[int, int], None], split_after: float | None = None,
              flush_seconds: float = FLUSH_SECONDS,
              observe: Callable[[JobParams, float, Counter[str], str], None] | None = None,
              cancelled: Callable[[], bool] | None = None,
              overrun: tuple[type[BaseException], ...] = ()) -> dict[str, Any]:
    """Attempts for the slots start..stop-1 of a job until each has a board or gives up, or until
    `cancelled()` says to stop (checked before each attempt: what was made is recorded, the untouched
    slots are left pending, as a killed task would leave them).

    Attempts are recorded in batches (one transaction at most every `flush_seconds`, and at the end),
    so a killed task loses at most that much work, which its redelivery redoes with the same seeds.
    Untouched slots are handed to new tasks through `hand_over(start, stop)`: half of them whenever
    `split_after` seconds pass (slow boards then spread over idle workers), and all that remain when
    `budget` seconds are spent. A split whose hand_over raises HandOverFailed keeps its slots here.

    Returns the summary shown in Flower: boards accepted, slots failed (out of attempts), rejected by
    reason, attempts, engine seconds, and the ranges handed over. Raises BadTask for parameters no
    retry can fix, StoreError for the store's faults (the caller decides what is transient).
    `observe(job, seconds, reasons, status)` is called for each recorded attempt (metrics).

    `overrun`: exceptions that mean an attempt outlived the task's own time limit (the engine missed
    its deadline). Such an attempt is recorded as a timeout, so the slot's next try has a new seed
    (retrying the same seed would overrun again and stall the job), and the rest is handed over."""
    check_ids(job_id, start, seed)
    if not isinstance(stop, int) or isinstance(stop, bool) or stop <= start:
        raise BadTask(f"bad slot range {start}..{stop!r}")
    job = JobParams.from_json(params)
    rules = str(job.rules())
    try:
        with session(db, read_only=True) as s:
            pending = pending_slots(session=s, job_id=job_id, start=start, stop=stop)
    except JobNotFound as exc:
        raise BadTask(str(exc)) from None
    summary: dict[str, Any] = {"job": job_id, "slots": [start, stop], "accepted": 0, "failed": 0,
                               "rejected": {}, "attempts": 0, "seconds": 0.0, "handed_over": []}
    rejected: Counter[str] = Counter()
    batch: list[Attempt] = []
    per_attempt = min(job.timeout, budget)
    started = last_flush = last_split = time.monotonic()
    made = 0

    def flush() -> None:
        nonlocal last_flush
        if batch:
            try:
                with session(db) as s:
                    outcomes = record_attempts(session=s, job_id=job_id, attempts=batch,
                                               max_attempts=job.max_attempts)
            except JobNotFound as exc:
                raise BadTask(str(exc)) from None
            if any(outcome.status not in ("done", "stale") for outcome in outcomes):
                # After the commit: a job's last writers each see the others' counts (settle_job).
                with session(db) as s:
                    settle_job(session=s, job_id=job_id)
            for item, outcome in zip(batch, outcomes):
                reasons = Counter(item.rejected)
                if outcome.status == "duplicate":
                    reasons["duplicate"] += 1
                if outcome.status not in ("done", "stale"):       # counted by this task
                    summary["attempts"] += 1
                    summary["seconds"] += item.seconds
                    summary["accepted"] += outcome.status == "stored"
                    summary["failed"] += outcome.slot_state == "failed"
                    rejected.update(reasons)
                if observe is not None:
                    observe(job, item.seconds, reasons, outcome.status)
                if outcome.slot_state == "pending":
                    pending[item.slot] = outcome.next_attempt
                else:
                    pending.pop(item.slot, None)
            batch.clear()
        last_flush = time.monotonic()

    def give(slots: list[int]) -> None:
        nonlocal stop
        hand_over(slots[0], stop)           # HandOverFailed: nothing given
        summary["handed_over"].append([slots[0], stop])
        stop = slots[0]
        for slot in slots:
            del pending[slot]

    def hand_over_the_rest() -> dict[str, Any]:
        flush()
        if pending:
            give(sorted(pending))
        return _finish(summary, rejected)

    while pending:
        order = sorted(pending)
        for index, slot in enumerate(order):
            if slot >= stop:
                break
            now = time.monotonic()
            if split_after is not None and now - last_split >= split_after:
                untouched = [later for later in order[index + 1:] if later < stop]
                if untouched:
                    try:
                        give(untouched[len(untouched) // 2:])
                    except HandOverFailed:
                        pass                # kept: this task works them (tried again at the next split)
                    last_split = now
            while True:
                if cancelled is not None and cancelled():
                    flush()
                    return _finish(summary, rejected)
                # The task's first attempt gets its full time; later ones only what the budget has
                # left, and one cut short by the budget (not by the job's timeout) is not counted:
                # its slot goes to a new task, where it gets its full time with the same seed.
                allowed = min(per_attempt, budget - (time.monotonic() - started)) if made else per_attempt
                if allowed <= 0:
                    return hand_over_the_rest()
                attempt = pending[slot]
                attempt_seed = derive_seed(seed, slot, attempt)
                try:
                    result = generate_one(rules, attempt_seed, allowed, job.band, job.style)
                except overrun:
                    batch.append(Attempt(slot=slot, attempt=attempt, seed=attempt_seed, data=None,
                                         fingerprint=None, rejected=Counter(timeout=1), seconds=allowed))
                    return hand_over_the_rest()
                made += 1
                if result["timeout"] and allowed < per_attempt:
                    return hand_over_the_rest()
                batch.append(Attempt(slot=slot, attempt=attempt, seed=attempt_seed, data=result["board"],
                                     fingerprint=result["fingerprint"], rejected=attempt_rejections(result),
                                     seconds=result["seconds"]))
                pending[slot] = attempt + 1
                # Only the store can tell a new board from a duplicate: a board ends the slot's turn.
                if result["board"] is not None or pending[slot] >= job.max_attempts:
                    break
            if time.monotonic() - last_flush >= flush_seconds:
                flush()
        flush()
    return _finish(summary, rejected)


def _finish(summary: dict[str, Any], rejected: Counter[str]) -> dict[str, Any]:
    summary["rejected"] = dict(sorted(rejected.items()))
    summary["seconds"] = round(summary["seconds"], 4)
    # First, so that Flower's result column shows it at a glance.
    return {"result": acceptance_line(summary["accepted"], rejected), **summary}

