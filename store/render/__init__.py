"""Boards as pictures and print pages: SVG, PNG (drawn with Pillow, no cairo) and a two-page HTML
sheet (puzzle, then solution). Presentation only: what to draw (areas, stars, digits) comes from the
board's game (`Game.picture`); how it looks (palette, lines, fonts) is decided here.

    svg(data, solution=False) -> str
    png(data, solution=False) -> bytes
    print_page([data, ...]) -> str
"""

from store.render.draw import (PALETTE, RenderError, area_colours, cage_path, heading, layout, png, print_page,
                               rules_text, svg)

__all__ = ["PALETTE", "RenderError", "area_colours", "cage_path", "heading", "layout", "png", "print_page", "rules_text", "svg"]
