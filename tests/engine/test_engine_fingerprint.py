"""Canonical fingerprints: one value per board up to the 8 symmetries of the square and relabelling."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.starbattle.fingerprint import canonical_labels, fingerprint
from engine.core.grid import symmetries
from engine.games.starbattle import Board, Rules, generate


def rotate(n: int, labels, turns: int = 1) -> list[int]:
    """Own quarter turn clockwise (independent of engine.core.grid)."""
    out = list(labels)
    for _ in range(turns):
        out = [out[(n - 1 - c) * n + r] for r in range(n) for c in range(n)]
    return out


def mirror(n: int, labels) -> list[int]:
    return [labels[r * n + (n - 1 - c)] for r in range(n) for c in range(n)]


def own_symmetries(n: int, labels) -> list[list[int]]:
    images = []
    for flip in (False, True):
        base = mirror(n, labels) if flip else list(labels)
        for turns in range(4):
            images.append(rotate(n, base, turns))
    return images


def relabel(labels, rng: random.Random) -> list[int]:
    names = sorted(set(labels))
    new = rng.sample(range(1000), len(names))
    mapping = dict(zip(names, new))
    return [mapping[x] for x in labels]


@st.composite
def grids(draw, max_n: int = 7, max_labels: int = 7):
    n = draw(st.integers(1, max_n))
    labels = draw(st.lists(st.integers(0, max_labels - 1), min_size=n * n, max_size=n * n))
    return n, labels


def test_symmetries_are_the_eight_of_the_square() -> None:
    for n in range(2, 8):
        maps = symmetries(n)
        assert len(maps) == 8 and len(set(maps)) == 8
        identity = tuple(range(n * n))
        assert identity in maps
        for image in maps:
            assert sorted(image) == list(range(n * n))
        # closed under composition: a group
        as_set = set(maps)
        for a in maps:
            for b in maps:
                assert tuple(b[a[i]] for i in range(n * n)) in as_set
        # the same 8 images as our own rotations and mirror
        cells = list(range(n * n))
        own = {tuple(img) for img in own_symmetries(n, cells)}
        moved = set()
        for image in maps:
            out = [0] * (n * n)
            for cell in cells:
                out[image[cell]] = cell
            moved.add(tuple(out))
        assert moved == own


@settings(max_examples=300, deadline=None)
@given(grid=grids(), seed=st.integers(0, 2**32))
def test_invariant_under_symmetry_and_relabelling(grid, seed: int) -> None:
    n, labels = grid
    rng = random.Random(seed)
    expected = canonical_labels(n, labels)
    digest = fingerprint("queens 8", n, labels)
    for image in own_symmetries(n, labels):
        changed = relabel(image, rng)
        assert canonical_labels(n, changed) == expected
        assert fingerprint("queens 8", n, changed) == digest


@settings(max_examples=300, deadline=None)
@given(grid=grids())
def test_canonical_form_is_a_relabelled_image(grid) -> None:
    n, labels = grid
    canon = canonical_labels(n, labels)
    assert len(canon) == n * n
    # labels renumbered by first appearance: 0, then each new label one more than the largest so far
    top = -1
    for label in canon:
        assert label <= top + 1
        top = max(top, label)
    assert len(set(canon)) == len(set(labels))
    assert canonical_labels(n, canon) == canon, "idempotent"
    forms = []
    for image in own_symmetries(n, labels):
        names: dict[int, int] = {}
        forms.append(tuple(names.setdefault(x, len(names)) for x in image))
    assert canon == min(forms)


@settings(max_examples=300, deadline=None)
@given(a=grids(max_n=3, max_labels=3), b=grids(max_n=3, max_labels=3))
def test_equal_fingerprints_exactly_when_equivalent(a, b) -> None:
    """On tiny grids collisions are common: equal digests iff one is a relabelled symmetric image."""
    (n, x), (m, y) = a, b
    if n != m:
        assert fingerprint("k", n, x) != fingerprint("k", m, y)
        return

    def norm(labels):
        names: dict[int, int] = {}
        return tuple(names.setdefault(v, len(names)) for v in labels)
    equivalent = any(norm(image) == norm(y) for image in own_symmetries(n, x))
    assert (fingerprint("k", n, x) == fingerprint("k", n, y)) == equivalent


def test_kind_is_part_of_the_fingerprint() -> None:
    labels = [0, 0, 1, 1]
    assert fingerprint("queens 8", 2, labels) != fingerprint("starbattle 8 2", 2, labels)


def test_board_fingerprint_and_id_survive_rotation_mirror_and_recolouring() -> None:
    rng = random.Random(8)
    for rules in (Rules(8), Rules(10, 2)):
        board, _ = generate(rules, 21)
        n = rules.size
        for image in own_symmetries(n, board.regions):
            labels = relabel(image, rng)
            names = {x: i for i, x in enumerate(sorted(set(labels)))}   # back into 0..n-1
            other = Board(rules, tuple(names[x] for x in labels))
            assert other.fingerprint == board.fingerprint
            assert other.id == board.id == board.fingerprint[:16]


def test_different_boards_get_different_fingerprints() -> None:
    boards = [generate(Rules(8), seed)[0] for seed in range(120)]
    canon = {canonical_labels(8, b.regions) for b in boards}
    prints = {b.fingerprint for b in boards}
    assert len(prints) == len(canon) >= 115
    # random labellings almost never coincide
    rng = random.Random(1)
    many = {fingerprint("queens 6", 6, [rng.randrange(6) for _ in range(36)]) for _ in range(2000)}
    assert len(many) == 2000


@pytest.mark.parametrize("n", [1, 2, 3, 9, 16])
def test_fingerprint_is_a_sha256_hex_digest(n: int) -> None:
    digest = fingerprint("queens 8", n, [0] * (n * n))
    assert len(digest) == 64 and int(digest, 16) >= 0
