"""The progress bar of `generate` and `enqueue --wait`: tqdm on stderr on a terminal, nothing otherwise."""

from __future__ import annotations

import os
import sys
from typing import Any


class Progress:
    """Boards stored out of `total`, with the rejections so far and the rate; drawn only when `enabled`
    (the caller passes whether stderr is a terminal)."""

    def __init__(self, total: int, enabled: bool, unit: str = " boards") -> None:
        self._bar: Any = None
        self.done = 0
        if enabled:
            from tqdm import tqdm       # tens of milliseconds of imports, paid only when a bar is drawn
            columns, lines = _terminal_size()
            self._bar = tqdm(total=total, unit=unit, file=sys.stderr, ncols=columns, nrows=lines)

    def update(self, done: int, rejected: int | None = None) -> None:
        self.done = done
        if self._bar is None:
            return
        if rejected is not None:
            self._bar.set_postfix_str(f"rejected {rejected}", refresh=False)
        self._bar.update(done - self._bar.n)        # tqdm takes steps; it redraws at most ten times a second

    def close(self) -> None:
        """Draw the last state and end the line."""
        if self._bar is not None:
            self._bar.close()


def _terminal_size() -> tuple[int, int]:
    """stderr's columns and lines; 80 x 24 where the terminal reports none (some ptys do), on which
    tqdm would hide the bar."""
    try:
        columns, lines = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError):
        columns = lines = 0
    return columns or 80, lines or 24
