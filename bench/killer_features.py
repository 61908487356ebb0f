"""Per-board features of the Killer booklets for quick calibration studies (not part of the engine).

    .venv/bin/python bench/killer_features.py --jobs 2 --out /tmp/killer_features.jsonl

One JSON line per board: volume, book, the grade's parts (path cost, opening bits) and candidate
measures: parallel "rounds" of basic deductions, the rule of 45's availability at the start, cages
crossing boxes, and the candidate mass along the ladder's path.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.killer import GAME  # noqa: E402
from engine.games.killer.cages import cage_support, group_support  # noqa: E402
from engine.games.killer.grade import OPENING_BIT_COST, opening_bits  # noqa: E402
from engine.games.killer.techniques import LADDER, SEVERAL_REGIONS, SINGLE_REGIONS, KillerState, _layout, _sees  # noqa: E402
from engine.ladder import run  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "calibration" / "killer-sudoku-booklets.jsonl"
UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
         + [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)])
PEERS = [sorted({x for u in UNITS if c in u for x in u} - {c}) for c in range(81)]
FULL = 511


def bits_of(masks: list[int]) -> float:
    return sum(math.log2(m.bit_count()) for m in masks if m.bit_count() > 1)


def groups_45(state: KillerState, regions) -> list[tuple[list[int], list[int], int]]:
    """The innie and outie sum groups of the regions (cells, signs, total), up to 5 cells."""
    layout = _layout(state.cages)
    out = []
    for region in regions:
        side = layout.sides(region)
        if not side.crossing:
            continue
        rest = 45 * region.units - side.inside_total
        innies = [c for _, inner, _ in side.crossing for c in inner]
        outies = [c for _, _, outer in side.crossing for c in outer]
        crossing_total = sum(cage.total for cage, _, _ in side.crossing)
        for cells, total in ((innies, rest), (outies, crossing_total - rest)):
            if 1 <= len(cells) <= 5:
                out.append((cells, [1] * len(cells), total))
    return out


def group_apply(masks: list[int], cells, signs, total, cage_of) -> list[int]:
    k = len(cells)
    distinct = tuple((i, j) for i in range(k) for j in range(i + 1, k)
                     if _sees(cells[i], cells[j]) or cage_of[cells[i]] == cage_of[cells[j]])
    return list(group_support(total, tuple(masks[c] for c in cells), tuple(signs), distinct))


def rounds(state: KillerState, groups) -> tuple[int, float, int, list[float]]:
    """Rounds of every basic deduction at once (naked and hidden singles, every cage's combinations,
    and the given 45-groups), each round working from the position the last one left: (rounds until
    nothing changes, bits left then, placements made, bits after each round)."""
    masks = list(state.masks())
    cages = state.cages
    cage_of = state.cage_of
    n = 0
    curve = []
    while True:
        new = list(masks)
        # naked singles: a solved cell clears its peers and cage mates
        for c in range(81):
            m = masks[c]
            if m.bit_count() == 1:
                for p in PEERS[c]:
                    new[p] &= ~m
                for p in cages[cage_of[c]].cells:
                    if p != c:
                        new[p] &= ~m
        # hidden singles
        for u in UNITS:
            for d in range(9):
                bit = 1 << d
                where = [c for c in u if masks[c] & bit]
                if len(where) == 1:
                    new[where[0]] &= bit
        # cage combinations
        for cage in cages:
            support, live = cage_support(cage.total, [masks[c] for c in cage.cells])
            if live:
                for c, s in zip(cage.cells, support):
                    new[c] &= s
        for cells, signs, total in groups:
            support = group_apply(masks, cells, signs, total, cage_of)
            if any(support):
                for c, s in zip(cells, support):
                    new[c] &= s
        # keep solved cells solved (the naked-single pass cleared peers only)
        for c in range(81):
            if masks[c].bit_count() == 1:
                new[c] = masks[c]
        if new == masks or any(m == 0 for m in new):
            break
        masks = new
        n += 1
        curve.append(bits_of(masks))
    placed = sum(1 for m in masks if m.bit_count() == 1)
    return n, bits_of(masks), placed, curve


def measure(line: str) -> dict:
    data = json.loads(line)
    board = GAME.board_from_json({k: v for k, v in data.items() if k != "solution"})
    state = KillerState.start(board)
    row = {"volume": data["volume"], "book": data["book"]}
    row["opening_bits"] = opening_bits(state)
    start_bits = bits_of(state.masks())
    # structure
    boxes_of = lambda cells: {(c // 9 // 3, c % 9 // 3) for c in cells}  # noqa: E731
    row["cross_box"] = sum(1 for cage in state.cages if len(boxes_of(cage.cells)) > 1)
    layout = _layout(state.cages)
    for label, regions in (("single", SINGLE_REGIONS), ("several", SEVERAL_REGIONS)):
        small = 0
        sizes = []
        for region in regions:
            side = layout.sides(region)
            inn = sum(len(i) for _, i, _ in side.crossing)
            out = sum(len(o) for _, _, o in side.crossing)
            sizes.append(min(inn, out) if side.crossing else 0)
            if side.crossing and (1 <= inn <= 2 or 1 <= out <= 2):
                small += 1
        row[f"r45_small_{label}"] = small
        row[f"r45_ones_{label}"] = sum(1 for s in sizes if s == 1)
        row[f"r45_zero_{label}"] = sum(1 for s in sizes if s == 0)
    # rounds
    for label, groups in (("basic", []), ("r45", groups_45(state, SINGLE_REGIONS)),
                          ("r45all", groups_45(state, SINGLE_REGIONS + SEVERAL_REGIONS))):
        n, left, placed, curve = rounds(state.copy(), groups)
        row[f"rounds_{label}"] = n
        row[f"rounds_{label}_left"] = left
        row[f"rounds_{label}_placed"] = placed
        row[f"rounds_{label}_area"] = sum(curve)
    # the ladder's path
    result = run(state, LADDER)
    row["path_cost"] = result.total_cost
    row["score"] = result.total_cost + round(OPENING_BIT_COST * row["opening_bits"])
    row["solved"] = result.solved
    replay = KillerState.start(board)
    curve = [start_bits]
    first_place = None
    tech = {}
    for i, step in enumerate(result.steps):
        replay.apply(step)
        curve.append(bits_of(replay.masks()))
        if step.place and first_place is None:
            first_place = i
            row["bits_at_first_place"] = curve[-2]
        tech[step.technique] = tech.get(step.technique, 0) + 1
    row["steps"] = len(result.steps)
    row["area"] = sum(curve)
    row["log_area"] = sum(math.log2(1 + b) for b in curve)
    for level in (50, 100, 150):
        row[f"steps_over_{level}"] = sum(1 for b in curve if b > level)
    row["first_place"] = first_place
    row["tech"] = tech
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    if args.limit:
        lines = lines[:: max(1, len(lines) // args.limit)][: args.limit]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(measure, lines, chunksize=20))
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
