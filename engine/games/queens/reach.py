"""The Queens cells (rules, band) no board is found in: a request for one is refused at once, naming the
bands its size can have, instead of drawing boards until its attempts run out.

How they were measured: `bench/bench_band_table.py` (results in bench/results/band_table.json) ran every
cell the game offers as whole `generate --count 1` processes (seeds 1-3, 60 s each); the cells where
none was found were run again through the engine alone (`--engine`, seeds 1-3, 1-5 for 7×7 expert,
60 s each), which counts the boards it drew,
proved and graded in other bands meanwhile: that count, with none in the band asked, is the sample
given with each cell below. Those runs shared two cores with a load of 15-20, so a sample is what a
few CPU minutes draw. A sample of N with none found bounds the band's share below about 3/N (95%);
at 8×8 the share needing a trial is small too (a few seeds in a minute each), so for 6×6 and 7×7 the
samples say "none in that many", not "none possible"; with the diagonal rule 8×8 expert boards come in
about a CPU second, so none in 3,000 below it says more. Cells where no board was found only because
the time ran out (Queens expert at 8×8 and up, the diagonal rule's easy bands at 11×11 and up) are
not here: they are reachable, and slow.
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
