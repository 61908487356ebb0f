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
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from datetime import date, datetime, time, timedelta, timezone
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Path as PathParam, Query, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, BeforeValidator, Field, WrapValidator, create_model
from pydantic_core import PydanticCustomError
from urllib.parse import urlencode

from sqlalchemy import Engine, bindparam, select
from sqlmodel import col

import store
from engine import (ENGINE_VERSION, PuzzleError, all_games, bands, board_schema_text, board_type, game_of, names,
                    recorded_option_specs, style_names)
from engine.games.model import Difficulty, Step
from store.api.errors import add_error_handlers, declared, error_response, refused
from store.api.http import FAVICON, HeadAsGet, cors_origins, pictures_dir
from store.api.offload import Drawn, drawn
from store.api.player import add_player_routes
from store.db import make_engine, read
from store.errors import StoreError
from store.models import Puzzle
from store.errors import StoreUnreachable
from store.repo import CURSOR_PATTERN, TOTAL_CAP, Listing, board_page, count_listing, recorded_options
from store.render import RenderError, png, print_page, svg

MAX_LIMIT = 200
MAX_DAYS = 366
BOARD_CACHE = "public, max-age=300"      # a board changes only when re-graded; the ETag revalidates it
# A picture shows the grid and the answer, which the board's id (its fingerprint) names: a re-grade
# leaves it as it is, so browsers and CDNs may serve repeats for a day without asking.
PICTURE_CACHE = "public, max-age=86400"
LIST_CACHE = "public, max-age=30"
# A listing's total is counted once per filter set in this long (a listing's own max-age), so that a
# page costs its one index read; a board stored meanwhile shows in the pages at once, in `total` after.
COUNT_SECONDS = 30.0
COUNTS_KEPT = 1024
NOT_MODIFIED = {304: {"description": "the copy the client holds (If-None-Match) is current: no body"}}


def _one_of(values: tuple[str, ...]) -> Any:
    """The type taking exactly these values (an enum in the schema), as the registry lists them now:
    a game or style added later shows up by itself."""
    return Literal[values]


