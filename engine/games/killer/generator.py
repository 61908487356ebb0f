"""Generating a Killer Sudoku board (not written yet: boards are solved and graded only)."""

from __future__ import annotations

from typing import Any

from engine.errors import InvalidRules

GENERATED = ("easy", "medium", "hard", "expert")


def generate(seed: int, *, band: str | None = None, timeout: float | None = None) -> tuple[Any, Any]:
    raise InvalidRules("Killer Sudoku boards can be solved and graded but not yet generated")
