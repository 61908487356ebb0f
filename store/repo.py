"""Keyword-only repository functions over the puzzle table. Boards go in and come out as the JSON
JSON dicts (engine.games.model); the caller's session owns the transaction (store.session commits)."""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from functools import cache, lru_cache
from importlib import import_module
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, func, literal_column, or_, select, tuple_
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


def _checked_option(name: str, value: Any) -> Any:
    """The spec of the option `name`, which some game's boards record; StoreError when none does or
    `value` is not one it takes."""
    spec = next((spec for spec in recorded_option_specs() if spec.name == name), None)
    if spec is None:
        raise StoreError(f"no game's boards record {name!r}")
    problem = spec.check(value)
    if problem:
        raise StoreError(problem)
    return spec


def option_filter(name: str, value: Any) -> ColumnElement[bool]:
    """Boards whose rules record the option `name` (one some game's boards record) at `value`; a board
    whose rules lack it has the option's `absent` value (no diagonal rule: diagonals false). Only the
    games that may record it at that value can match otherwise, so the game's index narrows the scan."""
    spec = _checked_option(name, value)
    field = col(Puzzle.rules)[name]
    recorded = {bool: field.as_boolean, int: field.as_integer}.get(spec.kind, field.as_string)()
    if type(value) is type(spec.absent) and value == spec.absent:
        return or_(recorded == value, recorded.is_(None))
    games_recording = [game.name for game in all_games() if game.may_record(name, value)]
    # One game is the common case; = keeps the statement free of IN's list, expanded at every execution.
    game = col(Puzzle.game)
    return and_(game == games_recording[0] if len(games_recording) == 1 else game.in_(games_recording),
                recorded == value)


