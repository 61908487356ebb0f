"""The puzz.link (pzprjs) Star Battle URL: `https://puzz.link/p?starbattle/{cols}/{rows}/{stars}/{borders}`.

Borders: first the walls between horizontally adjacent cells, row by row, then those between vertically
adjacent cells, row by row; a bit is 1 where the two cells lie in different regions. Each group is packed
on its own, 5 bits per base-32 character (0-9a-v), most significant bit first, zero-padded at the end.
"""

from __future__ import annotations

import re

from engine.errors import InvalidBoard, PuzzleError
from engine.games.starbattle.board import Board
from engine.games.starbattle.rules import Rules

_DIGITS = "0123456789abcdefghijklmnopqrstuv"
_URL = re.compile(r"^(?:https?://[^?]+\?)?starbattle/(\d+)/(\d+)/(\d+)/([0-9a-v]+)/?$")


def _pack(bits: list[int]) -> str:
    bits = bits + [0] * (-len(bits) % 5)
    return "".join(_DIGITS[int("".join(map(str, bits[i:i + 5])), 2)] for i in range(0, len(bits), 5))


def _unpack(text: str, count: int) -> list[int]:
    bits = [int(b) for ch in text for b in format(_DIGITS.index(ch), "05b")]
    return bits[:count]


def to_url(board: Board) -> str:
    n, labels = board.n, board.regions
    across = [int(labels[r * n + c] != labels[r * n + c + 1]) for r in range(n) for c in range(n - 1)]
    down = [int(labels[r * n + c] != labels[(r + 1) * n + c]) for r in range(n - 1) for c in range(n)]
    return f"https://puzz.link/p?starbattle/{n}/{n}/{board.rules.stars}/{_pack(across)}{_pack(down)}"


def from_url(url: str) -> Board:
    """Read a puzz.link Star Battle URL (square boards only) into a Board without a solution."""
    match = _URL.match(url.strip())
    if not match:
        raise InvalidBoard("not a puzz.link starbattle URL")
    cols, rows, stars, body = int(match[1]), int(match[2]), int(match[3]), match[4]
    if cols != rows:
        raise InvalidBoard(f"only square boards are supported, not {cols}x{rows}")
    n = cols
    try:
        rules = Rules(n, stars)
    except PuzzleError as exc:
        raise InvalidBoard(str(exc)) from None
    across_chars = -(-(n - 1) * n // 5)
    down_chars = -(-n * (n - 1) // 5)
    if len(body) != across_chars + down_chars:
        raise InvalidBoard(f"border data has {len(body)} characters, a {n}x{n} board needs "
                           f"{across_chars + down_chars}")
    across = _unpack(body[:across_chars], (n - 1) * n)
    down = _unpack(body[across_chars:], n * (n - 1))
    labels = _label_pieces(n, across, down)
    if len(set(labels)) != n:
        raise InvalidBoard(f"the borders draw {len(set(labels))} regions, a {n}x{n} board needs {n}")
    return Board(rules, tuple(labels))


def _label_pieces(n: int, across: list[int], down: list[int]) -> list[int]:
    """Number the connected pieces that the walls cut the grid into, in row-major order."""
    labels = [-1] * (n * n)
    count = 0
    for start in range(n * n):
        if labels[start] != -1:
            continue
        labels[start] = count
        stack = [start]
        while stack:
            cell = stack.pop()
            r, c = divmod(cell, n)
            steps = []
            if c + 1 < n and not across[r * (n - 1) + c]:
                steps.append(cell + 1)
            if c > 0 and not across[r * (n - 1) + c - 1]:
                steps.append(cell - 1)
            if r + 1 < n and not down[r * n + c]:
                steps.append(cell + n)
            if r > 0 and not down[(r - 1) * n + c]:
                steps.append(cell - n)
            for nb in steps:
                if labels[nb] == -1:
                    labels[nb] = count
                    stack.append(nb)
        count += 1
    return labels
