"""Keyword-only repository functions over the daily table (see store/dailymodels.py): read a day's
set or the days that have one, find boards no day has used, and write a day's set once, all or nothing.

Which boards make a good set is the scheduler's business (jobs/daily.py); this module only keeps
the record straight, also against concurrent writers."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import exists, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlmodel import col

from store.dailymodels import DailyEntry
from store.errors import StoreError
from store.models import Puzzle

# Any fixed number: the key of the PostgreSQL advisory lock that serialises writers of daily sets.
_DAILY_LOCK_KEY = 0x6461696C79
_CHUNK = 500          # ids per IN (...) list
_ID = re.compile(r"[0-9a-f]{16}")

# What save_daily did.
STORED, EXISTS, TAKEN = "stored", "exists", "taken"


def _day(value: Any) -> date:
    # datetime is a date subclass, but a moment is not a day.
    if not isinstance(value, date) or isinstance(value, datetime):
        raise StoreError(f"a day must be a date, got {value!r}")
    return value


def daily_set(*, session: Session, day: date) -> list[dict[str, Any]]:
    """The boards of a day's set in position order, as JSON dicts; [] when the day has no set."""
    stmt = (select(col(Puzzle.data)).join(DailyEntry, col(DailyEntry.board_id) == col(Puzzle.id))
            .where(col(DailyEntry.day) == _day(day)).order_by(col(DailyEntry.position)))
    return [json.loads(text) for text in session.scalars(stmt)]


def daily_days(*, session: Session, limit: int, before: date | None = None) -> list[date]:
    """The days that have a set, newest first, up to `limit` of them (only days before `before`, when
    given): read along the (day, position) key, a cost that does not grow with the store."""
    if limit < 0:
        raise StoreError("limit must not be negative")
    stmt = select(col(DailyEntry.day)).distinct().order_by(col(DailyEntry.day).desc()).limit(limit)
    if before is not None:
        stmt = stmt.where(col(DailyEntry.day) < _day(before))
    return [_day(day) for day in session.scalars(stmt)]


def daily_sets_between(*, session: Session, first: date, last: date) -> dict[date, list[dict[str, Any]]]:
    """Every day from `first` to `last` (both included) that has a set, with its boards in order."""
    stmt = (select(col(DailyEntry.day), col(Puzzle.data))
            .join(Puzzle, col(DailyEntry.board_id) == col(Puzzle.id))
            .where(col(DailyEntry.day) >= _day(first), col(DailyEntry.day) <= _day(last))
            .order_by(col(DailyEntry.day), col(DailyEntry.position)))
    sets: dict[date, list[dict[str, Any]]] = {}
    for day, text in session.execute(stmt):
        sets.setdefault(day, []).append(json.loads(text))
    return sets


def unused_board_ids(*, session: Session, rules_text: str, band: str | None, style: str | None = None,
                     unstyled: bool = False, after: str | None = None, through: str | None = None,
                     limit: int | None = None) -> list[str]:
    """Ids (sorted) of the stored boards of these rules (their canonical text, as the store keeps it:
    "queens 8") and band that no day's set holds. With a `style`, only boards of that style and, with
    `unstyled`, boards whose style is not recorded too (NULL: made before styles were recorded, or of
    a game without styles). `after`/`through`: only ids above / up to these; `limit`: the first so
    many in id order, read along the (rules_text, band, id) index: a cost that does not grow with the
    store."""
    used = exists().where(col(DailyEntry.board_id) == col(Puzzle.id))
    where = [col(Puzzle.rules_text) == rules_text,
             col(Puzzle.band).is_(None) if band is None else col(Puzzle.band) == band, ~used]
    if style is not None:
        where.append(or_(col(Puzzle.style) == style, col(Puzzle.style).is_(None)) if unstyled
                     else col(Puzzle.style) == style)
    if after is not None:
        where.append(col(Puzzle.id) > after)
    if through is not None:
        where.append(col(Puzzle.id) <= through)
    stmt = select(col(Puzzle.id)).where(*where)
    if limit is not None:
        stmt = stmt.order_by(col(Puzzle.id)).limit(limit)
        return list(session.scalars(stmt))
    # Sorted here, not by the database: collations differ, and the order feeds a seeded shuffle.
    return sorted(session.scalars(stmt))


def in_daily_set(*, session: Session, board_id: str) -> bool:
    """Whether any day's set holds this board."""
    stmt = select(col(DailyEntry.board_id)).where(col(DailyEntry.board_id) == board_id).limit(1)
    return session.scalar(stmt) is not None


def get_boards(*, session: Session, board_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The stored boards with these ids, by id (ids not stored are left out)."""
    found: dict[str, dict[str, Any]] = {}
    ids = list(dict.fromkeys(board_ids))
    for start in range(0, len(ids), _CHUNK):
        stmt = select(col(Puzzle.id), col(Puzzle.data)).where(col(Puzzle.id).in_(ids[start:start + _CHUNK]))
        found.update((board_id, json.loads(text)) for board_id, text in session.execute(stmt))
    return found


def save_daily(*, session: Session, day: date, board_ids: Sequence[str]) -> str:
    """Write a day's set (positions 0, 1, ... in the order given) in the caller's transaction.

    Returns "stored"; "exists" when the day already has a set (nothing written: read the winner's set
    back with daily_set); "taken" when another day's set already holds one of the boards (nothing
    written: choose again). Writers of daily sets are serialised (an advisory lock on PostgreSQL; SQLite
    write transactions are exclusive), and the table's unique keys back that up: an insert that still
    collides is undone as a whole and reported as "exists"."""
    day = _day(day)
    ids = list(board_ids)
    if not ids:
        raise StoreError("a daily set needs at least one board")
    bad = [board_id for board_id in ids if not isinstance(board_id, str) or not _ID.fullmatch(board_id)]
    if bad:
        raise StoreError(f"board id must be 16 lowercase hex characters, got {bad[0]!r}")
    if len(set(ids)) != len(ids):
        raise StoreError("a daily set holds each board once")
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(_DAILY_LOCK_KEY)))
    if session.scalar(select(col(DailyEntry.day)).where(col(DailyEntry.day) == day).limit(1)) is not None:
        return EXISTS
    if session.scalar(select(col(DailyEntry.board_id)).where(col(DailyEntry.board_id).in_(ids)).limit(1)):
        return TAKEN
    known = set(session.scalars(select(col(Puzzle.id)).where(col(Puzzle.id).in_(ids))))
    missing = [board_id for board_id in ids if board_id not in known]
    if missing:
        raise StoreError(f"no board with id {missing[0]} in the store")
    try:
        with session.begin_nested():
            session.add_all(DailyEntry(day=day, position=position, board_id=board_id)
                            for position, board_id in enumerate(ids))
    except IntegrityError as exc:
        # Only a writer that bypassed the lock gets here; the savepoint kept our transaction usable.
        if session.scalar(select(col(DailyEntry.day)).where(col(DailyEntry.day) == day).limit(1)) is not None:
            return EXISTS
        if session.scalar(select(col(DailyEntry.board_id)).where(col(DailyEntry.board_id).in_(ids)).limit(1)):
            return TAKEN
        raise StoreError(f"cannot write the daily set of {day}: {' '.join(str(exc.orig).split())}") from exc
    return STORED
