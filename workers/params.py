"""A job's parameters, checked the same way at `enqueue` and again in the worker.

Bad parameters are a deterministic fault: BadTask, never retried."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from engine import GAMES, PuzzleError, rules_for

QUEUES = GAMES                            # each game the engine makes has its own queue
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


@dataclass(frozen=True, slots=True)
class JobParams:
    game: str
    size: int
    stars: int
    diagonals: bool = False
    band: str | None = None
    band_by: str | None = None            # Sudoku: "technique" (default) or "clues"
    timeout: float = DEFAULT_TIMEOUT
    max_attempts: int = DEFAULT_MAX_ATTEMPTS

    @classmethod
    def build(cls, *, game: str, size: int, stars: int | None = None, diagonals: bool = False,
              band: str | None = None, band_by: str | None = None, timeout: float = DEFAULT_TIMEOUT,
              max_attempts: int = DEFAULT_MAX_ATTEMPTS) -> JobParams:
        """From command-line values: Queens has 1 star, Star Battle defaults to 2, Sudoku has none."""
        if game == "queens" and stars not in (None, 1):
            raise BadTask("queens has 1 star per unit; use --game starbattle for more")
        if stars is None and game != "sudoku":
            stars = 1 if game == "queens" else 2
        return cls.from_json({"game": game, "size": size, "stars": stars, "diagonals": diagonals,
                              "band": band, "band_by": band_by, "timeout": timeout,
                              "max_attempts": max_attempts})

    @classmethod
    def from_json(cls, data: Any) -> JobParams:
        """Check a task's parameters (a JSON object); raises BadTask with one line."""
        if not isinstance(data, dict):
            raise BadTask(f"job parameters must be an object, got {type(data).__name__}")
        unknown = set(data) - {"game", "size", "stars", "diagonals", "band", "band_by", "timeout",
                               "max_attempts"}
        if unknown:
            raise BadTask(f"unknown job parameter(s): {', '.join(sorted(map(str, unknown)))}")
        game = data.get("game")
        if game not in GAMES:
            raise BadTask(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
        size = _whole(data.get("size"), "size", -(2**31), 2**31 - 1)
        stars = data.get("stars")
        if game == "sudoku":
            if stars is not None:
                raise BadTask("sudoku has no stars")
        else:
            stars = _whole(1 if stars is None else stars, "stars", -(2**31), 2**31 - 1)
        diagonals = data.get("diagonals", False)
        if not isinstance(diagonals, bool):
            raise BadTask("diagonals must be true or false")
        if game == "queens" and stars != 1:
            raise BadTask("queens has 1 star per unit; use --game starbattle for more")
        band = data.get("band")
        if band is not None and not isinstance(band, str):
            raise BadTask(f"unknown band {band!r}")
        band_by = data.get("band_by")
        if band_by is not None and not isinstance(band_by, str):
            raise BadTask(f"unknown band_by {band_by!r}")
        timeout = data.get("timeout", DEFAULT_TIMEOUT)
        if (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not math.isfinite(timeout)
                or not 0 < timeout <= 86_400):
            raise BadTask("timeout must be a number of seconds above 0 and at most 86400")
        max_attempts = _whole(data.get("max_attempts", DEFAULT_MAX_ATTEMPTS), "max_attempts", 1, 1000)
        params = cls(game, size, stars, diagonals, band, band_by, float(timeout), max_attempts)
        params.rules()          # the engine's own check of size, stars and band
        return params

    def rules(self):
        """The engine's rules for this job (Star Battle family or Sudoku), or BadTask."""
        try:
            rules = rules_for(self.game, self.size, self.stars, self.diagonals, self.band_by, self.band)
        except PuzzleError as exc:
            raise BadTask(str(exc)) from None
        if rules.game != self.game:
            raise BadTask(f"{self.stars} stars per unit is {rules.game}, not {self.game}")
        return rules

    @property
    def queue(self) -> str:
        return self.game

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_ids(job_id: Any, slot: Any, seed: Any) -> None:
    """The other arguments of a slot task."""
    _whole(job_id, "job id", 1, 2**31 - 1)
    _whole(slot, "slot", 0, MAX_COUNT - 1)
    _whole(seed, "seed", 0, 2**63 - 1)
