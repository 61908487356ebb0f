"""A job's progress, readable without SQLAlchemy: what `puzzlefleet jobs` shows.

`jobs` must answer at once, while importing SQLAlchemy and SQLModel alone takes about a second on a
small machine, so this module reads the job table through the DB-API driver itself (sqlite3, or
psycopg for PostgreSQL), with the URLs the rest of the store takes. The repository (store.jobs) builds
its job dicts with the same job_dict, so both readers say the same thing. Nothing here writes, migrates
or creates a database: a store that does not exist yet holds no jobs."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

from store.errors import StoreError, StoreUnreachable, one_line, store_error

DEFAULT_URL = "sqlite:///puzzles.db"

# Job states. queued: created, nothing recorded yet; running: some attempts recorded; done: every slot
# stored; incomplete: every slot finished, some gave up (out of attempts); failed: could not be sent.
JOB_STATES = ("queued", "running", "done", "incomplete", "failed")
FINAL_STATES = ("done", "incomplete", "failed")

JOB_COLUMNS = ("id", "game", "rules", "band", "params", "seed", "requested", "stored", "failed", "attempts",
               "rejected", "seconds", "state", "error", "created_at", "updated_at")
_SELECT = f"SELECT {', '.join(JOB_COLUMNS)} FROM job"
TALLY_COLUMNS = ("job_id", "stored", "failed", "attempts", "rejected", "seconds", "updated_at")
_TALLIES = f"SELECT {', '.join(TALLY_COLUMNS)} FROM job_tally WHERE job_id IN "
_SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"          # how SQLAlchemy writes a DateTime into SQLite


def database_url() -> str:
    """The database URL from PUZZLEFLEET_DB, or the SQLite file puzzles.db in the working directory."""
    return os.environ.get("PUZZLEFLEET_DB") or DEFAULT_URL


def _moment(value: datetime | str) -> datetime:
    # sqlite3 hands back the text SQLAlchemy wrote; SQLite's times are naive, and every stored time is UTC.
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def job_dict(row: Mapping[str, Any], tallies: Iterable[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A job row (its JOB_COLUMNS) and its tallies (TALLY_COLUMNS: each writer's share of the counts) as
    the dict `jobs` shows: requested, stored, failed, attempts, rejected by reason, acceptance (the
    share of candidates stored), engine seconds, state, seconds elapsed (until now, for an open job)
    and boards stored per elapsed second.

    The counts are the row's plus its tallies'. The state is the row's when that is final (done,
    incomplete), else what the counts say: done or incomplete once every slot is finished (the row
    catches up when the last writer settles it), running once an attempt is counted, else the row's."""
    stored, failed, attempts, seconds = row["stored"], row["failed"], row["attempts"], row["seconds"]
    rejected = Counter(json.loads(row["rejected"]))
    updated = _moment(row["updated_at"])
    for tally in tallies:
        stored += tally["stored"]
        failed += tally["failed"]
        attempts += tally["attempts"]
        seconds += tally["seconds"]
        rejected.update(json.loads(tally["rejected"]))
        updated = max(updated, _moment(tally["updated_at"]))
    state = row["state"]
    if state not in ("done", "incomplete"):
        if stored + failed >= row["requested"]:
            state = "done" if failed == 0 else "incomplete"
        elif state == "queued" and attempts:
            state = "running"
    created = _moment(row["created_at"])
    end = updated if state in FINAL_STATES else max(datetime.now(timezone.utc), updated)
    elapsed = (end - created).total_seconds()
    shown = dict(sorted(rejected.items()))
    return {
        "job": row["id"], "game": row["game"], "rules": row["rules"], "band": row["band"],
        "params": json.loads(row["params"]), "seed": row["seed"], "requested": row["requested"],
        "stored": stored, "failed": failed, "attempts": attempts,
        "rejected": shown, "acceptance": acceptance(stored, shown),
        "seconds": round(seconds, 3), "state": state,
        "error": row["error"], "created_at": created.isoformat(), "updated_at": updated.isoformat(),
        "elapsed": round(elapsed, 3), "boards_per_second": round(stored / max(elapsed, 1e-3), 3),
    }


def acceptance(accepted: int, rejected: Mapping[str, int]) -> float | None:
    """The share (0..1) of candidate boards that were stored; None before the first candidate."""
    total = accepted + sum(rejected.values())
    return round(accepted / total, 4) if total else None


def shown_url(url: str) -> str:
    """The URL with its password hidden, for messages."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def acceptance_line(accepted: int, rejected: Mapping[str, int], most: int = 3) -> str:
    """"4 of 9 candidates accepted (44%); rejected: dull 3, ambiguous 2": the share of candidate
    boards stored, and the commonest reasons the others were turned away."""
    turned_away = sum(rejected.values())
    total = accepted + turned_away
    share = f" ({100 * accepted / total:.0f}%)" if total else ""
    commonest = sorted(rejected.items(), key=lambda item: (-item[1], item[0]))
    reasons = ", ".join(f"{reason} {n}" for reason, n in commonest[:most])
    more = f" +{len(commonest) - most} more" if len(commonest) > most else ""
    return f"{accepted} of {total} candidates accepted{share}" + (f"; rejected: {reasons}{more}" if reasons else "")


def describe_store(url: str | None = None) -> str:
    """Where the store is, for people: the URL without its password, and a SQLite file's full path."""
    raw = url or database_url()
    if raw.startswith("sqlite:///") and raw != "sqlite:///:memory:":
        return f"{raw} ({os.path.abspath(raw[len('sqlite:///'):])})"
    return shown_url(raw)


