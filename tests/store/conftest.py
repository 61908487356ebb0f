"""Shared store fixtures: every `db_url`/`engine` test runs on a fresh SQLite file and on the real
PostgreSQL at 127.0.0.1:5432 (in a schema of its own, dropped afterwards)."""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from store import init_db, make_engine
from tests.conftest import pg_schema, schema_url

Board = tuple[dict[str, Any], str]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL to an empty database (no tables yet)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'puzzles.db'}"
        return
    with pg_schema(request.getfixturevalue("pg_admin"), "test_store") as schema:
        yield schema_url(schema)


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    """An engine on a migrated, empty database."""
    eng = make_engine(db_url)
    init_db(eng)
    yield eng
    eng.dispose()


def _hex(text: str, n: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:n]


@pytest.fixture
def board() -> Callable[..., Board]:
    """board(key, game=..., size=..., band=...) -> (data, fingerprint), deterministic per key."""

    def make(key: str, *, game: str = "queens", size: int = 8, band: str | None = "easy",
             score: int | None = 10, seed: int | None = 12345) -> Board:
        data: dict[str, Any] = {
            "id": _hex("id:" + key, 16),
            "game": game,
            "rules": {"size": size, "stars": 1, "diagonals": False},
            "regions": [[r] * size for r in range(size)],         # each row a region
            "solution": [[r, (2 * r) % size] for r in range(size)],
        } if game != "sudoku" else {
            "id": _hex("id:" + key, 16), "game": game, "rules": {"size": 9},
            "givens": "".join("." if (r + c) % 3 else str((r * 3 + r // 3 + c) % 9 + 1)
                              for r in range(9) for c in range(9)),
            "solution": "".join(str((r * 3 + r // 3 + c) % 9 + 1) for r in range(9) for c in range(9)),
        }
        data |= {
            "difficulty": {"band": band, "score": score, "hardest": "pigeonhole"},
            "steps": [{"technique": "last-cell-in-region", "cost": 1, "place": [[2, 4]],
                       "eliminate": [[2, 3]], "why": "région 5 — one free cell"}],
            "engine_version": "0.1.0",
            "seed": seed,
        }
        return data, _hex("fp:" + key, 64)

    return make
