"""The day's set: four Star Battle boards, easy to expert, and three Queens boards, no two alike.

For each entry of DAILY_PLAN, make_daily takes a stored board of those rules, band and drawing style that
no day's set has used (an entry naming no style takes the game's default for its rules, or a board from
before styles were recorded), in a seeded random order (the seed comes from the date, so a date gives the same set on the
same store). Boards whose answers overlap heavily (more than MAX_OVERLAP of their stars on the same
cells; boards of one size are compared) with a board already chosen for the day, or used within
WINDOW_DAYS of it, are passed over. Stored boards in stored order are a trap here: neighbours in the
store are neighbours in the search space, while a random sample of them rarely overlaps. When nothing
stored qualifies, the engine makes a board (seed derive_seed(date, position, attempt)) and it is
stored. The set is then written in one transaction; a caller that loses a race reads the winner's set.

No Celery here: the beat task in workers.tasks and `puzzlefleet daily` both call make_daily."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from time import monotonic
from typing import Any, NamedTuple

from sqlalchemy import Engine

from engine import derive_seed, game_named, parse_rules
from store import (daily_set, daily_sets_between, get_boards, in_daily_set, save_board, save_daily, session,
                   unused_board_ids)
from workers.slot import generate_one


class PlanEntry(NamedTuple):
    """One position of the day's set: its rules, band and drawing style (None: the game's default)."""
    rules: Any
    band: str
    style: str | None = None


# The day's set, in position order: (rules, band[, style]), the rules in their text form. A style
# must be one the game draws for those rules (checked on import, as a request's is).
_PLAN: tuple[tuple[str, ...], ...] = (
    ("starbattle 10 2", "easy"),
    ("starbattle 10 2", "medium"),
    ("starbattle 10 2", "hard"),
    ("starbattle 10 2", "expert"),
    ("queens 8", "easy"),
    ("queens 9", "medium"),
    ("queens 9", "hard"),
)


def plan(entries: Iterable[Sequence[str | None]]) -> tuple[PlanEntry, ...]:
    """Plan entries from (rules text, band[, style]); InvalidRules (one line) for a style the game does
    not draw for those rules."""
    out = []
    for text, band, *style in entries:
        entry = PlanEntry(parse_rules(text), band, *style)
        game_named(entry.rules.game).check_style(entry.rules, entry.style)
        out.append(entry)
    return tuple(out)


DAILY_PLAN: tuple[PlanEntry, ...] = plan(_PLAN)
MAX_OVERLAP = 0.6          # a larger share of stars on the same cells makes two boards near-duplicates
WINDOW_DAYS = 30           # boards of the sets this many days either side are compared too
DEFAULT_TIMEOUT = 120.0    # seconds per generation attempt
MAX_ATTEMPTS = 20          # generation attempts per position
_CHUNK = 32                # candidates read per query
_ROUNDS = 3                # plans made before giving up when other days keep taking the chosen boards


class DailyError(Exception):
    """No set could be made for a day (e.g. every generation attempt timed out); one line."""


class OutOfBudget(DailyError):
    """The call's time budget ran out before the set was whole; every board made so far is stored, so a
    later call takes up the rest."""


def today() -> date:
    """Today in UTC (the fleet's clock: beat runs in UTC)."""
    return datetime.now(timezone.utc).date()


def day_number(day: date) -> int:
    """The date as a whole number, YYYYMMDD: the root of the day's seeds."""
    return day.year * 10_000 + day.month * 100 + day.day


def _cells(board: dict[str, Any]) -> frozenset[tuple[int, int]]:
    return frozenset((int(r), int(c)) for r, c in board.get("solution") or ())


def overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The share of stars two boards' answers have on the same cells (of the board with fewer stars);
    0 for boards of different sizes."""
    if a["rules"]["size"] != b["rules"]["size"]:
        return 0.0
    first, second = _cells(a), _cells(b)
    if not first or not second:
        return 0.0
    return len(first & second) / min(len(first), len(second))


def too_close(board: dict[str, Any], others: Iterable[dict[str, Any]]) -> bool:
    """Whether the board's answer overlaps more than MAX_OVERLAP with any of the others'."""
    return any(overlap(board, other) > MAX_OVERLAP for other in others)


def _shift(day: date, days: int) -> date:
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.max if days > 0 else date.min


def _neighbours(db: Engine, day: date) -> list[dict[str, Any]]:
    """The boards of the other days' sets within WINDOW_DAYS of `day`."""
    with session(db, read_only=True) as s:
        sets = daily_sets_between(session=s, first=_shift(day, -WINDOW_DAYS), last=_shift(day, WINDOW_DAYS))
    return [board for other, boards in sets.items() if other != day for board in boards]


def _pick_stored(db: Engine, entry: PlanEntry, seed: int, avoid: Sequence[dict[str, Any]],
                 taken: set[str]) -> dict[str, Any] | None:
    """A stored, unused board of the entry's rules, band and style, in seeded random order, not too
    close to `avoid`."""
    game = game_named(entry.rules.game)
    stored_as = str(game.board_rules(entry.rules.to_json()))     # the rules text its boards are stored under
    with session(db, read_only=True) as s:
        ids = unused_board_ids(session=s, rules_text=stored_as, band=entry.band,
                               style=game.check_style(entry.rules, entry.style), unstyled=entry.style is None)
    ids = [board_id for board_id in ids if board_id not in taken]
    random.Random(seed).shuffle(ids)
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        with session(db, read_only=True) as s:
            boards = get_boards(session=s, board_ids=chunk)
        for board_id in chunk:
            board = boards.get(board_id)
            if board is not None and not too_close(board, avoid):
                return board
    return None


@dataclass
class _Budget:
    """A call's time for generation. Its first attempt always gets the whole budget, as a slot task's
    first attempt does, so that every call makes progress; later ones get what is left."""
    seconds: float | None
    started: float = field(default_factory=monotonic)
    attempted: bool = False

    def allowed(self, timeout: float) -> float:
        if self.seconds is None:
            return timeout
        if not self.attempted:
            return min(timeout, self.seconds)
        return min(timeout, self.seconds - (monotonic() - self.started))


def _generate(db: Engine, entry: PlanEntry, number: int, position: int, avoid: Sequence[dict[str, Any]],
              taken: set[str], timeout: float, attempts: int, budget: _Budget) -> dict[str, Any] | None:
    """A new board of the entry's rules, band and style, stored, not too close to `avoid`; None if every
    attempt fails. Raises OutOfBudget when the budget runs out first."""
    band = entry.band
    for attempt in range(attempts):
        allowed = budget.allowed(timeout)
        if allowed <= 0:
            raise OutOfBudget(f"the time budget ran out at position {position + 1} of the set")
        # The same attempt as a job's slot: slot `position` of a job seeded with the date.
        result = generate_one(str(entry.rules), derive_seed(number, position, attempt), allowed, band,
                              entry.style)
        budget.attempted = True
        if result["timeout"] and allowed < timeout:
            # Cut short by the budget, not by its own timeout: the next call runs it again in full.
            raise OutOfBudget(f"the time budget ran out at position {position + 1} of the set")
        data = result["board"]
        if data is None:
            continue
        # Stored even when it is too close to today's boards: it may serve another day.
        with session(db) as s:
            found: dict[str, Any] | None = data
            if not save_board(session=s, data=data, fingerprint=result["fingerprint"]):
                # A duplicate is usually a board some day already has: try the next attempt. But a
                # concurrent caller for this day may just have made it, and then it is as good as ours.
                found = None
                if data["id"] not in taken and not in_daily_set(session=s, board_id=data["id"]):
                    found = get_boards(session=s, board_ids=[data["id"]]).get(data["id"])
        if (found is not None and (found.get("difficulty") or {}).get("band") == band
                and found.get("style") == data.get("style") and not too_close(found, avoid)):
            return found
    return None


def _plan(db: Engine, day: date, timeout: float, attempts: int, budget: _Budget) -> list[dict[str, Any]]:
    number = day_number(day)
    neighbours = _neighbours(db, day)
    chosen: list[dict[str, Any]] = []
    for position, entry in enumerate(DAILY_PLAN):
        avoid = chosen + neighbours
        taken = {board["id"] for board in chosen}
        board = _pick_stored(db, entry, derive_seed(number, position), avoid, taken)
        if board is None:
            board = _generate(db, entry, number, position, avoid, taken, timeout, attempts, budget)
        if board is None:
            style = f" {entry.style}" if entry.style else ""
            raise DailyError(f"no {entry.rules} {entry.band}{style} board for {day.isoformat()} in {attempts} "
                             f"attempt(s) of {timeout:g} s")
        chosen.append(board)
    return chosen


def make_daily(*, db: Engine, day: date, timeout: float = DEFAULT_TIMEOUT,
               attempts: int = MAX_ATTEMPTS, budget: float | None = None) -> list[dict[str, Any]]:
    """The day's set as board JSON dicts in DAILY_PLAN order: read back if the day has one, made and
    written (once, also against concurrent callers) if not. With a `budget`, generation stops after that
    many seconds with OutOfBudget (each board made is stored, so a later call makes only the rest), as a
    task hands its work over before its soft time limit. Raises DailyError, StoreError."""
    if not isinstance(day, date) or isinstance(day, datetime):
        raise DailyError(f"a day must be a date, got {day!r}")
    if not timeout > 0 or attempts < 1:
        raise DailyError("timeout must be positive and attempts at least 1")
    if budget is not None and not budget > 0:
        raise DailyError("a time budget must be positive")
    clock = _Budget(budget)
    for _ in range(_ROUNDS):
        with session(db, read_only=True) as s:
            existing = daily_set(session=s, day=day)
        if existing:
            return existing
        chosen = _plan(db, day, timeout, attempts, clock)
        with session(db) as s:
            outcome = save_daily(session=s, day=day, board_ids=[board["id"] for board in chosen])
            if outcome != "taken":         # stored, or another caller's set came first: read it back
                return daily_set(session=s, day=day)
        # Another day's set took one of the chosen boards meanwhile: choose again.
    raise DailyError(f"could not write the set of {day.isoformat()}: other days kept taking its boards")
