"""The puzzle store: SQLModel tables, engines (SQLite by default, PostgreSQL by URL), Alembic
migrations and keyword-only repository functions. Every failure surfaces as StoreError.

The names below are loaded on first use, so that `import store.progress` (what `puzzlefleet jobs`
reads with) does not pay for importing SQLAlchemy, SQLModel and Alembic."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, tuple[str, ...]] = {
    "store.daily": ("daily_days", "daily_set", "daily_sets_between", "get_boards", "in_daily_set", "save_daily",
                    "unused_board_ids"),
    "store.dailymodels": ("DailyEntry",),
    "store.db": ("init_db", "make_engine", "process_engine", "session"),
    "store.errors": ("StoreError", "StoreUnreachable"),
    "store.jobmodels": ("Job", "JobSlot", "JobTally"),
    "store.jobs": ("Attempt", "AttemptOutcome", "JobNotFound", "count_job_boards", "create_job", "get_job",
                   "job_by_key", "list_job_boards", "list_jobs", "open_job_ids", "pending_slots", "record_attempts",
                   "set_job_state", "settle_job", "stalled_jobs", "started_jobs", "touch_job", "unfinished_slots"),
    "store.models": ("Puzzle",),
    "store.progress": ("FINAL_STATES", "JOB_STATES", "database_url", "read_jobs"),
    "store.repo": ("board_summaries", "count_boards", "count_stale_boards", "first_stale_id",
                   "get_board", "stale_boards",
                   "has_fingerprint", "list_boards", "regrade_board", "save_board"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'store' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value          # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:    # the same names, for type checkers and editors
    from store.daily import (daily_days, daily_set, daily_sets_between, get_boards, in_daily_set, save_daily,
                             unused_board_ids)
    from store.dailymodels import DailyEntry
    from store.db import init_db, make_engine, process_engine, session
    from store.errors import StoreError, StoreUnreachable
    from store.jobmodels import Job, JobSlot, JobTally
    from store.jobs import (Attempt, AttemptOutcome, JobNotFound, count_job_boards, create_job, get_job,
                            job_by_key, list_job_boards, list_jobs, open_job_ids, pending_slots, record_attempts,
                            set_job_state, settle_job, stalled_jobs, started_jobs, touch_job, unfinished_slots)
    from store.models import Puzzle
    from store.progress import FINAL_STATES, JOB_STATES, database_url, read_jobs
    from store.repo import (board_summaries, count_boards, count_stale_boards, first_stale_id,
                            get_board, stale_boards,
                            has_fingerprint, list_boards, regrade_board, save_board)
