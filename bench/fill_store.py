"""Fill a store with real boards made by the project, for the scale bench (bench/bench_scale.py).

    .venv/bin/python bench/fill_store.py --db postgresql://postgres@127.0.0.1/scale --boards 1000000 [--jobs 2]
    .venv/bin/python bench/fill_store.py --db sqlite:///scale.db --copy-from postgresql://postgres@127.0.0.1/scale

The boards come from `puzzlefleet generate`, run as a user runs it (whole commands, `--jobs` local
processes, PUZZLEFLEET_DB naming the store), over a mix of the games and sizes that generate quickly,
so that the store holds the variety a site accumulates (the daily set's near-duplicate rule needs it).
Each share is generated in rounds of ROUND boards with their own seeds; a round adds whatever the
store did not already hold (`generate` counts repeats as duplicates and tries again), so the store
ends with at least --boards boards. Running the command again on a filled store adds nothing: it
counts what is there first.

--copy-from copies every board of another store (the same rows: ids, fingerprints, times) through
the store's own write path, so that SQLite and PostgreSQL can be measured on the same boards without
generating them twice.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (share of the store, generate arguments): the quick games, several sizes each.
MIX: tuple[tuple[float, tuple[str, ...]], ...] = (
    (0.22, ("--game", "tango", "--size", "6")),
    (0.20, ("--game", "tango", "--size", "8")),
    (0.024, ("--game", "tango", "--size", "10")),
    (0.20, ("--game", "sudoku", "--size", "9")),
    (0.08, ("--game", "queens", "--size", "7")),
    (0.16, ("--game", "queens", "--size", "8")),
    (0.04, ("--game", "queens", "--size", "9")),
    (0.02, ("--game", "queens", "--size", "10")),
    (0.01, ("--game", "queens", "--size", "9", "--diagonals")),
    (0.04, ("--game", "killer", "--size", "9")),
    (0.006, ("--game", "starbattle", "--size", "10", "--stars", "2")),
)
ROUND = 20_000


def count_boards(url: str, spec: tuple[str, ...] | None = None) -> int:
    from store import count_boards as count, init_db, make_engine, session
    db = make_engine(url)
    init_db(db)
    filters: dict[str, object] = {}
    options: dict[str, object] = {}
    if spec is not None:
        args = dict(zip(spec[0::2], spec[1::2]))
        filters = {"game": args["--game"], "size": int(args["--size"]) if "--size" in args else None}
        if "--stars" in args:
            options["stars"] = int(args["--stars"])
        if "--diagonals" in spec:
            options["diagonals"] = True
        elif args["--game"] == "queens":
            options["diagonals"] = False
    with session(db, read_only=True) as s:
        n = count(session=s, options=options, **filters)
    db.dispose()
    return n


def fill(url: str, boards: int, jobs: int) -> None:
    env = {**os.environ, "PUZZLEFLEET_DB": url}
    exe = str(ROOT / ".venv" / "bin" / "puzzlefleet")
    for index, (share, spec) in enumerate(MIX):
        want = round(boards * share)
        have = count_boards(url, spec)
        round_no = have // ROUND
        while have < want:
            count = min(ROUND, want - have)
            seed = 1_000_000 * (index + 1) + round_no
            started = time.monotonic()
            subprocess.run([exe, "generate", *spec, "--count", str(count), "--jobs", str(jobs),
                            "--seed", str(seed)], env=env, check=False,
                           stdout=subprocess.DEVNULL)
            now = count_boards(url, spec)
            print(f"{' '.join(spec)}: {now:,} of {want:,} (+{now - have:,} in {time.monotonic() - started:.0f} s)",
                  flush=True)
            if now == have:
                raise SystemExit(f"{' '.join(spec)}: a round added nothing; stopping")
            have, round_no = now, round_no + 1


def copy(source: str, target: str, batch: int = 5000) -> None:
    """Every puzzle row of `source` into `target`, as stored (ids, fingerprints and times kept)."""
    from sqlalchemy import insert, select, tuple_

    from store import init_db, make_engine, session
    from store.models import Puzzle
    src, dst = make_engine(source), make_engine(target)
    init_db(dst)
    table = Puzzle.__table__   # type: ignore[attr-defined]
    done, last = 0, None
    with src.connect() as conn:
        while True:
            page = select(table).order_by(table.c.created_at, table.c.id).limit(batch)
            if last is not None:
                page = page.where(tuple_(table.c.created_at, table.c.id) > tuple_(*last))
            rows = conn.execute(page).mappings().all()
            if not rows:
                break
            with session(dst) as s:
                s.connection().execute(insert(table), [dict(row) for row in rows])
            done += len(rows)
            last = (rows[-1]["created_at"], rows[-1]["id"])
            if done % 100_000 < batch:
                print(f"copied {done:,}", flush=True)
    print(f"copied {done:,} boards", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="the store to fill (an SQLAlchemy URL)")
    parser.add_argument("--boards", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--copy-from", help="copy this store's boards instead of generating")
    args = parser.parse_args()
    if args.copy_from:
        copy(args.copy_from, args.db)
    else:
        fill(args.db, args.boards, args.jobs)
    print(f"{count_boards(args.db):,} boards in the store", flush=True)


if __name__ == "__main__":
    main()
