"""docs/styles.png: for each drawing style and two sizes, eight generated boards beside eight published ones.

    .venv/bin/python bench/styles_sheet.py [--out docs/styles.png] [--cell 11] [--styles pictured ...]

Drawn by the project's own renderer (`store.render.draw.png`, as `export --format png`). Generated boards
are the generator's stored boards in that style (seeds 90,000 + i, default settings); the published ones
are the first eight of that size in the calibration file of the row (the pictured rows and a composed row
against the shared daily Queens boards, ../shared/calibration/queens-linkedin-odd.jsonl).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import generate  # noqa: E402
from store.render.draw import png  # noqa: E402

SHARED = ROOT / ".." / "shared" / "calibration"
HAND_DRAWN = SHARED / "queens-handmade.jsonl"
SITE = SHARED / "starbattle-labelled.jsonl"
DAILY = SHARED / "queens-linkedin-odd.jsonl"
# (style, rules, calibration file, what the calibration boards are)
ROWS = (
    ("pictured", Rules(8, 1), DAILY, "daily Queens, shared half"),
    ("pictured", Rules(9, 1), DAILY, "daily Queens, shared half"),
    ("composed", Rules(8, 1), DAILY, "daily Queens, shared half"),
    ("composed", Rules(7, 1), HAND_DRAWN, "hand-drawn Queens"),
    ("composed", Rules(9, 1), HAND_DRAWN, "hand-drawn Queens"),
    ("interlocking", Rules(10, 2), SITE, "the puzzle site"),
    ("interlocking", Rules(14, 3), SITE, "the puzzle site"),
    ("organic", Rules(8, 1), SITE, "the puzzle site"),
    ("organic", Rules(10, 2), SITE, "the puzzle site"),
)
PER_SIDE = 8
GAP = 6


def published(path: Path, rules: Rules, count: int) -> list[dict]:
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            board = json.loads(line)
            if (board["rules"]["size"], board["rules"].get("stars", 1)) == (rules.size, rules.stars):
                out.append({key: board[key] for key in ("game", "rules", "regions")})
                if len(out) == count:
                    break
    return out


def tile(data: dict, cell: int) -> Image.Image:
    return Image.open(io.BytesIO(png(data, cell=cell))).convert("RGB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "styles.png")
    parser.add_argument("--cell", type=int, default=11, help="pixels per cell of a 10x10 board")
    parser.add_argument("--styles", nargs="*", default=None, help="only the rows of these styles (a sheet to "
                        "look at while tuning one; docs/styles.png has every row)")
    args = parser.parse_args()
    strips = []
    for style, rules, path, source in ROWS:
        if args.styles and style not in args.styles:
            continue
        cell = max(6, round(args.cell * 10 / rules.size))
        ours = [tile(generate(rules, 90_000 + i, style=style)[0].to_json(), cell) for i in range(PER_SIDE)]
        theirs = [tile(board, cell) for board in published(path, rules, PER_SIDE)]
        side = max(img.width for img in ours + theirs)
        height = max(img.height for img in ours + theirs)
        strip = Image.new("RGB", (2 * PER_SIDE * (side + GAP) + 4 * GAP, height + 22), "white")
        pen = ImageDraw.Draw(strip)
        pen.text((GAP, 4), f"{style}, {rules}: generated", fill="black")
        pen.text((PER_SIDE * (side + GAP) + 4 * GAP, 4), f"published ({source})", fill="black")
        for i, img in enumerate(ours):
            strip.paste(img, (GAP + i * (side + GAP), 20))
        for i, img in enumerate(theirs):
            strip.paste(img, (PER_SIDE * (side + GAP) + 4 * GAP + i * (side + GAP), 20))
        pen.line([(PER_SIDE * (side + GAP) + 2 * GAP, 20), (PER_SIDE * (side + GAP) + 2 * GAP, height + 20)],
                 fill="grey", width=1)
        strips.append(strip)
        print(f"{style} {rules}: drawn", file=sys.stderr, flush=True)
    sheet = Image.new("RGB", (max(s.width for s in strips), sum(s.height + GAP for s in strips)), "white")
    y = 0
    for strip in strips:
        sheet.paste(strip, (0, y))
        y += strip.height + GAP
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out, optimize=True)
    print(f"wrote {args.out} ({sheet.width}x{sheet.height})", file=sys.stderr)


if __name__ == "__main__":
    main()
