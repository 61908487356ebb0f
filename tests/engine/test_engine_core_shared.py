"""engine/core/ holds only what several games share: none of its sources (code, comments and
docstrings alike) names one game's rules or pieces; a game's own code lives in its package
(pyproject.toml's import-linter contract keeps engine.core from importing any game)."""

from __future__ import annotations

import re
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "engine" / "core"
# Words of one game's rules or pieces: the Star Battle family's options and pieces, Killer's cages.
GAME_WORDS = ("stars", "diagonals", "no_touch", "per_unit", "cages")


def test_the_shared_core_names_no_game_s_rules() -> None:
    sources = sorted(path for suffix in ("*.py", "*.pyx", "*.pxd") for path in CORE.glob(suffix))
    assert sources
    pattern = re.compile(r"\b(" + "|".join(GAME_WORDS) + r")\b")
    found = [f"{path.name}:{number}: {line.strip()}" for path in sources
             for number, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert not found, "\n".join(found)
