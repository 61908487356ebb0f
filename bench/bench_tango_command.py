"""The whole Tango command as a user types it, timed round after round: boards/s with the load beside each.

    .venv/bin/python bench/bench_tango_command.py [--count 200] [--rounds 7] [--bands any easy medium hard expert]
        [--checkout PATH] [--json PATH]

Each round runs `CHECKOUT/.venv/bin/puzzlefleet generate --game tango --size 6 --count N --seed R
[--band B]` (the default --jobs, a fresh SQLite store in a temporary folder, seed R the round's number
so that every round makes other boards), and reads the wall time of the whole process: imports, the
store's set-up, the worker processes, every board stored. The machine is shared with other work, so
every round prints the 1-minute load average taken just before it, and the summary is the median of
the rounds (with the slowest and the fastest); the bands are taken in turn within a round, so that
they see the same load. bench_whole_generate.py sets two checkouts side by side the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import run_header  # noqa: E402


def timed(checkout: Path, count: int, seed: int, band: str | None) -> float:
    """Wall seconds of one whole command."""
    command = [str(checkout / ".venv" / "bin" / "puzzlefleet"), "generate", "--game", "tango", "--size", "6",
               "--count", str(count), "--seed", str(seed), *(["--band", band] if band else [])]
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, PUZZLEFLEET_DB=f"sqlite:///{folder}/boards.db")
        started = time.perf_counter()
        done = subprocess.run(command, env=env, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - started
    if done.returncode != 0 or f"accepted {count} of {count}" not in done.stdout:
        raise SystemExit(f"generate {band or 'any'} failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bands", nargs="*", default=["any", "easy", "medium", "hard", "expert"])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose command is run (built)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    print(run_header())
    rates: dict[str, list[float]] = {band: [] for band in args.bands}
    loads: dict[str, list[float]] = {band: [] for band in args.bands}
    for round_ in range(args.rounds):
        line = []
        for band in args.bands:
            load = os.getloadavg()[0]
            seconds = timed(args.checkout, args.count, round_ + 1, None if band == "any" else band)
            rates[band].append(args.count / seconds)
            loads[band].append(load)
            line.append(f"{band} {args.count / seconds:.0f}/s (load {load:.1f})")
        print(f"round {round_ + 1}: " + ", ".join(line), flush=True)
    print(f"\n| band | boards/s, median of {args.rounds} | slowest, fastest | load average, median (range) |\n"
          "|---|---:|---:|---:|")
    summary = {}
    for band in args.bands:
        summary[band] = {"median": round(statistics.median(rates[band]), 1), "min": round(min(rates[band]), 1),
                         "max": round(max(rates[band]), 1), "load_median": round(statistics.median(loads[band]), 2),
                         "load_min": round(min(loads[band]), 2), "load_max": round(max(loads[band]), 2),
                         "rounds": [round(rate, 1) for rate in rates[band]],
                         "loads": [round(load, 2) for load in loads[band]]}
        s = summary[band]
        print(f"| {band} | {s['median']:.0f} | {s['min']:.0f}, {s['max']:.0f} | "
              f"{s['load_median']:.1f} ({s['load_min']:.1f}-{s['load_max']:.1f}) |")
    if args.json:
        args.json.write_text(json.dumps({"machine": run_header().strip(), "count": args.count,
                                         "checkout": str(args.checkout), "bands": summary}, indent=2) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
