"""Boards as text: plain (for export and pipes) and coloured (for `show` in a terminal)."""

from __future__ import annotations

from typing import Any

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# 256-colour backgrounds chosen to stay distinguishable side by side (Okabe-Ito first, then extras).
_BACKGROUNDS = [214, 117, 36, 227, 32, 166, 175, 250, 108, 180, 147, 223, 66, 152, 217, 144, 189, 137,
                109, 230]


def _stars(data: dict[str, Any]) -> set[tuple[int, int]]:
    return {(r, c) for r, c in data.get("solution", [])}


def plain(data: dict[str, Any], *, with_solution: bool = True) -> str:
    """Region letters, `*` on the answer's stars; a header line names the board."""
    rules = data["rules"]
    stars = _stars(data) if with_solution else set()
    lines = [f"# {data.get('id', '?')} {data['game']} {rules['size']}x{rules['size']}"
             f" stars={rules.get('stars', 1)}{' diagonals' if rules.get('diagonals') else ''}"]
    for r, row in enumerate(data["regions"]):
        lines.append(" ".join("*" if (r, c) in stars else _LETTERS[label] for c, label in enumerate(row)))
    return "\n".join(lines)


def coloured(data: dict[str, Any]) -> str:
    """Regions as coloured cells (ANSI 256 colours), stars as ★."""
    stars = _stars(data)
    lines = []
    for r, row in enumerate(data["regions"]):
        cells = []
        for c, label in enumerate(row):
            mark = "★" if (r, c) in stars else _LETTERS[label].lower()
            cells.append(f"\x1b[48;5;{_BACKGROUNDS[label % len(_BACKGROUNDS)]}m\x1b[30m {mark} \x1b[0m")
        lines.append("".join(cells))
    return "\n".join(lines)


def explained(data: dict[str, Any]) -> str:
    """The solve path in words, one numbered line per step, after the grade."""
    difficulty = data.get("difficulty") or {}
    lines = [f"difficulty {difficulty.get('band')} (score {difficulty.get('score')}, hardest "
             f"{difficulty.get('hardest')}); fun {(data.get('fun') or {}).get('score')}"]
    for number, step in enumerate(data.get("steps") or [], 1):
        lines.append(f"{number:3}. [{step['technique']}, {step['cost']}] {step['why']}")
    return "\n".join(lines)
