"""Re-grading stored boards with this engine: the one loop `puzzlefleet regrade` runs in process and the
fleet's regrade task runs on a range of ids. No Celery here.

A board graded by another engine version is read, graded again and written back in one transaction per
batch, its row locked meanwhile; it is then at this version and no later pass takes it. So a pass that
is stopped (Ctrl-C, a killed worker) keeps what it wrote, a pass run again does only the rest, and two
passes over the same ids never regrade a board twice."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine

from engine import ENGINE_VERSION, game_of
from store import first_stale_id, regrade_board, session, stale_boards

BATCH = 50                  # boards a transaction regrades
# The fleet's regrade tasks each take the ids with one first hex digit pair: 256 ranges, a few
# thousand boards each on a store of a million.
RANGES = [(None if i == 0 else f"{i - 1:02x}ffffffffffffff", f"{i:02x}ffffffffffffff") for i in range(256)]


def regrade_range(*, db: Engine, after: str | None = None, through: str | None = None,
                  progress: Callable[[int], None] | None = None,
                  stop: Callable[[], bool] | None = None) -> tuple[int, str | None]:
    """Regrade every board with an id above `after` and up to `through` that another engine version
    graded; returns how many this call regraded, and the id to resume after when `stop()` (asked
    between batches) ended it first (None: the range is done). `progress(n)` after each batch."""
    done = 0
    while True:
        if stop is not None and stop():
            return done, after
        with session(db) as s:
            boards = stale_boards(session=s, version=ENGINE_VERSION, after=after, through=through, limit=BATCH)
            for data in boards:
                game = game_of(data)
                regrade_board(session=s, board_id=data["id"], data={**data, **game.describe(game.board_from_json(data))})
        if not boards:
            return done, None
        done += len(boards)
        after = boards[-1]["id"]
        if progress is not None:
            progress(len(boards))


def ranges_left(db: Engine) -> list[tuple[str | None, str | None]]:
    """The RANGES that still hold a board graded by another engine version (a query per such range,
    and one more)."""
    left: list[tuple[str | None, str | None]] = []
    after: str | None = None
    with session(db, read_only=True) as s:
        while (found := first_stale_id(session=s, version=ENGINE_VERSION, after=after)) is not None:
            index = int(found[:2], 16)
            left.append(RANGES[index])
            after = RANGES[index][1]
    return left
