"""The band table: for every game, every size `generate` accepts and every band, whether boards of that
band can be had and what one costs, each board a whole `puzzlefleet generate` process.

    .venv/bin/python bench/bench_band_table.py [--seeds 20] [--cells 'queens 7×7 *' ...] [--timeout 60]
                                               [--give-up 2] [--parallel 1] [--fresh]

A cell is (game, options, size, band), named as in "queens 7×7 expert" or "starbattle 14×14 --stars 3
hard" (`--cells` takes shell patterns of those names; "x" matches "×"). Every cell the games offer
(`Game.offers()`) is run for seeds 1..`--seeds`, each seed one `puzzlefleet generate --game G --size N
[flags] --band B --count 1 --seed S --jobs 1 --timeout T-5` into a scratch SQLite store of its own,
stopped with Ctrl-C after `--timeout` (T) seconds (a timeout; the summary it prints then gives the
candidates it graded in other bands, a column of the table). After `--give-up` timeouts a cell's remaining seeds are not run: a
band that cannot be had in that time would otherwise cost `--seeds` timeouts. A cell the command line
refuses (declared unreachable by its game) is run through the engine instead (`game.generate` in a
process of its own, the same timeout), so that a new run checks the declaration still holds.

Writes bench/results/band_table.json: a summary by game and options, the cells that miss the target
(median at most 2 s and worst at most 10 s a board) and every cell. Cells not run this time keep their
figures from the file's previous run unless `--fresh`.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import all_games  # noqa: E402
from engine.games.base import Game, spans  # noqa: E402
from machine import RESULTS, markdown_head, markdown_row, write_result  # noqa: E402

PUZZLEFLEET = Path(sys.executable).with_name("puzzlefleet")
TARGET_MEDIAN, TARGET_WORST = 2.0, 10.0
STOP_GRACE = 15.0           # seconds a process stopped with Ctrl-C may take to print its summary
# Its attempt ends this many seconds before the process is stopped, so that the summary it prints then
# counts the candidates that attempt graded (an attempt cut short by Ctrl-C records none).
ATTEMPT_MARGIN = 5.0
CELL_COLUMNS = ["cell", "reachable", "boards", "median s", "worst s", "median CPU s", "timeouts", "how",
                "graded in other bands"]

# A board drawn by the engine alone, for a cell the command line refuses.
ENGINE_RUN = """
import json, sys
from engine import DeadlineExceeded, game_named
name, size, options, band, seed, timeout = json.loads(sys.argv[1])
game = game_named(name)
try:
    _, stats = game.generate(game.rules(size=size, **options), seed, band=band, timeout=timeout)
except DeadlineExceeded as exc:
    print(exc.args[1].rejected.get("wrong-band", 0))
    sys.exit(1)
print(stats.rejected.get("wrong-band", 0))
"""


@dataclass(frozen=True)
class Cell:
    game: Game
    options: dict[str, Any]
    size: int
    band: str

    @property
    def name(self) -> str:
        return f"{self.game.request_words(self.options, self.size)} {self.band}"

    @property
    def declared(self) -> bool:
        """Whether the game declares this cell unreachable (its requests are refused)."""
        offer = self.game.offer(self.options)
        return offer is not None and (self.size, self.band) in offer.unreachable

    @property
    def family(self) -> str:
        return self.game.request_words(self.options)

    def flags(self) -> list[str]:
        out = []
        for spec in self.game.option_specs():
            value = self.options.get(spec.name, spec.default)
            if value != spec.default:
                out += [spec.flag] if spec.kind is bool else [spec.flag, str(value)]
        return out


def every_cell() -> list[Cell]:
    return [Cell(game, dict(offer.options), size, band) for game in all_games() for offer in game.offers()
            for size in offer.sizes for band in offer.bands]


def chosen(cells: list[Cell], patterns: list[str] | None) -> list[Cell]:
    if not patterns:
        return cells
    wanted = [re.sub(r"(\d)x(\d)", r"\1×\2", pattern) for pattern in patterns]
    return [cell for cell in cells if any(fnmatch.fnmatchcase(cell.name, pattern) for pattern in wanted)]


def timed(command: list[str], timeout: float, **popen: Any) -> tuple[int | None, str, str, float, float]:
    """(exit status or None when stopped at `timeout`, its stdout, its stderr's last line, wall seconds,
    CPU seconds) of one process. The CPU time is its own (user + system, from wait4), which the
    machine's load stretches less than the wall time. At `timeout` it gets a Ctrl-C (SIGINT), after
    which `generate` prints its summary (the candidates it turned away, by reason), and is killed if it
    has not ended `STOP_GRACE` seconds later."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **popen)
        stopped = None
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            now = time.perf_counter()
            if stopped is None and now - started > timeout:
                process.send_signal(signal.SIGINT)
                stopped = now
            elif stopped is not None and now - stopped > STOP_GRACE:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.02)
        process.returncode = 0          # reaped here: Popen must not wait for it again
        wall = time.perf_counter() - started if stopped is None else timeout
        out.seek(0)
        err.seek(0)
        printed, last = out.read(), (err.read().strip().splitlines() or [""])[-1][:160]
    code = None if stopped is not None else os.waitstatus_to_exitcode(status)
    return code, printed, last, wall, usage.ru_utime + usage.ru_stime


