"""Routes of the read API. Every request reads through its own read-only session; board JSON is sent
as stored (no parse and re-dump); every cacheable answer carries an ETag and Cache-Control, and a
matching If-None-Match gets 304. Drawing (pictures, print pages, the player, puzz.link) runs off the
event loop on the API's drawing threads and is kept per board version (store.api.offload). The JSON
routes answer on the loop: each is one indexed read (well under a millisecond on SQLite), and handing
it to a thread measured 40% fewer requests per second (BENCHMARKS.md)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from time import monotonic
import inspect
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from datetime import date, datetime, time, timedelta, timezone
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field, create_model
from urllib.parse import urlencode

from sqlalchemy import Engine, bindparam, select
from sqlmodel import col

import store
from engine import (ENGINE_VERSION, PuzzleError, all_games, board_schema_text, check_style_filter, game_of,
                    recorded_option_specs)
from store.api.http import FAVICON, HeadAsGet, cors_origins, pictures_dir
from store.api.offload import Drawn, drawn
from store.api.player import add_player_routes
from store.db import make_engine, session
from store.errors import StoreError
from store.models import Puzzle
from store.errors import StoreUnreachable
from store.repo import TOTAL_CAP, Listing, board_page, count_listing, recorded_options
from store.render import RenderError, png, print_page, svg

MAX_LIMIT = 200
BOARD_CACHE = "public, max-age=300"      # a board changes only when re-graded; the ETag revalidates it
# A picture shows the grid and the answer, which the board's id (its fingerprint) names: a re-grade
# leaves it as it is, so browsers and CDNs may serve repeats for a day without asking.
PICTURE_CACHE = "public, max-age=86400"
LIST_CACHE = "public, max-age=30"
# A listing's total is counted once per filter set in this long (a listing's own max-age), so that a
# page costs its one index read; a board stored meanwhile shows in the pages at once, in `total` after.
COUNT_SECONDS = 30.0
COUNTS_KEPT = 1024
_NAME = r"^[a-z][a-z0-9-]{0,31}$"


def _page_model() -> type[BaseModel]:
    """The listing's page model: a board's summary names each option its rules record (stars,
    diagonals, ...: every game's, as the games declare them), between its size and its band."""
    recorded = {spec.name: (spec.kind | None, Field(None, description=spec.help)) for spec in recorded_option_specs()}
    summary = create_model("BoardSummary", id=(str, ...), game=(str, ...), size=(int, ...), **recorded,
                           band=(str | None, ...), score=(int | None, ...), created_at=(datetime, ...), url=(str, ...),
                           style=(str | None, Field(None, description="the drawing style, where the board records one")))
    return create_model(
        "BoardPage",
        total=(int, Field(description=f"how many boards match the filters, counted up to {TOTAL_CAP:,}")),
        total_capped=(bool, Field(description=f"true when more than {TOTAL_CAP:,} match (total is then "
                                              f"{TOTAL_CAP:,})")),
        limit=(int, ...),
        next=(str | None, Field(description="the next page's URL (this listing from after its last board), "
                                            "or null on the last page")),
        boards=(list[summary], ...))


def _option_filters() -> Any:
    """A dependency taking, as query parameters, each option some game's boards record in their rules
    (GET /boards?stars=2&diagonals=false), typed and bounded as the games declare it; it gives the
    ones asked for, by name."""
    def asked(**values: Any) -> dict[str, Any]:
        return {name: value for name, value in values.items() if value is not None}

    asked.__signature__ = inspect.Signature([  # type: ignore[attr-defined]  # what FastAPI reads
        inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY,
                          annotation=(Literal[spec.choices] if spec.choices else spec.kind) | None,
                          default=Query(None, ge=spec.low, le=spec.high, description=spec.help))
        for spec in recorded_option_specs()])
    return asked


class StyleChoice(BaseModel):
    rules: dict[str, Any] = Field(description="the rules fields these styles go with, beyond the size "
                                              "(e.g. {\"stars\": 1, \"diagonals\": false})")
    sizes: list[int] = Field(description="[smallest, largest]: the sizes they go with")
    styles: list[str] = Field(description="the styles a request of these rules may ask for (generate "
                                          "--style), the default first")


