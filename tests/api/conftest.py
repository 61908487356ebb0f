"""A real SQLite store, populated by the engine, behind the API (FastAPI's TestClient)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engine.games.starbattle import Rules, generate
from store import init_db, make_engine, save_board, save_daily, session
from store.api import create_app

SUDOKU = {"id": "5d0c0000000000aa", "game": "sudoku", "rules": {"size": 9},
          "givens": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
          "solution": "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
          "difficulty": {"band": "easy", "score": 3, "hardest": "naked-single"},
          "steps": [{"technique": "naked-single", "cost": 1, "place": [[0, 2]], "why": "r1c3 can only be 4"}],
          "engine_version": "0.1.0"}


DAILY_DAY = date(2026, 1, 15)


def make_store(path: Path, *, url: str | None = None) -> str:
    """The URL of a new store (SQLite at `path`, or the database `url` names) holding the boards the
    API tests read: star boards of three rules, a classic-diagonal Queens and a Sudoku; and a daily
    set of the Sudoku and a Queens on DAILY_DAY."""
    url = url or f"sqlite:///{path}"
    db = make_engine(url)
    init_db(db)
    board_ids: list[str] = []
    with session(db) as s:
        for rules, seed in ((Rules(6, 1, False), 1), (Rules(8, 1, False), 2), (Rules(8, 1, True), 3),
                            (Rules(10, 2, False), 4)):
            board, _ = generate(rules, seed)
            assert save_board(session=s, data=board.to_json(), fingerprint=board.fingerprint)
            board_ids.append(board.to_json()["id"])
        assert save_board(session=s, data=SUDOKU, fingerprint="5d" * 32)
        assert save_daily(session=s, day=DAILY_DAY, board_ids=[SUDOKU["id"], board_ids[0]]) == "stored"
    db.dispose()
    return url


@pytest.fixture(scope="session")
def store_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return make_store(tmp_path_factory.mktemp("api") / "puzzles.db")


@pytest.fixture(scope="session")
def boards(store_url: str) -> list[dict]:
    from store import list_boards
    db = make_engine(store_url)
    with session(db, read_only=True) as s:
        out = list_boards(session=s)
    db.dispose()
    return out


@pytest.fixture(scope="session")
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as c:
        yield c


@pytest.fixture
def queens(boards: list[dict]) -> dict:
    return next(b for b in boards if b["game"] == "queens" and b["rules"]["size"] == 8
                and not b["rules"]["diagonals"])
