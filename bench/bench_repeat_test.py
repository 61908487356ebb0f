"""One test run again and again, each run a whole pytest process as CI runs it: does it ever fail?

    .venv/bin/python bench/bench_repeat_test.py [--runs 50] [--name db_outage] [NODE_ID]

The default test is the PostgreSQL outage (tests/workers/test_db_outage.py): a job whose store is
stopped as by a crash and started again must end with exactly its boards. Every run is
`CI=1 .venv/bin/python -m pytest -q NODE_ID`; a failed run's output is kept beside the result as
bench/results/<name>-run<N>.log. Prints one line per run (stderr) and a Markdown table (stdout), and
writes bench/results/<name>.json. Exit 1 if any run failed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import RESULTS, markdown_head, markdown_row, run_header, write_result

ROOT = Path(__file__).resolve().parents[1]
OUTAGE = "tests/workers/test_db_outage.py::test_a_job_survives_a_database_outage"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("node", nargs="?", default=OUTAGE, help="the test's pytest node id")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--name", default="db_outage", help="the result file's name")
    args = ap.parse_args()
    load_at_start = os.getloadavg()[0]
    print(run_header())
    env = {**os.environ, "CI": "1"}
    seconds: list[float] = []
    loads: list[float] = []
    failed: list[int] = []
    for run_no in range(1, args.runs + 1):
        started = time.monotonic()
        result = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 args.node], cwd=ROOT, env=env, capture_output=True, text=True)
        seconds.append(time.monotonic() - started)
        loads.append(os.getloadavg()[0])
        if result.returncode != 0:
            failed.append(run_no)
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / f"{args.name}-run{run_no}.log").write_text(result.stdout + result.stderr)
        print(f"run {run_no}: exit {result.returncode}, {seconds[-1]:.0f} s, load {loads[-1]:.1f}",
              file=sys.stderr, flush=True)
    columns = ["test", "runs", "passed", "failed runs", "seconds a run (min / median / max)", "load (min / max)"]
    row = [args.node, args.runs, args.runs - len(failed), ", ".join(map(str, failed)) or "none",
           f"{min(seconds):.0f} / {statistics.median(seconds):.0f} / {max(seconds):.0f}",
           f"{min(loads):.1f} / {max(loads):.1f}"]
    print(markdown_head(columns))
    print(markdown_row(row))
    write_result(args.name, [{"title": f"{args.node}, {args.runs} runs in a row", "columns": columns,
                              "rows": [row]}],
                 notes=["Each run a whole `CI=1 .venv/bin/python -m pytest -q` process, one after another."],
                 load_at_start=load_at_start)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
