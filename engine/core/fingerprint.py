"""Canonical fingerprints: one value for a labelled grid under the 8 symmetries of the square and any
relabelling of its labels, so a rotated, mirrored or recoloured copy of a board is recognised."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from engine.core.grid import symmetries


def canonical_labels(n: int, labels: Sequence[int]) -> tuple[int, ...]:
    """The least, over the 8 symmetries, of the grid relabelled by first appearance in row-major order."""
    best: tuple[int, ...] | None = None
    for image in symmetries(n):
        moved = [0] * (n * n)
        for cell, label in enumerate(labels):
            moved[image[cell]] = label
        renumber: dict[int, int] = {}
        form = tuple(renumber.setdefault(label, len(renumber)) for label in moved)
        if best is None or form < best:
            best = form
    assert best is not None
    return best


def fingerprint(kind: str, n: int, labels: Sequence[int]) -> str:
    """A hex digest naming the game and rules (`kind`) and the canonical form of the grid."""
    text = kind + ":" + ",".join(map(str, canonical_labels(n, labels)))
    return hashlib.sha256(text.encode()).hexdigest()
