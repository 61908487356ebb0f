"""The sudoku bands no board is found in, by how bands are measured (band_by) and band: a request for one is refused at once."""

from __future__ import annotations

# Filled from bench/bench_band_table.py (see its results, bench/results/band_table.json).
UNREACHABLE: dict[tuple[str, str], str] = {}
