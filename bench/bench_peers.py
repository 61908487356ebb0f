"""Whole commands, timed as a user runs them, side by side with the peers in one run.

    .venv/bin/python bench/bench_peers.py [--quick] [--only ROW ...] [--seed 1]

Every row runs `puzzlefleet` (the console script next to this interpreter) as a child process, each
`generate` on a fresh SQLite store of its own (made and migrated by `puzzlefleet list` first, so the
timed run finds a store as a user's second run does), and compares it with its peer timed in the
same run:

  startup     `puzzlefleet --help`, `puzzlefleet jobs`, `generate --game queens --size 8 --count 1`:
              the median of several runs against the bare interpreter (`python -c pass`);
  queens      200 Queens 8x8 boards in one process, seconds per board, against queens-generator
              0.1.0 from PyPI (installed by this script into a scratch venv under /tmp):
              `generate_speed_stars_puzzle(8)`, 7 seeded runs, the median seconds per board;
  sudoku      200 graded hard Sudoku boards in one process against Debian's QQwing,
              `qqwing --generate 200 --difficulty expert` (the row says so when qqwing is absent);
  starbattle  10x10 2-star over 10 boards; 14x14 3-star over 3 boards, and 20 seeds of one board
              each (p90, worst, how many over 30 s); exact-band 10x10 2-star expert per stored board;
  killer      50 graded hard Killer Sudoku in one process against npm's killer-sudoku-generator 1.1.2
              (installed by this script into a scratch folder under /tmp), 50 'expert' puzzles in one
              Node process (`node bench/peers/killer_peer.js 50`), the two commands alternating for
              several rounds: the best and the median round, per board. The peer's 'expert' keeps 21
              givens and checks only that a solution exists; the row says how many of the peer's
              puzzles our compiled counter finds unique (counting to 2).

Each of our figures also shows the CPU seconds (user + system) of the same commands: on a loaded
machine a process waits for a core, and its wall time grows while its CPU time does not.
It prints a Markdown table for BENCHMARKS.md on stdout (progress on stderr). The machine is named
with its load average at the start and the end: on a shared machine compare the ratios, which are
measured in the same minutes, rather than the absolute times.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model, write_result  # noqa: E402

PUZZLEFLEET = str(Path(sys.executable).parent / "puzzlefleet")
PEER_VENV = Path(tempfile.gettempdir()) / "puzzlefleet-peers-venv"
QUEENS_PEER = "queens-generator==0.1.0"
# 7 seeded runs of the peer's generator, each timed on its own; prints the wall and CPU seconds as JSON.
QUEENS_PEER_RUN = """
import json, random, sys, time
from speed_stars import generate_speed_stars_puzzle
wall, cpu = [], []
for seed in range(7):
    random.seed(seed)
    started, used = time.perf_counter(), time.process_time()
    generate_speed_stars_puzzle(8)
    wall.append(time.perf_counter() - started)
    cpu.append(time.process_time() - used)
print(json.dumps([wall, cpu]))
"""
KILLER_PEER = "killer-sudoku-generator@1.1.2"
KILLER_PEER_DIR = Path(tempfile.gettempdir()) / "puzzlefleet-peers-npm"
KILLER_PEER_SCRIPT = Path(__file__).resolve().parent / "peers" / "killer_peer.js"
TARGET = {"startup": 0.15, "generate1": 0.35, "queens": 200.0, "sudoku": 3.0, "sb10": 0.06, "sb14": 5.0,
          "sb14-median": 2.0, "sb14-worst": 10.0, "expert": 1.0, "killer": 3.0}
ROWS = ("startup", "queens", "sudoku", "starbattle", "killer")


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


CPU_SECONDS: list[float] = []      # user + system seconds of each timed command, in order


def timed(command: Sequence[str], *, env: dict[str, str] | None = None, cwd: str | None = None,
          timeout: float = 1800, log: bool = True, stdout: Path | None = None) -> float:
    """Seconds the whole command takes (its CPU seconds go to CPU_SECONDS); a failing command stops
    the benchmark with its stderr. Its output is thrown away, or written to the file `stdout`."""
    sink = open(stdout, "w") if stdout is not None else subprocess.DEVNULL
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(command, env=env, cwd=cwd, stdout=sink, stderr=subprocess.PIPE, text=True,
                              timeout=timeout)
    finally:
        if stdout is not None:
            sink.close()
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if log:
        CPU_SECONDS.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"bench_peers: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return seconds


class Stores:
    """A fresh SQLite store per run, in one scratch folder removed at the end."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="puzzlefleet-peers-")
        self.made = 0

    def env(self, *, migrated: bool = True) -> dict[str, str]:
        self.made += 1
        env = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{self.folder}/store{self.made}.db"}
        env.pop("PUZZLEFLEET_GAMES", None)
        if migrated:
            timed([PUZZLEFLEET, "list"], env=env, cwd=self.folder, log=False)
        return env

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def generate(stores: Stores, args: Sequence[str]) -> float:
    return timed([PUZZLEFLEET, "generate", *args], env=stores.env(), cwd=stores.folder)


