"""The suite's slowest tests, each with its lane and, for one in the slow lane, its quicker twin in
the default lane (`make test`).

    .venv/bin/python bench/bench_slowest_tests.py [--top 30] [--workers 3]

Runs every test of both lanes once, as CI does (`CI=1`, pytest-xdist with `--dist loadgroup`), with
pytest's `--durations`, and writes bench/results/slowest_tests.json: the `--top` slowest test phases
(set-up or call), the lane each is in, and the twin that stands for it in `make test`. A slow test
without a twin entry in TWINS below is shown as "(none)", so a new one cannot hide.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from machine import write_result

ROOT = Path(__file__).resolve().parents[1]

# A slow test's quicker twin in the default lane, by the longest prefix of its node id.
TWINS = {
    "tests/workers/test_db_outage.py": "tests/workers/test_workers_units.py: a store that never answers is retried, "
                                       "then fails with the fault; unreachable database told from a bad request",
    "tests/workers/test_broker_restart.py": "tests/workers/test_workers_units.py: every task retries through "
                                            "Celery's own options; a fault set off by the soft limit is retried",
    "tests/workers/test_chaos.py": "tests/workers/test_fleet_faults.py::test_a_killed_workers_tasks_go_to_a_waiting_worker",
    "tests/workers/test_fleet_faults.py": "tests/workers/test_fleet_faults.py::test_a_killed_workers_tasks_go_to_a_waiting_worker",
    "tests/workers/test_recovery_defaults.py::test_a_backlog_is_not_a_stall":
        "tests/workers/test_workers_units.py::test_the_sweep_resends_a_job_only_when_the_broker_shows_its_messages_gone",
    "tests/workers/test_recovery_defaults.py": "tests/workers/test_fleet_faults.py::test_a_killed_workers_tasks_go_to_a_waiting_worker; "
                                               "test_workers_units.py: a killed range keeps what it flushed",
    "tests/workers/test_unserved_queue.py": "tests/jobs/test_jobs_sweep.py::"
                                            "test_the_sweep_says_a_queue_is_unconsumed_only_once_it_has_stayed_so",
    "tests/workers/test_killer_bands.py": "tests/workers/test_killer_bands.py::test_generate_makes_a_unique_killer_board_"
                                          "in_every_band_and_refuses_the_graded_only_ones",
    "tests/workers/test_metrics_readme.py": "tests/workers/test_workers_units.py::test_a_metrics_port_gets_a_multiprocess_directory",
    "tests/engine/test_engine_techniques.py": "tests/engine/test_engine_techniques_sample.py (every technique on 500 positions)",
    "tests/engine/test_engine_sudoku_techniques.py": "tests/engine/test_engine_sudoku_techniques_sample.py",
    "tests/engine/test_engine_killer.py": "the same test's `sample` case, or test_technique_is_sound (default lane)",
    "tests/engine/test_engine_tango.py": "tests/engine/test_engine_tango.py::test_technique_is_sound",
    "tests/engine/test_engine_ladder.py": "tests/engine/test_engine_ladder.py (the same tests on fewer kinds)",
    "tests/engine/test_engine_style_interlocking.py": "test_boards_are_unique_and_graded[starbattle 10 2]",
    "tests/cli/test_cli_calibration.py": "tests/engine/test_engine_ladder.py::test_published_boards_are_solved "
                                         "(the tests/data sample of each calibration file)",
    "tests/cli/test_cli_commands.py": "tests/cli/test_cli_commands.py (the other command-line runs)",
    "tests/packaging/test_core_install.py": "tests/cli/test_cli_generate_imports.py (what each command imports)",
}


def twin_of(node: str) -> str:
    keys = [key for key in TWINS if node.startswith(key)]
    return TWINS[max(keys, key=len)] if keys else "(none)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--workers", type=int, default=min(6, (os.cpu_count() or 1) + 1))
    args = ap.parse_args()
    load_at_start = os.getloadavg()[0]
    python = str(ROOT / ".venv/bin/python")
    env = {**os.environ, "CI": "1"}
    slow = set(subprocess.run([python, "-m", "pytest", "--collect-only", "-q", "-m", "slow"], cwd=ROOT, env=env,
                              capture_output=True, text=True).stdout.split())
    run = subprocess.run([python, "-m", "pytest", "-q", "-n", str(args.workers), "--dist", "loadgroup",
                          f"--durations={args.top}"], cwd=ROOT, env=env, capture_output=True, text=True)
    rows: list[list[object]] = []
    for line in run.stdout.splitlines():
        found = re.match(r"\s*([\d.]+)s (setup|call|teardown)\s+(\S.*)$", line)
        if found:
            seconds, phase, node = found.groups()
            node = re.sub(r"@[\w-]+$", "", node)                   # loadgroup's suffix
            lane = "slow" if node in slow else "default"
            rows.append([len(rows) + 1, node, phase, float(seconds), lane, twin_of(node) if lane == "slow" else ""])
    summary = next((line.strip("= ") for line in reversed(run.stdout.splitlines())
                    if re.search(r"\d+ (passed|failed)", line)), "(no pytest summary)")
    print(f"{summary}; load average {load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    for row in rows:
        print(" | ".join(str(cell) for cell in row))
    for line in run.stdout.splitlines():           # what failed, so a red run is not read as a timing
        if line.startswith(("FAILED", "ERROR")):
            print(line)
    write_result("slowest_tests", [{"title": f"the {args.top} slowest tests", "columns":
                                    ["#", "test", "phase", "seconds", "lane", "its quicker twin in `make test`"],
                                    "rows": rows}],
                 notes=[f"Both lanes in one pytest run, {args.workers} workers: {summary}."],
                 load_at_start=load_at_start)
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