def recorded_options(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Every option some game's boards record, at its value in these rules (a board's rules JSON), or at
    its `absent` value when they lack it: the same fields for a board of any game."""
    return {spec.name: rules.get(spec.name, spec.absent) for spec in recorded_option_specs()}


# A listing's `total` is counted up to this many boards; past it the listing says "more than" (a
# count of every match would grow with the store, and a page must not).
TOTAL_CAP = 1000
EXPORT_BATCH = 500        # boards a streamed listing reads per query

_SUMMARY_NAMES = ("id", "game", "size", "rules", "band", "score", "created_at", "style")
_SUMMARY = tuple(col(getattr(Puzzle, name)) for name in _SUMMARY_NAMES)
_STORED_BY_JOB = select(col(JobSlot.puzzle_id)).where(col(JobSlot.job_id) == bindparam("job"),
                                                      col(JobSlot.state) == "stored")
# Each filter as a bound condition: a listing's statement is built once for the set of filters given
# and their values go in as parameters.
_FILTERS: dict[str, Callable[[], ColumnElement[bool]]] = {
    "game": lambda: col(Puzzle.game) == bindparam("game"),
    "size": lambda: col(Puzzle.size) == bindparam("size"),
    "band": lambda: col(Puzzle.band) == bindparam("band"),
    "style": lambda: col(Puzzle.style) == bindparam("style"),
    "start": lambda: col(Puzzle.created_at) >= bindparam("start"),
    "end": lambda: col(Puzzle.created_at) < bindparam("end"),
    "job": lambda: col(Puzzle.id).in_(_STORED_BY_JOB),
}


# A cursor is the board a listing continues after: its created_at in microseconds from the epoch, a dot
# and its id. Every string of this pattern is a place in a listing (any created_at from 1653 to 2286),
# so the read API can declare exactly which cursors it takes.
CURSOR_PATTERN = r"^-?[0-9]{1,16}\.[0-9a-f]{16}$"
_CURSOR = re.compile(CURSOR_PATTERN)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICROSECOND = timedelta(microseconds=1)


def encode_cursor(created_at: datetime, board_id: str) -> str:
    """The cursor of a listing that continues after this board: URL-safe, matching CURSOR_PATTERN."""
    moment = created_at if created_at.tzinfo else created_at.replace(tzinfo=timezone.utc)
    return f"{(moment - _EPOCH) // _MICROSECOND}.{board_id}"


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """(created_at, id) of the board a cursor continues after; StoreError for one not of CURSOR_PATTERN."""
    if not isinstance(cursor, str) or not _CURSOR.fullmatch(cursor):
        raise StoreError(f"bad cursor {str(cursor)[:40]!r}: use the `next` a listing gave")
    micros, board_id = cursor.split(".")
    return _EPOCH + int(micros) * _MICROSECOND, board_id


@dataclass(frozen=True, slots=True)
class Listing:
    """Filters of a listing (`options`: the values of options their rules record, by name; `job`: the
    boards that job stored; `start`/`end`: created in [start, end)), its direction and where it
    continues from (`after`: a cursor)."""
    game: str | None = None
    size: int | None = None
    band: str | None = None
    style: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    job: int | None = None
    start: datetime | None = None
    end: datetime | None = None
    newest_first: bool = False
    after: str | None = None

    @classmethod
    def of(cls, *, options: Mapping[str, Any] | None = None, **given: Any) -> Listing:
        return cls(options=tuple(sorted((k, v) for k, v in (options or {}).items() if v is not None)), **given)

    def params(self) -> dict[str, Any]:
        """The statement's parameters: each filter given, and the cursor's board."""
        params = {name: getattr(self, name) for name in _FILTERS if getattr(self, name) is not None}
        if self.after is not None:
            params["after_at"], params["after_id"] = decode_cursor(self.after)
        return params


@lru_cache(maxsize=256)
def _statements(given: frozenset[str], options: tuple[tuple[str, Any], ...], newest_first: bool,
                after: bool) -> tuple[Any, Any, Any]:
    """The capped count, the summaries page and the board-text page for this shape of listing."""
    where = [_FILTERS[name]() for name in sorted(given)]
    where += [option_filter(name, value) for name, value in options]
    if not _leading(given):
        where.append(UNFILTERED)
    key = tuple_(col(Puzzle.created_at), col(Puzzle.id))
    if after:
        mark = tuple_(bindparam("after_at", type_=Puzzle.__table__.c.created_at.type), bindparam("after_id"))
        where.append(key < mark if newest_first else key > mark)
    order = ((col(Puzzle.created_at).desc(), col(Puzzle.id).desc()) if newest_first
             else (col(Puzzle.created_at), col(Puzzle.id)))
    matching = select(literal_column("1")).select_from(Puzzle).where(*where[:len(where) - after])
    count = (select(func.count()).select_from(matching.limit(bindparam("cap")).subquery()),
             select(func.count()).select_from(matching.subquery()))
    summaries = select(*_SUMMARY).where(*where).order_by(*order).limit(bindparam("limit"))
    texts = (select(col(Puzzle.data), col(Puzzle.created_at), col(Puzzle.id)).where(*where).order_by(*order)
             .limit(bindparam("limit")))
    return count, summaries, texts


# What a listing with no filter that leads an index states, so that it may walk ix_puzzle_created_at, a
# partial index on this (true of every board: the engine version is required). A filtered listing
# cannot: it walks its filter's index. Left to choose, PostgreSQL would walk (created_at, id) and
# filter, which reads the whole store when the matching boards all lie at its far end (a game added
# late, or one no longer made).
UNFILTERED = col(Puzzle.engine_version) != ""


def _leading(given: frozenset[str]) -> tuple[str, ...]:
    """The filtered columns that lead the index a listing with these filters walks (Puzzle's indexes)."""
    if "game" in given:
        return ("game", "size") if "size" in given else ("game", "band") if "band" in given else ("game",)
    return ("band",) if "band" in given else ("style",) if "style" in given else ()


def _prepared(listing: Listing) -> tuple[tuple[Any, Any, Any], dict[str, Any]]:
    params = listing.params()
    for name, value in listing.options:
        _checked_option(name, value)         # a bad option is StoreError before any SQL
    given = frozenset(name for name in params if name in _FILTERS)
    return _statements(given, listing.options, listing.newest_first, listing.after is not None), params


def _parts(listing: Listing) -> list[Listing]:
    """The listing as one listing per game that may hold its options' values (no part: none can), so
    that each part walks its game's index in listing order and the parts are merged; one listing of
    `game IN (...)` would sort every match first, and a game that cannot match would be read through."""
    games: set[str] | None = None if listing.game is None else {listing.game}
    for name, value in listing.options:
        spec = next(spec for spec in recorded_option_specs() if spec.name == name)
        if type(value) is type(spec.absent) and value == spec.absent:
            continue                   # boards of every game may match
        holding = {game.name for game in all_games() if game.may_record(name, value)}
        games = holding if games is None else games & holding
    if games is None or listing.game is not None and games == {listing.game}:
        return [listing]
    return [replace(listing, game=game) for game in sorted(games)]


def _merged(listing: Listing, rows: list[Any], at: int, board_id: int) -> list[Any]:
    return sorted(rows, key=lambda row: (_naive_utc(row[at]), row[board_id]), reverse=listing.newest_first)


def board_page(*, session: Session, listing: Listing, limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """One page of board summaries (id, game, size, rules: the rules JSON, band, score, created_at,
    style) in the listing's order, and the cursor of the next page (None on the last). A page reads
    about `limit` matching rows, wherever it starts: the filters lead an index in listing order."""
    if limit < 1:
        raise StoreError("limit must be at least 1")
    rows: list[Any] = []
    parts = _parts(listing)
    for part in parts:
        (_, summaries, _), params = _prepared(part)
        rows += session.connection().execute(summaries, {**params, "limit": limit + 1}).all()
    if len(parts) > 1:
        rows = _merged(listing, rows, 6, 0)
    more = len(rows) > limit
    rows = rows[:limit]
    page = [dict(zip(_SUMMARY_NAMES, row)) for row in rows]
    return page, encode_cursor(rows[-1][6], rows[-1][0]) if more and rows else None


def count_listing(*, session: Session, listing: Listing, cap: int | None = TOTAL_CAP) -> tuple[int, bool]:
    """How many boards the listing's filters match (the cursor aside), counted up to `cap`, and whether
    more match than that (None: count them all, which grows with the store)."""
    n = 0
    for part in _parts(replace(listing, after=None)):
        (count, _, _), params = _prepared(part)
        capped, every = count
        if cap is None:
            n += int(session.connection().execute(every, params).scalar() or 0)
        else:
            n += int(session.connection().execute(capped, {**params, "cap": cap + 1 - n}).scalar() or 0)
            if n > cap:
                return cap, True
    return n, False


def _texts(session: Session, listing: Listing, batch: int) -> Iterator[tuple[Any, str, str]]:
    """(created_at, id, board JSON text) of one part of a listing, read `batch` at a time by cursor."""
    (_, _, texts), params = _prepared(listing)
    while True:
        rows = session.connection().execute(texts, {**params, "limit": batch}).all()
        for text, created_at, board_id in rows:
            yield created_at, board_id, text
        if len(rows) < batch:
            return
        if "after_at" not in params:
            (_, _, texts), _ = _prepared(replace(listing, after=encode_cursor(rows[-1][1], rows[-1][2])))
        params["after_at"], params["after_id"] = _naive_utc(rows[-1][1]).replace(tzinfo=timezone.utc), rows[-1][2]


def iter_board_texts(*, session: Session, listing: Listing, limit: int | None = None,
                     batch: int = EXPORT_BATCH) -> Iterator[str]:
    """The board JSON texts of a listing, as stored, read `batch` at a time by cursor: memory stays
    bounded and each read costs the same, however many boards there are."""
    parts = [_texts(session, part, batch if limit is None else min(batch, limit + 1)) for part in _parts(listing)]
    if not parts:
        return
    merged = parts[0] if len(parts) == 1 else heapq.merge(*parts, key=lambda row: (_naive_utc(row[0]), row[1]),
                                                         reverse=listing.newest_first)
    for n, (_, _, text) in enumerate(merged):
        if limit is not None and n >= limit:
            return
        yield text


def _naive_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is None else moment.astimezone(timezone.utc).replace(tzinfo=None)


def list_boards(*, session: Session, game: str | None = None, size: int | None = None,
                band: str | None = None, style: str | None = None, options: Mapping[str, Any] | None = None,
                limit: int | None = None, after: str | None = None) -> list[dict[str, Any]]:
    """Boards matching every given filter (`options`: the values of options their rules record, by
    name), oldest first (ties by id), from after the cursor `after`, as JSON dicts."""
    if limit is not None and limit < 0:
        raise StoreError("limit must not be negative")
    listing = Listing.of(game=game, size=size, band=band, style=style, options=options, after=after)
    return [json.loads(text) for text in iter_board_texts(session=session, listing=listing, limit=limit)]


def board_summaries(*, session: Session, game: str | None = None, size: int | None = None,
                    band: str | None = None, style: str | None = None, options: Mapping[str, Any] | None = None,
                    job_id: int | None = None, limit: int = 20) -> tuple[list[dict[str, Any]], int, bool]:
    """The newest `limit` boards matching every given filter (`job_id`: those that job stored) as
    summaries (board_page's), how many match (counted up to TOTAL_CAP) and whether more do."""
    if limit < 0:
        raise StoreError("limit must not be negative")
    listing = Listing.of(game=game, size=size, band=band, style=style, options=options, job=job_id,
                         newest_first=True)
    rows = board_page(session=session, listing=listing, limit=limit)[0] if limit else []
    total, more = count_listing(session=session, listing=listing)
    return rows, total, more


def count_boards(*, session: Session, game: str | None = None, size: int | None = None,
                 band: str | None = None, style: str | None = None, options: Mapping[str, Any] | None = None) -> int:
    """How many boards match every given filter: all of them counted (it grows with the store)."""
    listing = Listing.of(game=game, size=size, band=band, style=style, options=options)
    return count_listing(session=session, listing=listing, cap=None)[0]


def has_fingerprint(*, session: Session, fingerprint: str) -> bool:
    """Whether a board with this canonical fingerprint is already stored."""
    stmt = select(col(Puzzle.id)).where(col(Puzzle.fingerprint) == fingerprint).limit(1)
    return session.scalar(stmt) is not None


def count_stale_boards(*, session: Session, version: str) -> int:
    """How many boards were graded by another engine version than `version` (one pass over the table)."""
    stmt = select(func.count()).select_from(Puzzle).where(col(Puzzle.engine_version) != version)
    return int(session.scalar(stmt) or 0)


def stale_boards(*, session: Session, version: str, after: str | None = None, through: str | None = None,
                 limit: int = 100) -> list[dict[str, Any]]:
    """The next `limit` boards graded by another engine version than `version`, in id order, with ids
    above `after` and up to `through`, as JSON dicts; their rows are locked for this transaction (on
    PostgreSQL a row another transaction holds is skipped: that regrade has it), so that no board is
    regraded twice at once."""
    stmt = select(col(Puzzle.data)).where(col(Puzzle.engine_version) != version)
    if after is not None:
        stmt = stmt.where(col(Puzzle.id) > after)
    if through is not None:
        stmt = stmt.where(col(Puzzle.id) <= through)
    stmt = stmt.order_by(col(Puzzle.id)).limit(limit).with_for_update(skip_locked=True)
    return [json.loads(text) for text in session.scalars(stmt)]


def first_stale_id(*, session: Session, version: str, after: str | None = None) -> str | None:
    """The lowest id above `after` of a board graded by another engine version than `version`, or None
    (no lock taken: the regrade tasks lock what they regrade)."""
    stmt = select(col(Puzzle.id)).where(col(Puzzle.engine_version) != version)
    if after is not None:
        stmt = stmt.where(col(Puzzle.id) > after)
    return session.scalar(stmt.order_by(col(Puzzle.id)).limit(1))


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