def read_jobs(*, url: str | None = None, job_id: int | None = None, limit: int = 20,
              active_within: float | None = None) -> list[dict[str, Any]]:
    """One job (`job_id`), or the newest `limit` jobs first, as job dicts; [] when there are none.
    With `active_within`, only the jobs still open (queued or running) or last changed within that
    many seconds.

    Raises StoreError (one line) for a bad URL or an unreachable database."""
    raw = url or database_url()
    scheme, sep, rest = raw.partition("://")
    backend = scheme.split("+", 1)[0]
    if not sep:
        raise StoreError("bad database URL: cannot parse it; expected sqlite:///FILE "
                         "or postgresql://USER@HOST[:PORT]/DB")
    if backend not in ("sqlite", "postgresql", "postgres"):
        raise StoreError(f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://USER@HOST/DB")
    params: list[Any]
    if job_id is not None:
        where, params = "WHERE id = %s", [job_id]
    elif active_within is not None:
        cutoff = datetime.now(timezone.utc) - timedelta(seconds=active_within)
        # SQLite holds the naive UTC text SQLAlchemy writes, which compares as text in time order.
        since: Any = cutoff.strftime(_SQLITE_TIME) if backend == "sqlite" else cutoff
        open_states = ", ".join(f"'{state}'" for state in JOB_STATES if state not in FINAL_STATES)
        where = (f"WHERE state IN ({open_states}) OR updated_at >= %s "
                 f"OR id IN (SELECT job_id FROM job_tally WHERE updated_at >= %s) ORDER BY id DESC LIMIT %s")
        params = [since, since, limit]
    else:
        where, params = "ORDER BY id DESC LIMIT %s", [limit]
    if backend == "sqlite":
        jobs = _read_sqlite(raw, rest, f"{_SELECT} {where.replace('%s', '?')}", params)
    else:
        jobs = _read_postgresql(raw, rest, f"{_SELECT} {where}", params)
    if active_within is not None:      # a row its last writer did not settle: its counts say finished
        jobs = [job for job in jobs if job["state"] not in FINAL_STATES or _moment(job["updated_at"]) >= cutoff]
    return jobs


def _read_sqlite(raw: str, rest: str, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    # sqlite:///puzzles.db is the relative path puzzles.db; sqlite:////tmp/p.db the absolute /tmp/p.db.
    path = urllib.parse.unquote(rest.partition("?")[0].removeprefix("/"))
    if not path or path == ":memory:" or not os.path.exists(path):
        return []
    try:
        conn = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise StoreUnreachable(f"cannot open database {shown_url(raw)}: {one_line(exc)}") from None
    try:
        try:
            rows = conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []              # a store no job was ever sent to
            raise
        # In the same read transaction as the jobs (autocommit reads would see two moments).
        tallies = _tallies(lambda q, ids: conn.execute(q.replace("%s", "?"), ids).fetchall(), rows,
                           lambda exc: isinstance(exc, sqlite3.OperationalError) and "no such table" in str(exc))
    except sqlite3.OperationalError as exc:
        raise store_error(f"database error: {one_line(exc)}", exc) from None
    except sqlite3.Error as exc:
        raise StoreError(f"database error: {one_line(exc)}") from None
    finally:
        conn.close()
    return [job_dict(dict(zip(JOB_COLUMNS, row)), tallies[row[0]]) for row in rows]


def _read_postgresql(raw: str, rest: str, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    try:
        import psycopg            # the 'postgres' extra's driver; imported only for PostgreSQL URLs
    except ImportError as exc:
        raise StoreError(f"cannot open database {shown_url(raw)}: {one_line(exc)} "
                         "(pip install 'puzzlefleet[postgres]')") from None
    conninfo = "postgresql://" + rest
    extra = {} if "connect_timeout=" in rest else {"connect_timeout": 10}
    try:
        with psycopg.connect(conninfo, **extra) as conn:
            try:
                rows = conn.execute(sql, params).fetchall()
            except psycopg.errors.UndefinedTable:
                return []
            tallies = _tallies(lambda q, ids: conn.execute(q, ids).fetchall(), rows,
                               lambda exc: isinstance(exc, psycopg.errors.UndefinedTable))
    except psycopg.Error as exc:
        raise store_error(f"cannot read jobs from {shown_url(raw)}: {one_line(exc)}", exc) from None
    return [job_dict(dict(zip(JOB_COLUMNS, row)), tallies[row[0]]) for row in rows]


def _tallies(fetch: Any, rows: list[Any], missing: Any) -> dict[int, list[dict[str, Any]]]:
    """The tallies of these job rows, by job id; none on a store made before tallies (not migrated:
    this reader never migrates)."""
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    ids = [row[0] for row in rows]
    if ids:
        try:
            for tally in fetch(_TALLIES + f"({', '.join(['%s'] * len(ids))})", ids):
                found[tally[0]].append(dict(zip(TALLY_COLUMNS, tally)))
        except Exception as exc:
            if not missing(exc):
                raise
    return found