class GameInfo(BaseModel):
    name: str
    title: str
    bands: list[str]
    input: str = Field(description="marks or digits: how the player takes entries")
    styles: list[StyleChoice] = Field(description="the drawing styles by rules; empty for a game without styles")


class Health(BaseModel):
    status: str
    engine_version: str


class Steps(BaseModel):
    id: str
    difficulty: dict[str, Any] | None
    steps: list[dict[str, Any]]


class DailySet(BaseModel):
    date: date
    boards: list[dict[str, Any]]


NOT_FOUND = {404: {"description": "no board with this id"}}


def _etag(*parts: str) -> str:
    digest = hashlib.sha1()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return f'"{digest.hexdigest()[:24]}"'


def fresh(request: Request, etag: str) -> bool:
    """Whether the client's copy is current: If-None-Match names this ETag, or is "*" (any copy)."""
    wanted = request.headers.get("if-none-match") or ""
    return wanted.strip() == "*" or etag in wanted


def _cached(request: Request, body: bytes | str, media_type: str, etag: str, cache: str) -> Response:
    headers = {"ETag": etag, "Cache-Control": cache}
    if fresh(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(content=body, media_type=media_type, headers=headers)


_BOARD = select(col(Puzzle.data)).where(col(Puzzle.id) == bindparam("id"))


def create_app(db_url: str | None = None, *, db: Engine | None = None) -> FastAPI:
    """The app; it opens its engine (PUZZLEFLEET_DB when db_url is None) at start-up, or uses `db`."""
    state: dict[str, Engine] = {}
    pictures = Drawn()                       # drawings of this app's boards, by ETag
    counts: dict[Listing, tuple[float, tuple[int, bool]]] = {}     # filters -> (when counted, total)
    picture_files = pictures_dir()

    def picture_file(board_id: str, kind: str, solution: bool) -> Path | None:
        """Where a puzzle picture is kept for a static server (only the plain puzzle: the URL a static
        server can map to a file without reading its query)."""
        return None if picture_files is None or solution else picture_files / "boards" / f"{board_id}.{kind}"

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        state["db"] = db if db is not None else make_engine(db_url)
        yield
        if db is None:
            state["db"].dispose()

    app = FastAPI(title="puzzlefleet", version=ENGINE_VERSION, lifespan=lifespan,
                  description="Read API over the puzzle store: boards as board JSON (schema at "
                              "/schema/board.json), their solve paths, pictures, print pages and the player.")

    origins = cors_origins()
    if origins:
        # Read-only and without cookies: no credentials, whatever the origins.
        app.add_middleware(CORSMiddleware, allow_origins=origins, allow_credentials=False,
                           allow_methods=["GET", "HEAD"], expose_headers=["ETag", "Cache-Control"])
    app.add_middleware(HeadAsGet)

    def engine_() -> Engine:
        if "db" not in state:                 # used without the lifespan (no `with TestClient(app)`)
            state["db"] = db if db is not None else make_engine(db_url)
        return state["db"]

    def board_text(board_id: str) -> str:
        with session(engine_(), read_only=True) as s:
            text = s.connection().execute(_BOARD, {"id": board_id}).scalar()
        if text is None:
            raise HTTPException(404, f"no board with id {board_id}")
        return text

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=503)

    @app.exception_handler(RenderError)
    async def render_error(_request: Request, exc: RenderError) -> JSONResponse:
        return JSONResponse({"detail": f"cannot draw this board: {exc}"}, status_code=422)

    @app.get("/health", response_model=Health, tags=["meta"])
    async def health() -> Response:
        with session(engine_(), read_only=True) as s:
            s.scalar(select(1))
        return JSONResponse({"status": "ok", "engine_version": ENGINE_VERSION},
                            headers={"Cache-Control": "no-store"})

    @app.get("/schema/board.json", tags=["meta"], responses={
        200: {"content": {"application/schema+json": {}}, "description": "the JSON Schema of a board"}})
    def get_board_schema(request: Request) -> Response:
        body = board_schema_text()       # the registered games' (a game added later shows up)
        return _cached(request, body, "application/schema+json", _etag(body), BOARD_CACHE)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/games", tags=["meta"], response_model=list[GameInfo])
    def get_games() -> Response:
        """The games this store can hold, with the bands a board of each may have and the drawing styles
        by rules (sizes, and the other rules fields each group goes with; the default style first)."""
        body = [{"name": game.name, "title": game.title, "bands": list(game.bands), "input": game.input_mode,
                 "styles": [group.to_json() for group in game.style_groups()]}
                for game in all_games()]
        return JSONResponse(body, headers={"Cache-Control": LIST_CACHE})

    @app.get("/boards", response_model=_page_model(), tags=["boards"])
    async def list_boards(
        request: Request,
        options: Annotated[dict[str, Any], Depends(_option_filters())],
        game: Annotated[str | None, Query(pattern=_NAME, description="a game's name, as /games lists them")] = None,
        size: Annotated[int | None, Query(ge=1, le=64)] = None,
        band: Annotated[str | None, Query(pattern=_NAME, description="easy, medium, hard, expert, ...")] = None,
        style: Annotated[str | None, Query(pattern=_NAME, description="a drawing style, as /games lists them "
                                           "(422 when no board of the other filters can have it)")] = None,
        day: Annotated[date | None, Query(alias="date", description="boards stored on this UTC day")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 50,
        order: Annotated[Literal["oldest", "newest"], Query(description="oldest first (the default: new "
                                                            "boards join the end) or newest first")] = "oldest",
        cursor: Annotated[str | None, Query(max_length=200, description="where the listing continues: "
                                            "take it from a page's `next`")] = None,
        offset: Annotated[int, Query(ge=0, le=10_000_000, deprecated=True, description="only 0: pages go "
                                     "by their `next` link")] = 0,
    ) -> Response:
        if offset:
            # Skipping `offset` rows costs as many reads as it skips; a cursor costs one page's.
            raise HTTPException(422, "offset is no longer taken: follow each page's `next` link "
                                     "(/boards?...&cursor=...) from the first page")
        if style is not None:
            try:
                check_style_filter(style, game=game, size=size, **options)
            except PuzzleError as exc:
                raise HTTPException(422, str(exc)) from None
        start = end = None
        if day is not None:
            start = datetime.combine(day, time(), timezone.utc)
            if day < date.max:                # the last day there is has no day after it
                end = start + timedelta(days=1)
        try:
            listing = Listing.of(game=game, size=size, band=band, style=style, options=options, start=start,
                                 end=end, after=cursor, newest_first=order == "newest")
            filters = replace(listing, after=None)
            known = counts.get(filters)
            with session(engine_(), read_only=True) as s:
                rows, after = board_page(session=s, listing=listing, limit=limit)
                if known is None or monotonic() - known[0] > COUNT_SECONDS:
                    known = counts[filters] = (monotonic(), count_listing(session=s, listing=filters))
                    if len(counts) > COUNTS_KEPT:
                        del counts[next(iter(counts))]      # the oldest counted
            total, capped = known[1]
        except StoreError as exc:
            if not isinstance(exc, StoreUnreachable) and exc.__cause__ is None:
                raise HTTPException(422, str(exc)) from None      # a bad cursor or option value
            raise
        boards = [{"id": r["id"], "game": r["game"], "size": r["size"], **recorded_options(r["rules"]),
                   "band": r["band"], "score": r["score"],
                   "created_at": (r["created_at"] if r["created_at"].tzinfo
                                  else r["created_at"].replace(tzinfo=timezone.utc)).isoformat(),
                   "url": f"/boards/{r['id']}", "style": r["style"]} for r in rows]
        follow = None
        if after is not None:
            query = [(k, v) for k, v in request.query_params.multi_items() if k not in ("cursor", "offset")]
            follow = f"/boards?{urlencode([*query, ('cursor', after)])}"
        body = json.dumps({"total": total, "total_capped": capped, "limit": limit, "next": follow,
                           "boards": boards}, separators=(",", ":"))
        return _cached(request, body, "application/json", _etag(body), LIST_CACHE)

    # The picture routes come before /boards/{board_id}: that pattern would swallow "ID.svg".
    @app.get("/boards/{board_id}.svg", tags=["pictures"], responses={
        **NOT_FOUND, 200: {"content": {"image/svg+xml": {}}, "description": "the board as SVG"}})
    async def board_svg(request: Request, board_id: str, solution: bool = False) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "svg", str(solution))
        if fresh(request, etag):
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": PICTURE_CACHE})
        body = await drawn(pictures, etag, lambda: svg(json.loads(text), solution=solution),
                           file=picture_file(board_id, "svg", solution))
        return _cached(request, body, "image/svg+xml", etag, PICTURE_CACHE)

    @app.get("/boards/{board_id}.png", tags=["pictures"], responses={
        **NOT_FOUND, 200: {"content": {"image/png": {}}, "description": "the board as PNG"}})
    async def board_png(request: Request, board_id: str, solution: bool = False) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "png", str(solution))
        headers = {"ETag": etag, "Cache-Control": PICTURE_CACHE,
                   "Content-Disposition": f'inline; filename="{board_id}-{"solution" if solution else "puzzle"}.png"'}
        if fresh(request, etag):
            return Response(status_code=304, headers=headers)
        body = await drawn(pictures, etag, lambda: png(json.loads(text), solution=solution),
                           file=picture_file(board_id, "png", solution))
        return Response(body, media_type="image/png", headers=headers)

    @app.get("/boards/{board_id}.pzpr", tags=["pictures"], responses={
        **NOT_FOUND, 422: {"description": "the game has no puzz.link form"},
        200: {"content": {"text/plain": {}}, "description": "the puzz.link URL"}})
    async def board_pzpr(request: Request, board_id: str) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "pzpr")

        def url() -> tuple[int, str]:
            data = json.loads(text)
            try:
                game = game_of(data)
                return 200, game.to_url(game.board_from_json(data)) + "\n"
            except PuzzleError as exc:        # kept too: the answer cannot change until the board does
                return 422, str(exc)
        status, body = await drawn(pictures, etag, url)
        if status != 200:
            raise HTTPException(status, body)
        return _cached(request, body, "text/plain; charset=utf-8", etag, BOARD_CACHE)

    @app.get("/boards/{board_id}", tags=["boards"], responses={
        **NOT_FOUND, 200: {"content": {"application/json": {}},
                           "description": "the board JSON, as stored (schema at /schema/board.json)"}})
    async def get_board(request: Request, board_id: str) -> Response:
        text = board_text(board_id)
        return _cached(request, text, "application/json", _etag(text), BOARD_CACHE)

    @app.get("/boards/{board_id}/steps", response_model=Steps, tags=["boards"], responses=NOT_FOUND)
    async def get_steps(request: Request, board_id: str) -> Response:
        text = board_text(board_id)
        data = json.loads(text)
        body = json.dumps({"id": data.get("id"), "difficulty": data.get("difficulty"),
                           "steps": data.get("steps") or []}, separators=(",", ":"))
        return _cached(request, body, "application/json", _etag(text, "steps"), BOARD_CACHE)

    @app.get("/boards/{board_id}/print", response_class=HTMLResponse, tags=["pictures"], responses=NOT_FOUND)
    async def get_print(request: Request, board_id: str) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "print")
        if fresh(request, etag):
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": BOARD_CACHE})
        body = await drawn(pictures, etag, lambda: print_page([json.loads(text)], title=f"puzzlefleet {board_id}"))
        return _cached(request, body, "text/html; charset=utf-8", etag, BOARD_CACHE)

    @app.get("/daily/{day}", response_model=DailySet, tags=["daily"],
             responses={404: {"description": "no set for this day"}})
    async def get_daily(request: Request, day: date) -> Response:
        with session(engine_(), read_only=True) as s:
            boards = store.daily_set(session=s, day=day)
        if not boards:
            raise HTTPException(404, f"no daily set for {day.isoformat()}")
        body = json.dumps({"date": day.isoformat(), "boards": boards}, separators=(",", ":"))
        return _cached(request, body, "application/json", _etag(body), LIST_CACHE)

    add_player_routes(app, board_text, pictures, _etag, fresh)
    return app
