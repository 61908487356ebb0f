"""The killer bands no board is found in, by band: a request for one is refused at once."""

from __future__ import annotations

# None: bench/bench_band_table.py found boards in every band the game offers, at every size (whole
# `generate` processes, seeds 1-3, 60 s each; bench/results/band_table.json).
UNREACHABLE: dict[str, str] = {}
