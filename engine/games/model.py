"""The board JSON, as pydantic models: the fields every game's board shares, which each game's model
extends with its rules and its grid (regions, givens, ...). One model checks a board wherever one
arrives (`solve`, the store, the read API) and gives the published JSON Schema.

Rows and columns in the JSON count from 0; words meant for people count from 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from engine.errors import InvalidBoard

# A stored board's id is the store's (the first 16 hex digits of the fingerprint; the store checks
# that). A board brought to `solve` keeps the id its owner gave it: a site's or a publisher's own.
Id = Annotated[Union[Annotated[StrictStr, Field(max_length=200)], StrictInt],  # noqa: UP007
               Field(description="a stored board: the first 16 hex digits of its fingerprint; a board "
                                 "brought to solve: any string of up to 200 characters, or an integer")]


class _Open(BaseModel):
    """Fields beyond the declared ones are kept: producers may add to the contract."""
    model_config = ConfigDict(extra="allow")


class Difficulty(_Open):
    band: str | None = Field(None, description="the measured band: easy, medium, hard, expert, ...")
    score: StrictInt | None = Field(None, description="the summed cost of the solve path's techniques")
    hardest: str | None = Field(None, description="the hardest technique the solve path needs")


class Fun(_Open):
    score: StrictInt | None = Field(None, description="0-100: how the solve path feels")


class Shape(_Open):
    score: StrictInt | None = Field(None, description="0-100: how much the regions look like boards people "
                                    "draw in `style` (the shape gate's score)")
    style: StrictStr | None = Field(None, description="the drawing style the regions were scored in: the "
                                    "board's own, or for a board brought to `solve` the one it looks most like")


class Step(BaseModel):
    """One deduction of the solve path. `place` and `eliminate` list cells [row, column] (and, where
    the game places symbols, the symbol as a third number); `units` name what it reasons about."""
    model_config = ConfigDict(extra="allow")
    technique: StrictStr
    cost: StrictInt
    place: list[list[StrictInt]] = []
    eliminate: list[list[StrictInt]] = []
    units: list[StrictStr] = []
    why: StrictStr = ""


class BoardModel(_Open):
    """The fields every board has; a game's model adds `game` (a literal), `rules` and its grid."""
    id: Id | None = None
    seed: StrictInt | None = Field(None, ge=0, lt=2**63)
    status: StrictStr | None = Field(None, description="solve's verdict: unique, several or none")
    gates: dict[str, bool] | None = Field(None, description="solve's verdict, per gate of the game's "
                                          "generator (fun, shape): whether it would keep the board")
    difficulty: Difficulty | None = None
    fun: Fun | None = None
    shape: Shape | None = None
    steps: list[Step] = []
    engine_version: StrictStr | None = None
    style: StrictStr | None = Field(None, description="the drawing style the generator drew "
                                    "the board in (games with styles); absent on boards made before styles "
                                    "were recorded and on boards from elsewhere")
    generation: dict[str, Any] | None = None


def first_error(exc: ValidationError) -> str:
    """A pydantic error as one line: where (as a path into the JSON) and why."""
    error = exc.errors(include_url=False)[0]
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error["loc"]
                    if not (isinstance(part, str) and part.startswith(("function-", "tagged-union"))))
    message = str(error["msg"])
    message = message.removeprefix("Value error, ")
    return f"{where.lstrip('.')}: {message}" if where else message


def validate_board(model: type[BoardModel], data: Any) -> BoardModel:
    """A board JSON checked against a game's model; InvalidBoard names the field and why."""
    if not isinstance(data, Mapping):
        raise InvalidBoard("a board must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidBoard(first_error(exc)) from None


def board_type(models: list[type[BoardModel]]) -> Any:
    """The type of a board of any of these games, told apart by "game" (for a TypeAdapter or an API's
    response model)."""
    if len(models) == 1:
        return models[0]
    return Annotated[Union[tuple(models)], Field(discriminator="game")]  # noqa: UP007


def board_schema(models: list[type[BoardModel]]) -> dict[str, Any]:
    """The JSON Schema of a board of any of these games, told apart by "game"."""
    adapter: TypeAdapter[Any] = TypeAdapter(board_type(models))
    schema = adapter.json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "puzzlefleet board"
    return schema


__all__ = ["BoardModel", "Difficulty", "Fun", "Id", "Shape", "Step", "board_schema", "board_type", "first_error", "validate_board"]
