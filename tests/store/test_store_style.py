"""The puzzle table's `style` column (Alembic 0005) on SQLite and PostgreSQL: written through the one
write path from the board JSON, filtered on by the repository, and backfilled by the migration from
boards stored before it."""

from __future__ import annotations

import json
from typing import Any

from alembic import command
from sqlalchemy import Engine, text

import store
from store import board_summaries, count_boards, list_boards, regrade_board, save_board
from store.db import alembic_config


def _styled(board: Any, key: str, style: str | None, *, old: bool = False) -> tuple[dict[str, Any], str]:
    """A board drawn in `style` as this engine stores it (`style` and `generation.style`), or, `old`,
    as it was stored before `style` existed (only a non-default style in `generation`)."""
    data, fp = board(key)
    if style is not None:
        data["generation"] = {"style": style, "style_score": 80}
        if not old:
            data["style"] = style
    return data, fp


def _column(engine: Engine) -> dict[str, str | None]:
    with engine.connect() as conn:
        return dict(conn.execute(text("SELECT id, style FROM puzzle")).all())


def test_the_write_path_fills_the_column_and_listings_filter_on_it(engine: Engine, board: Any) -> None:
    boards = [_styled(board, "a", "organic"), _styled(board, "b", "composed"), _styled(board, "c", None),
              _styled(board, "d", "composed", old=True)]
    for data, fp in boards:
        with store.session(engine) as s:
            assert save_board(session=s, data=data, fingerprint=fp)
    ids = [data["id"] for data, _ in boards]
    assert _column(engine) == dict(zip(ids, ["organic", "composed", None, "composed"]))
    with store.session(engine, read_only=True) as s:
        assert list_boards(session=s, style="composed") == [boards[1][0], boards[3][0]]
        assert count_boards(session=s, style="organic") == 1
        rows, total, _ = board_summaries(session=s, style="composed", game="queens")
        assert ([row["id"] for row in rows], total) == ([ids[3], ids[1]], 2)       # newest first
        assert {row["style"] for row in rows} == {"composed"}
    # A re-grade keeps the board's style (its JSON says it).
    with store.session(engine) as s:
        regrade_board(session=s, board_id=ids[1], data={**boards[1][0], "engine_version": "9.9.9"})
    assert _column(engine)[ids[1]] == "composed"


def test_migration_0005_backfills_the_style_from_the_json(engine: Engine, board: Any) -> None:
    """Rows stored at 0004 get the style their JSON names (`style`, else `generation.style`, a string
    only); the others stay NULL. Then downgrade and upgrade again."""
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    weird, weird_fp = board("e")
    weird["generation"] = {"style": 7}                      # not a style: stays NULL
    rows = [_styled(board, "a", "organic"), _styled(board, "b", "composed", old=True),
            _styled(board, "c", None), (weird, weird_fp)]
    columns = ("id", "fingerprint", "game", "size", "stars", "diagonals", "band", "score", "engine_version",
               "seed", "created_at", "data")
    insert = text(f"INSERT INTO puzzle ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})")
    with engine.begin() as conn:
        for data, fp in rows:
            conn.execute(insert, {"id": data["id"], "fingerprint": fp, "game": "queens", "size": 8, "stars": 1,
                                  "diagonals": False, "band": "easy", "score": 1, "engine_version": "0.1.0",
                                  "seed": 1, "created_at": "2026-01-01 00:00:00", "data": json.dumps(data)})
    store.init_db(engine)                                   # what every command does: upgrade to the head
    assert store.db.schema_revision(engine) == store.db.SCHEMA_REVISION == "0008"
    ids = [data["id"] for data, _ in rows]
    assert _column(engine) == dict(zip(ids, ["organic", "composed", None, None]))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
        command.upgrade(cfg, "head")
    assert _column(engine) == dict(zip(ids, ["organic", "composed", None, None]))
