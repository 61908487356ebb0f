"""What a compiled Star Battle finder found (`_techniques.Prober.find`, `.block_argument` and
`.differential` return one): a step before it is worded. This module imports nothing, so the compiled module can import it at load time.
"""

from __future__ import annotations

from typing import NamedTuple


class Finding(NamedTuple):
    """Sets of cells are bitsets (bit r * n + c); units are numbered rows 0..n-1, columns n..2n-1,
    regions 2n..3n-1. What `need` and `count` hold is the technique's own (see each finder)."""

    place: int                  # cells every solution stars
    eliminate: int              # cells no solution uses
    units: tuple[int, ...]      # the units the deduction reasons about, in the order the sentence names them
    need: int = 0               # the stars the units (or an area) still need
    count: int = 0              # a count of the technique's: a counting group's size, an area's exact need
    blocks: int = 0             # the 2x2 blocks a block argument covers its area with


__all__ = ["Finding"]
