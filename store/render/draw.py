"""One layout of a board (cells, fills, thin and thick lines, stars, digits), drawn two ways: as SVG
text and as a Pillow image. Both read the same layout, so the pictures agree cell for cell."""

from __future__ import annotations

import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine import PuzzleError, game_of
from engine.core.regions import colour_areas

# Region fills: nine light colours, every pair of which stays apart (CIE76 distance at least 20) for
# normal, protanope and deuteranope eyes (at least 10 for tritanopes), so black stars, × marks and
# digits read on all of them. A board's regions get colours by colouring its touching graph
# (`engine.core.regions.colour_areas`): touching regions never share one. tests/exports checks both.
PALETTE: list[str] = ["#99DDFF", "#FDBF6F", "#CCEBC5", "#BC80BD", "#FFD92F", "#FB8072", "#B3B3B3", "#AAAA00",
                      "#FFFFB3"]
INK = "#111111"          # stars, thick borders, given digits
GRID = "#555555"         # thin lines between cells of one region
SOLVED_DIGIT = "#0072B2"  # digits the solver filled in (Sudoku solution)
PAPER = "#FFFFFF"
STAR_EDGE = "#FFFFFF"


class RenderError(ValueError):
    """The board dict cannot be drawn (missing or malformed fields)."""


def area_colours(areas: Sequence[Sequence[int]]) -> dict[int, str]:
    """The fill of each area label of a coloured picture: the same for the player, SVG, PNG and print."""
    try:
        colouring = colour_areas(areas, len(PALETTE))
    except ValueError:      # a map needing more colours than the palette has: by label, some may touch
        colouring = {label: label % len(PALETTE) for row in areas for label in row}
    return {label: PALETTE[colour] for label, colour in sorted(colouring.items())}


@dataclass
class Layout:
    n: int
    cell: int
    margin: int
    game: str
    regions: list[list[int]]               # the area of each cell (a region, or a box): thick lines between
    fills: list[list[str]]
    thick: list[tuple[int, int, int, int]]  # segments in grid units (x1, y1, x2, y2)
    stars: list[tuple[int, int]] = field(default_factory=list)
    digits: list[tuple[int, int, str, bool]] = field(default_factory=list)  # row, col, digit, given?

    @property
    def width(self) -> int:
        return self.n * self.cell + 2 * self.margin

    def xy(self, gx: float, gy: float) -> tuple[float, float]:
        """Grid units (column, row) to pixels."""
        return self.margin + gx * self.cell, self.margin + gy * self.cell

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return self.xy(c + 0.5, r + 0.5)

    def star_points(self, r: int, c: int) -> list[tuple[float, float]]:
        cx, cy = self.centre(r, c)
        outer, inner = 0.36 * self.cell, 0.15 * self.cell
        return [(cx + (outer if i % 2 == 0 else inner) * math.sin(i * math.pi / 5),
                 cy - (outer if i % 2 == 0 else inner) * math.cos(i * math.pi / 5)) for i in range(10)]


