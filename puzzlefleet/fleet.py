"""The fleet verbs' logic: `enqueue` records a job in the store and sends its tasks; `jobs` reads a
job's progress back (one primary-key lookup, however large the job).

`jobs` reads through store.progress, without SQLAlchemy, the engine or Celery, so it answers at once;
the rest is imported by the verbs that need it."""

from __future__ import annotations

import json
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any

from puzzlefleet.progress import Progress
from store.errors import StoreError, one_line
from store.progress import FINAL_STATES, acceptance_line, read_jobs


class FleetError(Exception):
    """A fleet failure with a one-line message (bad parameters, an unreachable broker)."""


class NoWorker(FleetError):
    """A job still queued when `--wait` gave up, and no worker consumes its queue."""


class BrokerUnreachable(FleetError):
    """The broker could not be reached (its job, when one was made, is kept and marked failed)."""


def consumers(queue: str, *, timeout: float = 1.0) -> tuple[int, list[str]]:
    """How many workers answered a broadcast that waits `timeout` seconds for replies, and those of
    them that consume `queue` (the broker's errors, or TimeoutError when it stops answering, are
    raised). A worker reconnecting to the broker does not answer."""
    from workers.tasks import active_queues
    replies = active_queues(timeout)
    return len(replies), sorted(worker for worker, queues in replies.items() if queue in queues)


STORE_CONNECT_TIMEOUT = 2      # seconds a verb waits for the store to take a connection (libpq's least)
STORE_PROBE_SECONDS = 1.0      # ... and for its host to answer at all


def _probe(db_url: str | None) -> None:
    """A PostgreSQL host that does not answer (down, or its packets dropped) is StoreUnreachable within
    STORE_PROBE_SECONDS, where libpq would wait STORE_CONNECT_TIMEOUT: a verb fails within seconds."""
    import socket

    from sqlalchemy.engine import make_url

    from store.errors import StoreUnreachable
    from store.progress import database_url, shown_url
    raw = db_url or database_url()
    try:
        url = make_url(raw)
    except Exception:
        return                                   # make_engine says what is wrong with it
    if url.get_backend_name() not in ("postgresql", "postgres") or not url.host or "," in url.host:
        return                                   # SQLite, a Unix socket, several hosts: libpq's to judge
    try:
        socket.create_connection((url.host, url.port or 5432), timeout=STORE_PROBE_SECONDS).close()
    except TimeoutError:
        raise StoreUnreachable(f"cannot open database {shown_url(raw)}: {url.host}:{url.port or 5432} did not "
                               f"answer within {STORE_PROBE_SECONDS:g} s") from None
    except OSError:
        return                                   # refused or unresolvable: libpq says so at once


def _db(db_url: str | None) -> Any:
    from store import init_db, make_engine
    _probe(db_url)
    db = make_engine(db_url, connect_timeout=STORE_CONNECT_TIMEOUT)
    init_db(db)
    return db


def _summary(job: dict[str, Any], queue: str, key: str | None, existing: bool) -> dict[str, Any]:
    out = {"job": job["job"], "requested": job["requested"], "rules": job["rules"], "seed": job["seed"],
           "queue": queue}
    if key is not None:
        out |= {"key": key, "existing": existing}
    return out


