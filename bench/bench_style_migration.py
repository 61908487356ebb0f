"""What Alembic 0005 (the puzzle table's `style` column, backfilled from each board's JSON) costs on a
store of N boards: a store at 0004 is filled with N Star Battle 10x10 2★ boards as stored before styles
were recorded (one in ten naming a non-default style in `generation.style`, the others nothing), then
`store.init_db` (what every command does first) upgrades it, timed.

    .venv/bin/python bench/bench_style_migration.py [--url URL] [--boards 100000]

Without --url, a fresh SQLite file in a temporary folder; a PostgreSQL URL should name an empty schema
(`?options=-csearch_path%3DNAME`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from alembic import command
from machine import cpu_model
from sqlalchemy import text

import store
from engine.games.starbattle import Rules, generate
from store.db import alembic_config

_COLUMNS = ("id", "fingerprint", "game", "size", "stars", "diagonals", "band", "score", "engine_version",
            "seed", "created_at", "data")


def _fill(db, boards: int) -> int:
    """N boards at 0004, as stored before styles: returns the JSON's length."""
    cfg = alembic_config()
    with db.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    board, _ = generate(Rules(10, 2), 1)
    data = board.to_json()
    old = {key: value for key, value in data.items() if key != "style"}
    old["generation"] = {key: value for key, value in data["generation"].items() if not key.startswith("style")}
    composed = {**old, "generation": {**old["generation"], "style": "composed"}}
    insert = text(f"INSERT INTO puzzle ({', '.join(_COLUMNS)}) VALUES ({', '.join(':' + c for c in _COLUMNS)})")
    rows = []
    for i in range(boards):
        fp = hashlib.sha256(str(i).encode()).hexdigest()
        rows.append({"id": fp[:16], "fingerprint": fp, "game": "starbattle", "size": 10, "stars": 2,
                     "diagonals": False, "band": "easy", "score": 1, "engine_version": "x", "seed": 1,
                     "created_at": "2026-01-01 00:00:00",
                     "data": json.dumps({**(composed if i % 10 == 0 else old), "id": fp[:16]}, separators=(",", ":"))})
    with db.begin() as conn:
        conn.execute(insert, rows)
    return len(rows[-1]["data"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="the store (default: a fresh SQLite file)")
    parser.add_argument("--boards", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'puzzles.db'}"
        db = store.make_engine(url)
        store.init_db(db)
        size = _fill(db, args.boards)
        started = time.perf_counter()
        store.init_db(db)
        took = time.perf_counter() - started
        with db.connect() as conn:
            styled = conn.execute(text("SELECT count(*) FROM puzzle WHERE style IS NOT NULL")).scalar()
        db.dispose()
    print(f"`{' '.join(['bench/bench_style_migration.py', *sys.argv[1:]])}`; {cpu_model()}, {os.cpu_count()} "
          f"cores, load {os.getloadavg()[0]:.2f}, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"{db.dialect.name}: {args.boards} boards of ~{size} characters, {styled} backfilled: "
          f"upgrade 0004 -> 0005 in {took:.2f} s")


if __name__ == "__main__":
    main()
