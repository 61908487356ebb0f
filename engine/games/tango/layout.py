"""The model generated Tango layouts are drawn from: where givens and clues sit, fitted on published
boards (bench/fit_tango_layout.py fits it; published.py holds the one fitted on the 250 calibration
boards, which the generator uses).

- `shapes`: the pieces published layouts are made of: a group of given cells side by side (a
  *given piece*: one cell, two, a 2x2 block, a staircase ...) or a group of clued edges touching or
  side by side (a *clue piece*: one clue, two in a line, four round a corner ...), each up to the 8
  symmetries of the square and where it stands;
- `recipes`: one per published board: its symmetry group (an index into GROUPS) and its pieces, each
  with the group it is drawn under and how many images it has under that group (a piece that maps
  onto itself has one). A piece's group is the board's; on a board without symmetry, a piece whose
  image under the board's nearest symmetry is a piece too is drawn under that symmetry (most such
  published boards are symmetric but for a piece or two), the others alone; the recipe's group is
  then that nearest symmetry's, under which pieces added after the recipe are drawn;
- `group_weight`: how readily a recipe of each group is taken (the drawings of some groups fail or
  are set aside more often than others'; these weights give the boards kept the published spread of
  groups);
- `dist_weight`: how readily a clue piece is placed at each distance from the givens (0, 1, ... 4 or
  more cells; 0 touches a given);
- `same_odds`: how much more readily a clue piece is placed for each `=` edge it has beyond half;
- `touch`: the share of drawings whose clues may touch givens;
- `extra_given`: the share of given pieces among those added after the recipe until the board is
  unique;
- `look`: the acceptance of a finished 6x6 layout by its given count, clue count and mean distance
  of a clue from the nearest given (bin edges, then the table, given-major), so that the layouts kept
  are spread as published ones are, and the published envelope (fewest and most givens, fewest and
  most clues) outside which none is kept; None keeps every layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.grid import symmetries

# The symmetry groups of a layout: every subgroup of the square's 8 symmetries, as indexes into
# engine.core.grid.symmetries (0 identity, 1 mirror left-right, 2 mirror top-bottom, 3 half turn,
# 4 transpose, 5 and 6 quarter turns, 7 anti-transpose).
GROUPS: tuple[tuple[int, ...], ...] = (
    (0,), (0, 3), (0, 1), (0, 2), (0, 4), (0, 7), (0, 1, 2, 3), (0, 3, 4, 7), (0, 3, 5, 6),
    (0, 1, 2, 3, 4, 5, 6, 7),
)
GIVEN, CLUE = 0, 1          # a shape's kind


@dataclass(frozen=True)
class LayoutModel:
    shapes: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]   # (kind, ((r, c) | (r, c, r2, c2), ...))
    recipes: tuple[tuple[int, tuple[tuple[int, int, int], ...]], ...]  # (group, ((shape, group, images), ...))
    dist_weight: tuple[float, ...]
    same_odds: float
    touch: float
    extra_given: float
    look: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...],
                tuple[int, int, int, int]] | None = None
    look_size: int = 6                   # the grid size `look` applies to
    group_weight: tuple[float, ...] | None = None
    _drawers: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)

    def drawer(self, n: int) -> Any:
        """The compiled drawer of this model for n x n grids (built once)."""
        drawer = self._drawers.get(n)
        if drawer is None:
            from engine.games.tango._generate import Drawer
            drawer = Drawer(n, symmetries(n), self.shapes, GROUPS, self.recipes, self.dist_weight,
                            self.same_odds, self.touch, self.extra_given,
                            self.look if n == self.look_size else None, self.group_weight)
            self._drawers[n] = drawer
        return drawer

    def without_look(self) -> LayoutModel:
        return LayoutModel(self.shapes, self.recipes, self.dist_weight, self.same_odds, self.touch,
                           self.extra_given, None, self.look_size, self.group_weight)


__all__ = ["CLUE", "GIVEN", "GROUPS", "LayoutModel"]
