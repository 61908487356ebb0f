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
import time
from collections.abc import Collection, Iterator
from typing import Any

from workers.settings import settings

_conf = settings()
if _conf.metrics_port is not None and _conf.multiproc_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _conf.multiproc_dir
    os.makedirs(_conf.multiproc_dir, exist_ok=True)

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess  # noqa: E402
from prometheus_client import start_http_server  # noqa: E402
from prometheus_client import values as _values  # noqa: E402
from prometheus_client.core import GaugeMetricFamily, Metric  # noqa: E402

from store.errors import StoreError, one_line  # noqa: E402
from store.summary import guard_forks, job_summaries  # noqa: E402
from jobs.sweep import queue_of_job  # noqa: E402

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


# The per-job summary: gauges read from the store at each scrape (see JobSummaries).
JOB_GAUGES = {
    "puzzlefleet_job_requested_boards": "Boards the job asked for",
    "puzzlefleet_job_stored_boards": "Boards the job has stored",
    "puzzlefleet_job_acceptance_ratio": "Share of the job's candidate boards that were stored (0..1)",
    "puzzlefleet_job_rejected_candidates": "The job's candidate boards turned away, by reason",
    "puzzlefleet_job_boards_per_second": "The job's boards stored per second since it was sent",
    "puzzlefleet_job_open": "1 while the job is queued or running, 0 once finished",
}
JOB_SUMMARY_UP = "puzzlefleet_job_summary_up"
JOBS_SHOWN = 100           # at most this many jobs (the newest) have per-job gauges


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


class JobSummaries:
    """Per-job gauges (JOB_GAUGES, labels job_id and game; rejections also by reason), read from the
    store when /metrics is scraped, for the jobs of the queues this worker consumes that are still
    open or finished within PUZZLEFLEET_JOB_METRICS_SECONDS, at most JOBS_SHOWN of them (the newest).

    Read at scrape time, not kept by the pool processes: a job leaves /metrics by itself once its
    window has passed, so the label sets stay bounded, and every worker of a queue reports the same
    values (aggregate with max by (job_id, game)). If the store cannot be read the job gauges are
    left out and puzzlefleet_job_summary_up is 0."""

    def __init__(self, queues: Collection[str] | None, window: float, limit: int = JOBS_SHOWN) -> None:
        self.queues = None if queues is None else frozenset(queues)
        self.window, self.limit = window, limit
        self._last_warning = 0.0

    def describe(self) -> list[Metric]:
        return []           # no fixed samples: do not collect at registration

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(JOB_SUMMARY_UP, "1 when the per-job gauges could be read from the store")
        try:
            jobs = job_summaries(limit=self.limit, active_within=self.window)
        except StoreError as exc:
            if time.monotonic() - self._last_warning > 60:          # one line a minute, not per scrape
                self._last_warning = time.monotonic()
                log.info("per-job metrics: cannot read the store: %s", one_line(exc))
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        families = {name: GaugeMetricFamily(name, text, labels=["job_id", "game", "reason"]
                                            if name == "puzzlefleet_job_rejected_candidates"
                                            else ["job_id", "game"])
                    for name, text in JOB_GAUGES.items()}
        for job in jobs:
            if self.queues is not None and queue_of_job(job) not in self.queues:
                continue
            labels = [str(job["job"]), job["game"]]
            for name, value in job["figures"].items():          # store.summary.job_summaries
                families[f"puzzlefleet_job_{name}"].add_metric(labels, value)
            for reason, n in job["rejected"].items():
                families["puzzlefleet_job_rejected_candidates"].add_metric([*labels, reason], n)
        yield from families.values()


def exported_names() -> set[str]:
    """Every sample name this module can put on /metrics (what a dashboard may query)."""
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}
    names = {family.name + suffix
             for metric in (BOARDS_ACCEPTED, CANDIDATES_REJECTED, GENERATION_SECONDS, TASKS, JOBS_WAITING, MALFORMED)
             for family in metric.describe() for suffix in suffixes[family.type]}
    return names | set(JOB_GAUGES) | {JOB_SUMMARY_UP}


def serve(queues: Collection[str] | None = None) -> None:
    """Start the /metrics server in this (the worker's main) process, if a port is configured; the
    per-job gauges cover the jobs of `queues` (None: every queue)."""
    conf = settings()
    if conf.metrics_port is None:
        return
    registry = CollectorRegistry()
    if _multiproc_dir():
        multiprocess.MultiProcessCollector(registry)
    registry.register(JobSummaries(queues, conf.job_metrics_seconds))
    guard_forks()
    start_http_server(conf.metrics_port, addr=conf.metrics_addr, registry=registry)
    log.info("metrics at http://%s:%d/metrics", conf.metrics_addr, conf.metrics_port)


def process_exited(pid: int) -> None:
    """Bookkeeping for a pool process that exits (live gauges are dropped; counters stay)."""
    if _multiproc_dir():
        multiprocess.mark_process_dead(pid)
