"""Boards as pictures and print pages: SVG, PNG (drawn with Pillow, no cairo) and a two-page HTML
sheet (puzzle, then solution). Presentation only: it reads the JSON contract dicts of DESIGN.md and
never needs the engine, so Sudoku boards render even where the engine cannot solve them.

    svg(data, solution=False) -> str
    png(data, solution=False) -> bytes
    print_page([data, ...]) -> str
"""

from store.render.draw import PALETTE, RenderError, layout, png, print_page, region_colour, rules_text, svg

__all__ = ["PALETTE", "RenderError", "layout", "png", "print_page", "region_colour", "rules_text", "svg"]
