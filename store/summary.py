"""The per-job summary on a fleet worker's /metrics: the figures of each recent job, read from the store
(store.progress.read_jobs) when /metrics is scraped. No Prometheus here: workers.metrics makes the
gauges.

The read runs in the /metrics server's thread of the worker's main process, which also forks the pool
processes. A fork while that thread is inside the database driver (libpq, its TLS, the resolver: C code
that holds its own locks, the GIL let go) would hand the child those locks held, by nobody: the child's
first connection would then wait for ever. So a fork waits for a read in progress to end, and no read
starts while a fork is being made (os.register_at_fork, installed by guard_forks)."""

from __future__ import annotations

import os
import threading
from typing import Any

from store.progress import read_jobs

_store_read = threading.Lock()


def _before_fork() -> None:
    _store_read.acquire()


def _after_fork_in_parent() -> None:
    _store_read.release()


def _after_fork_in_child() -> None:
    global _store_read
    _store_read = threading.Lock()


def guard_forks() -> None:
    """Make every fork of this process wait for a read of job_summaries to end (once)."""
    if not getattr(guard_forks, "done", False):
        os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                            after_in_child=_after_fork_in_child)
        guard_forks.done = True           # type: ignore[attr-defined]


def job_summaries(*, limit: int, active_within: float) -> list[dict[str, Any]]:
    """The jobs still open or last changed within `active_within` seconds, at most `limit` of them (the
    newest), each as its "job" id, "game", "params", its "figures" (requested_boards, stored_boards,
    acceptance_ratio once a candidate was counted, boards_per_second, and open: 1 while it is queued or
    running, 0 once finished) and its "rejected" candidates by reason. Raises StoreError."""
    with _store_read:
        jobs = read_jobs(limit=limit, active_within=active_within)
    summaries = []
    for job in jobs:
        figures = {"requested_boards": job["requested"], "stored_boards": job["stored"]}
        if job["acceptance"] is not None:
            figures["acceptance_ratio"] = job["acceptance"]
        figures |= {"boards_per_second": job["boards_per_second"], "open": int(job["state"] in ("queued", "running"))}
        summaries.append({"job": job["job"], "game": job["game"], "params": job["params"], "figures": figures,
                          "rejected": job["rejected"]})
    return summaries
