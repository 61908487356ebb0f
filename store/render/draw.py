"""One layout of a board (cells, fills, thin and thick lines, stars, digits), drawn two ways: as SVG
text and as a Pillow image. Both read the same layout, so the pictures agree cell for cell."""

from __future__ import annotations

import html
import io
import math
from collections.abc import Callable, Iterable, Sequence
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
# Cages (Killer Sudoku): a dashed outline this far inside the cells (a share of a cell), clear of the
# box rules, and the sum in small type in the corner of the cage's first cell, on a patch of paper
# that breaks the dashes there, as printed Killer Sudoku does.
CAGE_INSET = 0.12
CAGE_SUM_SIZE = 0.27        # the sum's font size, a share of a cell


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
    marks: list[tuple[int, int]] = field(default_factory=list)       # drawn as stars
    digits: list[tuple[int, int, str, bool]] = field(default_factory=list)  # row, col, digit, given?
    cages: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # sum, cells r * n + c

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
    return Layout(picture.n, cell, margin, game.name, areas, fills, _borders(areas), list(picture.marks),
                  list(picture.digits), list(picture.cages))


def cage_outline(n: int, cells: Iterable[int], inset: float = CAGE_INSET) -> list[list[tuple[float, float]]]:
    """The outline of a group of cells (r * n + c) drawn `inset` (a share of a cell) inside them: closed
    loops of corner points in grid units (x = column, y = row), one per boundary of the group. Where the
    group turns inwards the line crosses into the neighbouring cell, so it stays `inset` from every
    edge the group has. The one outline the pictures and the player draw."""
    inside = set(cells)

    def has(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and r * n + c in inside

    def end(line: int, step: int, beside: bool, ahead: bool) -> tuple[int, int]:
        # where an edge ends at grid line `line`: a convex corner (no cell beside), straight on (the
        # cell beside has the same edge), or a concave corner (the cell ahead across the edge is in)
        return (line, step) if not beside else (line, 0) if not ahead else (line, -step)

    # a point is (grid line, offset in insets) for x and for y: exact, so segment ends meet
    segments: list[tuple[tuple[tuple[int, int], tuple[int, int]], ...]] = []
    for i in sorted(inside):
        r, c = divmod(i, n)
        for dr in (-1, 1):                           # top and bottom edges
            if not has(r + dr, c):
                y = (r + (dr > 0), -dr)
                segments.append(((end(c, 1, has(r, c - 1), has(r + dr, c - 1)), y),
                                 (end(c + 1, -1, has(r, c + 1), has(r + dr, c + 1)), y)))
        for dc in (-1, 1):                           # left and right edges
            if not has(r, c + dc):
                x = (c + (dc > 0), -dc)
                segments.append(((x, end(r, 1, has(r - 1, c), has(r - 1, c + dc))),
                                 (x, end(r + 1, -1, has(r + 1, c), has(r + 1, c + dc)))))
    at: dict[tuple[tuple[int, int], tuple[int, int]], list[int]] = {}
    for k, (a, b) in enumerate(segments):
        at.setdefault(a, []).append(k)
        at.setdefault(b, []).append(k)
    loops, used = [], set()
    for start in range(len(segments)):
        if start in used:
            continue
        loop, k, point = [segments[start][0]], start, segments[start][1]
        while k not in used:
            used.add(k)
            if point != loop[0]:
                loop.append(point)
            k = next((j for j in at[point] if j != k), k)
            a, b = segments[k]
            point = b if a == point else a
        loops.append(_corners([(x + dx * inset, y + dy * inset) for (x, dx), (y, dy) in loop]))
    return loops


def _corners(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The loop without the points in the middle of a straight run."""
    out = []
    for k, (x, y) in enumerate(points):
        (px, py), (nx, ny) = points[k - 1], points[(k + 1) % len(points)]
        if not ((px == x == nx) or (py == y == ny)):
            out.append((x, y))
    return out


def cage_path(n: int, cells: Iterable[int], to: Callable[[float, float], tuple[float, float]] = lambda x, y: (x, y)) -> str:
    """A cage's outline as SVG path data: in grid units (the player scales it with its board), or
    through `to` (grid units to pixels)."""
    return "".join("M" + "L".join("{:g} {:g}".format(*(round(v, 4) for v in to(x, y))) for x, y in loop) + "Z"
                   for loop in cage_outline(n, cells))


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
    if lay.marks:
        out.append('<g class="stars">')
        for r, c in lay.marks:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in lay.star_points(r, c))
            out.append(f'<polygon class="star" data-row="{r}" data-col="{c}" points="{points}" fill="{INK}" '
                       f'stroke="{STAR_EDGE}" stroke-width="{thin}"/>')
        out.append("</g>")
    if lay.cages:
        out.extend(_svg_cages(lay))
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


def _cage_pen(cell: int) -> tuple[int, float, float]:
    """A cage outline's width and dash pattern (on, off) in pixels."""
    return max(1, cell // 32), max(2.0, cell * 0.1), max(2.0, cell * 0.07)


def _sum_corner(lay: Layout, first: int) -> tuple[float, float]:
    """Where a cage's sum starts (its left and the top of its digits): just inside the first cell."""
    x, y = lay.xy(first % lay.n, first // lay.n)
    return x + 0.08 * lay.cell, y + 0.07 * lay.cell


def _svg_cages(lay: Layout) -> list[str]:
    width, on, off = _cage_pen(lay.cell)
    size = round(lay.cell * CAGE_SUM_SIZE)
    out = [f'<g class="cages" fill="none" stroke="{INK}" stroke-width="{width}" stroke-dasharray="{on:g} {off:g}">']
    for total, cells in lay.cages:
        r, c = divmod(min(cells), lay.n)
        out.append(f'<path class="cage" d="{cage_path(lay.n, cells, lay.xy)}" data-sum="{total}" data-row="{r}" data-col="{c}"/>')
    out.append("</g>")
    out.append(f'<g class="sums" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" fill="{INK}">')
    for total, cells in lay.cages:
        first = min(cells)
        r, c = divmod(first, lay.n)
        x, y = _sum_corner(lay, first)
        pad = 0.03 * lay.cell
        # a patch of the cell's fill breaks the dashes under the sum (digits are about 0.64 em wide)
        out.append(f'<rect class="sum-patch" x="{x - pad:g}" y="{y - pad:g}" width="{0.64 * size * len(str(total)) + 2 * pad:g}" '
                   f'height="{0.75 * size + 2 * pad:g}" fill="{lay.fills[r][c]}"/>')
        out.append(f'<text class="sum" x="{x:g}" y="{y + 0.73 * size:g}" data-row="{r}" data-col="{c}">{total}</text>')
    out.append("</g>")
    return out


def _dashed(pen: ImageDraw.ImageDraw, loop: list[tuple[float, float]], width: int, on: float, off: float) -> None:
    """A closed loop drawn dashed, the pattern running on round the corners (Pillow draws no dashes)."""
    phase = 0.0                                   # how far into the current on+off period
    for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while done < length:
            step = min(length - done, (on - phase) if phase < on else (on + off - phase))
            if phase < on:
                a, b = done / length, (done + step) / length
                pen.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                         fill=INK, width=width)
            done += step
            phase = (phase + step) % (on + off)


def _png_cages(lay: Layout, pen: ImageDraw.ImageDraw) -> None:
    width, on, off = _cage_pen(lay.cell)
    for _, cells in lay.cages:
        for loop in cage_outline(lay.n, cells):
            _dashed(pen, [lay.xy(x, y) for x, y in loop], width, on, off)
    font = ImageFont.load_default(size=round(lay.cell * CAGE_SUM_SIZE))
    pad = 0.03 * lay.cell
    for total, cells in lay.cages:
        first = min(cells)
        x, y = _sum_corner(lay, first)
        left, top, right, bottom = pen.textbbox((x, y), str(total), font=font, anchor="lt")
        r, c = divmod(first, lay.n)
        pen.rectangle([left - pad, top - pad, right + pad, bottom + pad], fill=lay.fills[r][c])
        pen.text((x, y), str(total), fill=INK, font=font, anchor="lt")


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
    for r, c in lay.marks:
        pen.polygon(lay.star_points(r, c), fill=INK, outline=STAR_EDGE)
    if lay.cages:
        _png_cages(lay, pen)
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
