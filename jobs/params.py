"""A job's parameters, checked the same way at `enqueue` and again in the worker.

Bad parameters are a deterministic fault: BadTask, never retried."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import PuzzleError, all_games, game_named, option_specs, own_option_specs

FLEET_QUEUE = "fleet"                     # housekeeping (beat's sweep for stalled jobs)
DEFAULT_TIMEOUT = 300.0                   # seconds per attempt, as `generate --timeout`
DEFAULT_MAX_ATTEMPTS = 20                 # attempts per slot, as the embedded run
MAX_COUNT = 1_000_000


class BadTask(ValueError):
    """Parameters no worker can ever satisfy (size 0, an unknown game or band, a malformed message).
    One line; the task fails at once and is never retried."""


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadTask(f"{what} must be a whole number {low}..{high}, got {value!r}")
    return value


# The keys of a task's parameters besides the games' options (whose names the games declare).
_COMMON = ("game", "size", "band", "timeout", "max_attempts", "style")


@dataclass(frozen=True, slots=True)
class JobParams:
    game: str
    size: int
    options: Mapping[str, Any] = field(default_factory=dict)   # the game's options, defaults filled in
    band: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    style: str | None = None              # the drawing style (games with styles); None: the default

    @classmethod
    def build(cls, *, game: str, size: int | None = None, band: str | None = None, timeout: float = DEFAULT_TIMEOUT,
              max_attempts: int = DEFAULT_MAX_ATTEMPTS, style: str | None = None, **options: Any) -> JobParams:
        """From command-line values; `options` by name (None: left out), those left out take the
        game's defaults, and no size the game's only size for them."""
        return cls.from_json({"game": game, "size": size, **options, "band": band, "timeout": timeout,
                              "max_attempts": max_attempts, "style": style})

    @classmethod
    def from_json(cls, data: Any) -> JobParams:
        """Check a task's parameters (a JSON object: the common keys and the game's options, each under
        its own name, as messages have always carried them); raises BadTask with one line."""
        if not isinstance(data, dict):
            raise BadTask(f"job parameters must be an object, got {type(data).__name__}")
        try:
            # every game's options are known keys: a message names those of other games at their
            # neutral values (null, false), and the game's read_options lets those pass
            named = data.get("game")
            own = own_option_specs(named)           # a built-in game's alone: the other games not imported
            option_names = {spec.name for spec in own} if own is not None else set()
            if own is None or not set(data) - set(_COMMON) <= option_names:
                option_names = {spec.name for spec in option_specs(named if isinstance(named, str) else None)}
            unknown = set(data) - set(_COMMON) - option_names
            if unknown:
                raise BadTask(f"unknown job parameter(s): {', '.join(sorted(map(str, unknown)))}")
            game = game_named(data.get("game"))
            asked = {name: data[name] for name in option_names if name in data}
            options = game.read_options(asked).model_dump()
            size = data.get("size")
            if size is None:
                size = game.only_size(asked)
                if size is None:
                    offered = game.sizes_offered(options)
                    raise BadTask("size is required" + (f": {game.name} offers {offered}" if offered else ""))
            size = _whole(size, "size", -(2**31), 2**31 - 1)
        except PuzzleError as exc:
            raise BadTask(str(exc)) from None
        band = data.get("band")
        if band is not None and not isinstance(band, str):
            raise BadTask(f"unknown band {band!r}")
        timeout = data.get("timeout", DEFAULT_TIMEOUT)
        if (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not math.isfinite(timeout)
                or not 0 < timeout <= 86_400):
            raise BadTask("timeout must be a number of seconds above 0 and at most 86400")
        max_attempts = _whole(data.get("max_attempts", DEFAULT_MAX_ATTEMPTS), "max_attempts", 1, 1000)
        style = data.get("style")
        if style is not None and not isinstance(style, str):
            raise BadTask(f"unknown style {style!r}")
        params = cls(game.name, size, options, band, float(timeout), max_attempts, style)
        rules = params.rules()          # the engine's own check of size, options and band
        try:
            game.check_style(rules, style)      # ... and of the style, by the game
        except PuzzleError as exc:
            raise BadTask(str(exc)) from None
        return params

    def rules(self) -> Any:
        """The engine's rules for this job (the game's own type), or BadTask."""
        try:
            return game_named(self.game).rules(size=self.size, band=self.band, **self.options)
        except PuzzleError as exc:
            raise BadTask(str(exc)) from None

    @property
    def queue(self) -> str:
        return game_named(self.game).queue

    def to_json(self) -> dict[str, Any]:
        """The task's parameters: the common keys and each of the game's options under its own name."""
        out = {"game": self.game, "size": self.size, **self.options, "band": self.band, "timeout": self.timeout,
               "max_attempts": self.max_attempts}
        if self.style is not None:
            out["style"] = self.style   # none for the default style: a worker of an older version reads the job too
        return out


def queues() -> tuple[str, ...]:
    """The queues of every registered game: each game has its own."""
    return tuple(dict.fromkeys(game.queue for game in all_games()))


def queue_of(params: Any) -> str | None:
    """The queue a task's parameters go to, or None when they name no known game."""
    try:
        return game_named(params.get("game")).queue if isinstance(params, dict) else None
    except PuzzleError:
        return None


def check_ids(job_id: Any, slot: Any, seed: Any) -> None:
    """The other arguments of a slot task."""
    _whole(job_id, "job id", 1, 2**31 - 1)
    _whole(slot, "slot", 0, MAX_COUNT - 1)
    _whole(seed, "seed", 0, 2**63 - 1)
