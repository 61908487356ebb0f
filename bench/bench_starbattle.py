"""Benchmark for the Star Battle family generator (Queens, diagonal Queens, Star Battle k = 2, 3).

    .venv/bin/python bench/bench_starbattle.py [--quick] [--only SPEC ...] [--markdown] [--cpu N]

Everything runs in this one process, pinned to one core (`--cpu`, default 0; -1 leaves it unpinned).
For each spec (rules text, e.g. "queens 8", "queens 10 diagonals", "starbattle 10 2") it measures

  a. seconds per unique board: `generate(rules, seed, timeout=T)` over N seeds, median and p90 over
     the seeds that produced a board; a DeadlineExceeded is counted in the Timeouts column;
  b. acceptance per drawing: boards / GenerationStats.drawings, and the rejections by reason, summed
     over every seed (timed-out seeds included);
  c. acceptance per planted answer: plant() + draw_regions() with the generator's settings, then
     count_solutions(limit 2) without repair, and repair() with the generator's round cap;
  d. the counter's time per call: count_solutions(rules, regions, 2) on the generated boards.

With --markdown, stdout carries only the report as Markdown (for BENCHMARKS.md) and progress goes to
stderr; without it, progress and a plain-text table both go to stdout.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import math
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:          # the repo is not installed into the venv; run from anywhere
    sys.path.insert(0, str(ROOT))

from engine.errors import DeadlineExceeded, PuzzleError  # noqa: E402
from engine.games.starbattle import Rules, Settings, count_solutions, generate  # noqa: E402
from engine.games.starbattle.count import monotonic, new_search  # noqa: E402
from engine.games.starbattle.draw import draw_regions, pick_style, plant  # noqa: E402
from engine.games.starbattle.generator import round_cap  # noqa: E402
from engine.games.starbattle.repair import repair  # noqa: E402
from engine.games.starbattle.generator import SPREAD  # noqa: E402
from machine import cpu_model  # noqa: E402

DEFAULT_SPECS = ["queens 8", "queens 9", "queens 12", "queens 16", "queens 20",
                 "queens 10 diagonals", "starbattle 10 2", "starbattle 14 3"]

# Median seconds per unique board, and acceptance per drawing, that the generator should meet.
TIME_TARGETS = {"queens 8": 0.005, "queens 9": 0.010, "queens 12": 0.100, "queens 16": 2.0,
                "queens 20": 60.0, "starbattle 10 2": 0.2, "starbattle 14 3": 5.0}
ACCEPTANCE_TARGETS = {"queens 9": 0.80}

COUNT_REPEATS = 20          # calls per board for (d); the minimum is kept
COUNT_BOARD_BUDGET = 1.0    # ... but stop repeating a board after this many seconds (at least 3 calls)


def default_timeout(rules: Rules) -> float:
    return 60.0 if rules.size >= 20 else 30.0


def default_seeds(n: int) -> int:
    return 40 if n <= 9 else 20 if n <= 12 else 8 if n <= 16 else 3


def default_drawings(n: int) -> int:
    return 2000 if n <= 9 else 300 if n <= 12 else 50


def generator_max_rounds(rules: Rules) -> int:
    """The generator's repair round cap (see generator.round_cap)."""
    settings = Settings()
    return settings.max_rounds if settings.max_rounds is not None else round_cap(rules)


# --- measurements -------------------------------------------------------------------------------