def enqueue(*, game: str, size: int | None = None, band: str | None = None, count: int = 1, seed: int | None = None,
            timeout: float = 300.0, style: str | None = None, max_attempts: int | None = None,
            db_url: str | None = None, key: str | None = None,
            on_created: Callable[[dict[str, Any]], None] | None = None, **options: Any) -> dict[str, Any]:
    """Check the parameters (`options`: the game's, by name; no `size`: the game's only one), record the
    job, send its tasks; returns {"job": ID, ...}.

    `on_created(summary)` is called as soon as the job exists, before anything is sent, so a caller can
    say its id whatever happens next. With `key`, a job already made with that key is returned instead
    (`"existing": true`), its request unchanged; one whose tasks could not be sent (state failed) has its
    unfinished slots sent now. Raises FleetError (one line) for bad parameters, BrokerUnreachable for
    an unreachable broker (the job is kept, marked failed), StoreError for the store."""
    from jobs.params import BadTask, JobParams      # a bad request is refused before the store's modules load
    try:
        extra = {} if max_attempts is None else {"max_attempts": max_attempts}
        params = JobParams.build(game=game, size=size, band=band, timeout=timeout, style=style, **extra, **options)
        rules = params.rules()
    except BadTask as exc:
        raise FleetError(str(exc)) from None
    if not isinstance(count, int) or not 1 <= count <= 1_000_000:
        raise FleetError(f"count must be 1..1000000, got {count!r}")
    if key is not None and not 0 < len(key) <= 200:
        raise FleetError(f"--key must be 1..200 characters, got {len(key)}")
    seed_given, seed = seed, seed if seed is not None else secrets.randbits(31)
    from store import create_job, get_job, job_by_key, session, set_job_state
    from jobs.sweep import queue_of_job, resend_unfinished
    from workers.settings import ConfigError, settings
    try:
        broker = settings().broker
    except ConfigError as exc:
        raise FleetError(str(exc)) from None
    db = _db(db_url)              # before Celery's imports: a store that is down fails the command at once
    try:
        from workers.tasks import enqueue_slots, send_ranges   # Celery, configured from the environment
    except BaseException:
        db.dispose()
        raise
    try:
        found = None
        if key is not None:
            with session(db, read_only=True) as s:
                found = job_by_key(session=s, key=key)
        if found is None:
            try:
                with session(db) as s:
                    job_id = create_job(session=s, game=params.game, rules=str(rules), band=params.band,
                                        params=params.to_json(), seed=seed, requested=count, key=key)
                    found = get_job(session=s, job_id=job_id)
                existing = False
            except StoreError:
                if key is None:
                    raise
                with session(db, read_only=True) as s:      # another enqueue with this key made it first
                    found = job_by_key(session=s, key=key)
                if found is None:
                    raise
                existing = True
        else:
            existing = True
        assert found is not None
        queue = queue_of_job(found)
        summary = _summary(found, queue, key, existing)
        if existing:          # the key names the earlier request: say where this one differs from it
            asked = {"rules": str(rules), "band": params.band, "requested": count, "seed": seed}
            differs = [name for name, value in asked.items() if found[name] != value
                       and not (name == "seed" and seed_given is None)]
            if differs:
                summary["differs"] = differs
        if on_created is not None:
            on_created(summary)
        if existing and found["state"] != "failed":
            return summary                   # made (and sent) by an earlier enqueue with this key
        job_id = found["job"]
        try:
            if existing:                     # its tasks could not be sent then: send what is unfinished
                with session(db) as s:
                    set_job_state(session=s, job_id=job_id, state="running" if found["attempts"] else "queued")
                resend_unfinished(db, found, send_ranges)
            else:
                enqueue_slots(job_id, params, seed, count)
        except StoreError:
            raise
        except Exception as exc:   # the broker: connection refused, auth, timeouts (kombu/redis types)
            from kombu.utils.url import maybe_sanitize_url
            message = f"cannot send job {job_id} to the broker {maybe_sanitize_url(broker)}: {one_line(exc, 200)}"
            with session(db) as s:
                set_job_state(session=s, job_id=job_id, state="failed", error=message)
            raise BrokerUnreachable(message) from exc
    finally:
        db.dispose()
    return summary


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
    bar: Progress | None = None
    try:
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
                raise NoWorker(f"job {job_id} is still queued after {give_up_queued:g} s: no worker took a slot")
            if bar is None:
                bar = Progress(status["requested"], progress)
            bar.update(status["stored"], sum(status["rejected"].values()))
            if status["state"] in FINAL_STATES:
                return status
            time.sleep(poll)
    finally:
        if bar is not None:
            bar.close()


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


__all__ = ["BrokerUnreachable", "FleetError", "NoWorker", "StoreError", "as_json", "consumers", "describe", "enqueue", "follow", "job", "job_boards",
           "latest", "table"]


def regrade(db: Any, stale: int, progress: Callable[[int], None], *, patience: float,
            poll: float = 1.0) -> tuple[int, int]:
    """Send the fleet a regrade task per range of board ids (jobs.regrade.RANGES) and wait until no
    board is graded by another engine, or until `patience` seconds pass without one regraded; returns
    (boards regraded meanwhile, boards left). `progress(done)` as the count falls. Raises
    BrokerUnreachable when the tasks cannot be sent.

    A quiet spell longer than the broker's redelivery (the visibility timeout) means a task was lost
    (a worker killed between taking a message and noting it held), so the ranges still holding stale
    boards are sent again: a range done twice finds its boards done, none is regraded twice."""
    from engine import ENGINE_VERSION
    from store import count_stale_boards, session
    from jobs.regrade import RANGES, ranges_left
    from workers.settings import settings
    if stale == 0:
        return 0, 0
    _send_regrade(RANGES)
    resend_after = settings().visibility_timeout + RESEND_MARGIN
    left, last_change = stale, time.monotonic()
    last_sent = last_change
    while left and time.monotonic() - last_change < patience:
        time.sleep(poll)
        with session(db, read_only=True) as s:
            now = count_stale_boards(session=s, version=ENGINE_VERSION)
        if now < left:
            last_change = time.monotonic()
        elif now and time.monotonic() - max(last_change, last_sent) >= resend_after:
            _send_regrade(ranges_left(db))
            last_sent = time.monotonic()
        left = now
        progress(stale - left)
    return stale - left, left


RESEND_MARGIN = 10.0        # seconds past the visibility timeout before a quiet regrade is sent again


def _send_regrade(ranges: list[tuple[str | None, str | None]]) -> None:
    from workers.tasks import send_regrade
    try:
        send_regrade(ranges)
    except Exception as exc:
        from kombu.utils.url import maybe_sanitize_url

        from workers.settings import settings
        raise BrokerUnreachable(f"cannot send the regrade to the broker {maybe_sanitize_url(settings().broker)}: "
                                f"{one_line(exc, 200)}") from exc
