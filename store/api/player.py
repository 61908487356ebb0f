"""GET /play/{id}: one self-contained page (CSS, JS and the board inlined; no CDN), so it keeps
working offline once loaded."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from store.render import PALETTE, rules_text

STATIC = Path(__file__).resolve().parent / "static"


@lru_cache(maxsize=1)
def _assets() -> tuple[str, str, str]:
    return ((STATIC / "player.html").read_text(encoding="utf-8"), (STATIC / "player.css").read_text(encoding="utf-8"),
            (STATIC / "player.js").read_text(encoding="utf-8"))


def player_page(data: dict) -> str:
    page, css, js = _assets()
    n = (data.get("rules") or {}).get("size", "?")
    band = (data.get("difficulty") or {}).get("band")
    title = f"{str(data.get('game', '')).title()} {n}×{n}" + (f" · {band}" if band else "")
    # "</" inside a <script> would end it early: escape the slash.
    board_json = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (page.replace("{{TITLE}}", html.escape(title)).replace("{{RULES}}", html.escape(rules_text(data)))
            .replace("{{ID}}", html.escape(str(data.get("id"))))
            .replace("{{CSS}}", css).replace("{{PALETTE}}", json.dumps(PALETTE)).replace("{{BOARD}}", board_json).replace("{{JS}}", js))


def add_player_routes(app: FastAPI, board_text: Callable[[str], str]) -> None:
    @app.get("/play/{board_id}", response_class=HTMLResponse, tags=["player"],
             responses={404: {"description": "no board with this id"}})
    async def play(request: Request, board_id: str) -> Response:
        text = board_text(board_id)
        return HTMLResponse(player_page(json.loads(text)), headers={"Cache-Control": "public, max-age=300"})
