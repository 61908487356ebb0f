"""Keyword-only repository functions over the puzzle table. Boards go in and come out as the JSON
JSON dicts (engine.games.model); the caller's session owns the transaction (store.session commits)."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import import_module
from typing import Any

from collections.abc import Mapping

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import Session
from sqlmodel import col

from engine import PuzzleError, all_games, game_of, recorded_option_specs
from store.errors import StoreError
from store.jobmodels import JobSlot
from store.models import Puzzle, utcnow

_ID = re.compile(r"[0-9a-f]{16}")
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")
_INT32 = (-(2**31), 2**31 - 1)   # INTEGER columns on PostgreSQL
_INT64 = (-(2**63), 2**63 - 1)   # BIGINT (seed)
_DIALECTS = ("sqlite", "postgresql")


@cache
def _insert_unless_stored(dialect: str) -> Any:
    """INSERT INTO puzzle ... ON CONFLICT DO NOTHING for this dialect, built once: each board is then
    only its parameters (building and caching the statement per board cost more than the write).

    Both dialects' inserts have on_conflict_do_nothing(); the generic insert has not. Each is imported
    when a store of its dialect writes (the PostgreSQL dialect alone takes a few hundredths of a second).
    No conflict target: skip the row on a clash with any unique key, the fingerprint or the id. The
    database decides, so racing writers cannot both store the same board. preserve_rowcount: psycopg's
    count is otherwise gone once the row-less cursor closes."""
    insert = import_module(f"sqlalchemy.dialects.{dialect}").insert
    return insert(Puzzle).on_conflict_do_nothing().execution_options(preserve_rowcount=True)


def _int(value: Any, what: str, bounds: tuple[int, int] = _INT32) -> int | None:
    if value is None:
        return None
    # bool is an int in Python, but true/false is not a size or a score.
    if not isinstance(value, int) or isinstance(value, bool) or not bounds[0] <= value <= bounds[1]:
        raise StoreError(f"{what} must be a whole number in range, got {value!r}")
    return value


def _text(value: Any, what: str, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise StoreError(f"{what} must be a non-empty string, got {value!r}")
    return value


def board_style(data: dict[str, Any]) -> str | None:
    """The drawing style a board JSON says it was drawn in: its `style`, or, on boards made before that
    field (only a style other than the default was recorded), `generation.style`; None when it says
    none. Alembic 0005 backfilled the column by the same rule."""
    style = data.get("style")
    if style is None:
        generation = data.get("generation")
        style = generation.get("style") if isinstance(generation, dict) else None
    return style if isinstance(style, str) and style else None


def _row(data: Any, fingerprint: Any) -> dict[str, Any]:
    """Check a board dict and turn it into the column values of one puzzle row."""
    if not isinstance(data, dict):
        raise StoreError(f"a board must be a JSON object, got {type(data).__name__}")
    board_id = data.get("id")
    if not isinstance(board_id, str) or not _ID.fullmatch(board_id):
        raise StoreError(f"board id must be 16 lowercase hex characters, got {board_id!r}")
    if not isinstance(fingerprint, str) or not _FINGERPRINT.fullmatch(fingerprint):
        raise StoreError(f"board {board_id}: fingerprint must be 64 lowercase hex characters")
    game = _text(data.get("game"), f"board {board_id}: game", required=True)
    rules = data.get("rules")
    if not isinstance(rules, dict):
        raise StoreError(f"board {board_id}: rules must be an object with a size")
    size = _int(rules.get("size"), f"board {board_id}: rules.size")
    if size is None or size < 1:
        raise StoreError(f"board {board_id}: rules.size must be a positive whole number")
    try:
        game_of(data).validate(data)            # the board JSON model of its game
        stated = game_of(data).board_rules(rules)
    except PuzzleError as exc:
        raise StoreError(f"board {board_id}: {exc}") from None
    difficulty = data.get("difficulty")
    if difficulty is None:
        difficulty = {}
    if not isinstance(difficulty, dict):
        raise StoreError(f"board {board_id}: difficulty must be an object")
    try:
        # ensure_ascii keeps a NUL out of the text (PostgreSQL refuses it); allow_nan=False refuses
        # NaN/Infinity, which are not JSON.
        text = json.dumps(data, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"board {board_id} is not JSON-serialisable: {exc}") from None
    return {
        "id": board_id,
        "fingerprint": fingerprint,
        "game": game,
        "size": size,
        "rules": stated.to_json(),
        "rules_text": str(stated),
        "band": _text(difficulty.get("band"), f"board {board_id}: difficulty.band", required=False),
        "score": _int(difficulty.get("score"), f"board {board_id}: difficulty.score"),
        "style": board_style(data),
        "engine_version": _text(data.get("engine_version"), f"board {board_id}: engine_version",
                                required=True),
        "seed": _int(data.get("seed"), f"board {board_id}: seed", _INT64),
        "created_at": utcnow(),
        "data": text,
    }


def save_board(*, session: Session, data: dict[str, Any], fingerprint: str) -> bool:
    """Store a board; True if stored, False if its fingerprint (or id) is already in the store.

    Everything is checked before any SQL runs, and the row goes in with a single INSERT, so a bad
    board raises StoreError and leaves nothing behind."""
    row = _row(data, fingerprint)
    dialect = session.get_bind().dialect.name
    if dialect not in _DIALECTS:
        raise StoreError(f"unsupported database {dialect!r}")
    return session.connection().execute(_insert_unless_stored(dialect), row).rowcount == 1


def get_board(*, session: Session, board_id: str) -> dict[str, Any] | None:
    """The board with this id as its JSON dict, or None."""
    text = session.scalar(select(col(Puzzle.data)).where(col(Puzzle.id) == board_id))
    return None if text is None else json.loads(text)


def option_filter(name: str, value: Any) -> ColumnElement[bool]:
    """Boards whose rules record the option `name` (one some game's boards record) at `value`; a board
    whose rules lack it has the option's `absent` value (no diagonal rule: diagonals false). Only the
    games recording it can match otherwise, so the game's index narrows the scan."""
    spec = next((spec for spec in recorded_option_specs() if spec.name == name), None)
    if spec is None:
        raise StoreError(f"no game's boards record {name!r}")
    problem = spec.check(value)
    if problem:
        raise StoreError(problem)
    field = col(Puzzle.rules)[name]
    recorded = {bool: field.as_boolean, int: field.as_integer}.get(spec.kind, field.as_string)()
    if type(value) is type(spec.absent) and value == spec.absent:
        return or_(recorded == value, recorded.is_(None))
    games_recording = [game.name for game in all_games() if any(own.name == name for own in game.recorded_options())]
    return and_(col(Puzzle.game).in_(games_recording), recorded == value)


def recorded_options(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Every option some game's boards record, at its value in these rules (a board's rules JSON), or at
    its `absent` value when they lack it: the same fields for a board of any game."""
    return {spec.name: rules.get(spec.name, spec.absent) for spec in recorded_option_specs()}


def _filters(game: str | None, size: int | None, band: str | None, style: str | None = None,
             options: Mapping[str, Any] | None = None) -> list[ColumnElement[bool]]:
    where: list[ColumnElement[bool]] = []
    if game is not None:
        where.append(col(Puzzle.game) == game)
    if size is not None:
        where.append(col(Puzzle.size) == size)
    if band is not None:
        where.append(col(Puzzle.band) == band)
    if style is not None:
        where.append(col(Puzzle.style) == style)
    where.extend(option_filter(name, value) for name, value in (options or {}).items() if value is not None)
    return where


def list_boards(*, session: Session, game: str | None = None, size: int | None = None,
                band: str | None = None, style: str | None = None, options: Mapping[str, Any] | None = None,
                limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
    """Boards matching every given filter (`options`: the values of options their rules record, by
    name), oldest first (ties by id), as JSON dicts."""
    if (limit is not None and limit < 0) or offset < 0:
        raise StoreError("limit and offset must not be negative")
    stmt = (select(col(Puzzle.data)).where(*_filters(game, size, band, style, options))
            .order_by(col(Puzzle.created_at), col(Puzzle.id)).offset(offset).limit(limit))
    return [json.loads(text) for text in session.scalars(stmt)]


def board_summaries(*, session: Session, game: str | None = None, size: int | None = None,
                    band: str | None = None, style: str | None = None, options: Mapping[str, Any] | None = None,
                    job_id: int | None = None, limit: int | None = None) -> tuple[list[dict[str, Any]], int]:
    """The newest boards matching every given filter (`job_id`: those that job stored) as summaries
    (id, game, size, rules: the rules JSON, band, score, created_at, style), and how many match in all."""
    if limit is not None and limit < 0:
        raise StoreError("limit must not be negative")
    where = _filters(game, size, band, style, options)
    if job_id is not None:
        where.append(col(Puzzle.id).in_(select(col(JobSlot.puzzle_id)).where(
            col(JobSlot.job_id) == job_id, col(JobSlot.state) == "stored")))
    columns = (col(Puzzle.id), col(Puzzle.game), col(Puzzle.size), col(Puzzle.rules), col(Puzzle.band),
               col(Puzzle.score), col(Puzzle.created_at), col(Puzzle.style))
    rows = session.execute(select(*columns).where(*where)
                           .order_by(col(Puzzle.created_at).desc(), col(Puzzle.id).desc()).limit(limit))
    names = ("id", "game", "size", "rules", "band", "score", "created_at", "style")
    total = int(session.scalar(select(func.count()).select_from(Puzzle).where(*where)) or 0)
    return [dict(zip(names, row)) for row in rows], total


def count_boards(*, session: Session, game: str | None = None, size: int | None = None,
                 band: str | None = None, style: str | None = None, options: Mapping[str, Any] | None = None) -> int:
    """How many boards match every given filter."""
    stmt = select(func.count()).select_from(Puzzle).where(*_filters(game, size, band, style, options))
    return int(session.scalar(stmt) or 0)


def has_fingerprint(*, session: Session, fingerprint: str) -> bool:
    """Whether a board with this canonical fingerprint is already stored."""
    stmt = select(col(Puzzle.id)).where(col(Puzzle.fingerprint) == fingerprint).limit(1)
    return session.scalar(stmt) is not None


def board_ids_graded_by_other_versions(*, session: Session, version: str) -> list[str]:
    """Ids of boards whose engine_version is not `version` (graded by an older ladder)."""
    return list(session.scalars(select(col(Puzzle.id)).where(col(Puzzle.engine_version) != version)
                                .order_by(col(Puzzle.id))))


def regrade_board(*, session: Session, board_id: str, data: dict[str, Any]) -> None:
    """Replace a board's grade, solve path and engine version (its regions and answer stay as stored,
    so its id and fingerprint do too). Checked like save_board before any SQL runs."""
    row = _row(data, "0" * 64)
    if row["id"] != board_id:
        raise StoreError(f"board {board_id}: the new data carries id {row['id']}")
    puzzle = session.get(Puzzle, board_id)
    if puzzle is None:
        raise StoreError(f"no board with id {board_id}")
    puzzle.band, puzzle.score, puzzle.style = row["band"], row["score"], row["style"]
    puzzle.engine_version, puzzle.data = row["engine_version"], row["data"]
    session.add(puzzle)
