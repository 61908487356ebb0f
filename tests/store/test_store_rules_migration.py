"""Alembic 0007: a store made at 0006, when boards kept their rules as stars and diagonals columns,
upgrades with every board and job intact; its boards then carry their rules as JSON and canonical text
and are found by the option filters and by their rules text, and the downgrade gives the columns back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, text

import store
from engine import game_named
from store import get_board, list_boards, make_engine, unused_board_ids
from store.db import alembic_config
from store.progress import job_dict
from jobs.params import JobParams

# A board of every game and rules the store held at 0006 (generated: the same seed, the same board).
REQUESTS = [("queens", {"size": 5}), ("queens", {"size": 6, "diagonals": True}), ("starbattle", {"size": 8}),
            ("sudoku", {"size": 9}), ("killer", {"size": 9})]
# Jobs as messages and job rows carried their parameters at 0006: every option key, for every game.
OLD_PARAMS = [
    {"game": "queens", "size": 9, "stars": 1, "diagonals": True, "band": "hard", "band_by": None},
    {"game": "starbattle", "size": 10, "stars": 2, "diagonals": False, "band": None, "band_by": None},
    {"game": "sudoku", "size": 9, "stars": None, "diagonals": False, "band": "easy", "band_by": "clues"},
    {"game": "killer", "size": 9, "stars": None, "diagonals": False, "band": None, "band_by": None},
]
COLUMNS_0006 = ("id", "fingerprint", "game", "size", "stars", "diagonals", "band", "score", "engine_version",
                "seed", "created_at", "data", "style")


@pytest.fixture(scope="module")
def boards() -> list[tuple[dict[str, Any], str]]:
    made = []
    for name, request in REQUESTS:
        game = game_named(name)
        board, _ = game.generate(game.rules(**request), 3, timeout=120)
        made.append((board.to_json(), board.fingerprint))
    return made


@pytest.fixture
def old_store(db_url: str) -> Engine:
    """A store at 0006 holding the boards, as that revision's write path stored them, and the jobs."""
    engine = make_engine(db_url)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
    return engine


def _upgrade(engine: Engine, revision: str = "head", *, down: bool = False) -> None:
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)


def _row(job: dict[str, Any] | None) -> dict[str, Any]:
    """A job as stored (without the figures its progress report derives from the clock)."""
    assert job is not None
    return {key: value for key, value in job.items() if key not in ("elapsed", "boards_per_second")}


def _old_columns(engine: Engine) -> dict[str, tuple[Any, bool]]:
    with engine.connect() as conn:
        return {row[0]: (row[1], bool(row[2]))
                for row in conn.execute(text("SELECT id, stars, diagonals FROM puzzle"))}


def test_a_store_made_at_0006_upgrades_with_every_board_and_job(old_store: Engine, boards: list) -> None:
    insert = text(f"INSERT INTO puzzle ({', '.join(COLUMNS_0006)}) VALUES ({', '.join(':' + c for c in COLUMNS_0006)})")
    with old_store.begin() as conn:
        for data, fingerprint in boards:
            rules = data["rules"]
            conn.execute(insert, {"id": data["id"], "fingerprint": fingerprint, "game": data["game"],
                                  "size": rules["size"], "stars": rules.get("stars"),
                                  "diagonals": rules.get("diagonals", False), "band": data["difficulty"]["band"],
                                  "score": data["difficulty"]["score"], "engine_version": data["engine_version"],
                                  "seed": data["seed"], "created_at": "2026-01-01 00:00:00",
                                  "data": json.dumps(data, separators=(",", ":")), "style": data.get("style")})
    before = _old_columns(old_store)
    with store.session(old_store) as s:
        job_ids = [store.create_job(session=s, game=params["game"], rules=str(JobParams.from_json(params).rules()),
                                    band=params["band"], params=params, seed=5, requested=2)
                   for params in OLD_PARAMS]
    with old_store.connect() as conn:          # the job rows as they were (no tallies before 0008)
        jobs_before = [_row(job_dict(conn.execute(text("SELECT * FROM job WHERE id = :id"), {"id": job_id})
                                     .mappings().one())) for job_id in job_ids]

    store.init_db(old_store)                  # what every command does: 0006 -> head
    assert store.db.schema_revision(old_store) == store.db.SCHEMA_REVISION

    with store.session(old_store, read_only=True) as s:
        for data, _ in boards:
            assert get_board(session=s, board_id=data["id"]) == data
            stated = game_named(data["game"]).board_rules(data["rules"])
            assert unused_board_ids(session=s, rules_text=str(stated), band=data["difficulty"]["band"]) == [data["id"]]
        with old_store.connect() as conn:
            stored = {row[0]: (row[1], row[2]) for row in conn.execute(text("SELECT id, rules, rules_text FROM puzzle"))}
        for data, _ in boards:
            rules, rules_text = stored[data["id"]]
            stated = game_named(data["game"]).board_rules(data["rules"])
            assert (json.loads(rules) if isinstance(rules, str) else rules) == stated.to_json()
            assert rules_text == str(stated)
        by_id = {data["id"]: data for data, _ in boards}
        assert {b["id"] for b in list_boards(session=s, options={"stars": 2})} == {
            i for i, b in by_id.items() if b["game"] == "starbattle"}
        assert {b["id"] for b in list_boards(session=s, options={"diagonals": True})} == {
            i for i, b in by_id.items() if b["rules"].get("diagonals")}
        assert len(list_boards(session=s, options={"diagonals": False})) == len(boards) - 1
        assert [_row(store.get_job(session=s, job_id=job_id)) for job_id in job_ids] == jobs_before
    for job in jobs_before:                   # a job's parameters, as stored then, still make its rules
        assert str(JobParams.from_json(job["params"]).rules()) == job["rules"]

    _upgrade(old_store, "0006", down=True)
    assert _old_columns(old_store) == before
    _upgrade(old_store)
    with store.session(old_store, read_only=True) as s:
        assert [b["id"] for b in list_boards(session=s)] == [data["id"] for data, _ in sorted(boards, key=lambda b: b[0]["id"])]
    old_store.dispose()
