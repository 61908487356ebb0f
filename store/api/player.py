"""GET /play/{id}: one self-contained page (CSS, JS and the board inlined; no CDN), so it keeps
working offline once loaded. What the page plays (marks or digits, symbols, conflict checks, answer,
hints) is the board's game's `play` spec, and how its parts look is the pictures' drawing: the
symbols' shapes and the clues on edges as the game declares them (`Game.drawing`), the outlines as
store.render draws them; the script knows no game."""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Path as PathParam, Request
from fastapi.responses import HTMLResponse, Response

from engine import EdgeClue, game_of
from engine.games.base import Drawing
from store.api.offload import Drawn, drawn
from store.render import area_colours, heading, outline_path, rules_text, shape_path

STATIC = Path(__file__).resolve().parent / "static"


@lru_cache(maxsize=1)
def _assets() -> tuple[str, str, str]:
    return ((STATIC / "player.html").read_text(encoding="utf-8"), (STATIC / "player.css").read_text(encoding="utf-8"),
            (STATIC / "player.js").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _assets_digest() -> str:
    return hashlib.sha1("\0".join(_assets()).encode()).hexdigest()[:12]


def _json_in_script(value: object) -> str:
    # "</" inside a <script> would end it early: escape the slash.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def player_page(data: dict) -> str:
    page, css, js = _assets()
    game = game_of(data)
    spec = game.play(data)
    title = heading(data)
    # the same colouring as the PNG/SVG pictures and the print page, by area label
    colours = area_colours(spec.areas) if spec.coloured else {}
    # the game's drawing of its parts, in grid units (the page scales them with its board)
    glyphs = game.drawing.glyphs
    drawing = {"outlines": [{"label": o.label, "first": min(o.cells), "d": outline_path(spec.n, o.cells)}
                            for o in spec.outlines],
               "glyphs": {symbol: {"d": shape_path(glyphs[symbol]), "fill": glyphs[symbol].fill,
                                   "stroke": glyphs[symbol].stroke}
                          for symbol in (*spec.symbols, *spec.givens) if symbol in glyphs},
               "edges": [_edge(spec.n, clue, game.drawing) for clue in spec.edges]}
    board = {"id": str(data.get("id")), "title": title}
    return (page.replace("{{TITLE}}", html.escape(title)).replace("{{RULES}}", html.escape(rules_text(data)))
            .replace("{{MODE}}", html.escape(spec.mode)).replace("{{ID}}", html.escape(str(data.get("id"))))
            .replace("{{CSS}}", css).replace("{{BOARD}}", _json_in_script(board))
            .replace("{{COLOURS}}", _json_in_script(colours))
            .replace("{{DRAWING}}", _json_in_script(drawing)).replace("{{PLAY}}", _json_in_script(spec.to_json()))
            .replace("{{JS}}", js))


def _edge(n: int, clue: EdgeClue, drawing: Drawing) -> dict[str, object]:
    """A clue on an edge as the page draws it: its centre and the game's strokes in grid units ([]: the
    symbol as type)."""
    (r0, c0), (r1, c1) = divmod(clue.cells[0], n), divmod(clue.cells[1], n)
    x, y = (c0 + c1) / 2 + 0.5, (r0 + r1) / 2 + 0.5
    mark = drawing.marks.get(clue.symbol)
    strokes = mark.strokes(x, y, 1.0) if mark else []
    return {"x": x, "y": y, "symbol": clue.symbol, "cells": list(clue.cells),
            "strokes": [[round(v, 4) for v in stroke] for stroke in strokes]}


def add_player_routes(app: FastAPI, board_text: Callable[[str], str], pictures: Drawn,
                      etag_of: Callable[..., str], fresh: Callable[[Request, str], bool], *,
                      responses: dict[int | str, dict[str, Any]]) -> None:
    """GET /play/{board_id}, answering as `responses` declares (the app's error body and 304)."""
    @app.get("/play/{board_id}", response_class=HTMLResponse, tags=["player"], operation_id="play_board",
             responses=responses)
    async def play(request: Request,
                   board_id: Annotated[str, PathParam(min_length=1, description="a board's id, as listings give it")]
                   ) -> Response:
        text = board_text(board_id)
        etag = etag_of(text, "play", _assets_digest())     # a new player is a new page too
        headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
        if fresh(request, etag):
            return Response(status_code=304, headers=headers)
        page = await drawn(pictures, etag, lambda: player_page(json.loads(text)))
        return HTMLResponse(page, headers=headers)
