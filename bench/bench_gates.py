"""Do published boards pass the generator's gates, and do raw drawings still fail them?

    .venv/bin/python bench/bench_gates.py [--boards 200] [--every 1] [--calibration PATH] [--cpu N]

For every published collection (the calibration file, one collection per size and star count, and the
boards of tests/data/starbattle_published.json) and for raw generated drawings of the same rules, the
share passing the fun gate, the shape gate and both, with the thresholds the generator uses (the game's
`gates(rules)`, the one place that holds them). Fun is scored on the ladder's solve path
(`grade(board)`, `fun_score(tiers)`); a board the ladder cannot finish is scored on the part it solves
and counted under "unfinished". Raw drawings are the generator's boards with the gates open
(plant, draw, repair, prove, grade: everything but the fun and shape gates). The last columns give the
10th percentile of each score: the threshold that would let 90% through. Prints Markdown.

    .venv/bin/python bench/bench_gates.py --style composed [--boards 300]
    .venv/bin/python bench/bench_gates.py --queens [--style pictured] [--boards 100]

`--queens`: Queens 7x7-11x11, the shared daily boards (../shared/calibration/queens-linkedin-odd.jsonl)
and the hand-drawn corpus against a style's own fun and shape gates (the default's without `--style`),
per size, and the share of that style's boards made with the gates open that the gates turn away
(bench/results/queens_gates.json).

A drawing style's own shape gate (`styles.named(style).gates(rules)`, on the style's `score`): the
share of the hand-drawn Queens corpus (../shared/calibration/queens-handmade.jsonl; another file with
`--calibration`, e.g. the published Star Battle boards for `--style interlocking`) it passes at each
size and star count it draws (a style with fitted sizes: those; sizes with 10 corpus boards or more),
and the share of raw drawings of that
style (`plant` then the style's `draw`, or its `draw_planted` when it finds its own answer; no repair,
no tuning; seeds 0 .. boards - 1, tries that drew nothing left out) it refuses.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import DeadlineExceeded, game_named  # noqa: E402
from engine.games.starbattle.shape import shape_score  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle import styles  # noqa: E402
from engine.games.starbattle.board import Board  # noqa: E402
from engine.games.starbattle.draw import plant  # noqa: E402
from engine.games.starbattle.generator import Settings, generate  # noqa: E402
from engine.games.starbattle.grade import grade  # noqa: E402
from engine.ladder.fun import fun_score  # noqa: E402
from machine import cpu_model, markdown_head, markdown_row, write_result  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CALIBRATION = ROOT / ".." / "shared" / "calibration" / "starbattle-labelled.jsonl"
HANDMADE = ROOT / ".." / "shared" / "calibration" / "queens-handmade.jsonl"
TESTS_DATA = ROOT / "tests" / "data" / "starbattle_published.json"
OPEN_GATES = Settings(min_fun=0, min_shape=0)


def published(calibration: Path) -> list[tuple[str, Rules | None, list[tuple[Rules, tuple[int, ...]]]]]:
    """(collection, rules or None when mixed, boards): the calibration file by rules, then the boards
    of tests/data (sizes 6 to 15) as one collection."""
    by_rules: dict[Rules, list[tuple[Rules, tuple[int, ...]]]] = {}
    with open(calibration, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rules, regions = _board(json.loads(line))
                by_rules.setdefault(rules, []).append((rules, regions))
    out: list[tuple[str, Rules | None, list[tuple[Rules, tuple[int, ...]]]]] = [
        ("calibration", rules, boards) for rules, boards in sorted(by_rules.items(), key=lambda kv: (kv[0].size, kv[0].stars))]
    out.append(("tests/data", None, [_board(item) for item in json.loads(TESTS_DATA.read_text())]))
    return out


def _board(item: dict) -> tuple[Rules, tuple[int, ...]]:
    rules = item["rules"]
    return (Rules(rules["size"], rules["stars"], rules.get("diagonals", False)),
            tuple(label for row in item["regions"] for label in row))


def measure(board: Board, fun: int, shape: int) -> dict[str, bool]:
    return game_named(board.game).gates(board).verdict(fun=fun, shape=shape)


def published_row(boards: list[tuple[Rules, tuple[int, ...]]]) -> tuple[list[dict[str, bool]], list[int], list[int], int]:
    verdicts, funs, shapes, unfinished = [], [], [], 0
    for rules, regions in boards:
        board = Board(rules, regions)
        graded = grade(board)
        unfinished += not graded.solved
        fun, shape = fun_score(graded.tiers).score, shape_score(rules.size, regions, rules.stars).score
        funs.append(fun)
        shapes.append(shape)
        verdicts.append(measure(board, fun, shape))
    return verdicts, funs, shapes, unfinished


def raw_row(rules: Rules, count: int, timeout: float) -> tuple[list[dict[str, bool]], list[int], list[int], int]:
    verdicts, funs, shapes, timeouts = [], [], [], 0
    for seed in range(count):
        try:
            board, _ = generate(rules, 80_000 + seed, settings=OPEN_GATES, timeout=timeout)
        except DeadlineExceeded:
            timeouts += 1
            continue
        fun, shape = board.extra["fun"]["score"], board.extra["shape"]["score"]
        funs.append(fun)
        shapes.append(shape)
        verdicts.append(measure(board, fun, shape))
    return verdicts, funs, shapes, timeouts


def _share(verdicts: list[dict[str, bool]], gate: str | None) -> str:
    # a board its game sets no such gate for (no shape gate above 14x14) is not turned away by it
    passed = sum(all(v.values()) if gate is None else v.get(gate, True) for v in verdicts)
    return f"{100 * passed / len(verdicts):.1f}% ({passed}/{len(verdicts)})" if verdicts else "—"


def _p10(values: list[int]) -> str:
    return str(sorted(values)[len(values) // 10]) if values else "—"


MIN_CORPUS = 10        # corpus boards a size needs for its passing share to say something
STYLE_COLUMNS = ["rules", "style", "gate (min score)", "corpus boards", "corpus passing", "raw drawings", "raw refused"]
GATE_COLUMNS = ["boards", "rules", "gates (fun, shape)", "count", "fun gate", "shape gate", "both", "unfinished ¹",
                "fun p10", "shape p10"]


def style_report(name: str, calibration: Path, boards: int) -> list[list[object]]:
    """The style's shape gate on the hand-drawn corpus, by size, and on raw drawings of that style
    (printed, and returned as rows)."""
    style = styles.named(name)
    by_rules: dict[Rules, list[bool]] = {}
    with open(calibration, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                item = json.loads(line)
                rules, regions = _board(item)
                by_rules.setdefault(rules, []).append(
                    style.score(rules, regions) >= style.gates(rules).min_shape)
    print("| rules | style | gate (min score) | corpus boards | corpus passing | raw drawings | raw refused |"
          "\n|---|---|---:|---:|---:|---:|---:|")
    rows: list[list[object]] = []
    fitted = getattr(style, "fitted", style.available)      # the rules its numbers were fitted on
    for rules, verdicts in sorted(by_rules.items(), key=lambda kv: (kv[0].size, kv[0].stars)):
        if not fitted(rules) or len(verdicts) < MIN_CORPUS:
            continue
        refused, drawn = _raw_refused(style, rules, boards)
        rows.append([str(rules), name, style.gates(rules).min_shape, len(verdicts),
                     f"{sum(verdicts) / len(verdicts):.1%}", drawn, f"{refused / max(drawn, 1):.1%}"])
        print("| " + " | ".join(map(str, rows[-1])) + " |", flush=True)
    return rows


DAILY = ROOT / ".." / "shared" / "calibration" / "queens-linkedin-odd.jsonl"
QUEENS_COLUMNS = ["rules", "style", "gates (fun, shape)", "daily boards passing both",
                  "hand-drawn passing both", "ours, gates open ¹, passing both", "raw drawings refused ²",
                  "daily boards' fun p5"]


RAW_PICTURES = 300      # raw drawings a size for the share the shape gate refuses


def _raw_refused(style: ModuleType, rules: Rules, draws: int) -> tuple[int, int]:
    """How many of `draws` raw drawings of the style (no repair, no tuning; seeds 0 .. draws - 1) its
    shape gate refuses, and how many drew a map (tries that drew nothing are no look refused)."""
    import random
    refused = drawn = 0
    for seed in range(draws):
        rng = random.Random(seed)
        if getattr(style, "PLANTS", False):        # it finds its answer in its own drawing
            planted = style.draw_planted(rules, rng)
            regions = None if planted is None else planted[0]
        else:
            regions = style.draw(rules, plant(rules, rng), rng)
        if regions is not None:
            drawn += 1
            refused += style.score(rules, regions) < style.gates(rules).min_shape
    return refused, drawn


def queens_report(style_name: str | None, boards: int, timeout: float) -> list[list[object]]:
    """Queens at 7x7-11x11, a row a size: the share of the shared daily boards and of the hand-drawn
    corpus passing a drawing style's gates (the default's without `style_name`), of that style's
    finished boards made with the gates open (seeds 80,000 + i), and of its raw drawings the shape gate
    refuses."""
    rows: list[list[object]] = []
    print(markdown_head(QUEENS_COLUMNS))
    for n in range(7, 12):
        rules = Rules(n)
        style = styles.named(style_name) if style_name else styles.default_for(rules)
        gates = style.gates(rules)
        cells: list[object] = []
        daily_funs: list[int] = []
        for path in (DAILY, HANDMADE):
            verdicts = []
            for regions in [regions for group in published(path) if group[1] == rules for _, regions in group[2]]:
                fun, shape = fun_score(grade(Board(rules, regions)).tiers).score, style.score(rules, regions)
                if path == DAILY:
                    daily_funs.append(fun)
                verdicts.append(gates.verdict(fun=fun, shape=shape))
            cells.append(_share(verdicts, None))
        verdicts = []
        for seed in range(boards):
            try:
                board, _ = generate(rules, 80_000 + seed, settings=OPEN_GATES, timeout=timeout, style=style.NAME)
            except DeadlineExceeded:
                continue
            verdicts.append(gates.verdict(fun=board.extra["fun"]["score"], shape=board.extra["shape"]["score"]))
        cells.append(_share(verdicts, None))
        refused, drawn = _raw_refused(style, rules, RAW_PICTURES)
        cells.append(f"{refused / max(drawn, 1):.1%} ({refused}/{drawn})")
        rows.append([str(rules), style.NAME, f"{gates.min_fun}, {gates.min_shape}", *cells,
                     sorted(daily_funs)[len(daily_funs) // 20] if daily_funs else "—"])
        print(markdown_row(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200, help="raw drawings per rules (a fifth of it "
                        "at 14x14 and above)")
    parser.add_argument("--every", type=int, default=1, help="grade every Nth board of the calibration "
                        "file (quick runs)")
    parser.add_argument("--calibration", type=Path, default=DEFAULT_CALIBRATION)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per raw drawing")
    parser.add_argument("--cpu", type=int, default=0, help="pin to this core (-1: no pinning)")
    parser.add_argument("--style", default=None, help="report this drawing style's own shape gate "
                        "against the hand-drawn corpus instead")
    parser.add_argument("--queens", action="store_true", help="Queens 7x7-11x11: the shared daily boards and the "
                        "hand-drawn corpus against the default style's gates (or --style's)")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    started, load_at_start = time.perf_counter(), os.getloadavg()[0]
    if args.queens:
        print(f"```sh\n.venv/bin/python bench/bench_gates.py --queens{' --style ' + args.style if args.style else ''} "
              f"--boards {args.boards}\n```\n")
        rows = queens_report(args.style, args.boards, args.timeout)
        total = time.perf_counter() - started
        note = ("¹ our boards made with the gates open (the generator without its fun and shape bars): the "
                "share that passes is what the gates let through, the rest what they turn away. "
                f"² {RAW_PICTURES} raw drawings a size (no repair, no tuning): the share the shape gate refuses")
        print(f"\n{note}\n\nTotal run time {total:.0f} s.")
        write_result("queens_gates", [{"title": "Queens: the daily boards, the hand-drawn corpus and ours against "
                                       "the style's gates", "columns": QUEENS_COLUMNS, "rows": rows}],
                     notes=[note, ("Not pinned" if args.cpu < 0 else f"Pinned to CPU {args.cpu}")
                            + f"; total run time {total:.0f} s."], load_at_start=load_at_start)
        return
    if args.style:
        print(f"```sh\n.venv/bin/python bench/bench_gates.py --style {args.style} --boards {args.boards}\n```\n")
        print(f"Machine: {cpu_model()}, {os.cpu_count()} cores (pinned to CPU {args.cpu}), Python "
              f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
        rows = style_report(args.style, HANDMADE if args.calibration == DEFAULT_CALIBRATION else args.calibration,
                            args.boards)
        total = time.perf_counter() - started
        print(f"\nTotal run time {total:.0f} s.")
        write_result(f"gates-{args.style}", [{"title": f"{args.style} shape gate", "columns": STYLE_COLUMNS,
                                              "rows": rows}],
                     notes=[("Not pinned" if args.cpu < 0 else f"Pinned to CPU {args.cpu}") + f"; total run time {total:.0f} s."], load_at_start=load_at_start)
        return
    print(f"```sh\n.venv/bin/python bench/bench_gates.py --boards {args.boards} --every {args.every}\n```\n")
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores (pinned to CPU {args.cpu}), Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    print("| boards | rules | gates (fun, shape) | count | fun gate | shape gate | both | unfinished ¹ "
          "| fun p10 | shape p10 |\n|---|---|---|---:|---|---|---|---:|---:|---:|")
    rows: list[list[object]] = []
    for collection, rules, boards in published(args.calibration):
        if rules is None:
            label, thresholds = "sizes 6-15, 1-3 stars", "by rules"
        else:
            gates = game_named(rules.game).gates(Board(rules, boards[0][1]))
            label, thresholds = str(rules), f"{gates.min_fun}, {gates.min_shape}"
        verdicts, funs, shapes, unfinished = published_row(boards[::args.every] if rules else boards)
        rows.append([f"published, {collection}", label, thresholds, len(verdicts), _share(verdicts, "fun"),
                     _share(verdicts, "shape"), _share(verdicts, None), unfinished, _p10(funs), _p10(shapes)])
        print("| " + " | ".join(map(str, rows[-1])) + " |", flush=True)
        if rules is not None:
            count = args.boards if rules.size < 14 else max(2, args.boards // 5)
            verdicts, funs, shapes, timeouts = raw_row(rules, count, args.timeout)
            rows.append(["raw drawings ²", label, thresholds, len(verdicts), _share(verdicts, "fun"),
                         _share(verdicts, "shape"), _share(verdicts, None), f"{timeouts} timeouts", _p10(funs),
                         _p10(shapes)])
            print("| " + " | ".join(map(str, rows[-1])) + " |", flush=True)
    print("\n- ¹ Published boards the ladder does not finish; their fun is scored on the steps it found.\n"
          "- ² The generator with the gates open (seeds 80,000 + i): planted, drawn, repaired, proved "
          "unique, finished by the ladder.")
    total = time.perf_counter() - started
    print(f"\nTotal run time {total:.0f} s.")
    write_result("gates", [{"title": "gates", "columns": GATE_COLUMNS, "rows": rows}], load_at_start=load_at_start,
                 notes=["¹ Published boards the ladder does not finish; their fun is scored on the steps it found.",
                        "² The generator with the gates open (seeds 80,000 + i): planted, drawn, repaired, proved "
                        "unique, finished by the ladder.",
                        ("Not pinned" if args.cpu < 0 else f"Pinned to CPU {args.cpu}") + f"; total run time {total:.0f} s."])


if __name__ == "__main__":
    main()
