"""The puzzle table. The board's whole JSON lives in `data`; the other columns copy the fields that
listings filter and sort on, so queries never parse JSON."""

from __future__ import annotations

from datetime import datetime, timezone

from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Index, Text, text
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Puzzle(SQLModel, table=True):
    __tablename__ = "puzzle"
    # Every listing (the read API, list, export) walks boards in (created_at, id) order from a cursor;
    # each filter the API offers leads an index that then runs in that order, so a page reads about
    # `limit` matching rows whatever the store holds (Alembic 0004 and 0008 make them).
    __table_args__ = (
        # unfiltered listings only: they state its condition (store.repo.UNFILTERED), filtered ones cannot
        Index("ix_puzzle_created_at", "created_at", "id", sqlite_where=text("engine_version <> ''"),
              postgresql_where=text("engine_version <> ''")),
        Index("ix_puzzle_game_created", "game", "created_at", "id"),
        Index("ix_puzzle_game_size_created", "game", "size", "created_at", "id"),
        Index("ix_puzzle_game_band_created", "game", "band", "created_at", "id"),
        Index("ix_puzzle_band_created", "band", "created_at", "id"),
        Index("ix_puzzle_style_created", "style", "created_at", "id"),
        # the daily set's picks: unused boards of some rules and band, in id order from a seeded point
        Index("ix_puzzle_rules_band_id", "rules_text", "band", "id"),
    )

    id: str = Field(primary_key=True, max_length=16)             # 16 hex chars, chosen by the caller
    fingerprint: str = Field(unique=True, index=True, max_length=64)  # canonical form, 64 hex chars
    game: str
    size: int
    # the board's rules as its game states them (Game.board_rules): JSON, for filters on an option, and
    # the canonical text ("queens 10 diagonals"), for the exact rules; Alembic 0007
    rules: dict[str, Any] = Field(sa_type=JSON)
    rules_text: str
    band: str | None = None
    style: str | None = None                                       # the drawing style; Alembic 0005
    score: int | None = None
    engine_version: str
    seed: int | None = Field(default=None, sa_type=BigInteger)
    created_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
    data: str = Field(sa_type=Text)                                # the whole board JSON text