def layout(data: Any, *, solution: bool = False, cell: int = 40) -> Layout:
    """The drawing of a board dict, from its game's picture; `solution` adds the stars or digits."""
    try:
        game = game_of(data)
        picture = game.picture(data, solution=solution)
    except PuzzleError as exc:
        raise RenderError(str(exc)) from None
    margin = max(2, cell // 12)
    areas = [list(row) for row in picture.areas]
    colours = area_colours(areas) if picture.coloured else {}
    fills = [[colours.get(v, PAPER) for v in row] for row in areas]
    return Layout(picture.n, cell, margin, game.name, areas, fills, _borders(areas), list(picture.stars),
                  list(picture.digits))


def _borders(regions: list[list[int]]) -> list[tuple[int, int, int, int]]:
    n = len(regions)
    segments = [(0, 0, n, 0), (0, n, n, n), (0, 0, 0, n), (n, 0, n, n)]
    for r in range(n):
        for c in range(n):
            if c + 1 < n and regions[r][c] != regions[r][c + 1]:
                segments.append((c + 1, r, c + 1, r + 1))
            if r + 1 < n and regions[r][c] != regions[r + 1][c]:
                segments.append((c, r + 1, c + 1, r + 1))
    return segments


def _title(data: dict[str, Any], solution: bool) -> str:
    n = (data.get("rules") or {}).get("size", "?")
    return f"{data.get('game', 'board')} {n}x{n} {data.get('id') or ''} {'solution' if solution else 'puzzle'}"


def svg(data: Any, *, solution: bool = False, cell: int = 40) -> str:
    """The board as a standalone SVG document (cells carry data-row/data-col/data-region)."""
    lay = layout(data, solution=solution, cell=cell)
    w = lay.width
    thin, thick = max(1, cell // 40), max(3, cell // 12)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{w}" viewBox="0 0 {w} {w}" '
           f'role="img" aria-label="{html.escape(_title(data, solution))}">',
           f"<title>{html.escape(_title(data, solution))}</title>",
           f'<rect class="paper" x="0" y="0" width="{w}" height="{w}" fill="{PAPER}"/>', '<g class="cells">']
    for r in range(lay.n):
        for c in range(lay.n):
            x, y = lay.xy(c, r)
            out.append(f'<rect class="cell" x="{x:g}" y="{y:g}" width="{cell}" height="{cell}" '
                       f'fill="{lay.fills[r][c]}" data-row="{r}" data-col="{c}" data-region="{lay.regions[r][c]}"/>')
    out.append("</g>")
    lines = []
    for i in range(1, lay.n):
        (x0, y0), (x1, y1) = lay.xy(i, 0), lay.xy(i, lay.n)
        lines.append(f"M{x0:g} {y0:g}V{y1:g}")
        (x0, y0), (x1, y1) = lay.xy(0, i), lay.xy(lay.n, i)
        lines.append(f"M{x0:g} {y0:g}H{x1:g}")
    out.append(f'<path class="grid" d="{"".join(lines)}" stroke="{GRID}" stroke-width="{thin}" fill="none"/>')
    borders = []
    for gx0, gy0, gx1, gy1 in lay.thick:
        (x0, y0), (x1, y1) = lay.xy(gx0, gy0), lay.xy(gx1, gy1)
        borders.append(f"M{x0:g} {y0:g}L{x1:g} {y1:g}")
    out.append(f'<path class="border" d="{"".join(borders)}" stroke="{INK}" stroke-width="{thick}" '
               f'stroke-linecap="square" fill="none"/>')
    if lay.stars:
        out.append('<g class="stars">')
        for r, c in lay.stars:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in lay.star_points(r, c))
            out.append(f'<polygon class="star" data-row="{r}" data-col="{c}" points="{points}" fill="{INK}" '
                       f'stroke="{STAR_EDGE}" stroke-width="{thin}"/>')
        out.append("</g>")
    if lay.digits:
        out.append(f'<g class="digits" font-family="DejaVu Sans, Arial, sans-serif" font-size="{round(cell * 0.6)}" '
                   'text-anchor="middle" dominant-baseline="central">')
        for r, c, digit, given in lay.digits:
            x, y = lay.centre(r, c)
            out.append(f'<text class="digit {"given" if given else "solved"}" x="{x:g}" y="{y:g}" '
                       f'fill="{INK if given else SOLVED_DIGIT}" data-row="{r}" data-col="{c}">{digit}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(data: Any, *, solution: bool = False, cell: int = 40) -> bytes:
    """The same drawing rasterised with Pillow, as PNG bytes."""
    lay = layout(data, solution=solution, cell=cell)
    image = Image.new("RGB", (lay.width, lay.width), PAPER)
    pen = ImageDraw.Draw(image)
    thin, thick = max(1, cell // 40), max(3, cell // 12)
    for r in range(lay.n):
        for c in range(lay.n):
            x, y = lay.xy(c, r)
            pen.rectangle([x, y, x + cell - 1, y + cell - 1], fill=lay.fills[r][c])
    for i in range(1, lay.n):
        pen.line([lay.xy(i, 0), lay.xy(i, lay.n)], fill=GRID, width=thin)
        pen.line([lay.xy(0, i), lay.xy(lay.n, i)], fill=GRID, width=thin)
    half = thick // 2
    for gx0, gy0, gx1, gy1 in lay.thick:
        (x0, y0), (x1, y1) = lay.xy(gx0, gy0), lay.xy(gx1, gy1)
        pen.rectangle([x0 - half, y0 - half, x1 + half, y1 + half], fill=INK)   # square caps
    for r, c in lay.stars:
        pen.polygon(lay.star_points(r, c), fill=INK, outline=STAR_EDGE)
    if lay.digits:
        font = ImageFont.load_default(size=round(cell * 0.6))
        for r, c, digit, given in lay.digits:
            pen.text(lay.centre(r, c), digit, fill=INK if given else SOLVED_DIGIT, font=font, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def rules_text(data: dict[str, Any]) -> str:
    """The rules in one sentence, for print pages and the player."""
    try:
        return game_of(data).rules_sentence(data)
    except PuzzleError as exc:
        raise RenderError(str(exc)) from None


def heading(data: dict[str, Any]) -> str:
    """A board's title for people: its game, size and band ("Queens 8×8 · hard")."""
    try:
        head = game_of(data).heading(data)
    except PuzzleError as exc:
        raise RenderError(str(exc)) from None
    band = (data.get("difficulty") or {}).get("band")
    return head + (f" · {band}" if band else "")


_PRINT_CSS = """
@page { size: A4; margin: 15mm; }
body { font-family: system-ui, sans-serif; color: #111; margin: 0; }
.page { break-after: page; page-break-after: always; text-align: center; padding-top: 8mm; }
.page:last-child { break-after: auto; page-break-after: auto; }
.page svg { width: 100%; max-width: 160mm; height: auto; }
h1 { font-size: 18pt; margin: 0 0 4mm; } p { margin: 0 0 6mm; }
@media screen { .page { border-bottom: 1px dashed #999; padding-bottom: 10mm; } }
"""


def print_page(boards: list[dict[str, Any]], *, title: str = "puzzlefleet") -> str:
    """An HTML document to print: each board's puzzle on a page of its own, then its solution on the next."""
    sections = []
    for data in boards:
        head = heading(data)
        for solution in (False, True):
            sections.append(
                f'<section class="page {"solution" if solution else "puzzle"}" data-id="{html.escape(str(data.get("id")))}">'
                f"<h1>{html.escape(head)} — {'solution' if solution else 'puzzle'}</h1>"
                f"<p>{html.escape(rules_text(data))} <small>#{html.escape(str(data.get('id')))}</small></p>"
                f"{svg(data, solution=solution)}</section>")
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_PRINT_CSS}</style></head><body>\n"
            + "\n".join(sections) + "\n</body></html>\n")
