"""How long the test lanes take, as a developer and CI run them: `make test` and `make test-fast` on a
fresh clone.

    .venv/bin/python bench/bench_tests.py [--skip-full] [--repo PATH]

Clones the repository's committed HEAD into a temporary folder, then times, as whole processes:
  set-up      `make build` in the clone (a venv, every dependency, the compiled engine);
  test-fast   `make test-fast` (the engine, store and command-line tests without the fleet, browser
              and slow lanes);
  test        `make test` with CI=1 (the default lane, as `.ci/run` runs it first), unless --skip-full.
A fresh clone's `make test` is set-up plus test. Prints a Markdown table for BENCHMARKS.md with the
machine, its load average before and after each run, and pytest's own summary line. Needs the
services `make test` needs (PostgreSQL, Redis) and the calibration folder beside the repository.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from machine import cpu_model, write_result

ROOT = Path(__file__).resolve().parents[1]


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str, int]:
    started = time.monotonic()
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    summary = next((line.strip("= ") for line in reversed(result.stdout.splitlines())
                    if re.search(r"\d+ (passed|failed)", line)), "(no pytest summary)")
    return time.monotonic() - started, summary, result.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-full", action="store_true", help="time set-up and test-fast only")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the repository to clone (default: this one)")
    args = parser.parse_args()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=args.repo, capture_output=True,
                          text=True, check=True).stdout.strip()
    print(f"`.venv/bin/python bench/bench_tests.py{' --skip-full' if args.skip_full else ''}` at {head} on "
          f"{cpu_model()}, {os.cpu_count()} cores, {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC\n")
    print("| run | seconds | load before / after | pytest | exit |\n|---|---|---|---|---|")
    rows: list[list[object]] = []
    load_at_start = os.getloadavg()[0]
    # The clone sits beside the repository so that it finds ../shared/calibration as a checkout does.
    with tempfile.TemporaryDirectory(dir=args.repo.parent, prefix=".bench-tests-") as tmp:
        clone = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "--quiet", str(args.repo), str(clone)], check=True)
        shared = args.repo.parent / "shared"
        if shared.is_dir() and not (Path(tmp) / "shared").exists():
            (Path(tmp) / "shared").symlink_to(shared)
        env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
        runs = [("set-up (`make build`)", ["make", "build"], env),
                ("`make test-fast`", ["make", "test-fast"], env)]
        if not args.skip_full:
            runs.append(("`make test` (CI=1)", ["make", "test"], {**env, "CI": "1"}))
        for name, argv, run_env in runs:
            before = os.getloadavg()[0]
            seconds, summary, code = timed(argv, clone, run_env)
            rows.append([name, f"{seconds:.0f}", f"{before:.2f} / {os.getloadavg()[0]:.2f}",
                         summary if "make build" not in name else "", code])
            print("| " + " | ".join(map(str, rows[-1])) + " |", flush=True)
        if not args.skip_full:          # what the goal counts: a newcomer's set-up and `make test`
            whole = float(rows[0][1]) + float(rows[2][1])
            rows.append(["fresh clone: set-up + `make test`", f"{whole:.0f}", "", "", ""])
            print("| " + " | ".join(map(str, rows[-1])) + " |", flush=True)
        shutil.rmtree(clone / ".venv", ignore_errors=True)
    write_result("tests" + ("-skip-full" if args.skip_full else ""),
                 [{"title": "test lanes", "columns": ["run", "seconds", "load before / after", "pytest", "exit"],
                   "rows": rows}], notes=[f"A fresh clone of {head}."], load_at_start=load_at_start)


if __name__ == "__main__":
    main()
