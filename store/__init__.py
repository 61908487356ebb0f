"""The puzzle store: SQLModel tables, engines (SQLite by default, PostgreSQL by URL), Alembic
migrations and keyword-only repository functions. Every failure surfaces as StoreError."""

from store.daily import (daily_set, daily_sets_between, get_boards, in_daily_set, save_daily,
                         unused_board_ids)
from store.dailymodels import DailyEntry
from store.db import database_url, init_db, make_engine, session
from store.errors import StoreError
from store.jobmodels import FINAL_STATES, JOB_STATES, Job, JobSlot
from store.jobs import (Attempt, AttemptOutcome, JobNotFound, count_job_boards, create_job, get_job,
                        list_job_boards, list_jobs, pending_slots, record_attempts, set_job_state, stalled_jobs,
                        touch_job, unfinished_slots)
from store.models import Puzzle
from store.repo import (board_ids_graded_by_other_versions, count_boards, get_board, has_fingerprint,
                        list_boards, regrade_board, save_board)

__all__ = [
    "FINAL_STATES",
    "JOB_STATES",
    "Attempt",
    "AttemptOutcome",
    "DailyEntry",
    "Job",
    "JobNotFound",
    "JobSlot",
    "Puzzle",
    "count_job_boards",
    "daily_set",
    "daily_sets_between",
    "get_boards",
    "in_daily_set",
    "save_daily",
    "unused_board_ids",
    "create_job",
    "get_job",
    "list_job_boards",
    "list_jobs",
    "pending_slots",
    "record_attempts",
    "set_job_state",
    "stalled_jobs",
    "touch_job",
    "unfinished_slots",
    "StoreError",
    "board_ids_graded_by_other_versions",
    "count_boards",
    "database_url",
    "get_board",
    "has_fingerprint",
    "init_db",
    "list_boards",
    "make_engine",
    "regrade_board",
    "save_board",
    "session",
]