@dataclass
class Result:
    spec: str
    rules: Rules
    timeout: float
    seeds: list[int]
    times: list[float] = field(default_factory=list)            # successful seeds, wall seconds
    timed_out: list[int] = field(default_factory=list)          # seeds that hit the timeout
    boards: list = field(default_factory=list)
    drawings: int = 0
    rejected: Counter = field(default_factory=Counter)
    gen_seconds: float = 0.0                                    # wall time of (a), all seeds
    count_us: list[float] = field(default_factory=list)         # (d) per board, min over calls
    count_calls: int = 0
    count_not_unique: int = 0                                   # (d) sanity: must stay 0
    planted_planned: int = 0
    planted: int = 0                                            # drawings measured in (c)
    draw_failed: int = 0
    raw_unique: int = 0
    raw_cut: int = 0                                            # count hit the per-phase deadline
    repaired_unique: int = 0
    repair_fail: Counter = field(default_factory=Counter)       # ambiguous / stuck / timeout
    planted_seconds: float = 0.0
    planted_stopped_early: bool = False


def measure_generation(res: Result, log) -> None:
    """(a) and (b): generate() over the seeds."""
    started = time.perf_counter()
    for seed in res.seeds:
        t0 = time.perf_counter()
        try:
            board, stats = generate(res.rules, seed, timeout=res.timeout)
        except DeadlineExceeded as exc:
            stats = exc.args[1]
            res.timed_out.append(seed)
            log(f"  seed {seed}: timeout after {time.perf_counter() - t0:.1f} s "
                f"({stats.drawings} drawings)")
        else:
            res.times.append(time.perf_counter() - t0)
            res.boards.append(board)
        res.drawings += stats.drawings
        res.rejected.update(stats.rejected)
    res.gen_seconds = time.perf_counter() - started


def measure_counter(res: Result) -> None:
    """(d): min over repeated count_solutions(limit 2) calls per generated board."""
    for board in res.boards:
        regions = list(board.regions)
        best = math.inf
        calls = 0
        t_board = time.perf_counter()
        while calls < COUNT_REPEATS and (calls < 3 or time.perf_counter() - t_board < COUNT_BOARD_BUDGET):
            t0 = time.perf_counter()
            found = count_solutions(res.rules, regions, 2)
            best = min(best, time.perf_counter() - t0)
            calls += 1
        if found.count != 1:
            res.count_not_unique += 1
        res.count_calls += calls
        res.count_us.append(best * 1e6)


def measure_planted(res: Result, drawings: int, seed: int, budget: float, phase_cap: float) -> None:
    """(c): a fresh answer + one drawing with the generator's settings, counted without repair, then
    repaired with the generator's round cap. Each phase has its own deadline (`phase_cap` s); once
    `budget` s have passed no new drawing starts. Repair gets its own RNG (seeded from the main one),
    so the drawings do not depend on how far a cut-short repair got."""
    rules = res.rules
    n = rules.size
    max_rounds = generator_max_rounds(rules)
    alternatives = Settings().alternatives
    rng = random.Random(f"bench-planted {rules} {seed}")
    res.planted_planned = drawings
    started = time.perf_counter()
    for _ in range(drawings):
        if res.planted and time.perf_counter() - started > budget:
            res.planted_stopped_early = True
            break
        answer = plant(rules, rng)
        spread = rng.uniform(*SPREAD[None])
        regions = draw_regions(rules, answer, rng, spread=spread, gifts=0, style=pick_style(rules, rng))
        repair_seed = rng.getrandbits(64)
        res.planted += 1
        if regions is None:
            res.draw_failed += 1
            continue
        found = count_solutions(rules, regions, 2, deadline=monotonic() + phase_cap)
        if not found.complete:
            res.raw_cut += 1
        elif found.count == 1:
            res.raw_unique += 1
        outcome = repair(n, new_search(rules, regions), regions, answer, random.Random(repair_seed),
                         max_rounds=max_rounds, alternatives=alternatives,
                         deadline=monotonic() + phase_cap)
        if outcome.unique:
            res.repaired_unique += 1
        else:
            res.repair_fail[outcome.reason] += 1
    res.planted_seconds = time.perf_counter() - started


# --- formatting ---------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def fmt_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1.0:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def fmt_pct(num: int, den: int) -> str:
    return f"{100 * num / den:.1f}% ({num}/{den})" if den else "—"


