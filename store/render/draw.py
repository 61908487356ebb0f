"""One layout of a board (cells, fills, thin and thick lines, symbols, outlines, clues on edges), drawn
two ways: as SVG text and as a Pillow image. Both read the same layout, so the pictures agree cell for
cell. What to draw comes from the board's game (`Game.picture`), in game-neutral parts, and so do
its symbols' shapes and edge marks (`Game.drawing`); how the rest looks (palette, lines, type,
outlines) is decided here, once for every game."""

from __future__ import annotations

import html
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine import EdgeClue, Outline, PuzzleError, game_of
from engine.core.regions import colour_areas
from engine.games.base import Drawing, Glyph

# Region fills: nine light colours, every pair of which stays apart (CIE76 distance at least 20) for
# normal, protanope and deuteranope eyes (at least 10 for tritanopes), so black symbols and digits
# read on all of them. A board's regions get colours by colouring its touching graph
# (`engine.core.regions.colour_areas`): touching regions never share one. tests/exports checks both.
PALETTE: list[str] = ["#99DDFF", "#FDBF6F", "#CCEBC5", "#BC80BD", "#FFD92F", "#FB8072", "#B3B3B3", "#AAAA00",
                      "#FFFFB3"]
INK = "#111111"          # thick borders, outlines, clues, given symbols drawn as type
GRID = "#555555"         # thin lines between cells of one area
SOLVED_DIGIT = "#0072B2"  # symbols drawn as type that the solution fills in
PAPER = "#FFFFFF"
GIVEN_PATCH = "#E4E4E4"  # under a given symbol drawn as a shape, as printed puzzles shade givens
# Outlines: a dashed line this far inside the cells (a share of a cell), clear of the area rules, and
# the label in small type in the corner of the first cell, on a patch of the cell's fill that breaks
# the dashes there, as printed puzzles with outlined groups do.
OUTLINE_INSET = 0.12
LABEL_SIZE = 0.27        # the label's font size, a share of a cell
EDGE_PATCH = 0.17        # the radius of the paper disc under a clue on an edge, a share of a cell


class RenderError(ValueError):
    """The board dict cannot be drawn (missing or malformed fields)."""


def area_colours(areas: Sequence[Sequence[int]]) -> dict[int, str]:
    """The fill of each area label of a coloured picture: the same for the player, SVG, PNG and print."""
    try:
        colouring = colour_areas(areas, len(PALETTE))
    except ValueError:      # a map needing more colours than the palette has: by label, some may touch
        colouring = {label: label % len(PALETTE) for row in areas for label in row}
    return {label: PALETTE[colour] for label, colour in sorted(colouring.items())}


def shape_path(glyph: Glyph, size: float = 1.0) -> str:
    """A glyph's shape as SVG path data in a box `size` wide: the player draws its symbols with it."""
    return "".join("M" + "L".join(f"{x:.3f} {y:.3f}" for x, y in polygon) + "Z"
                   for polygon in glyph.polygons(size / 2, size / 2, size))


@dataclass
class Layout:
    n: int
    cell: int
    margin: int
    game: str
    regions: list[list[int]]               # the area of each cell (a region, or a box): thick lines between
    fills: list[list[str]]
    thick: list[tuple[int, int, int, int]]  # segments in grid units (x1, y1, x2, y2)
    symbols: list[tuple[int, int, str, bool]] = field(default_factory=list)  # row, col, symbol, given?
    outlines: list[Outline] = field(default_factory=list)
    edges: list[EdgeClue] = field(default_factory=list)
    drawing: Drawing = field(default_factory=Drawing)       # the game's glyphs and edge marks

    @property
    def width(self) -> int:
        return self.n * self.cell + 2 * self.margin

    def xy(self, gx: float, gy: float) -> tuple[float, float]:
        """Grid units (column, row) to pixels."""
        return self.margin + gx * self.cell, self.margin + gy * self.cell

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return self.xy(c + 0.5, r + 0.5)

    def edge_centre(self, clue: EdgeClue) -> tuple[float, float]:
        """The middle of the edge two side-by-side cells share, in pixels."""
        (r0, c0), (r1, c1) = (divmod(i, self.n) for i in clue.cells)
        return self.xy((c0 + c1) / 2 + 0.5, (r0 + r1) / 2 + 0.5)

    def drawn_as_shape(self) -> list[tuple[int, int, str, bool]]:
        return [item for item in self.symbols if item[2] in self.drawing.glyphs]

    def drawn_as_type(self) -> list[tuple[int, int, str, bool]]:
        return [item for item in self.symbols if item[2] not in self.drawing.glyphs]

    def polygons(self, r: int, c: int, symbol: str) -> list[list[tuple[float, float]]]:
        """The game's glyph for `symbol` in cell (r, c), in pixels."""
        return self.drawing.glyphs[symbol].polygons(*self.centre(r, c), self.cell)

    def strokes(self, clue: EdgeClue) -> list[tuple[float, float, float, float]]:
        """The game's mark for a clue on an edge, in pixels; [] for one drawn as type."""
        mark = self.drawing.marks.get(clue.symbol)
        return mark.strokes(*self.edge_centre(clue), self.cell) if mark else []


