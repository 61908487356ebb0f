"""The step record: one deduction of a solve path, as a value.

A step names the technique that found it, what it costs, the cells it fills ("place") and rules out
("eliminate"), the units it reasons about, and one plain sentence saying why. Cells are whatever the
game numbers them by (Star Battle: r * n + c); `units` are human names such as "row 3" or "region 5".
Finding a step and applying it are separate (HoDoKu's getStep/doStep), so a step can be recorded,
replayed, shown and tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Step:
    technique: str
    cost: int
    place: tuple[int, ...] = ()
    eliminate: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    why: str = ""

    @property
    def progress(self) -> bool:
        """Whether applying the step changes anything (a step that does not is a bug in its finder)."""
        return bool(self.place or self.eliminate)