def fmt_reasons(counter: Counter) -> str:
    return ", ".join(f"{reason} {count}" for reason, count in counter.most_common()) or "none"


def row_for(res: Result, md: bool) -> list[str]:
    def bad(text: str) -> str:
        return f"**{text}**" if md else text.upper()

    median = statistics.median(res.times) if res.times else None
    p90 = percentile(res.times, 0.9) if res.times else None
    target = TIME_TARGETS.get(res.spec)
    if target is None:
        met = "—"
    elif median is None:
        met = bad("not met") + " (no board)"
    elif median <= target:
        met = "met" + (" ¹" if res.timed_out else "")
    else:
        met = bad("not met")

    accept = fmt_pct(len(res.boards), res.drawings)
    acc_target = ACCEPTANCE_TARGETS.get(res.spec)
    if acc_target is not None:
        ok = res.drawings and len(res.boards) / res.drawings >= acc_target
        accept += f"; target ≥ {acc_target:.0%}: " + ("met" if ok else bad("not met"))

    raw = fmt_pct(res.raw_unique, res.planted)
    fixed = fmt_pct(res.repaired_unique, res.planted)
    extras = []
    if res.draw_failed:
        extras.append(f"draw failed {res.draw_failed}")
    if res.raw_cut:
        extras.append(f"count cut {res.raw_cut}")
    if extras:
        raw += " [" + ", ".join(extras) + "]"
    if res.repair_fail:
        fixed += " [" + fmt_reasons(res.repair_fail) + "]"
    if res.planted_stopped_early:
        fixed += f" — budget: {res.planted} of {res.planted_planned}"

    count = f"{statistics.median(res.count_us):,.0f}" if res.count_us else "—"
    return [
        res.spec,
        f"{res.timeout:g} s",
        str(len(res.seeds)),
        str(len(res.timed_out)) if not res.timed_out else bad(str(len(res.timed_out))),
        fmt_seconds(median) if median is not None else "—",
        fmt_seconds(p90) if p90 is not None else "—",
        f"≤ {fmt_seconds(target)}" if target is not None else "—",
        met,
        accept,
        fmt_reasons(res.rejected),
        raw,
        fixed,
        count,
    ]


HEADERS = ["Rules", "Timeout", "Seeds", "Timeouts", "Median / board ¹", "p90 / board ¹", "Target",
           "Met", "Accept / drawing ²", "Rejected drawings ²", "Unique w/o repair ³",
           "Unique with repair ³", "Count µs ⁴"]


def render_table(rows: list[list[str]], md: bool) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADERS)]
    numeric = {1, 2, 3, 4, 5, 12}
    def line(cells):
        padded = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return ("| " + " | ".join(padded) + " |") if md else "  ".join(padded).rstrip()
    if md:
        rule = "|" + "|".join((("-" * (w + 1)) + ":" if i in numeric else "-" * (w + 2))
                              for i, w in enumerate(widths)) + "|"
    else:
        rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(HEADERS), rule, *(line(r) for r in rows)])


