"""Boards as pictures and print pages: SVG, PNG (drawn with Pillow, no cairo) and a two-page HTML
sheet (puzzle, then solution). Presentation only: what to draw (areas, symbols, outlines, clues on edges) comes from the
board's game (`Game.picture`), its symbols' shapes and edge marks too (`Game.drawing`); how the rest
looks (palette, lines, fonts) is decided here.

    svg(data, solution=False) -> str
    png(data, solution=False) -> bytes
    print_page([data, ...]) -> str
"""

from store.render.draw import (PALETTE, RenderError, area_colours, heading, layout, outline_path, png, print_page,
                               rules_text, shape_path, svg)

__all__ = ["PALETTE", "RenderError", "area_colours", "heading", "layout", "outline_path", "png", "print_page",
           "rules_text", "shape_path", "svg"]
