"""How Tango's symbols look: the sun and the moon as shapes, and the clues on edges ("=" two bars,
"×" a cross) as lines. Pure geometry, composed by the pictures and the player."""

from __future__ import annotations

import math

from engine.games.base import Drawing, EdgeMark, Glyph, Point, Stroke

SUN, MOON = "☀", "☾"            # how pictures and the player show S and M
SAME, OPPOSITE = "=", "×"       # the clues on edges: the two cells alike, or different


def _through(start: float, end: float, via: float) -> float:
    """The sweep from `start` to `end` (radians, either way round) that passes angle `via`."""
    ccw = (end - start) % (2 * math.pi)
    return ccw if (via - start) % (2 * math.pi) < ccw else ccw - 2 * math.pi


def _arc(cx: float, cy: float, r: float, start: float, sweep: float, steps: int) -> list[Point]:
    return [(cx + r * math.cos(start + sweep * k / steps), cy + r * math.sin(start + sweep * k / steps))
            for k in range(steps + (0 if abs(sweep) >= 2 * math.pi else 1))]


def sun(cx: float, cy: float, size: float) -> list[list[Point]]:
    """A disc."""
    return [_arc(cx, cy, 0.3 * size, 0.0, 2 * math.pi, 48)]


def moon(cx: float, cy: float, size: float) -> list[list[Point]]:
    """A crescent: the disc less a disc of the same size moved up and right, facing left."""
    radius = 0.32 * size
    dx, dy = 0.42 * radius, -0.3 * radius
    d = math.hypot(dx, dy)
    along, across = d / 2, math.sqrt(radius * radius - d * d / 4)
    ux, uy = dx / d, dy / d
    tips = [(along * ux - across * uy, along * uy + across * ux), (along * ux + across * uy, along * uy - across * ux)]
    t0, t1 = (math.atan2(y, x) for x, y in tips)
    away = math.atan2(-dy, -dx)
    outer = _arc(cx, cy, radius, t0, _through(t0, t1, away), 40)
    u0, u1 = (math.atan2(y - dy, x - dx) for x, y in reversed(tips))
    inner = _arc(cx + dx, cy + dy, radius, u0, _through(u0, u1, away), 32)
    return [outer + inner[1:-1]]


def bars(cx: float, cy: float, cell: float) -> list[Stroke]:
    """Two short bars across the edge's middle."""
    half, gap = 0.085 * cell, 0.045 * cell
    return [(cx - half, cy - gap, cx + half, cy - gap), (cx - half, cy + gap, cx + half, cy + gap)]


def cross(cx: float, cy: float, cell: float) -> list[Stroke]:
    """A small diagonal cross on the edge's middle."""
    half = 0.085 * cell
    return [(cx - half, cy - half, cx + half, cy + half), (cx - half, cy + half, cx + half, cy - half)]


DRAWING = Drawing(glyphs={SUN: Glyph(sun, "#F6B40E", "#A86B00"), MOON: Glyph(moon, "#3D6FD6", "#1F3F85")},
                  marks={SAME: EdgeMark(bars), OPPOSITE: EdgeMark(cross)})
