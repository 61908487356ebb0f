"""How the Star Battle family's symbols look: the star as a shape (black, edged in white); the
player's cross is drawn as type. Pure geometry, composed by the pictures and the player."""

from __future__ import annotations

import math

from engine.games.base import Drawing, Glyph, Point

STAR, CROSS = "★", "×"      # the answer's mark, and the player's memo for "no star here"


def star(cx: float, cy: float, size: float) -> list[list[Point]]:
    """A five-pointed star, one point up."""
    outer, inner = 0.36 * size, 0.15 * size
    return [[(cx + (outer if i % 2 == 0 else inner) * math.sin(i * math.pi / 5),
              cy - (outer if i % 2 == 0 else inner) * math.cos(i * math.pi / 5)) for i in range(10)]]


DRAWING = Drawing(glyphs={STAR: Glyph(star, "#111111", "#FFFFFF")})
