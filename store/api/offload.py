"""Drawing off the event loop, once per board version.

A picture, a print page or a player page is drawn on one of two threads of the API's own, so that a
slow drawing never holds up the JSON routes on the event loop (with 8 clients fetching PNGs, the board
JSON route answered about twice as many requests as when pictures were drawn in Starlette's pool of 40
threads, which contend for the GIL). Each drawing is kept, by a key that changes with the stored
board (its ETag), in a bounded LRU: a board is drawn again only when it is re-graded or forgotten.
A drawing may also be written to a file (atomically, on the drawing thread), for a static server to
send from then on without asking the API.
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

DRAWING_THREADS = 2
KEPT = 512                 # drawings kept: a few MB at most (a 14x14 PNG is about 6 KB)

_pool = ThreadPoolExecutor(max_workers=DRAWING_THREADS, thread_name_prefix="puzzlefleet-draw")


class Drawn:
    """A thread-safe LRU of finished drawings."""

    def __init__(self, size: int = KEPT) -> None:
        self._items: OrderedDict[str, object] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: str) -> object | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: object) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def write_file(path: Path, body: bytes | str) -> None:
    """Write `body` to `path` whole or not at all (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(body.encode() if isinstance(body, str) else body)
        os.chmod(temporary, 0o644)          # for a static server running as another user
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


async def drawn(cache: Drawn, key: str, draw: Callable[[], T], *, file: Path | None = None) -> T:
    """The drawing kept under `key`, or `draw()` run on a drawing thread and kept (and written to
    `file`, when given, on that thread too)."""
    found = cache.get(key)
    if found is None:
        def draw_and_keep() -> T:
            body = draw()
            if file is not None:
                try:
                    write_file(file, body)  # type: ignore[arg-type]
                except OSError as exc:     # a full disk: the API still answers, the static server asks again
                    log.warning("cannot keep %s: %s", file, exc.strerror or exc)
            return body
        found = await asyncio.get_running_loop().run_in_executor(_pool, draw_and_keep)
        cache.put(key, found)
    return found  # type: ignore[return-value]
