"""The solve path in words, for `show` and `solve --explain` (a board's grid as text is its game's)."""

from __future__ import annotations

from typing import Any


def explained(data: dict[str, Any]) -> str:
    """The solve path in words, one numbered line per step, after the grade."""
    difficulty = data.get("difficulty") or {}
    style = f"; style {data['style']}" if data.get("style") else ""
    lines = [f"difficulty {difficulty.get('band')} (score {difficulty.get('score')}, hardest "
             f"{difficulty.get('hardest')}); fun {(data.get('fun') or {}).get('score')}{style}"]
    for number, step in enumerate(data.get("steps") or [], 1):
        lines.append(f"{number:3}. [{step['technique']}, {step['cost']}] {step['why']}")
    return "\n".join(lines)
