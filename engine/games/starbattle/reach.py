"""The Star Battle cells (rules, band) no board is found in: a request for one is refused at once,
naming the bands its size can have, instead of drawing boards until its attempts run out.

How they were measured: `bench/bench_band_table.py` (results in bench/results/band_table.json) ran every
cell the game offers as whole `generate --count 1` processes (seeds 1-3, 60 s each); the small cells
where none was found were run again through the engine alone (`--engine --seeds 5`), which counts the
boards it drew, proved and graded in other bands meanwhile: that count, with none in the band asked,
is the sample given below. A sample of N with none found bounds the band's share below about 3/N
(95%). 8×8 hard came in that run (4 seeds of 5), so it is reachable, and slow. The cells of 13×13 and
up where no board came within 60 s (two cores shared at a load of 15-20: a few CPU seconds a process)
are not here either: they were not looked for long enough to say.
"""

from __future__ import annotations

from engine.games.starbattle.rules import Rules

UNREACHABLE: dict[tuple[Rules, str], str] = {
    (Rules(8, 2), "expert"): "no 8×8 board's summed technique score passes the expert bound, 8,000: none "
                             "among 30,429 graded, bench/bench_band_table.py",
}
