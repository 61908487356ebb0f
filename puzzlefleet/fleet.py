"""The fleet verbs' logic: `enqueue` records a job in the store and sends its tasks; `jobs` reads a
job's progress back (one primary-key lookup, however large the job).

`jobs` reads through store.progress, without SQLAlchemy, the engine or Celery, so it answers at once;
the rest is imported by the verbs that need it."""

from __future__ import annotations

import json
import secrets
import sys
import time
from typing import Any

from store.errors import StoreError, one_line
from store.progress import FINAL_STATES, acceptance_line, read_jobs


class FleetError(Exception):
    """A fleet failure with a one-line message (bad parameters, an unreachable broker)."""


class NoWorker(FleetError):
    """A job still queued when `--wait` gave up, and no worker consumes its queue."""


def consumers(queue: str, *, timeout: float = 1.0) -> list[str]:
    """The workers that consume `queue`, by a broadcast that waits `timeout` seconds for replies."""
    from workers.tasks import app
    replies = app.control.inspect(timeout=timeout).active_queues() or {}
    return sorted(worker for worker, queues in replies.items()
                  if any(q.get("name") == queue for q in queues or ()))


def _db(db_url: str | None) -> Any:
    from store import init_db, make_engine
    db = make_engine(db_url)
    init_db(db)
    return db


def enqueue(*, game: str, size: int, stars: int | None = None, diagonals: bool = False,
            band: str | None = None, band_by: str | None = None, count: int = 1, seed: int | None = None,
            timeout: float = 300.0, style: str | None = None,
            max_attempts: int | None = None, db_url: str | None = None) -> dict[str, Any]:
    """Check the parameters, record the job, send its tasks; returns {"job": ID, ...}.

    Raises FleetError (one line) for bad parameters or an unreachable broker; in the latter case the
    job is kept, marked failed."""
    from store import create_job, session, set_job_state
    from workers.params import BadTask, JobParams
    try:
        extra = {} if max_attempts is None else {"max_attempts": max_attempts}
        params = JobParams.build(game=game, size=size, stars=stars, diagonals=diagonals, band=band,
                                 band_by=band_by, timeout=timeout, style=style, **extra)
        rules = params.rules()
    except BadTask as exc:
        raise FleetError(str(exc)) from None
    if not isinstance(count, int) or not 1 <= count <= 1_000_000:
        raise FleetError(f"count must be 1..1000000, got {count!r}")
    seed = seed if seed is not None else secrets.randbits(31)
    from workers.settings import ConfigError, settings
    try:
        broker = settings().broker
        from workers.tasks import enqueue_slots   # Celery, configured from the environment
    except ConfigError as exc:
        raise FleetError(str(exc)) from None
    db = _db(db_url)
    try:
        with session(db) as s:
            job_id = create_job(session=s, game=params.game, rules=str(rules), band=params.band,
                                params=params.to_json(), seed=seed, requested=count)
        try:
            enqueue_slots(job_id, params, seed, count)
        except Exception as exc:   # the broker: connection refused, auth, timeouts (kombu/redis types)
            from kombu.utils.url import maybe_sanitize_url
            message = f"cannot send job {job_id} to the broker {maybe_sanitize_url(broker)}: {one_line(exc, 200)}"
            with session(db) as s:
                set_job_state(session=s, job_id=job_id, state="failed", error=message)
            raise FleetError(message) from exc
    finally:
        db.dispose()
    return {"job": job_id, "requested": count, "rules": str(rules), "seed": seed, "queue": params.queue}


def job(job_id: int, *, db_url: str | None = None) -> dict[str, Any] | None:
    """A job's progress, or None."""
    found = read_jobs(url=db_url, job_id=job_id)
    return found[0] if found else None


def latest(*, limit: int = 20, db_url: str | None = None) -> list[dict[str, Any]]:
    """The newest jobs first."""
    return read_jobs(url=db_url, limit=limit)


def job_boards(job_id: int, *, limit: int | None = None, db_url: str | None = None) -> list[dict[str, Any]]:
    """The boards a job stored, in slot order; FleetError when there is no such job."""
    from store import get_job, list_job_boards, session
    db = _db(db_url)
    try:
        with session(db, read_only=True) as s:
            if get_job(session=s, job_id=job_id) is None:
                raise FleetError(f"no job with id {job_id}")
            return list_job_boards(session=s, job_id=job_id, limit=limit)
    finally:
        db.dispose()


STORE_PATIENCE = 300.0      # seconds `--wait` rides out a store it cannot read (the workers retry too)


