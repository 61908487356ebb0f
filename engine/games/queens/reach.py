"""The Queens bands no board is found in, by rules and band: a request for one is refused at once."""

from __future__ import annotations

from engine.games.starbattle.rules import Rules

# Filled from bench/bench_band_table.py (see its results, bench/results/band_table.json).
UNREACHABLE: dict[tuple[Rules, str], str] = {}
