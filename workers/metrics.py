"""Prometheus metrics of the fleet, in prometheus_client's multiprocess mode.

Pool processes write their counters to files in PROMETHEUS_MULTIPROC_DIR; the worker's main process
wipes that directory at start (counters of a previous run would otherwise be summed in), serves the
merged view at http://PUZZLEFLEET_METRICS_ADDR:PUZZLEFLEET_METRICS_PORT/metrics, and marks pool
processes dead when they exit. The directory must be known before any metric is made: this module
sets it first, and makes prometheus_client choose its value store again in case it was imported before.
"""

from __future__ import annotations

import logging
import os
import shutil
from typing import Any

from workers.settings import settings

_conf = settings()
if _conf.metrics_port is not None and _conf.multiproc_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _conf.multiproc_dir
    os.makedirs(_conf.multiproc_dir, exist_ok=True)

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess  # noqa: E402
from prometheus_client import start_http_server  # noqa: E402
from prometheus_client import values as _values  # noqa: E402

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # prometheus_client picks its value store once, when first imported, and the `celery` command may
    # have imported it before this module ran (Flower's command plugin does): the counters would then
    # live in each pool process's memory, and /metrics would be empty. Pick again, now that the
    # directory is set; the metrics below are made after this.
    _values.ValueClass = _values.get_value_class()

log = logging.getLogger(__name__)

BOARDS_ACCEPTED = Counter("puzzlefleet_boards_accepted", "Boards stored, by game, size and band",
                          ["game", "size", "band"])
CANDIDATES_REJECTED = Counter("puzzlefleet_candidates_rejected",
                              "Candidate boards rejected, by game and reason", ["game", "reason"])
GENERATION_SECONDS = Histogram("puzzlefleet_generation_seconds", "Engine seconds per attempt",
                               ["game", "size"],
                               buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
                                        120, 300))
TASKS = Counter("puzzlefleet_slot_tasks", "Slot-range tasks finished, by outcome", ["game", "outcome"])
# Set by beat's sweep (run by one worker): jobs queued past PUZZLEFLEET_STALL_SECONDS with their queue
# not empty, no slot taken. Above zero for long, nobody serves a queue: alert on it.
JOBS_WAITING = Gauge("puzzlefleet_jobs_waiting", "Jobs queued past the stall time with no slot taken",
                     multiprocess_mode="mostrecent")
# Labelled, so that its value (and its file) is made on first use, after the worker wipes the directory.
MALFORMED = Counter("puzzlefleet_malformed_messages", "Messages on a queue that were not task messages, dropped",
                    ["reason"])


def observe_attempt(job: Any, seconds: float, reasons: dict[str, int], status: str) -> None:
    """Count one engine attempt (called by run_slots after the attempt was recorded)."""
    GENERATION_SECONDS.labels(job.game, str(job.size)).observe(seconds)
    if status == "stored":
        BOARDS_ACCEPTED.labels(job.game, str(job.size), job.band or "none").inc()
    for reason, n in reasons.items():
        if n:
            CANDIDATES_REJECTED.labels(job.game, reason).inc(n)


def task_finished(game: str, outcome: str) -> None:
    TASKS.labels(game, outcome).inc()


def _multiproc_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def wipe() -> None:
    """Empty the multiprocess directory (at worker start, before any pool process writes to it)."""
    path = _multiproc_dir()
    if not path:
        return
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        target = os.path.join(path, name)
        if os.path.isdir(target) and not os.path.islink(target):
            shutil.rmtree(target, ignore_errors=True)
        else:
            try:
                os.remove(target)
            except FileNotFoundError:
                pass


def serve() -> None:
    """Start the /metrics server in this (the worker's main) process, if a port is configured."""
    conf = settings()
    if conf.metrics_port is None:
        return
    registry = CollectorRegistry()
    if _multiproc_dir():
        multiprocess.MultiProcessCollector(registry)
    start_http_server(conf.metrics_port, addr=conf.metrics_addr, registry=registry)
    log.info("metrics at http://%s:%d/metrics", conf.metrics_addr, conf.metrics_port)


def process_exited(pid: int) -> None:
    """Bookkeeping for a pool process that exits (live gauges are dropped; counters stay)."""
    if _multiproc_dir():
        multiprocess.mark_process_dead(pid)
