"""The fleet's settings, read from the environment once, checked, with one-line errors.

PUZZLEFLEET_BROKER              broker URL: Redis (redis://, the default redis://127.0.0.1:6379/0) or
                                RabbitMQ (amqp://user:password@host:5672/vhost); nothing else
PUZZLEFLEET_DB                  the store's SQLAlchemy URL (read by store.database_url)
PUZZLEFLEET_VISIBILITY_TIMEOUT  the longest a task may hold its message unacknowledged (default 3600):
                                on Redis, seconds before it hands the message to another worker; on
                                RabbitMQ keep the broker's consumer_timeout above it
PUZZLEFLEET_TIME_LIMIT          a task's hard time limit, seconds (default min(660, 0.9 x visibility))
PUZZLEFLEET_SOFT_TIME_LIMIT     a task's soft time limit and work budget (default: hard - 10%, <= 60 s less)
PUZZLEFLEET_MAX_TASKS_PER_CHILD tasks before a pool process is replaced (default 1000)
PUZZLEFLEET_METRICS_PORT        serve Prometheus text at http://ADDR:PORT/metrics from the worker
PUZZLEFLEET_METRICS_ADDR        the address to bind (default 127.0.0.1)
PROMETHEUS_MULTIPROC_DIR        prometheus_client's multiprocess directory (default: one per port in /tmp)
PUZZLEFLEET_RESUME_INTERVAL     seconds between beat's sweeps for stalled jobs (default 300)
PUZZLEFLEET_STALL_SECONDS       a job with no progress this long has its unfinished slots sent again,
                                ahead of newer work (default visibility + hard limit + 60)
PUZZLEFLEET_RESEND_SLOTS        at most this many stalled slots are sent again per sweep, oldest job first
                                (default 1000), so a large backlog is never doubled in one sweep
PUZZLEFLEET_SPLIT_SECONDS       a task still working after this long hands the later half of its
                                untouched slots to a new task, for idle workers (default 2)
PUZZLEFLEET_JOB_METRICS_SECONDS a finished job's per-job gauges stay on /metrics this long (default 3600)

The hard limit must stay below the visibility timeout: otherwise Redis hands a task that is still
running to a second worker (and RabbitMQ, past its consumer_timeout, closes the worker's channel).

On RabbitMQ a dead worker's messages come back as soon as its connection closes, and the visibility
timeout plays no part in redelivery.
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
# kombu's URL schemes for the two brokers the fleet supports.
REDIS_SCHEMES = frozenset({"redis", "rediss", "redis+socket", "sentinel"})
AMQP_SCHEMES = frozenset({"amqp", "amqps", "pyamqp"})


class ConfigError(ValueError):
    """A bad environment setting, with a one-line message."""


def broker_kind(url: str) -> str:
    """"redis" or "amqp" (RabbitMQ), by the URL's scheme; ConfigError for anything else."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in REDIS_SCHEMES:
        return "redis"
    if scheme in AMQP_SCHEMES:
        return "amqp"
    shown = f"a {scheme}:// URL" if scheme else "no URL"       # never the URL itself: it may hold a password
    raise ConfigError(f"PUZZLEFLEET_BROKER must be a redis:// (Redis) or amqp:// (RabbitMQ) URL, got {shown}")


def _number(name: str, default: float | None, *, low: float = 0.0, whole: bool = False) -> float | None:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise ConfigError(f"{name}={text!r} is not {kind}") from None
    if not math.isfinite(value) or value <= low:
        raise ConfigError(f"{name} must be above {low:g}, got {text}")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    broker: str
    broker_kind: str                # "redis" or "amqp"
    visibility_timeout: float
    time_limit: float
    soft_time_limit: float
    max_tasks_per_child: int
    metrics_port: int | None
    metrics_addr: str
    multiproc_dir: str | None
    resume_interval: float
    stall_seconds: float
    resend_slots: int
    split_seconds: float
    job_metrics_seconds: float

    @property
    def retry_backoff_max(self) -> float:
        """The longest retry delay: retries wait in the worker as unacknowledged messages, so they must
        come back well within the visibility timeout."""
        return max(1.0, min(600.0, self.visibility_timeout / 2))

    @property
    def work_budget(self) -> float:
        """Seconds a task may spend on attempts before it hands the rest of its slot to a new task."""
        return max(0.1, self.soft_time_limit - min(5.0, 0.1 * self.soft_time_limit))


def load() -> Settings:
    """Read and check the settings now (raises ConfigError)."""
    broker = os.environ.get("PUZZLEFLEET_BROKER", "").strip() or DEFAULT_BROKER
    kind = broker_kind(broker)
    visibility = _number("PUZZLEFLEET_VISIBILITY_TIMEOUT", 3600.0)
    assert visibility is not None
    hard = _number("PUZZLEFLEET_TIME_LIMIT", None)
    soft = _number("PUZZLEFLEET_SOFT_TIME_LIMIT", None)
    if hard is None:
        hard = min(660.0, 0.9 * visibility)
        if soft is not None and soft >= hard:
            hard = soft + min(60.0, 0.1 * soft)
    if soft is None:
        soft = hard - min(60.0, 0.1 * hard)
    if not soft < hard:
        raise ConfigError(f"the soft time limit ({soft:g} s) must be below the hard one ({hard:g} s)")
    if not hard < visibility:
        why = ("Redis redelivers tasks that are still running" if kind == "redis"
               else "a task may hold its message longer than the fleet allows")
        raise ConfigError(f"the hard time limit ({hard:g} s) must be below PUZZLEFLEET_VISIBILITY_TIMEOUT "
                          f"({visibility:g} s), or {why}")
    per_child = _number("PUZZLEFLEET_MAX_TASKS_PER_CHILD", 1000, whole=True)
    port = _number("PUZZLEFLEET_METRICS_PORT", None, whole=True)
    if port is not None and port > 65535:
        raise ConfigError(f"PUZZLEFLEET_METRICS_PORT must be a port number, got {port:g}")
    multiproc = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None
    if port is not None and multiproc is None:
        multiproc = os.path.join(tempfile.gettempdir(), f"puzzlefleet-metrics-{int(port)}")
    resume = _number("PUZZLEFLEET_RESUME_INTERVAL", 300.0)
    stall = _number("PUZZLEFLEET_STALL_SECONDS", visibility + hard + 60.0)
    resend = _number("PUZZLEFLEET_RESEND_SLOTS", 1000, whole=True)
    split = _number("PUZZLEFLEET_SPLIT_SECONDS", 2.0)
    job_metrics = _number("PUZZLEFLEET_JOB_METRICS_SECONDS", 3600.0)
    assert resume is not None and stall is not None and per_child is not None and split is not None
    assert job_metrics is not None and resend is not None
    return Settings(broker=broker, broker_kind=kind, visibility_timeout=visibility, time_limit=hard,
                    soft_time_limit=soft, max_tasks_per_child=int(per_child),
                    metrics_port=None if port is None else int(port),
                    metrics_addr=os.environ.get("PUZZLEFLEET_METRICS_ADDR", "").strip() or "127.0.0.1",
                    multiproc_dir=multiproc, resume_interval=resume, stall_seconds=stall, resend_slots=int(resend),
                    split_seconds=split, job_metrics_seconds=job_metrics)


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings, read once."""
    return load()