def notes(results: list[Result], args, phase_cap: float) -> list[str]:
    out = [
        "¹ Median and p90 are over the seeds that produced a board within the timeout; seeds that hit "
        "the timeout count in Timeouts and are left out of both (so with timeouts the median flatters). "
        "Seeds are consecutive from --seed.",
        "² A drawing is one region growth plus up to max_rounds repair rounds; acceptance = boards / "
        "drawings (GenerationStats.drawings), summed over every seed, timed-out ones included.",
        "³ Fresh plant() + one draw_regions() per drawing, settings as the generator without a band "
        f"(spread uniform {SPREAD[None][0]}..{SPREAD[None][1]}, no gifts, a style from pick_style). w/o repair: count_solutions(limit 2) finds exactly one "
        "solution; with repair: repair() makes the answer unique within the generator's round cap "
        f"(40, or 30 n for Queens above 10×10, {Settings().alternatives} alternatives per round). Each phase has a "
        f"{phase_cap:g} s deadline; a cut count or repair counts as not unique. Draw failures count as "
        f"not unique in both. No new drawing starts after {args.planted_budget:g} s per spec.",
        f"⁴ count_solutions(rules, regions, 2) on the generated boards (Search construction included): "
        f"minimum over up to {COUNT_REPEATS} calls per board, median across boards.",
    ]
    for res in results:
        if res.timed_out:
            out.append(f"{res.spec}: timed out at {res.timeout:g} s on seed(s) "
                       f"{', '.join(map(str, res.timed_out))}; median over {len(res.times)} of "
                       f"{len(res.seeds)} seeds.")
        if res.count_not_unique:
            out.append(f"{res.spec}: {res.count_not_unique} generated board(s) did NOT count as unique!")
    return out


# --- machine ------------------------------------------------------------------------------------



def cpu_busy(cpu: int, interval: float = 0.5) -> float | None:
    """Share of `cpu` busy over `interval` seconds, from /proc/stat (None when unavailable)."""
    def sample():
        with open("/proc/stat") as fh:
            for line in fh:
                if line.startswith(f"cpu{cpu} "):
                    v = [int(x) for x in line.split()[1:]]
                    idle = v[3] + (v[4] if len(v) > 4 else 0)
                    return sum(v[:8]), idle
        return None
    try:
        a = sample()
        time.sleep(interval)
        b = sample()
    except OSError:
        return None
    if not a or not b or b[0] == a[0]:
        return None
    return 1 - (b[1] - a[1]) / (b[0] - a[0])


def pin(cpu: int) -> str:
    if cpu < 0:
        return "not pinned"
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        return f"not pinned (CPU {cpu}: {exc.strerror})"
    busy = cpu_busy(cpu)
    return f"pinned to CPU {cpu}" + (f", {busy:.0%} busy just before the run" if busy is not None else "")


def git_commit() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (rev + (" (uncommitted changes)" if dirty else "")) if rev else "unknown"


def command_line() -> str:
    exe = sys.executable
    try:
        rel = os.path.relpath(exe)
        if not rel.startswith(".."):
            exe = rel
    except ValueError:
        pass
    return shlex.join([exe, *sys.argv])


