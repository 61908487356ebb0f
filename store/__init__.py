"""The puzzle store: SQLModel tables, engines (SQLite by default, PostgreSQL by URL), Alembic
migrations and keyword-only repository functions. Every failure surfaces as StoreError."""

from store.db import database_url, init_db, make_engine, session
from store.errors import StoreError
from store.models import Puzzle
from store.repo import count_boards, get_board, has_fingerprint, list_boards, save_board

__all__ = [
    "Puzzle",
    "StoreError",
    "count_boards",
    "database_url",
    "get_board",
    "has_fingerprint",
    "init_db",
    "list_boards",
    "make_engine",
    "save_board",
    "session",
]
