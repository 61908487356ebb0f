"""Every listing the read API and `list` offer reads along an index in its own order, never sorting
the matches first: the database's own plan, on SQLite and on PostgreSQL. A plan that sorts costs what
the store holds; one that walks an index costs a page. Migration 0008 makes those indexes on a store
that already holds boards, keeping every board and job count."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, event, text

import store
from store.db import alembic_config
from store.repo import Listing, _parts, _prepared, encode_cursor

SHAPES = [
    ({}, "ix_puzzle_created_at"),
    ({"game": "tango"}, "ix_puzzle_game_created"),
    ({"game": "queens", "size": 8}, "ix_puzzle_game_size_created"),
    ({"game": "tango", "band": "hard"}, "ix_puzzle_game_band_created"),
    ({"band": "hard"}, "ix_puzzle_band_created"),
    ({"style": "composed"}, "ix_puzzle_style_created"),
    ({"game": "starbattle", "options": {"stars": 2}}, "ix_puzzle_game_created"),
    ({"options": {"stars": 2}}, "ix_puzzle_game_created"),            # one part: only Star Battle holds 2
    ({"options": {"diagonals": True}}, "ix_puzzle_game_created"),
    ({"options": {"diagonals": False}}, "ix_puzzle_created_at"),     # every game's boards may match
]
CURSOR = encode_cursor(datetime(2026, 12, 7, 8, 0, tzinfo=timezone.utc), "0123456789abcdef")


@pytest.fixture
def explained(engine: Engine) -> Iterator[tuple[Engine, list[str]]]:
    """The engine, with every SELECT it runs replaced by the database's plan of it."""
    plans: list[str] = []
    postgres = engine.dialect.name == "postgresql"

    @event.listens_for(engine, "before_cursor_execute", retval=True)
    def explain(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> Any:
        if statement.lstrip().upper().startswith("SELECT") and "alembic_version" not in statement:
            statement = ("EXPLAIN " if postgres else "EXPLAIN QUERY PLAN ") + statement
        return statement, parameters

    with engine.connect() as conn:
        if postgres:
            # On a small table a sequential scan and a sort is cheapest; forbid both, and a plan that
            # still sorts has no index that serves the listing.
            conn.exec_driver_sql("SET enable_seqscan = off")
            conn.exec_driver_sql("SET enable_sort = off")
            conn.exec_driver_sql("SET enable_bitmapscan = off")
        yield conn, plans         # type: ignore[misc]


def _plan(conn: Any, statement: Any, params: dict[str, Any]) -> str:
    rows = conn.execute(statement, params).all()
    return "\n".join(str(row[-1]) for row in rows)


@pytest.mark.parametrize("shape,index", SHAPES, ids=[str(shape) for shape, _ in SHAPES])
@pytest.mark.parametrize("newest_first", [False, True], ids=["oldest", "newest"])
@pytest.mark.parametrize("after", [None, CURSOR], ids=["first", "by-cursor"])
def test_each_listing_walks_an_index_in_its_order(explained: Any, shape: dict, index: str, newest_first: bool,
                                                  after: str | None) -> None:
    conn, _ = explained
    listing = Listing.of(newest_first=newest_first, after=after, **shape)
    parts = _parts(listing)
    assert len(parts) == 1
    (count, summaries, texts), params = _prepared(parts[0])
    for statement in (summaries, texts):
        plan = _plan(conn, statement, {**params, "limit": 51})
        assert "TEMP B-TREE" not in plan and "Sort" not in plan and "Seq Scan" not in plan, plan
        # PostgreSQL picks among the indexes that serve by its statistics (on an empty table, the
        # narrowest); SQLite's choice is fixed by the shape
        assert index in plan if conn.dialect.name == "sqlite" else "Index" in plan, plan
    assert "TEMP B-TREE" not in _plan(conn, count[0], {**params, "cap": 1001})


def test_an_option_several_games_hold_is_one_walk_per_game() -> None:
    parts = _parts(Listing.of(options={"stars": 1}))
    assert sorted(part.game for part in parts) == ["queens"]
    assert _parts(Listing.of(game="queens", options={"stars": 2})) == []
    assert _parts(replace(Listing.of(options={"diagonals": False}), band="easy")) == [
        Listing.of(options={"diagonals": False}, band="easy")]


def test_migration_0008_indexes_a_store_that_holds_boards_and_keeps_its_counts(db_url: str, board: Any) -> None:
    engine = store.make_engine(db_url)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0007")
    made = [board(f"m{i}", size=8 + i % 3, band=("easy", "hard")[i % 2]) for i in range(300)]
    with store.session(engine) as s:     # 0008 changes no column: today's write path fits 0007
        for data, fingerprint in made:
            assert store.save_board(session=s, data=data, fingerprint=fingerprint)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO job (game, rules, band, params, seed, requested, stored, failed, attempts, "
                          "rejected, seconds, state, created_at, updated_at) VALUES ('queens', 'queens 8', NULL, "
                          "'{}', 1, 5, 3, 1, 7, :rejected, 1.5, 'running', '2026-01-01', '2026-01-01')"),
                     {"rejected": '{"dull":2}'})
    store.init_db(engine)
    assert store.db.schema_revision(engine) == store.db.SCHEMA_REVISION
    with store.session(engine, read_only=True) as s:
        assert store.count_boards(session=s) == 300
        assert store.count_boards(session=s, game="queens", size=9, band="hard") == sum(
            d["rules"]["size"] == 9 and d["difficulty"]["band"] == "hard" for d, _ in made)
        job = store.list_jobs(session=s)[0]
    assert (job["stored"], job["failed"], job["attempts"], job["rejected"]) == (3, 1, 7, {"dull": 2})
    engine.dispose()