# --- main ---------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description="Benchmark the Star Battle family generator (one process, one core).",
        epilog="Default specs: " + "; ".join(DEFAULT_SPECS) + ". Targets: "
               + "; ".join(f"{s} ≤ {fmt_seconds(t)}" for s, t in TIME_TARGETS.items())
               + "; acceptance per drawing at queens 9 ≥ 80%.")
    p.add_argument("--quick", action="store_true",
                   help="seeds and drawings / 4 (min 2), timeouts / 2, planted budget 10 s, "
                        "phase cap 5 s: under ~3 min")
    p.add_argument("--only", nargs="+", metavar="SPEC",
                   help='rules to run instead of the default list, e.g. --only "queens 8" "starbattle 10 2"')
    p.add_argument("--markdown", action="store_true",
                   help="print only the Markdown report on stdout (progress goes to stderr)")
    p.add_argument("--cpu", type=int, default=0, help="core to pin to (default 0; -1: do not pin)")
    p.add_argument("--seed", type=int, default=0, help="first seed of (a); seeds are consecutive (default 0)")
    p.add_argument("--seeds", type=int, metavar="N",
                   help="seeds per spec for (a) (default by size: 40/20/8/3)")
    p.add_argument("--drawings", type=int, metavar="M",
                   help="planted drawings per spec for (c) (default by size: 2000/300/50)")
    p.add_argument("--timeout", type=float, metavar="T",
                   help="generate() timeout per seed, all specs (default 60 s for queens 20, else 30 s)")
    p.add_argument("--planted-budget", type=float, metavar="S",
                   help="no new (c) drawing starts after S seconds per spec (default 60, quick 10)")
    p.add_argument("--phase-cap", type=float, metavar="S",
                   help="deadline of each (c) count and repair (default 10 s, quick 5 s)")
    args = p.parse_args(argv)
    specs = args.only or DEFAULT_SPECS
    parsed = []
    for text in specs:
        try:
            rules = Rules.parse(text)
        except PuzzleError as exc:
            p.error(str(exc))
        parsed.append((str(rules), rules))
    args.specs = parsed
    if args.planted_budget is None:
        args.planted_budget = 10.0 if args.quick else 60.0
    if args.phase_cap is None:
        args.phase_cap = 5.0 if args.quick else 10.0
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    out = sys.stdout
    progress = sys.stderr if args.markdown else sys.stdout

    def log(msg: str) -> None:
        print(msg, file=progress, flush=True)

    pinning = pin(args.cpu)
    started_at = dt.datetime.now().astimezone()
    machine = (f"{cpu_model()}, {os.cpu_count()} logical cores ({pinning}), "
               f"Python {platform.python_version()} ({platform.python_implementation()}), "
               f"{platform.system()} {platform.release()}, {started_at:%Y-%m-%d %H:%M %Z}, "
               f"load average {os.getloadavg()[0]:.2f} at start")
    log(f"# {machine}")

    generate(Rules(6), 0)            # warm-up: first-call imports and caches stay out of the numbers

    results: list[Result] = []
    interrupted = False
    t_all = time.perf_counter()
    try:
        for spec, rules in args.specs:
            n = rules.size
            seeds = args.seeds or default_seeds(n)
            drawings = args.drawings or default_drawings(n)
            timeout = args.timeout or default_timeout(rules)
            if args.quick:
                seeds = args.seeds or max(2, seeds // 4)
                drawings = args.drawings or max(2, drawings // 4)
                timeout = args.timeout or timeout / 2
            res = Result(spec, rules, timeout, list(range(args.seed, args.seed + seeds)))
            results.append(res)
            gc.collect()
            log(f"[{spec}] (a/b) generate x{seeds}, timeout {timeout:g} s")
            measure_generation(res, log)
            log(f"  {len(res.boards)} boards, {len(res.timed_out)} timeouts, {res.drawings} drawings "
                f"in {res.gen_seconds:.1f} s")
            gc.collect()
            measure_counter(res)
            if res.count_us:
                log(f"  (d) count_solutions: median {statistics.median(res.count_us):,.0f} µs "
                    f"({res.count_calls} calls)")
            gc.collect()
            log(f"[{spec}] (c) planted x{drawings}")
            measure_planted(res, drawings, args.seed, args.planted_budget, args.phase_cap)
            log(f"  {res.planted} drawings in {res.planted_seconds:.1f} s: unique w/o repair "
                f"{res.raw_unique}, with repair {res.repaired_unique}")
    except KeyboardInterrupt:
        interrupted = True
        log("interrupted: reporting what finished")
        if results and not results[-1].planted_seconds:
            results.pop()
    total = time.perf_counter() - t_all

    md = args.markdown
    rows = [row_for(r, md) for r in results]
    lines = []
    if md:
        lines += ["```sh", command_line(), "```", "", f"Machine: {machine}. Commit {git_commit()}.", ""]
    else:
        lines += ["", f"Command: {command_line()}", f"Machine: {machine}", f"Commit:  {git_commit()}", ""]
    lines.append(render_table(rows, md) if rows else "(no spec finished)")
    lines.append("")
    tail = notes(results, args, args.phase_cap)
    tail.append(f"Total run time {total:.1f} s" + (" (quick run)." if args.quick else ".")
                + (" INTERRUPTED: partial results." if interrupted else ""))
    lines += [("- " if md else "") + note for note in tail]
    print("\n".join(lines), file=out, flush=True)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