def follow(job_id: int, *, poll: float = 0.5, progress: bool = False, give_up_queued: float | None = None,
           db_url: str | None = None) -> dict[str, Any]:
    """Wait for a job to finish (done, incomplete or failed), showing a progress bar on stderr; with
    `give_up_queued`, raise NoWorker if it is still queued (no slot taken) after that many seconds.

    A store that cannot be read (a database restart) is waited for, with one line on stderr, for up
    to STORE_PATIENCE seconds; then its StoreError is raised."""
    started = time.monotonic()
    unreadable_since: float | None = None
    while True:
        try:
            status = job(job_id, db_url=db_url)
        except StoreError as exc:
            now = time.monotonic()
            if unreadable_since is None:
                unreadable_since = now
                sys.stderr.write(("\n" if progress else "") + f"puzzlefleet: warning: {one_line(exc, 200)}; "
                                 f"still waiting for job {job_id}\n")
                sys.stderr.flush()
            elif now - unreadable_since > STORE_PATIENCE:
                raise
            time.sleep(max(poll, 1.0))
            continue
        if unreadable_since is not None:
            unreadable_since = None
            sys.stderr.write(f"puzzlefleet: the store answers again; following job {job_id}\n")
        if status is None:
            raise FleetError(f"no job with id {job_id}")
        if (give_up_queued is not None and status["state"] == "queued"
                and time.monotonic() - started > give_up_queued):
            if progress:
                sys.stderr.write("\n")
            raise NoWorker(f"job {job_id} is still queued after {give_up_queued:g} s: no worker took a slot")
        if progress:
            _bar(status)
        if status["state"] in FINAL_STATES:
            if progress:
                sys.stderr.write("\n")
            return status
        time.sleep(poll)


def _bar(status: dict[str, Any]) -> None:
    width, done, total = 30, status["stored"] + status["failed"], max(status["requested"], 1)
    filled = width * done // total
    rate = status["stored"] / max(status["elapsed"], 1e-9)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {status['stored']}/{status['requested']} "
                     f"rejected {sum(status['rejected'].values())} {rate:.1f} boards/s")
    sys.stderr.flush()


def _reasons(rejected: dict[str, int]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in sorted(rejected.items())) or "none"


def describe(status: dict[str, Any]) -> str:
    """A job's progress for a person, a few lines."""
    lines = [
        f"job {status['job']}: {status['rules']}" + (f" band {status['band']}" if status["band"] else "")
        + (f" style {style}" if (style := (status.get("params") or {}).get("style")) else "")
        + f", seed {status['seed']}, state {status['state']}",
        f"requested {status['requested']}, stored {status['stored']}, gave up {status['failed']}, "
        f"attempts {status['attempts']}",
        f"rejected: {_reasons(status['rejected'])}",
        f"acceptance: {acceptance_line(status['stored'], status['rejected'])}",
        f"seconds: {status['seconds']:.2f} engine, {status['elapsed']:.2f} elapsed "
        f"({status['boards_per_second']:.1f} boards/s)",
    ]
    if status.get("error"):
        lines.append(f"error: {status['error']}")
    return "\n".join(lines)


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def table(jobs: list[dict[str, Any]]) -> str:
    """The latest jobs, one line each: progress, acceptance, the commonest rejection, speed."""
    head = (f"{'job':>6}  {'state':<10} {'stored':>15}  {'attempts':>8}  {'rejected':>8}  {'accepted':>8}  "
            f"{'boards/s':>8}  {'seconds':>9}  {'most rejected':<18} rules")
    rows = []
    for j in jobs:
        commonest = min(j["rejected"].items(), key=lambda item: (-item[1], item[0]), default=None)
        rows.append(f"{j['job']:>6}  {j['state']:<10} {str(j['stored']) + '/' + str(j['requested']):>15}  "
                    f"{j['attempts']:>8}  {sum(j['rejected'].values()):>8}  {_share(j['acceptance']):>8}  "
                    f"{j['boards_per_second']:>8.1f}  {j['elapsed']:>9.2f}  "
                    f"{'-' if commonest is None else f'{commonest[0]} {commonest[1]}':<18} {j['rules']}")
    return "\n".join([head, *rows]) if rows else "no jobs"


def as_json(status: dict[str, Any]) -> str:
    return json.dumps(status, separators=(",", ":"), sort_keys=False)


__all__ = ["FleetError", "NoWorker", "StoreError", "as_json", "consumers", "describe", "enqueue", "follow", "job", "job_boards",
           "latest", "table"]