def queens_peer() -> tuple[tuple[float, float] | None, str]:
    """The median wall and CPU seconds per board of queens-generator 0.1.0, or None and why not."""
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        say(f"installing {QUEENS_PEER} into {PEER_VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
    installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", QUEENS_PEER],
                               capture_output=True, text=True)
    if installed.returncode != 0:
        return None, f"could not install {QUEENS_PEER}: {installed.stderr.strip().splitlines()[-1:]}"
    out = subprocess.run([str(python), "-c", QUEENS_PEER_RUN], capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        return None, f"{QUEENS_PEER} failed: {out.stderr.strip()[-300:]}"
    wall, cpu = json.loads(out.stdout)
    return (statistics.median(wall), statistics.median(cpu)), "`generate_speed_stars_puzzle(8)`, seeds 0-6, median"


def killer_peer() -> tuple[list[str] | None, dict[str, str] | str]:
    """The command and environment that run killer_peer.js against killer-sudoku-generator 1.1.2
    (installed by npm into KILLER_PEER_DIR), or None and why not."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return None, "node or npm not installed"
    installed = KILLER_PEER_DIR / "node_modules" / "killer-sudoku-generator" / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != KILLER_PEER.split("@")[1]:
        say(f"installing {KILLER_PEER} into {KILLER_PEER_DIR}")
        KILLER_PEER_DIR.mkdir(exist_ok=True)
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(KILLER_PEER_DIR),
                               KILLER_PEER], capture_output=True, text=True)
        if done.returncode != 0 or not installed.exists():
            return None, f"could not install {KILLER_PEER}: {done.stderr.strip()[-300:]}"
    env = {**os.environ, "NODE_PATH": str(KILLER_PEER_DIR / "node_modules")}
    return [node, str(KILLER_PEER_SCRIPT)], env


def peer_versions() -> str:
    """The versions npm installed: the peer and its one dependency (sudoku-gen, which fills the grid)."""
    found = []
    for name in ("killer-sudoku-generator", "sudoku-gen"):
        meta = KILLER_PEER_DIR / "node_modules" / name / "package.json"
        if meta.exists():
            found.append(f"{name} {json.loads(meta.read_text())['version']}")
    return ", ".join(found)


def killer_unique(files: Sequence[Path]) -> tuple[int, int, float, float]:
    """Over the peer's puzzles (JSON lines): how many our compiled counter finds unique (counting to
    2), how many there are, the median givens and the median one-cell cages a puzzle has."""
    sys.path.insert(0, str(ROOT))
    from engine.games.killer.board import board_of
    from engine.games.killer.count import count_solutions

    unique = total = 0
    givens, singles = [], []
    for path in files:
        for line in path.read_text().splitlines():
            puzzle = json.loads(line)
            board = board_of([(area["sum"], area["cells"]) for area in puzzle["areas"]],
                             puzzle["puzzle"].replace("-", "."))
            count = count_solutions(board, 2)
            if not count.complete:
                raise SystemExit("bench_peers: the counter stopped early on a peer's puzzle")
            total += 1
            unique += len(count.solutions) == 1
            givens.append(81 - puzzle["puzzle"].count("-"))
            singles.append(sum(len(area["cells"]) == 1 for area in puzzle["areas"]))
    return unique, total, statistics.median(givens), statistics.median(singles)


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def cpu_since(mark: int, per: int = 1) -> float:
    """The median CPU seconds of the commands timed since `mark`, per board."""
    return statistics.median(CPU_SECONDS[mark:]) / per


def with_cpu(wall: float, cpu: float) -> str:
    return f"{seconds(wall)} (CPU {seconds(cpu)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and 5 seeds at 14x14 (a smoke run)")
    parser.add_argument("--only", nargs="+", choices=ROWS, help="just these rows")
    parser.add_argument("--seed", type=int, default=1, help="the --seed of the generate runs")
    parser.add_argument("--killer-rounds", type=int, default=5,
                        help="alternating rounds of the killer row (2 with --quick)")
    args = parser.parse_args()
    rows_wanted = set(args.only or ROWS)
    repeats = 3 if args.quick else 9
    seed = str(args.seed)
    stores = Stores()
    load_start, started = os.getloadavg()[0], time.time()
    rows: list[tuple[str, str, str, str, str, str]] = []
    killer_rounds: list[tuple[float, float, float, float]] = []     # ours wall, CPU; peer wall, CPU, per board

    def row(measure: str, ours: str, peer: str, ratio: str, target: str, met: bool | None) -> None:
        rows.append((measure, ours, peer, ratio, target, "—" if met is None else "met" if met else "**not met**"))
        say(" | ".join(rows[-1]))

    def median_of(run: Callable[[], float], n: int) -> float:
        return statistics.median(run() for _ in range(n))

    try:
        if "startup" in rows_wanted:
            say("start-up")
            mark = len(CPU_SECONDS)
            bare = median_of(lambda: timed([sys.executable, "-c", "pass"]), repeats)
            bare_cpu = cpu_since(mark)
            env = stores.env()
            timed([PUZZLEFLEET, "generate", "--game", "queens", "--size", "8", "--count", "1", "--seed", seed],
                  env=env, cwd=stores.folder)                       # a job for `jobs` to show
            for label, command in (("`puzzlefleet --help`", [PUZZLEFLEET, "--help"]),
                                   ("`puzzlefleet jobs`", [PUZZLEFLEET, "jobs"])):
                mark = len(CPU_SECONDS)
                took = median_of(lambda: timed(command, env=env, cwd=stores.folder), repeats)
                row(label, with_cpu(took, cpu_since(mark)), f"{with_cpu(bare, bare_cpu)} (`python -c pass`)",
                    f"{took / bare:.1f}× the bare interpreter",
                    "≤ 150 ms", took <= TARGET["startup"])
            mark = len(CPU_SECONDS)
            runs = [timed([PUZZLEFLEET, "generate", "--game", "queens", "--size", "8", "--count", "1", "--seed",
                           str(args.seed + 100 + i)], env=env, cwd=stores.folder) for i in range(repeats)]
            took = statistics.median(runs)
            row(f"`generate --game queens --size 8 --count 1`, migrated store (median of {repeats})",
                with_cpu(took, cpu_since(mark)), f"{with_cpu(bare, bare_cpu)} (`python -c pass`)", f"{took / bare:.1f}× the bare interpreter", "≤ 350 ms",
                took <= TARGET["generate1"])
            # The floor under that row while the store is SQLModel: importing it, nothing else (with
            # pydantic's plugin scan off, as the command line runs).
            mark = len(CPU_SECONDS)
            floor = median_of(lambda: timed([sys.executable, "-c", "import sqlmodel"],
                                            env={**os.environ, "PYDANTIC_DISABLE_PLUGINS": "__all__"}), repeats)
            row(f"… importing the store's SQLModel alone (`python -c 'import sqlmodel'`, median of {repeats})",
                with_cpu(floor, cpu_since(mark)), "", f"{seconds(took - floor)} of `generate` beyond it", "", None)
            mark = len(CPU_SECONDS)
            fresh = statistics.median(
                timed([PUZZLEFLEET, "generate", "--game", "queens", "--size", "8", "--count", "1", "--seed", seed],
                      env=stores.env(migrated=False), cwd=stores.folder) for _ in range(3))
            row("… on a new store (migrated by this run, median of 3)", with_cpu(fresh, cpu_since(mark)), "", "", "",
                None)

        if "queens" in rows_wanted:
            say("queens 8x8: ours, then queens-generator")
            mark = len(CPU_SECONDS)
            took = median_of(lambda: generate(stores, ["--game", "queens", "--size", "8", "--count", "200",
                                                       "--seed", seed]), 3 if not args.quick else 1) / 200
            timing, how = queens_peer()
            if timing is None:
                row("Queens 8×8, 200 boards, s/board", seconds(took), how, "", "≥ 200×", None)
            else:
                cpu, (peer, peer_cpu) = cpu_since(mark, 200), timing
                row("Queens 8×8, 200 boards in one process: s/board", f"{took * 1000:.2f} ms (CPU {cpu * 1000:.2f} ms)",
                    f"{with_cpu(peer, peer_cpu)} ({how})", f"{peer / took:,.0f}× (CPU {peer_cpu / cpu:,.0f}×)",
                    "≥ 200×", peer / took >= TARGET["queens"])

        if "sudoku" in rows_wanted:
            say("sudoku hard: ours, then qqwing")
            mark = len(CPU_SECONDS)
            took = median_of(lambda: generate(stores, ["--game", "sudoku", "--size", "9", "--band", "hard",
                                                       "--count", "200", "--seed", seed]), 3 if not args.quick else 1)
            cpu = cpu_since(mark)
            qqwing = shutil.which("qqwing")
            if qqwing is None:
                row("graded hard Sudoku, 200 boards: whole run", seconds(took),
                    "qqwing not installed (Debian: `apt-get install qqwing`)", "", "≥ 3×", None)
            else:
                mark = len(CPU_SECONDS)
                peer = median_of(lambda: timed([qqwing, "--generate", "200", "--difficulty", "expert"]),
                                 3 if not args.quick else 1)
                peer_cpu = cpu_since(mark)
                row("graded hard Sudoku, 200 boards in one process: whole run",
                    f"{with_cpu(took, cpu)}, {200 / took:.0f}/s",
                    f"{with_cpu(peer, peer_cpu)}, {200 / peer:.0f}/s (`qqwing --generate 200 --difficulty expert`)",
                    f"{peer / took:.2f}× (CPU {peer_cpu / cpu:.2f}×)", "≥ 3×", peer / took >= TARGET["sudoku"])

        if "starbattle" in rows_wanted:
            say("star battle 10x10 2-star")
            mark = len(CPU_SECONDS)
            took = generate(stores, ["--game", "starbattle", "--size", "10", "--stars", "2", "--count", "10",
                                     "--seed", seed]) / 10
            row("Star Battle 10×10 2★, 10 boards: s/board", with_cpu(took, cpu_since(mark, 10)), "", "", "≤ 60 ms", took <= TARGET["sb10"])
            say("star battle 14x14 3-star, 3 boards")
            mark = len(CPU_SECONDS)
            took = generate(stores, ["--game", "starbattle", "--size", "14", "--stars", "3", "--count", "3",
                                     "--seed", seed]) / 3
            row("Star Battle 14×14 3★, 3 boards: s/board", with_cpu(took, cpu_since(mark, 3)), "", "", "≤ 5 s", took <= TARGET["sb14"])
            n_seeds = 5 if args.quick else 20
            each, mark = [], len(CPU_SECONDS)
            for one in range(n_seeds):
                each.append(generate(stores, ["--game", "starbattle", "--size", "14", "--stars", "3", "--count", "1",
                                              "--seed", str(one)]))
                say(f"  seed {one}: {each[-1]:.2f} s")
            over = sum(value > TARGET["sb14-worst"] for value in each)
            row(f"Star Battle 14×14 3★, one board each of seeds 0–{n_seeds - 1}: median / p90 / worst",
                f"{seconds(statistics.median(each))} / {seconds(p90(each))} / {seconds(max(each))} "
                f"(seed {each.index(max(each))}); CPU {seconds(statistics.median(CPU_SECONDS[mark:]))} / "
                f"{seconds(p90(CPU_SECONDS[mark:]))} / {seconds(max(CPU_SECONDS[mark:]))}", "", "",
                "median ≤ 2 s, none over 10 s", over == 0 and statistics.median(each) <= TARGET["sb14-median"])
            say("star battle 10x10 2-star expert")
            count = 3 if args.quick else 5
            mark = len(CPU_SECONDS)
            took = generate(stores, ["--game", "starbattle", "--size", "10", "--stars", "2", "--band", "expert",
                                     "--count", str(count), "--seed", seed]) / count
            row(f"exact band: Star Battle 10×10 2★ expert, {count} boards: s/stored board",
                with_cpu(took, cpu_since(mark, count)), "", "",
                "≤ 1 s", took <= TARGET["expert"])

        if "killer" in rows_wanted:
            count, rounds = 50, 2 if args.quick else args.killer_rounds
            ours_args = ["--game", "killer", "--size", "9", "--band", "hard", "--count", str(count), "--seed", seed]
            label = (f"graded hard Killer Sudoku, {count} boards in one process "
                     f"(`puzzlefleet generate {' '.join(ours_args)}`): s/board, median / best of {rounds} "
                     f"alternating rounds; the target holds in every round")
            command, env_or_why = killer_peer()
            if command is None:
                say(f"killer: {env_or_why}")
                took = generate(stores, ours_args) / count
                row(label, seconds(took), f"{env_or_why}; the peer is {KILLER_PEER}", "", "≥ 3×", None)
            else:
                assert isinstance(env_or_why, dict)
                ours, ours_cpu, peer, peer_cpu, outputs = [], [], [], [], []
                for one in range(rounds):
                    ours.append(generate(stores, ours_args) / count)
                    ours_cpu.append(CPU_SECONDS[-1] / count)
                    outputs.append(Path(stores.folder) / f"killer-peer-{one}.jsonl")
                    peer.append(timed([*command, str(count)], env=env_or_why, cwd=stores.folder,
                                      stdout=outputs[-1]) / count)
                    peer_cpu.append(CPU_SECONDS[-1] / count)
                    killer_rounds.append((ours[-1], ours_cpu[-1], peer[-1], peer_cpu[-1]))
                    say(f"  round {one + 1}: ours {ours[-1]:.3f} s/board (CPU {ours_cpu[-1]:.3f}), "
                        f"peer {peer[-1]:.3f} s/board (CPU {peer_cpu[-1]:.3f})")
                unique, total, givens, singles = killer_unique(outputs)
                ratio, best_ratio = statistics.median(peer) / statistics.median(ours), min(peer) / min(ours)
                worst_ratio = min(p / o for o, p in zip(ours, peer))
                row(label,
                    f"{seconds(statistics.median(ours))} / {seconds(min(ours))} "
                    f"(CPU {seconds(statistics.median(ours_cpu))}); each board proved unique and graded hard",
                    f"{seconds(statistics.median(peer))} / {seconds(min(peer))} "
                    f"(CPU {seconds(statistics.median(peer_cpu))}) (`node bench/peers/killer_peer.js {count}`, "
                    f"'expert', {peer_versions()}); median {givens:.0f} givens and {singles:.0f} one-cell cages, "
                    f"only a solution's existence checked: {unique} of {total} unique by our counter "
                    f"({100 * unique / total:.0f}%)",
                    f"{ratio:.2f}× (worst round {worst_ratio:.2f}×, best to best {best_ratio:.2f}×, CPU "
                    f"{statistics.median(peer_cpu) / statistics.median(ours_cpu):.2f}×)",
                    "≥ 3× in every round", worst_ratio >= TARGET["killer"])
    finally:
        stores.close()

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    print("`" + " ".join([".venv/bin/python", "bench/bench_peers.py", *sys.argv[1:]]) + "`")
    print()
    print(f"Machine: {cpu_model()}, {os.cpu_count()} logical cores, Python {platform.python_version()}, "
          f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit}; load average "
          f"{load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; {time.time() - started:.0f} s in all. "
          f"Every figure is a whole process (`generate` runs in one process, on a migrated SQLite store).")
    print()
    print("| measure | puzzlefleet | peer, same run | ratio | target | met |")
    print("|---|---:|---|---:|---|---|")
    for line in rows:
        print("| " + " | ".join(line) + " |")
    tables = [{"title": "whole commands", "columns": ["measure", "puzzlefleet", "peer, same run", "ratio", "target", "met"],
               "rows": [list(line) for line in rows]}]
    if killer_rounds:
        tables.append({"title": "Killer Sudoku, round by round (ours first in each round), s/board",
                       "columns": ["round", "puzzlefleet wall", "CPU", "peer wall", "CPU", "ratio (wall)"],
                       "rows": [[number, seconds(ours), seconds(ours_cpu), seconds(peer), seconds(peer_cpu),
                                 f"{peer / ours:.2f}×"]
                                for number, (ours, ours_cpu, peer, peer_cpu) in enumerate(killer_rounds, 1)]})
    # The full run is "peers"; a run of some rows is a file of its own, so it never hides the others.
    name = "peers" if args.only is None else "peers-" + "-".join(r for r in ROWS if r in rows_wanted)
    write_result(name, tables, load_at_start=load_start, notes=[
        f"Load average {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
        f"{time.time() - started:.0f} s in all. Every figure is a whole process (`generate` in one process, "
        f"on a migrated SQLite store)."])
    if killer_rounds:
        print()
        print("Killer Sudoku, round by round (ours first in each round), s/board:")
        print()
        print("| round | puzzlefleet wall | CPU | peer wall | CPU | ratio (wall) |")
        print("|---:|---:|---:|---:|---:|---:|")
        for number, (ours, ours_cpu, peer, peer_cpu) in enumerate(killer_rounds, 1):
            print(f"| {number} | {seconds(ours)} | {seconds(ours_cpu)} | {seconds(peer)} | {seconds(peer_cpu)} | "
                  f"{peer / ours:.2f}× |")


if __name__ == "__main__":
    main()
