"""What any HTTP client may expect of the read API beyond its routes: HEAD wherever GET is served,
CORS for the origins the operator lists, a favicon, and pictures kept as files for a static server."""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CORS_VARIABLE = "PUZZLEFLEET_CORS_ORIGINS"
PICTURES_VARIABLE = "PUZZLEFLEET_PICTURES_DIR"

# A star on a dark tile, 32x32: browsers ask for /favicon.ico on every first visit.
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" '
           b'fill="#0072B2"/><polygon fill="#fff" points="16,4 19.5,12.2 28.4,12.9 21.6,18.7 23.7,27.4 16,22.8 '
           b'8.3,27.4 10.4,18.7 3.6,12.9 12.5,12.2"/></svg>')


class HeadAsGet:
    """HEAD on any GET route: the request is served as a GET and its body dropped, so the headers
    (Content-Length, ETag, Cache-Control) are the GET's own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b"", "more_body": False}
                if sent_end:
                    return
                sent_end.append(True)
            await send(message)

        sent_end: list[bool] = []
        await self.app({**scope, "method": "GET"}, receive, headers_only)


def cors_origins(text: str | None = None) -> list[str]:
    """The origins allowed to read the API from a browser script, from PUZZLEFLEET_CORS_ORIGINS
    (comma-separated, none by default). "*" is allowed: the API sends no credentials."""
    raw = os.environ.get(CORS_VARIABLE, "") if text is None else text
    return [origin.strip().rstrip("/") for origin in raw.split(",") if origin.strip()]


def pictures_dir(text: str | None = None) -> Path | None:
    """Where the API keeps each board's puzzle pictures as files, DIR/boards/ID.png and ID.svg (the
    paths of their URLs), for a static server to send: PUZZLEFLEET_PICTURES_DIR, unset by default."""
    raw = (os.environ.get(PICTURES_VARIABLE, "") if text is None else text).strip()
    return Path(raw) if raw else None


__all__ = ["CORS_VARIABLE", "FAVICON", "HeadAsGet", "PICTURES_VARIABLE", "cors_origins", "pictures_dir"]
