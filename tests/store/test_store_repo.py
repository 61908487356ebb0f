"""Round trips, dedup, validation and the SQLite connection setup, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timezone
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, event, inspect
from sqlmodel import SQLModel

import store
import store.dailymodels  # noqa: F401  (every table on SQLModel.metadata, whichever tests run)
import store.jobmodels  # noqa: F401
from store import StoreError, count_boards, get_board, has_fingerprint, list_boards, save_board
from store.repo import CURSOR_PATTERN, Listing, board_page, count_listing, decode_cursor, encode_cursor, iter_board_texts
from tests.conftest import drop_schema, new_schema, schema_url


def test_round_trip(engine: Engine, board: Any) -> None:
    boards = [board("a", size=8, band="easy"), board("b", size=8, band="hard"),
              board("c", size=10, band="hard"), board("d", game="sudoku", size=9, band=None, seed=2**62)]
    for data, fp in boards:  # one transaction each, so created_at follows this order
        with store.session(engine) as s:
            assert save_board(session=s, data=data, fingerprint=fp) is True

    with store.session(engine, read_only=True) as s:
        for data, fp in boards:
            assert get_board(session=s, board_id=data["id"]) == data
            assert has_fingerprint(session=s, fingerprint=fp)
        assert get_board(session=s, board_id="f" * 16) is None
        assert not has_fingerprint(session=s, fingerprint="0" * 64)

        assert list_boards(session=s) == [data for data, _ in boards]
        assert list_boards(session=s, game="queens", band="hard") == [boards[1][0], boards[2][0]]
        assert list_boards(session=s, size=10) == [boards[2][0]]
        page, after = board_page(session=s, listing=Listing.of(), limit=1)
        assert [row["id"] for row in page] == [boards[0][0]["id"]] and after is not None
        assert list_boards(session=s, limit=2, after=after) == [boards[1][0], boards[2][0]]
        assert list_boards(session=s, game="starbattle") == []

        assert count_boards(session=s) == 4
        assert count_boards(session=s, game="queens") == 3
        assert count_boards(session=s, band="hard") == 2
        assert count_boards(session=s, game="queens", size=8, band="easy") == 1


def test_keyset_pages_walk_every_listing_once_in_order_both_ways(engine: Engine, board: Any) -> None:
    """Pages by cursor, oldest or newest first, with every shape of filter (an option held by two
    games is two walks merged): together they are the whole listing in order, each board once; the
    count stops at its cap."""
    made = []
    for i in range(23):
        game, size = [("queens", 8), ("starbattle", 10), ("sudoku", 9)][i % 3]
        data, fp = board(f"k{i}", game=game, size=size, band=("easy", "hard")[i % 2])
        if game == "starbattle":
            data["rules"]["stars"] = 2
        with store.session(engine) as s:
            assert save_board(session=s, data=data, fingerprint=fp)
        made.append(data)
    shapes = [{}, {"game": "queens"}, {"band": "hard"}, {"game": "sudoku", "band": "easy"}, {"size": 10},
              {"options": {"stars": 2}}, {"options": {"stars": 1}}, {"options": {"diagonals": False}},
              {"game": "queens", "options": {"stars": 2}}]
    with store.session(engine, read_only=True) as s:
        for shape in shapes:
            everything = list_boards(session=s, **shape)
            for newest_first in (False, True):
                listing = Listing.of(newest_first=newest_first, **shape)
                seen, after = [], None
                while True:
                    page, after = board_page(session=s, listing=Listing.of(newest_first=newest_first, after=after,
                                                                           **shape), limit=4)
                    seen += [row["id"] for row in page]
                    if after is None:
                        break
                expected = [b["id"] for b in everything]
                assert seen == (expected[::-1] if newest_first else expected), shape
                texts = list(iter_board_texts(session=s, listing=listing, batch=3))
                assert [json.loads(t)["id"] for t in texts] == seen
                assert count_listing(session=s, listing=listing) == (len(seen), False)
                if len(seen) > 2:
                    assert count_listing(session=s, listing=listing, cap=2) == (2, True)
        assert list_boards(session=s, game="queens", options={"stars": 2}) == []
        assert {b["game"] for b in list_boards(session=s, options={"stars": 2})} == {"starbattle"}


def test_a_cursor_is_the_board_it_continues_after_and_nothing_else() -> None:
    moment = datetime(2026, 12, 7, 8, 30, 1, 123456, tzinfo=timezone.utc)
    assert decode_cursor(encode_cursor(moment, "0123456789abcdef")) == (moment, "0123456789abcdef")
    assert re.fullmatch(CURSOR_PATTERN, encode_cursor(moment, "0123456789abcdef"))
    before_1970 = datetime(1901, 2, 3, 4, 5, 6, 7, tzinfo=timezone.utc)
    assert decode_cursor(encode_cursor(before_1970, "00000000000000ff")) == (before_1970, "00000000000000ff")
    for bad in ("", "zzz", "not|base64", encode_cursor(moment, "0123456789abcdef")[:-1],
                encode_cursor(moment, "0123456789abcdef") + "0", "12345678901234567.0123456789abcdef"):
        with pytest.raises(StoreError, match="bad cursor"):
            decode_cursor(bad)


def test_duplicate_fingerprint_refused(engine: Engine, board: Any) -> None:
    first, fp = board("one")
    other, other_fp = board("two")
    with store.session(engine) as s:
        assert save_board(session=s, data=first, fingerprint=fp) is True
    with store.session(engine) as s:
        # Same fingerprint under another id (a rotated copy), then the same id under another fingerprint.
        assert save_board(session=s, data=other, fingerprint=fp) is False
        assert save_board(session=s, data={**other, "id": first["id"]}, fingerprint=other_fp) is False
    with store.session(engine, read_only=True) as s:
        assert count_boards(session=s) == 1
        assert get_board(session=s, board_id=first["id"]) == first
        assert get_board(session=s, board_id=other["id"]) is None


def _bad(board: Any, change: str) -> tuple[Any, str]:
    data, fp = board("bad")
    data = dict(data)
    if change == "not a dict":
        return [data], fp
    if change == "no id":
        del data["id"]
    elif change == "short id":
        data["id"] = "abc"
    elif change == "no game":
        del data["game"]
    elif change == "no rules":
        del data["rules"]
    elif change == "bool size":
        data["rules"] = {"size": True}
    elif change == "seed too big":
        data["seed"] = 2**64
    elif change == "not json":
        data["extra"] = {1, 2}
    elif change == "nan":
        data["fun"] = {"score": math.nan}
    elif change == "bad fingerprint":
        return data, "xyz"
    return data, fp


@pytest.mark.parametrize("change", ["not a dict", "no id", "short id", "no game", "no rules", "bool size",
                                    "seed too big", "not json", "nan", "bad fingerprint"])
def test_invalid_board_leaves_no_row(engine: Engine, board: Any, change: str) -> None:
    data, fp = _bad(board, change)
    with pytest.raises(StoreError) as info:
        with store.session(engine) as s:
            save_board(session=s, data=data, fingerprint=fp)
    assert "\n" not in str(info.value)
    with store.session(engine, read_only=True) as s:
        assert count_boards(session=s) == 0


def test_failure_after_save_rolls_back(engine: Engine, board: Any) -> None:
    good, fp = board("good")
    bad, bad_fp = _bad(board, "not json")
    with pytest.raises(StoreError):
        with store.session(engine) as s:
            assert save_board(session=s, data=good, fingerprint=fp)
            save_board(session=s, data=bad, fingerprint=bad_fp)
    with store.session(engine, read_only=True) as s:
        assert count_boards(session=s) == 0


def _head() -> str:
    """The newest Alembic revision (each new revision moves it)."""
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(store.db.alembic_config()).get_current_head()


def test_init_db_on_empty_database_is_idempotent(db_url: str) -> None:
    engine = store.make_engine(db_url)
    try:
        store.init_db(engine)
        store.init_db(engine)
        insp = inspect(engine)
        assert {"puzzle", "alembic_version"} <= set(insp.get_table_names())
        indexes = {ix["name"]: ix for ix in insp.get_indexes("puzzle")}
        assert indexes["ix_puzzle_fingerprint"]["unique"]
        assert {"ix_puzzle_game_created", "ix_puzzle_game_band_created"} <= set(indexes)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all() == [_head()]
            # The migrated schema is exactly what the models declare (what `alembic check` verifies).
            assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    finally:
        engine.dispose()


def _schema(engine: Engine) -> dict[str, Any]:
    """Everything the database says of its tables: columns (type, null, default), keys, indexes. Columns
    by name: a migration adds a column at the end, a new table lists it where the model has it, and
    nothing reads columns by position."""
    insp = inspect(engine)
    out: dict[str, Any] = {}
    for table in sorted(insp.get_table_names()):
        out[table] = {
            "columns": sorted((c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                              for c in insp.get_columns(table)),
            "primary": insp.get_pk_constraint(table)["constrained_columns"],
            "foreign": sorted((tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]),
                               str(f.get("options"))) for f in insp.get_foreign_keys(table)),
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in insp.get_indexes(table)),
            "unique": sorted((u["name"], tuple(u["column_names"])) for u in insp.get_unique_constraints(table)),
        }
    return out


def test_a_new_store_is_made_as_the_migrations_make_it(db_url: str, tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    """init_db makes a new store from the models without Alembic; the same database made by running
    every migration from nothing has the same tables, columns, defaults, keys and indexes, and the
    same revision."""
    from alembic import command
    if db_url.startswith("sqlite"):
        migrated_url = f"sqlite:///{tmp_path / 'migrated.db'}"
    else:
        admin = request.getfixturevalue("pg_admin")
        schema = new_schema(admin, "test_migrated")
        request.addfinalizer(lambda: drop_schema(admin, schema))
        migrated_url = schema_url(schema)
    made, migrated = store.make_engine(db_url), store.make_engine(migrated_url)
    try:
        store.init_db(made)
        with migrated.begin() as conn:
            cfg = store.db.alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        assert _schema(made) == _schema(migrated)
        assert store.db.schema_revision(made) == store.db.schema_revision(migrated) == _head()
    finally:
        made.dispose()
        migrated.dispose()


def test_the_schema_revision_init_db_checks_is_the_newest_migration() -> None:
    assert store.db.SCHEMA_REVISION == _head()


def _init_db_in_a_fresh_interpreter(url: str) -> str:
    """Whether init_db, run in a new process on `url`, had to load Alembic."""
    code = ("import sys, store; db = store.make_engine(sys.argv[1]); store.init_db(db); "
            "print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_init_db_loads_alembic_only_when_a_migration_is_due(db_url: str) -> None:
    """A new store is made from the models and stamped by Alembic; one at the newest revision costs one
    read (Alembic not loaded); one a revision behind is upgraded (Alembic loaded)."""
    assert _init_db_in_a_fresh_interpreter(db_url) == "True"
    engine = store.make_engine(db_url)
    try:
        assert store.db.schema_revision(engine) == store.db.SCHEMA_REVISION
        assert _init_db_in_a_fresh_interpreter(db_url) == "False"
        from alembic import command
        with engine.begin() as conn:
            cfg = store.db.alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0004")
        assert _init_db_in_a_fresh_interpreter(db_url) == "True"
        assert {"ix_puzzle_style_created", "ix_puzzle_rules_band_id"} <= {ix["name"] for ix in inspect(engine).get_indexes("puzzle")}
        assert "ix_job_idempotency_key" in {ix["name"] for ix in inspect(engine).get_indexes("job")}
        assert store.db.schema_revision(engine) == store.db.SCHEMA_REVISION
    finally:
        engine.dispose()


@pytest.mark.parametrize("url", [
    "not a url",
    "nosuchdialect://x/y",
    "mysql://user@127.0.0.1/db",
    "sqlite:///{tmp}/no/such/dir/puzzles.db",
    "postgresql://postgres@127.0.0.1:1/test",
])
def test_bad_url_gives_store_error(url: str, tmp_path: Any) -> None:
    with pytest.raises(StoreError) as info:
        store.make_engine(url.format(tmp=tmp_path))
    assert str(info.value) and "\n" not in str(info.value)


def test_database_url_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PUZZLEFLEET_DB", raising=False)
    assert store.database_url() == "sqlite:///puzzles.db"
    monkeypatch.setenv("PUZZLEFLEET_DB", "postgresql://u@h/db")
    assert store.database_url() == "postgresql://u@h/db"


def test_postgresql_urls_use_psycopg3() -> None:
    from store.db import engine_url

    assert engine_url("postgresql://u:pw@h/db").drivername == "postgresql+psycopg"
    assert engine_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    assert engine_url("postgresql+psycopg://u@h/db").drivername == "postgresql+psycopg"


def test_sqlite_pragmas_and_begin_immediate(tmp_path: Any, board: Any) -> None:
    engine = store.make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    store.init_db(engine)
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    try:
        with engine.connect() as conn:
            pragmas = {name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                       for name in ("journal_mode", "busy_timeout", "synchronous", "foreign_keys")}
        assert pragmas == {"journal_mode": "wal", "busy_timeout": 30000, "synchronous": 1, "foreign_keys": 1}
        data, fp = board("x")
        with store.session(engine) as s:
            save_board(session=s, data=data, fingerprint=fp)
        assert "BEGIN IMMEDIATE" in seen
        seen.clear()
        with store.session(engine, read_only=True) as s:
            count_boards(session=s)
        assert "BEGIN DEFERRED" in seen and "BEGIN IMMEDIATE" not in seen
    finally:
        engine.dispose()