def graded_elsewhere(printed: str) -> int:
    """The candidates `generate` graded outside the band asked (its summary's wrong-band count)."""
    found = re.search(r"rejected: .*?\bwrong-band (\d+)", printed)
    return int(found.group(1)) if found else 0


def one_board(cell: Cell, seed: int, timeout: float, scratch: Path) -> tuple[str, float, float, int]:
    """("board" | "timeout" | "refused" | "failed: ...", wall seconds, CPU seconds, candidates graded in
    other bands) for one seed through the command line."""
    store = scratch / f"{abs(hash((cell.name, seed)))}.db"
    command = [str(PUZZLEFLEET), "generate", "--game", cell.game.name, "--size", str(cell.size), *cell.flags(),
               "--band", cell.band, "--count", "1", "--seed", str(seed), "--jobs", "1",
               "--timeout", str(max(1.0, timeout - ATTEMPT_MARGIN))]
    env = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{store}", "NO_COLOR": "1"}
    try:
        code, printed, last, wall, cpu = timed(command, timeout, env=env)
    finally:
        for path in scratch.glob(f"{store.name}*"):
            path.unlink()
    elsewhere = graded_elsewhere(printed)
    if code == 0:
        return "board", wall, cpu, elsewhere
    if code is None or code == 1:       # stopped, or its attempts ran out first
        return "timeout", wall, cpu, elsewhere
    if code == 2 and f"has no {cell.band} boards" in last:
        return "refused", wall, cpu, elsewhere
    return f"failed: exit {code}: {last}", wall, cpu, elsewhere


def engine_board(cell: Cell, seed: int, timeout: float) -> tuple[str, float, float, int]:
    """The same through the engine alone, for a cell the command line refuses."""
    arguments = json.dumps([cell.game.name, cell.size, cell.options, cell.band, seed, timeout])
    code, printed, last, wall, cpu = timed([sys.executable, "-c", ENGINE_RUN, arguments], timeout + 30, cwd=ROOT)
    elsewhere = int(printed.strip() or 0) if printed.strip().isdigit() else 0
    if code == 0:
        return "board", wall, cpu, elsewhere
    if code is None or code == 1:
        return "timeout", wall, cpu, elsewhere
    return f"failed: exit {code}: {last}", wall, cpu, elsewhere


def run_cell(cell: Cell, seeds: int, timeout: float, give_up: int, scratch: Path, engine: bool) -> list[object]:
    """The cell's row: reachable, boards found of seeds run, median and worst wall seconds, median CPU
    seconds, timeouts, how run, candidates graded in other bands."""
    found: list[tuple[float, float]] = []
    timeouts, ran, failure, elsewhere = 0, 0, "", 0
    how = "engine" if engine else "command"
    for seed in range(1, seeds + 1):
        if how == "command":
            outcome, wall, cpu, other = one_board(cell, seed, timeout, scratch)
            if outcome == "refused":
                how = "engine (the command refuses it)"
        if how != "command":
            outcome, wall, cpu, other = engine_board(cell, seed, timeout)
        ran += 1
        elsewhere += other
        if outcome == "board":
            found.append((wall, cpu))
        elif outcome == "timeout":
            timeouts += 1
            if timeouts >= give_up:
                break
        else:
            failure = outcome
            break
    walls = [wall for wall, _ in found] + [float("inf")] * timeouts
    cpus = [cpu for _, cpu in found] + [float("inf")] * timeouts

    def shown(values: list[float], pick: Any) -> str:
        if not values:
            return "-"
        value = pick(values)
        return f">{timeout:.0f} (timeout)" if value == float("inf") else f"{value:.2f}"

    reachable = "yes" if found else ("error" if failure else "none found")
    how_run = how + (f", given up after {timeouts} timeouts" if ran < seeds and not failure else "") + (
        f"; {failure}" if failure else "")
    return [cell.name, reachable, f"{len(found)}/{ran}", shown(walls, statistics.median), shown(walls, max),
            shown(cpus, statistics.median), timeouts, how_run, elsewhere]


def meets_target(row: list[object]) -> bool:
    try:
        return float(str(row[3])) <= TARGET_MEDIAN and float(str(row[4])) <= TARGET_WORST
    except ValueError:
        return False