def _page_model() -> type[BaseModel]:
    """The listing's page model: a board's summary names each option its rules record (stars,
    diagonals, ...: every game's, as the games declare them), between its size and its band."""
    recorded = {spec.name: (spec.kind | None, Field(None, description=spec.help)) for spec in recorded_option_specs()}
    summary = create_model("BoardSummary", id=(str, ...), game=(_one_of(names()), ...), size=(int, ...), **recorded,
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
        cursor=(str | None, Field(description="the next page's `cursor` (the one in `next`), or null on the "
                                              "last page")),
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


def _only_zero(value: Any, handler: Any) -> Any:
    try:
        return handler(value)
    except ValueError:
        raise PydanticCustomError("offset_not_taken", "offset is no longer taken: follow each page's `next` "
                                  "link (/boards?...&cursor=...) from the first page") from None


def _full_date(value: Any) -> Any:
    # pydantic would also read "0" (a Unix time) or "2026-01-15T00:00" as a day; the schema says YYYY-MM-DD.
    if isinstance(value, str) and not FULL_DATE.fullmatch(value):
        raise PydanticCustomError("date_format", "a day is written YYYY-MM-DD")
    return value


FULL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
Day = Annotated[date, BeforeValidator(_full_date)]

# Skipping `offset` rows costs as many reads as it skips; a cursor costs one page's.
OnlyZero = Annotated[int, Field(ge=0, le=0), WrapValidator(_only_zero)]


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


class DailyDays(BaseModel):
    days: list[date] = Field(description="the days that have a set, newest first")
    earlier: date | None = Field(description="`before` for the page of days before these, or null when none is")


class Steps(BaseModel):
    id: str
    difficulty: Difficulty | None
    steps: list[Step]


class SvgResponse(Response):
    media_type = "image/svg+xml"


class PngResponse(Response):
    media_type = "image/png"


class SchemaResponse(JSONResponse):
    media_type = "application/schema+json"


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


# The operations a board's id leads to, by operationId: the links of every answer naming boards.
BOARD_OPERATIONS = {"board": "get_board", "steps": "get_board_steps", "svg": "get_board_svg",
                    "png": "get_board_png", "pzpr": "get_board_pzpr", "print": "get_board_print",
                    "play": "play_board"}


def board_links(board_id: str, *, prefix: str = "") -> dict[str, Any]:
    """OpenAPI links from an answer to each operation on the board whose id is at `board_id` (a
    runtime expression such as $response.body#/boards/0/id)."""
    return {f"{prefix}{name}": {"operationId": operation, "parameters": {"board_id": board_id},
                                "description": f"the board's {name}" if name != "board" else "the board"}
            for name, operation in BOARD_OPERATIONS.items()}


def _answer(model: Any = None, *, media_type: str = "application/json", description: str,
            links: dict[str, Any] | None = None, **content: Any) -> dict[int | str, dict[str, Any]]:
    answer: dict[str, Any] = {"description": description}
    if model is not None:
        answer["model"] = model
    if content:
        answer["content"] = {media_type: content}
    if links:
        answer["links"] = links
    return {200: answer}


_BOARD = select(col(Puzzle.data)).where(col(Puzzle.id) == bindparam("id"))
BoardId = Annotated[str, PathParam(min_length=1, description="a board's id, as listings give it")]
ShowSolution = Annotated[bool, Query(description="draw the solution instead of the puzzle")]


def create_app(db_url: str | None = None, *, db: Engine | None = None) -> FastAPI:
    """The app; it opens its engine (PUZZLEFLEET_DB when db_url is None) at start-up, or uses `db`."""
    state: dict[str, Engine] = {}
    pictures = Drawn()                       # drawings of this app's boards, by ETag
    counts: dict[Listing, tuple[float, tuple[int, bool]]] = {}     # filters -> (when counted, total)
    picture_files = pictures_dir()
    board = board_type()                     # the registered games' boards (a game added later shows up)

    def picture_file(board_id: str, kind: str, solution: bool) -> Path | None:
        """Where a puzzle picture is kept for a static server (only the plain puzzle: the URL a static
        server can map to a file without reading its query)."""
        return None if picture_files is None or solution else picture_files / "boards" / f"{board_id}.{kind}"

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        state["db"] = db if db is not None else make_engine(db_url, ping=False)
        yield
        if db is None:
            state["db"].dispose()

    app = FastAPI(title="puzzlefleet", version=ENGINE_VERSION, lifespan=lifespan,
                  description="Read API over the puzzle store: boards as board JSON (schema at "
                              "/schema/board.json), their solve paths, pictures, print pages and the player. "
                              "Every error answers {\"detail\": [{\"loc\", \"msg\", \"type\"}]}.")

    origins = cors_origins()
    if origins:
        # Read-only and without cookies: no credentials, whatever the origins.
        app.add_middleware(CORSMiddleware, allow_origins=origins, allow_credentials=False,
                           allow_methods=["GET", "HEAD"], expose_headers=["ETag", "Cache-Control"])
    app.add_middleware(HeadAsGet)
    add_error_handlers(app)

    def engine_() -> Engine:
        if "db" not in state:                 # used without the lifespan (no `with TestClient(app)`)
            state["db"] = db if db is not None else make_engine(db_url, ping=False)
        return state["db"]

    def board_text(board_id: str) -> str:
        text = read(engine_(), lambda s: s.connection().execute(_BOARD, {"id": board_id}).scalar())
        if text is None:
            raise refused(404, f"no board with id {board_id}", loc=("path", "board_id"))
        return text

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, exc: StoreError) -> JSONResponse:
        return error_response(503, str(exc))

    @app.exception_handler(RenderError)
    async def render_error(_request: Request, exc: RenderError) -> JSONResponse:
        return error_response(422, f"cannot draw this board: {exc}", loc=("path", "board_id"), kind="cannot_draw")

    @app.get("/health", response_model=Health, tags=["meta"], operation_id="get_health", responses={
        **declared(503), **_answer(description="the store answers", links={
            "games": {"operationId": "get_games", "description": "the games this engine version knows"}})})
    async def health() -> Response:
        read(engine_(), lambda s: s.scalar(select(1)))
        return JSONResponse({"status": "ok", "engine_version": ENGINE_VERSION},
                            headers={"Cache-Control": "no-store"})

    @app.get("/schema/board.json", tags=["meta"], operation_id="get_board_schema", response_class=SchemaResponse,
             response_model=dict[str, Any], responses={**NOT_MODIFIED, **_answer(description="the JSON Schema of a board")})
    def get_board_schema(request: Request) -> Response:
        body = board_schema_text()       # the registered games' (a game added later shows up)
        return _cached(request, body, SchemaResponse.media_type, _etag(body), BOARD_CACHE)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/games", tags=["meta"], response_model=list[GameInfo], operation_id="get_games", responses=_answer(
        description="the games", links={"boards": {"operationId": "list_boards", "description": "the game's boards",
                                                   "parameters": {"game": "$response.body#/0/name"}},
                                        "board_schema": {"operationId": "get_board_schema",
                                                         "description": "the JSON Schema of a board of these games"}}))
    def get_games() -> Response:
        """The games this store can hold, with the bands a board of each may have and the drawing styles
        by rules (sizes, and the other rules fields each group goes with; the default style first)."""
        body = [{"name": game.name, "title": game.title, "bands": list(game.bands), "input": game.input_mode,
                 "styles": [group.to_json() for group in game.style_groups()]}
                for game in all_games()]
        return JSONResponse(body, headers={"Cache-Control": LIST_CACHE})

    listing_links = {**board_links("$response.body#/boards/0/id", prefix="first_"),
                     "next": {"operationId": "list_boards", "description": "the next page (`next`)",
                              "parameters": {"cursor": "$response.body#/cursor"}}}

    @app.get("/boards", response_model=_page_model(), tags=["boards"], operation_id="list_boards", responses={
        **NOT_MODIFIED, **declared(422, 503), **_answer(description="a page of the listing", links=listing_links)})
    async def list_boards(
        request: Request,
        options: Annotated[dict[str, Any], Depends(_option_filters())],
        game: Annotated[_one_of(names()) | None, Query(description="a game's name, as /games lists them")] = None,
        size: Annotated[int | None, Query(ge=1, le=64)] = None,
        band: Annotated[_one_of(bands()) | None, Query(description="a band, as /games lists them")] = None,
        style: Annotated[_one_of(style_names()) | None, Query(description="a drawing style, as /games lists them "
                                                              "(no boards when none of the other filters can have it)")] = None,
        day: Annotated[Day | None, Query(alias="date", description="boards stored on this UTC day")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 50,
        order: Annotated[Literal["oldest", "newest"], Query(description="oldest first (the default: new "
                                                            "boards join the end) or newest first")] = "oldest",
        cursor: Annotated[str | None, Query(pattern=CURSOR_PATTERN, description="where the listing continues: "
                                            "take it from a page's `next` (or `cursor`)")] = None,
        offset: Annotated[OnlyZero, Query(deprecated=True, description="only 0: pages go by their `next` link")] = 0,
    ) -> Response:
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
            rows, after = read(engine_(), lambda s: board_page(session=s, listing=listing, limit=limit))
            if known is None or monotonic() - known[0] > COUNT_SECONDS:
                known = counts[filters] = (monotonic(), read(engine_(), lambda s: count_listing(session=s,
                                                                                              listing=filters)))
                if len(counts) > COUNTS_KEPT:
                    del counts[next(iter(counts))]      # the oldest counted
            total, capped = known[1]
        except StoreError as exc:
            # The parameters' schema takes only what the store reads; were it to miss a case, the
            # store's refusal is still the request's fault, not the store's.
            if not isinstance(exc, StoreUnreachable) and exc.__cause__ is None:
                raise refused(422, str(exc), loc=("query",)) from None
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
        body = json.dumps({"total": total, "total_capped": capped, "limit": limit, "next": follow, "cursor": after,
                           "boards": boards}, separators=(",", ":"))
        return _cached(request, body, "application/json", _etag(body), LIST_CACHE)

    drawing_errors = declared(404, 422, 503, s404="no board with this id")

    # The picture routes come before /boards/{board_id}: that pattern would swallow "ID.svg".
    @app.get("/boards/{board_id}.svg", tags=["pictures"], operation_id="get_board_svg", response_class=SvgResponse,
             responses={**NOT_MODIFIED, **drawing_errors, **_answer(description="the board as SVG")})
    async def board_svg(request: Request, board_id: BoardId, solution: ShowSolution = False) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "svg", str(solution))
        if fresh(request, etag):
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": PICTURE_CACHE})
        body = await drawn(pictures, etag, lambda: svg(json.loads(text), solution=solution),
                           file=picture_file(board_id, "svg", solution))
        return _cached(request, body, SvgResponse.media_type, etag, PICTURE_CACHE)

    @app.get("/boards/{board_id}.png", tags=["pictures"], operation_id="get_board_png", response_class=PngResponse,
             responses={**NOT_MODIFIED, **drawing_errors, **_answer(
                 description="the board as PNG", media_type=PngResponse.media_type,
                 schema={"type": "string", "format": "binary"})})
    async def board_png(request: Request, board_id: BoardId, solution: ShowSolution = False) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "png", str(solution))
        headers = {"ETag": etag, "Cache-Control": PICTURE_CACHE,
                   "Content-Disposition": f'inline; filename="{board_id}-{"solution" if solution else "puzzle"}.png"'}
        if fresh(request, etag):
            return Response(status_code=304, headers=headers)
        body = await drawn(pictures, etag, lambda: png(json.loads(text), solution=solution),
                           file=picture_file(board_id, "png", solution))
        return PngResponse(body, headers=headers)

    @app.get("/boards/{board_id}.pzpr", tags=["pictures"], operation_id="get_board_pzpr",
             response_class=PlainTextResponse, responses={
                 **NOT_MODIFIED, **declared(404, 422, 503, s404="no board with this id, or its game or rules have "
                                                                "no puzz.link form (Sudoku, classic-diagonal Queens)"),
                 **_answer(description="the puzz.link URL, on one line")})
    async def board_pzpr(request: Request, board_id: BoardId) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "pzpr")

        def url() -> tuple[int, str]:
            data = json.loads(text)
            try:
                game = game_of(data)
                return 200, game.to_url(game.board_from_json(data)) + "\n"
            except PuzzleError as exc:        # kept too: the answer cannot change until the board does
                return 404, str(exc)
        status, body = await drawn(pictures, etag, url)
        if status != 200:
            # A board whose rules puzz.link cannot state has no such page, as an unknown id has none.
            raise refused(status, body, loc=("path", "board_id"), kind="no_puzz_link")
        return _cached(request, body, "text/plain; charset=utf-8", etag, BOARD_CACHE)

    @app.get("/boards/{board_id}", tags=["boards"], operation_id="get_board", response_model=board, responses={
        **NOT_MODIFIED, **declared(404, 422, 503, s404="no board with this id"),
        **_answer(description="the board JSON, as stored (also as a JSON Schema at /schema/board.json)",
                  links=board_links("$response.body#/id"))})
    async def get_board(request: Request, board_id: BoardId) -> Response:
        text = board_text(board_id)
        return _cached(request, text, "application/json", _etag(text), BOARD_CACHE)

    @app.get("/boards/{board_id}/steps", response_model=Steps, tags=["boards"], operation_id="get_board_steps",
             responses={**NOT_MODIFIED, **declared(404, 422, 503, s404="no board with this id"),
                        **_answer(description="the board's solve path")})
    async def get_steps(request: Request, board_id: BoardId) -> Response:
        text = board_text(board_id)
        data = json.loads(text)
        body = json.dumps({"id": data.get("id"), "difficulty": data.get("difficulty"),
                           "steps": data.get("steps") or []}, separators=(",", ":"))
        return _cached(request, body, "application/json", _etag(text, "steps"), BOARD_CACHE)

    @app.get("/boards/{board_id}/print", response_class=HTMLResponse, tags=["pictures"], operation_id="get_board_print",
             responses={**NOT_MODIFIED, **drawing_errors,
                        **_answer(description="the print page: the puzzle on one page, its solution on the next")})
    async def get_print(request: Request, board_id: BoardId) -> Response:
        text = board_text(board_id)
        etag = _etag(text, "print")
        if fresh(request, etag):
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": BOARD_CACHE})
        body = await drawn(pictures, etag, lambda: print_page([json.loads(text)], title=f"puzzlefleet {board_id}"))
        return _cached(request, body, "text/html; charset=utf-8", etag, BOARD_CACHE)

    @app.get("/daily", response_model=DailyDays, tags=["daily"], operation_id="list_daily_days", responses={
        **declared(422, 503), **_answer(description="the days that have a set, newest first", links={
            "newest": {"operationId": "get_daily", "parameters": {"day": "$response.body#/days/0"},
                       "description": "the newest day's set"},
            "earlier": {"operationId": "list_daily_days", "parameters": {"before": "$response.body#/earlier"},
                        "description": "the days before these"}})})
    async def list_daily_days(
        before: Annotated[Day | None, Query(description="only days before this one (a page's `earlier`)")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_DAYS)] = 30,
    ) -> Response:
        days = read(engine_(), lambda s: store.daily_days(session=s, limit=limit + 1, before=before))
        body = {"days": [day.isoformat() for day in days[:limit]],
                "earlier": days[limit - 1].isoformat() if len(days) > limit else None}
        return JSONResponse(body, headers={"Cache-Control": LIST_CACHE})

    daily_set = create_model("DailySet", date=(date, ...), boards=(list[board], Field(min_length=1)))

    @app.get("/daily/{day}", response_model=daily_set, tags=["daily"], operation_id="get_daily", responses={
        **NOT_MODIFIED, **declared(404, 422, 503, s404="no set for this day"),
        **_answer(description="the day's set, its boards in order",
                  links={**board_links("$response.body#/boards/0/id", prefix="first_"),
                         "boards_stored_that_day": {"operationId": "list_boards", "parameters": {
                             "date": "$response.body#/date"}, "description": "the boards stored on that day"}})})
    async def get_daily(request: Request, day: Annotated[Day, PathParam(description="a UTC day, YYYY-MM-DD")]) -> Response:
        boards = read(engine_(), lambda s: store.daily_set(session=s, day=day))
        if not boards:
            raise refused(404, f"no daily set for {day.isoformat()}", loc=("path", "day"))
        body = json.dumps({"date": day.isoformat(), "boards": boards}, separators=(",", ":"))
        return _cached(request, body, "application/json", _etag(body), LIST_CACHE)

    add_player_routes(app, board_text, pictures, _etag, fresh,
                      responses={**NOT_MODIFIED, **drawing_errors, **_answer(description="the player page")})
    return app
