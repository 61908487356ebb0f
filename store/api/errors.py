"""The read API's one error body: every 4xx and 5xx it sends is `{"detail": [{"loc", "msg", "type"}, ...]}`,
the shape FastAPI gives a request that fails validation (there each entry also carries the `input`
and, for some, a `ctx`). `loc` says where the trouble is (["path", "board_id"], ["query", "cursor"];
[] for the request as a whole), `msg` says it in words for people and `type` in one word for programs.
Each operation declares the statuses it may answer with this body (`declared`)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

# A word for each status the app (or its router: an unknown path, another method) may answer with.
KINDS = {404: "not_found", 405: "method_not_allowed", 422: "unprocessable",
         503: "store_unavailable"}
_SAYS = {404: "not found: no such board, day or page", 405: "this path answers GET and HEAD only",
         422: "the request is well formed but cannot be answered (a parameter out of what it takes, "
              "or a board that cannot be drawn)",
         503: "the store cannot be read right now: try again"}


_COMPONENTS = "#/components/schemas/"


class ErrorEntry(BaseModel):
    loc: list[str | int] = Field(description="where: [\"query\", \"limit\"], [\"path\", \"board_id\"]; [] for "
                                             "the request as a whole")
    msg: str = Field(description="what is wrong, for people")
    type: str = Field(description="what is wrong, as one word for programs (not_found, "
                                  "no_puzz_link, ..., or pydantic's error type for a parameter)")


class ErrorBody(BaseModel):
    """Every error the read API answers with."""
    detail: list[ErrorEntry] = Field(min_length=1)


def _entry(status: int, msg: str, loc: tuple[str | int, ...], kind: str | None) -> dict[str, Any]:
    return {"loc": list(loc), "msg": msg, "type": kind or KINDS.get(status, "error")}


def refused(status: int, msg: str, *, loc: tuple[str | int, ...] = (), kind: str | None = None) -> HTTPException:
    """The exception that answers `status` with the error body of one entry."""
    return HTTPException(status, detail=[_entry(status, msg, loc, kind)])


def error_response(status: int, msg: str, *, loc: tuple[str | int, ...] = (), kind: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """The error body of one entry, as a response (for an exception handler)."""
    return JSONResponse({"detail": [_entry(status, msg, loc, kind)]}, status_code=status, headers=headers)


def declared(*statuses: int, **descriptions: str) -> dict[int | str, dict[str, Any]]:
    """The `responses` of an operation that may answer these statuses with the error body (as JSON,
    whatever the operation's own media type); a description given as `s404="..."` replaces the
    general one."""
    body = {"application/json": {"schema": {"$ref": f"{_COMPONENTS}{ErrorBody.__name__}"}}}
    return {status: {"description": descriptions.get(f"s{status}", _SAYS[status]), "content": body}
            for status in statuses}


def declare_error_body(app: FastAPI) -> None:
    """Put the error body's schema among the app's OpenAPI components, where `declared` refers to it
    (FastAPI's documented way to extend the schema it generates: a replacement `app.openapi`)."""
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes)
            body = ErrorBody.model_json_schema(ref_template=f"{_COMPONENTS}{{model}}")
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components.update(body.pop("$defs", {}))
            components[ErrorBody.__name__] = body
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def add_error_handlers(app: FastAPI) -> None:
    """The error body declared in the app's schema, and sent for the router's own errors too (an
    unknown path: 404; another method: 405, with Allow); an HTTPException raised with a string
    detail gets its one entry."""
    declare_error_body(app)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.detail, list):
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
        return error_response(exc.status_code, str(exc.detail), headers=exc.headers)


__all__ = ["ErrorBody", "ErrorEntry", "KINDS", "add_error_handlers", "declare_error_body", "declared", "error_response", "refused"]
