"""The killer bands no board is found in, by band: a request for one is refused at once."""

from __future__ import annotations

# Filled from bench/bench_band_table.py (see its results, bench/results/band_table.json).
UNREACHABLE: dict[str, str] = {}
