"""jobs.regrade on a real SQLite store of real boards: a pass stopped between batches says where to
resume, and the pass resumed from there does only the rest; ranges_left names the id ranges that still
hold a stale board."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

import store
from engine import ENGINE_VERSION
from jobs.regrade import BATCH, RANGES, ranges_left, regrade_range

BIN = Path(sys.executable).parent


def test_a_stopped_pass_resumes_where_it_stopped(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'puzzles.db'}"
    n = BATCH * 2 + 7
    subprocess.run([str(BIN / "puzzlefleet"), "generate", "--game", "tango", "--size", "6", "--count", str(n),
                    "--seed", "4"], env={**os.environ, "PUZZLEFLEET_DB": url}, check=True, capture_output=True)
    db = store.make_engine(url)
    try:
        with db.begin() as conn:
            conn.execute(text("UPDATE puzzle SET engine_version = '0.0.0-old'"))
            ids = sorted(conn.execute(text("SELECT id FROM puzzle")).scalars())
        assert ranges_left(db) == sorted({RANGES[int(board_id[:2], 16)] for board_id in ids},
                                         key=lambda r: r[1])
        batches = []
        done, rest = regrade_range(db=db, stop=lambda: len(batches) == 1, progress=batches.append)
        assert (done, rest, batches) == (BATCH, ids[BATCH - 1], [BATCH])
        done, rest = regrade_range(db=db, after=rest)
        assert (done, rest) == (n - BATCH, None)
        with store.session(db, read_only=True) as s:
            assert store.count_stale_boards(session=s, version=ENGINE_VERSION) == 0
        assert ranges_left(db) == []
    finally:
        db.dispose()
