"""Canonical fingerprints: one value for a labelled grid under the 8 symmetries of the square and any
relabelling of its labels, so a rotated, mirrored or recoloured copy of a board is recognised."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache

from engine.games.starbattle._shape import canonical_labels as _canonical_labels_compiled
from engine.core.grid import symmetries


def canonical_labels(n: int, labels: Sequence[int]) -> tuple[int, ...]:
    """The least, over the 8 symmetries, of the grid relabelled by first appearance in row-major order
    (compiled for labels 0..65535, every board's; other labels take the Python walk below)."""
    try:
        return _canonical_labels_compiled(n, labels)
    except (TypeError, ValueError, OverflowError):
        return _canonical_labels_walk(n, labels)


def _canonical_labels_walk(n: int, labels: Sequence[int]) -> tuple[int, ...]:
    best: tuple[int, ...] | None = None
    for source in _sources(n):
        renumber: dict[int, int] = {}
        form = tuple(renumber.setdefault(labels[cell], len(renumber)) for cell in source)
        if best is None or form < best:
            best = form
    assert best is not None
    return best


@cache
def _sources(n: int) -> tuple[tuple[int, ...], ...]:
    """For each symmetry, the cell that lands on each cell (the inverse of its image map)."""
    out = []
    for image in symmetries(n):
        source = [0] * (n * n)
        for cell, target in enumerate(image):
            source[target] = cell
        out.append(tuple(source))
    return tuple(out)


def fingerprint(kind: str, n: int, labels: Sequence[int]) -> str:
    """A hex digest naming the game and rules (`kind`) and the canonical form of the grid."""
    text = kind + ":" + ",".join(map(str, canonical_labels(n, labels)))
    return hashlib.sha256(text.encode()).hexdigest()
