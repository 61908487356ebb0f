"""Recovery from a broker wipe under load, at full size: how long after Redis loses everything the jobs
that were in flight take to finish, while new jobs keep arriving faster than two workers serve them.

    .venv/bin/python bench/bench_broker_wipe.py [--stall SECONDS] [--interval 10] [--within 90] [--jobs 6]
                                                [--boards 300] [--size 12] [--feed-boards 3000] [--repeat 1]

The same scenario as tests/workers/test_fleet_faults.py::test_a_broker_wipe_under_load_is_recovered_in_seconds
(which runs it scaled down: stall 6 s, a sweep every 2 s): a redis-server of its own on a free port
(killed and started again empty), a SQLite store in a temporary folder, two `celery -A workers worker`
with one pool process each, beat with PUZZLEFLEET_STALL_SECONDS=--stall and
PUZZLEFLEET_RESUME_INTERVAL=--interval (their defaults are the fleet's), every other setting the
fleet's default; --jobs jobs of --boards Queens boards sent at once, then one
`puzzlefleet enqueue --count --feed-boards` after another. Redis is killed once the first board is
stored. Prints a Markdown table (stdout): per run, the seconds from the wipe until each of the first
jobs finished, how many slots the sweep sent again and for which jobs, and how many fed jobs were
still open at the end (the load was real). Progress goes to stderr. Needs redis-server installed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stall", type=float, default=None, help="PUZZLEFLEET_STALL_SECONDS (default: the fleet's)")
    ap.add_argument("--interval", type=float, default=10.0)
    ap.add_argument("--within", type=float, default=90.0)
    ap.add_argument("--jobs", type=int, default=6)
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--size", type=int, default=12)
    ap.add_argument("--feed-boards", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from machine import markdown_head, markdown_row, run_header, write_result
    from tests.workers.conftest import DEFAULT_SETTINGS, Fleet, OwnRedis
    from tests.workers.test_fleet_faults import broker_wipe_under_load

    load_at_start = os.getloadavg()[0]
    print(run_header())
    columns = ["run", "first jobs finished after the wipe (s)", "slowest", "slots sent again (jobs)",
               "fed jobs open at the end"]
    rows: list[list[object]] = []
    print(markdown_head(columns))
    for run_no in range(1, args.repeat + 1):
        tmp = Path(tempfile.mkdtemp(prefix="bench-wipe-"))
        redis = OwnRedis(tmp)
        fleet = Fleet(tmp, f"sqlite:///{tmp / 'puzzles.db'}", redis.url, **DEFAULT_SETTINGS,
                      PUZZLEFLEET_RESUME_INTERVAL=f"{args.interval:g}", PUZZLEFLEET_STALL_SECONDS="" if args.stall is None else f"{args.stall:g}")
        try:
            print(f"run {run_no}: wiping under load ...", file=sys.stderr, flush=True)
            run = broker_wipe_under_load(fleet, redis, jobs=args.jobs, boards=args.boards, size=args.size,
                                         feed_boards=args.feed_boards, within=args.within)
            slots, jobs = 0, []
            for line in run.resent:
                job, rest = line.split("job ", 1)[1].split(":", 1)
                slots += int(rest.split()[0])
                jobs.append(int(job))
            first = sorted(set(jobs) & set(run.jobs))
            times = " ".join(f"{run.finished_after[j]:.0f}" for j in run.jobs)
            rows.append([run_no, times, f"{max(run.finished_after.values()):.0f}",
                         f"{slots} ({len(jobs)} resends; first jobs {', '.join(map(str, first)) or 'none'})",
                         f"{run.open_fed_at_end} of {len(run.fed)}"])
            print(markdown_row(rows[-1]), flush=True)
        finally:
            fleet.stop()
            redis.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    stall = "the default (45 s)" if args.stall is None else f"{args.stall:g} s"
    print(f"\nStall {stall}, a sweep every {args.interval:g} s, {args.jobs} jobs of {args.boards} "
          f"Queens {args.size}x{args.size}, fed {args.feed_boards} boards per enqueue; load average "
          f"{os.getloadavg()[0]:.1f} at the end.")
    write_result("broker_wipe", [{"title": "broker wipe", "columns": columns, "rows": rows}],
                 notes=[f"Stall {stall}, a sweep every {args.interval:g} s, {args.jobs} jobs of {args.boards} "
                        f"Queens {args.size}x{args.size}, fed {args.feed_boards} boards per enqueue; load average "
                        f"{os.getloadavg()[0]:.1f} at the end."], load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