def layout(data: Any, *, solution: bool = False, cell: int = 40) -> Layout:
    """The drawing of a board dict, from its game's picture; `solution` adds the answer's symbols."""
    try:
        game = game_of(data)
        picture = game.picture(data, solution=solution)
    except PuzzleError as exc:
        raise RenderError(str(exc)) from None
    margin = max(2, cell // 12)
    areas = [list(row) for row in picture.areas]
    colours = area_colours(areas) if picture.coloured else {}
    fills = [[colours.get(v, PAPER) for v in row] for row in areas]
    return Layout(picture.n, cell, margin, game.name, areas, fills, _borders(areas), list(picture.symbols),
                  list(picture.outlines), list(picture.edges), game.drawing)


def outline_loops(n: int, cells: Iterable[int], inset: float = OUTLINE_INSET) -> list[list[tuple[float, float]]]:
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


def outline_path(n: int, cells: Iterable[int],
                 to: Callable[[float, float], tuple[float, float]] = lambda x, y: (x, y)) -> str:
    """An outline as SVG path data: in grid units (the player scales it with its board), or through
    `to` (grid units to pixels)."""
    return "".join("M" + "L".join("{:g} {:g}".format(*(round(v, 4) for v in to(x, y))) for x, y in loop) + "Z"
                   for loop in outline_loops(n, cells))


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
    patched = {(r, c) for r, c, _, given in lay.drawn_as_shape() if given}
    for r in range(lay.n):
        for c in range(lay.n):
            x, y = lay.xy(c, r)
            fill = GIVEN_PATCH if (r, c) in patched else lay.fills[r][c]
            out.append(f'<rect class="cell" x="{x:g}" y="{y:g}" width="{cell}" height="{cell}" '
                       f'fill="{fill}" data-row="{r}" data-col="{c}" data-region="{lay.regions[r][c]}"/>')
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
    if lay.drawn_as_shape():
        out.append('<g class="shapes">')
        for r, c, symbol, given in lay.drawn_as_shape():
            glyph = lay.drawing.glyphs[symbol]
            d = "".join("M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in polygon) + "Z"
                        for polygon in lay.polygons(r, c, symbol))
            out.append(f'<path class="shape {"given" if given else "solved"}" data-row="{r}" data-col="{c}" '
                       f'data-symbol="{html.escape(symbol)}" d="{d}" fill="{glyph.fill}" stroke="{glyph.stroke}" '
                       f'stroke-width="{max(1, cell // 30)}" stroke-linejoin="round"/>')
        out.append("</g>")
    if lay.outlines:
        out.extend(_svg_outlines(lay))
    if lay.edges:
        out.extend(_svg_edges(lay))
    if lay.drawn_as_type():
        out.append(f'<g class="digits" font-family="DejaVu Sans, Arial, sans-serif" font-size="{round(cell * 0.6)}" '
                   'text-anchor="middle" dominant-baseline="central">')
        for r, c, symbol, given in lay.drawn_as_type():
            x, y = lay.centre(r, c)
            out.append(f'<text class="digit {"given" if given else "solved"}" x="{x:g}" y="{y:g}" '
                       f'fill="{INK if given else SOLVED_DIGIT}" data-row="{r}" data-col="{c}">{html.escape(symbol)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _outline_pen(cell: int) -> tuple[int, float, float]:
    """An outline's width and dash pattern (on, off) in pixels."""
    return max(1, cell // 32), max(2.0, cell * 0.1), max(2.0, cell * 0.07)


def _label_corner(lay: Layout, first: int) -> tuple[float, float]:
    """Where an outline's label starts (its left and the top of its type): just inside the first cell."""
    x, y = lay.xy(first % lay.n, first // lay.n)
    return x + 0.08 * lay.cell, y + 0.07 * lay.cell


def _svg_outlines(lay: Layout) -> list[str]:
    width, on, off = _outline_pen(lay.cell)
    size = round(lay.cell * LABEL_SIZE)
    out = [f'<g class="outlines" fill="none" stroke="{INK}" stroke-width="{width}" stroke-dasharray="{on:g} {off:g}">']
    for outline in lay.outlines:
        r, c = divmod(min(outline.cells), lay.n)
        out.append(f'<path class="outline" d="{outline_path(lay.n, outline.cells, lay.xy)}" '
                   f'data-label="{html.escape(outline.label)}" data-row="{r}" data-col="{c}"/>')
    out.append("</g>")
    out.append(f'<g class="labels" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" fill="{INK}">')
    for outline in lay.outlines:
        first = min(outline.cells)
        r, c = divmod(first, lay.n)
        x, y = _label_corner(lay, first)
        pad = 0.03 * lay.cell
        # a patch of the cell's fill breaks the dashes under the label (digits are about 0.64 em wide)
        out.append(f'<rect class="label-patch" x="{x - pad:g}" y="{y - pad:g}" '
                   f'width="{0.64 * size * len(outline.label) + 2 * pad:g}" '
                   f'height="{0.75 * size + 2 * pad:g}" fill="{lay.fills[r][c]}"/>')
        out.append(f'<text class="label" x="{x:g}" y="{y + 0.73 * size:g}" data-row="{r}" data-col="{c}">'
                   f'{html.escape(outline.label)}</text>')
    out.append("</g>")
    return out


def _svg_edges(lay: Layout) -> list[str]:
    width = max(2, round(lay.cell * 0.05))
    radius = EDGE_PATCH * lay.cell
    out = [f'<g class="edges" stroke="{INK}" stroke-width="{width}" stroke-linecap="round">']
    for clue in lay.edges:
        cx, cy = lay.edge_centre(clue)
        (r0, c0), (r1, c1) = (divmod(i, lay.n) for i in clue.cells)
        strokes = lay.strokes(clue)
        out.append(f'<g class="edge" data-symbol="{html.escape(clue.symbol)}" data-cells="{r0},{c0} {r1},{c1}">'
                   f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{PAPER}" stroke="none"/>')
        if strokes:
            out.append("".join(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}"/>'
                               for x0, y0, x1, y1 in strokes))
        else:
            out.append(f'<text x="{cx:g}" y="{cy:g}" stroke="none" fill="{INK}" font-size="{round(lay.cell * 0.3)}" '
                       f'text-anchor="middle" dominant-baseline="central">{html.escape(clue.symbol)}</text>')
        out.append("</g>")
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


def _png_outlines(lay: Layout, pen: ImageDraw.ImageDraw) -> None:
    width, on, off = _outline_pen(lay.cell)
    for outline in lay.outlines:
        for loop in outline_loops(lay.n, outline.cells):
            _dashed(pen, [lay.xy(x, y) for x, y in loop], width, on, off)
    font = ImageFont.load_default(size=round(lay.cell * LABEL_SIZE))
    pad = 0.03 * lay.cell
    for outline in lay.outlines:
        first = min(outline.cells)
        x, y = _label_corner(lay, first)
        left, top, right, bottom = pen.textbbox((x, y), outline.label, font=font, anchor="lt")
        r, c = divmod(first, lay.n)
        pen.rectangle([left - pad, top - pad, right + pad, bottom + pad], fill=lay.fills[r][c])
        pen.text((x, y), outline.label, fill=INK, font=font, anchor="lt")


def _png_edges(lay: Layout, pen: ImageDraw.ImageDraw) -> None:
    width = max(2, round(lay.cell * 0.05))
    radius = EDGE_PATCH * lay.cell
    font = ImageFont.load_default(size=round(lay.cell * 0.3))
    for clue in lay.edges:
        cx, cy = lay.edge_centre(clue)
        pen.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=PAPER)
        strokes = lay.strokes(clue)
        for x0, y0, x1, y1 in strokes:
            pen.line([(x0, y0), (x1, y1)], fill=INK, width=width)
        if not strokes:
            pen.text((cx, cy), clue.symbol, fill=INK, font=font, anchor="mm")


def png(data: Any, *, solution: bool = False, cell: int = 40) -> bytes:
    """The same drawing rasterised with Pillow, as PNG bytes."""
    lay = layout(data, solution=solution, cell=cell)
    image = Image.new("RGB", (lay.width, lay.width), PAPER)
    pen = ImageDraw.Draw(image)
    thin, thick = max(1, cell // 40), max(3, cell // 12)
    patched = {(r, c) for r, c, _, given in lay.drawn_as_shape() if given}
    for r in range(lay.n):
        for c in range(lay.n):
            x, y = lay.xy(c, r)
            pen.rectangle([x, y, x + cell - 1, y + cell - 1], fill=GIVEN_PATCH if (r, c) in patched else lay.fills[r][c])
    for i in range(1, lay.n):
        pen.line([lay.xy(i, 0), lay.xy(i, lay.n)], fill=GRID, width=thin)
        pen.line([lay.xy(0, i), lay.xy(lay.n, i)], fill=GRID, width=thin)
    half = thick // 2
    for gx0, gy0, gx1, gy1 in lay.thick:
        (x0, y0), (x1, y1) = lay.xy(gx0, gy0), lay.xy(gx1, gy1)
        pen.rectangle([x0 - half, y0 - half, x1 + half, y1 + half], fill=INK)   # square caps
    for r, c, symbol, _ in lay.drawn_as_shape():
        glyph = lay.drawing.glyphs[symbol]
        for polygon in lay.polygons(r, c, symbol):
            pen.polygon(polygon, fill=glyph.fill, outline=glyph.stroke)
    if lay.outlines:
        _png_outlines(lay, pen)
    if lay.edges:
        _png_edges(lay, pen)
    if lay.drawn_as_type():
        font = ImageFont.load_default(size=round(cell * 0.6))
        for r, c, symbol, given in lay.drawn_as_type():
            pen.text(lay.centre(r, c), symbol, fill=INK if given else SOLVED_DIGIT, font=font, anchor="mm")
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
    """A board's title for people: its game's heading (title and size), then its band."""
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
