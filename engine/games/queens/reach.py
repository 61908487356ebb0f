"""The Queens cells (rules, band) no board is found in: a request for one is refused at once, naming the
bands its size can have, instead of drawing boards until its attempts run out.

How they were measured: `bench/bench_band_table.py` (results in bench/results/band_table.json) ran every
cell the game offers as whole `generate --count 1` processes (seeds 1-3, 60 s each); the small cells
where none was found were run again through the engine alone (`--engine`, seeds 1-3, 1-5 for 7×7
expert, 60 s each), which counts the boards it drew, proved and graded in other bands meanwhile: that
count, with none in the band asked, is the sample given with each cell below. Those runs shared two
cores at a load of 15-20, so a sample is what a few CPU minutes draw. A sample of N with none found
bounds the band's share below about 3/N (95%): for 6×6 and 7×7 expert that says "none in that many",
not "none possible" (at 8×8 trials are rare too); with the diagonal rule 8×8 expert boards come in
about a CPU second, so none in 3,000 below it says more. Cells where no board came within 60 s at
larger sizes (Queens expert at 12×12 and 15×15 up, the diagonal rule's easy and medium from 10×10,
hard from 11×11) are not here: found at neighbouring sizes, or not looked for long enough to say.
"""

from __future__ import annotations

from engine.games.starbattle.rules import Rules

_TIER_3 = "a tier-3 technique (counting, blocks, footprints, pressured cells)"


def _none(n: int, needed: str, graded: int) -> str:
    return f"no {n}×{n} board needs {needed}: none among {graded:,} graded, bench/bench_band_table.py"


UNREACHABLE: dict[tuple[Rules, str], str] = {
    (Rules(4), "hard"): _none(4, _TIER_3, 28_266),
    (Rules(4), "expert"): _none(4, "a trial", 31_396),
    (Rules(5), "expert"): _none(5, "a trial", 18_984),
    (Rules(6), "expert"): _none(6, "a trial", 6_875),
    (Rules(7), "expert"): _none(7, "a trial", 8_104),
    (Rules(4, diagonals=True), "hard"): _none(4, _TIER_3, 30_014),
    (Rules(4, diagonals=True), "expert"): _none(4, "a trial", 38_560),
    (Rules(5, diagonals=True), "expert"): _none(5, "a trial", 24_985),
    (Rules(6, diagonals=True), "expert"): _none(6, "a trial", 3_203),
    (Rules(7, diagonals=True), "expert"): _none(7, "a trial", 3_427),
}