def summary(cells: list[Cell], rows: dict[str, list[object]]) -> list[list[object]]:
    """One row per game and options: per band, the sizes boards were found at, those the game refuses
    (declared unreachable) and those where none came within the time, and the worst median among the
    sizes found."""
    families: dict[str, list[Cell]] = {}
    for cell in cells:
        families.setdefault(cell.family, []).append(cell)
    out = []
    for family, members in families.items():
        sizes = sorted({cell.size for cell in members})
        line: list[object] = [family, spans(sizes)]
        for band in bands_of(cells):
            banded = [cell for cell in members if cell.band == band and cell.name in rows]
            if not any(cell.band == band for cell in members):
                line.append("-")
                continue
            reached = [cell.size for cell in banded if rows[cell.name][1] == "yes"]
            refused = [cell.size for cell in banded if rows[cell.name][1] != "yes" and cell.declared]
            missing = [cell.size for cell in banded if rows[cell.name][1] != "yes" and not cell.declared]
            unmeasured = [cell.size for cell in members if cell.band == band and cell.name not in rows]
            medians = [(float(str(rows[cell.name][3])), float(str(rows[cell.name][5]))) for cell in banded
                       if rows[cell.name][1] == "yes" and "timeout" not in str(rows[cell.name][3])]
            parts = []
            if banded:
                parts.append(", ".join([spans(reached) if reached else "none found"]
                                       + ([f"refused at {spans(refused)}"] if refused else [])
                                       + ([f"none in time at {spans(missing)}"] if missing else [])))
            if medians:
                parts.append(f"median ≤ {max(wall for wall, _ in medians):.1f} s "
                             f"({max(cpu for _, cpu in medians):.1f} s CPU)")
            if unmeasured:
                parts.append(f"not run at {spans(unmeasured)}")
            text = "; ".join(parts)
            line.append(text)
        out.append(line)
    return out


def bands_of(cells: list[Cell]) -> list[str]:
    return list(dict.fromkeys(cell.band for cell in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--cells", nargs="*", help="shell patterns of cell names, e.g. 'queens 7×7 *' (default: all)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a process may take (default 60)")
    parser.add_argument("--give-up", type=int, default=2, help="timeouts after which a cell's other seeds are skipped")
    parser.add_argument("--parallel", type=int, default=1, help="cells run side by side (default 1)")
    parser.add_argument("--fresh", action="store_true", help="forget the previous run's cells")
    parser.add_argument("--engine", action="store_true",
                        help="draw through the engine alone (`game.generate` in a process of its own): no start-up "
                             "cost, and a timeout still counts the candidates graded in other bands, the sample a "
                             "band found nowhere was looked for in")
    parser.add_argument("--absorb", nargs="*", type=Path,
                        help="result files of other runs of this bench (run beside this one, on other cells) whose "
                             "cells and notes this file takes in, each cell as the later run measured it; with "
                             "--absorb and no --cells, no cell is run")
    args = parser.parse_args()
    load_at_start = os.getloadavg()[0]
    cells = every_cell()
    todo = [] if args.absorb is not None and not args.cells else chosen(cells, args.cells)
    if not todo and args.absorb is None:
        sys.exit(f"no cell matches {args.cells}: cells are named like {cells[0].name!r}")
    path = RESULTS / "band_table.json"
    rows: dict[str, list[object]] = {}
    notes: list[str] = []
    for earlier in ([] if args.fresh or not path.exists() else [path]) + (args.absorb or []):
        previous = json.loads(earlier.read_text())
        for table in previous["tables"]:
            if table["title"] == "every cell":
                # a file written before a column was added: "-" in it
                rows.update({row[0]: row + ["-"] * (len(CELL_COLUMNS) - len(row)) for row in table["rows"]})
        notes += [note for note in previous.get("notes", []) if note.startswith("run ") and note not in notes]
    print(f"{len(todo)} cells, {args.seeds} seeds, {args.timeout:.0f} s a process, load {load_at_start:.1f}\n")
    started = time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())

    def save(done: int) -> None:
        """The result file as it stands: written after every cell, so a run stopped early keeps those."""
        ordered = [rows[cell.name] for cell in cells if cell.name in rows]
        run = [f"run {started}: {done} of {len(todo)} cells ({' '.join(args.cells) if args.cells else 'all'}), seeds "
               f"1..{args.seeds}, {args.timeout:.0f} s a process{' through the engine alone' if args.engine else ''}, "
               f"given up after {args.give_up} timeouts, {args.parallel} side by side, load {load_at_start:.1f} at "
               f"the start, {os.getloadavg()[0]:.1f} at the end"] if todo else []
        write_result("band_table", [
            {"title": "summary", "columns": ["rules", "sizes", *bands_of(cells)], "rows": summary(cells, rows)},
            {"title": f"cells missing median ≤ {TARGET_MEDIAN:.0f} s, worst ≤ {TARGET_WORST:.0f} s",
             "columns": CELL_COLUMNS, "rows": [row for row in ordered if not meets_target(row)]},
            {"title": "every cell", "columns": CELL_COLUMNS, "rows": ordered},
        ], notes=notes + run, load_at_start=load_at_start)

    print(markdown_head(CELL_COLUMNS), flush=True)
    with tempfile.TemporaryDirectory(prefix="band-table-") as scratch, ThreadPoolExecutor(args.parallel) as pool:
        for done, row in enumerate(pool.map(lambda cell: run_cell(cell, args.seeds, args.timeout, args.give_up,
                                                                  Path(scratch), args.engine), todo), 1):
            rows[str(row[0])] = row
            print(markdown_row(row), flush=True)
            save(done)
    save(len(todo))

if __name__ == "__main__":
    main()
