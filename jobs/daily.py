"""The day's set: a board per position of the daily plan, no two alike.

The plan is the operator's: PUZZLEFLEET_DAILY_PLAN (read_plan: positions "RULES, BAND[, STYLE]"
separated by new lines or ";", or a JSON list, or the path of a file holding either), checked at start
against the games themselves (check_position: the rules parse, the band is one the game generates for
them, the style one it draws them in), a bad plan one line (PlanError). Unset, the plan is every
registered game's own positions, in registry order (default_plan, Game.daily_positions): a game that
joins the registry joins the set.

For each position, make_daily takes a stored board of those rules, band and drawing style that no
day's set has used (a position naming no style takes the game's default for its rules, or a board from
before styles were recorded), in a seeded random order (the seed comes from the date, so a date gives
the same set on the same store). Boards too alike (Game.resemblance above MAX_OVERLAP: the game says
how alike two of its answers are, on one scale for every game; boards of different games are never
compared) to a board already chosen for the day, or used within WINDOW_DAYS of it, are passed over.
Stored boards in stored order are a trap here: neighbours in the store are neighbours in the search
space, while a random sample of them rarely overlaps. When nothing stored qualifies, the engine makes
a board (seed derive_seed(date, position, attempt)) and it is stored. The set is then written in one
transaction; a caller that loses a race reads the winner's set.

No Celery here: the beat task in workers.tasks and `puzzlefleet daily` both call make_daily."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from time import monotonic
from typing import Any, NamedTuple

from sqlalchemy import Engine

from engine import PuzzleError, all_games, derive_seed, game_named, parse_rules
from store import (daily_set, daily_sets_between, get_boards, in_daily_set, save_board, save_daily, session,
                   unused_board_ids)
from jobs.slot import generate_one


class PlanEntry(NamedTuple):
    """One position of the day's set: its rules, band and drawing style (None: the game's default)."""
    rules: Any
    band: str
    style: str | None = None


PLAN_VARIABLE = "PUZZLEFLEET_DAILY_PLAN"
MAX_POSITIONS = 100        # a plan longer than this is a mistake, not a day's set
_FIELDS = "RULES, BAND[, STYLE]"


class PlanError(ValueError):
    """A daily plan that cannot be used: one line naming the setting and the position."""


def check_position(rules_text: str, band: str, style: str | None = None) -> PlanEntry:
    """A position of the plan, checked by its game as a job's request is: the rules parse, the band is
    one the game generates for them, the style one it draws them in (InvalidRules, one line)."""
    rules = parse_rules(rules_text)
    game = game_named(rules.game)
    game.check_band(band)
    # The game's own check of the band with the rules (a band it grades but does not generate, a band
    # these options do not have), when the rules are rebuilt from their size and options unchanged.
    options = {spec.name: getattr(rules, spec.name) for spec in game.option_specs() if hasattr(rules, spec.name)}
    size = rules.to_json().get("size")
    try:
        rebuilt = str(game.rules(size=size, **options)) == str(rules)
    except PuzzleError:
        rebuilt = False
    if rebuilt:
        game.rules(size=size, band=band, **options)
    game.check_style(rules, style)
    return PlanEntry(rules, band, style)


def plan(entries: Iterable[Sequence[str | None]]) -> tuple[PlanEntry, ...]:
    """Plan entries from (rules text, band[, style]), each checked (check_position; InvalidRules)."""
    return tuple(check_position(text, band, *style) for text, band, *style in entries)   # type: ignore[arg-type]


def default_plan() -> tuple[PlanEntry, ...]:
    """The plan when the operator sets none: every registered game's own positions
    (Game.daily_positions), in registry order."""
    return plan(position for game in all_games() for position in game.daily_positions())


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _shown(position: Any) -> str:
    text = position if isinstance(position, str) else json.dumps(position, ensure_ascii=False)
    text = _one_line(text)
    return f'"{text[:77]}..."' if len(text) > 80 else f'"{text}"'


def _positions_of_text(text: str) -> list[tuple[str, list[Any]]]:
    """(as written, fields) per position of the text form: positions on lines or between ";", fields
    between ",", "#" to the end of a line a comment."""
    out = []
    for line in text.splitlines():
        for chunk in line.split("#", 1)[0].split(";"):
            if chunk.strip():
                out.append((chunk.strip(), [part.strip() for part in chunk.split(",")]))
    return out


def _positions_of_json(text: str) -> list[tuple[Any, list[Any]]]:
    """(as written, fields) per item of the JSON form: ["RULES", "BAND"(, "STYLE")] or {"rules": ...,
    "band": ...(, "style": ...)}."""
    try:
        items = json.loads(text)
    except ValueError as exc:
        raise PlanError(f"not JSON ({_one_line(str(exc))})") from None
    if not isinstance(items, list):
        raise PlanError("a JSON plan is a list of positions")
    out = []
    for number, item in enumerate(items, 1):
        if isinstance(item, Mapping):
            unknown = sorted(set(item) - {"rules", "band", "style"})
            if unknown:
                raise PlanError(f"position {number} ({_shown(item)}): unknown key {unknown[0]!r}: expected "
                                "rules, band and optionally style")
            if not isinstance(item.get("rules"), str) or not isinstance(item.get("band"), str):
                raise PlanError(f"position {number} ({_shown(item)}): expected \"rules\" and \"band\" as text")
            fields = [item["rules"], item["band"]] + ([item["style"]] if item.get("style") is not None else [])
        elif isinstance(item, list):
            fields = list(item)
        else:
            raise PlanError(f"position {number} ({_shown(item)}): expected [RULES, BAND(, STYLE)] or an object")
        out.append((item, fields))
    return out


def parse_plan(text: str) -> tuple[PlanEntry, ...]:
    """The plan a setting's text holds (the text form or, starting with "[", the JSON form), each
    position checked by its game; PlanError (one line, without the setting's name) otherwise."""
    written = text.strip()
    positions = _positions_of_json(written) if written.startswith("[") else _positions_of_text(written)
    if not positions:
        raise PlanError("the plan holds no position")
    if len(positions) > MAX_POSITIONS:
        raise PlanError(f"the plan holds {len(positions)} positions, more than {MAX_POSITIONS}")
    entries = []
    for number, (as_written, fields) in enumerate(positions, 1):
        where = f"position {number} ({_shown(as_written)})"
        if not 2 <= len(fields) <= 3 or not all(isinstance(part, str) and part.strip() for part in fields):
            raise PlanError(f"{where}: expected {_FIELDS}, each a word or more")
        try:
            entries.append(check_position(*(part.strip() for part in fields)))
        except PuzzleError as exc:
            raise PlanError(f"{where}: {_one_line(str(exc))}") from None
    return tuple(entries)


def plan_text(value: str) -> str:
    """The plan's text a setting's value holds: the value itself, or, when it names a file, the file's
    content (a value with no ",", ";" or new line, not starting with "[", is taken for a file's path);
    PlanError when it cannot be read."""
    written = value.strip()
    path = Path(written).expanduser()
    try:
        is_file = path.is_file()
    except (OSError, ValueError):         # too long a name, a NUL byte: no file's
        is_file = False
    if is_file or not (written.startswith("[") or any(mark in written for mark in ",;\n")):
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            raise PlanError(f"cannot read the plan file {written} ({reason}); a plan is "
                            f"{_FIELDS} positions separated by ';' or lines, a JSON list, or a file of either") from None
    return value


def read_plan(value: str | None) -> tuple[PlanEntry, ...]:
    """The plan a value of PUZZLEFLEET_DAILY_PLAN gives (unset, empty or spaces: default_plan());
    PlanError, one line naming the variable, for one that cannot be used."""
    if value is None or not value.strip():
        return default_plan()
    try:
        return parse_plan(plan_text(value))
    except PlanError as exc:
        raise PlanError(f"{PLAN_VARIABLE}: {exc}") from None


def plan_from_environment() -> tuple[PlanEntry, ...]:
    """The plan the environment sets (read_plan of PUZZLEFLEET_DAILY_PLAN): what `puzzlefleet daily`
    follows. The fleet reads the same variable through workers.settings, checked when a process starts."""
    return read_plan(os.environ.get(PLAN_VARIABLE))


MAX_OVERLAP = 0.6          # on the games' resemblance scale (Game.resemblance): above it, near-duplicates
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


def resemblance(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    """How alike two boards' answers are, as their game measures it (Game.resemblance: 1 the same
    answer, above MAX_OVERLAP near-duplicates); 0 for boards of different games, or of a game no longer
    registered."""
    if a.get("game") != b.get("game"):
        return 0.0
    try:
        game = game_named(a.get("game"))
    except PuzzleError:
        return 0.0
    return game.resemblance(a, b)


def too_close(board: Mapping[str, Any], others: Iterable[Mapping[str, Any]]) -> bool:
    """Whether the board resembles any of the others more than MAX_OVERLAP."""
    return any(resemblance(board, other) > MAX_OVERLAP for other in others)


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
    """A stored, unused board of the entry's rules, band and style, not too close to `avoid`: the first
    in id order from a seeded point, round the ring of ids once. Ids are digests, so id order is a
    random order of the boards (stored order is not: neighbours there are neighbours in the search
    space), and each look reads one chunk along an index, however many boards are stored."""
    game = game_named(entry.rules.game)
    stored_as = str(game.board_rules(entry.rules.to_json()))     # the rules text its boards are stored under
    style = game.check_style(entry.rules, entry.style)
    start = f"{random.Random(seed).getrandbits(64):016x}"
    for after, through in ((start, None), (None, start)):
        while True:
            with session(db, read_only=True) as s:
                ids = unused_board_ids(session=s, rules_text=stored_as, band=entry.band, style=style,
                                       unstyled=entry.style is None, after=after, through=through, limit=_CHUNK)
                boards = get_boards(session=s, board_ids=[board_id for board_id in ids if board_id not in taken])
            for board_id in ids:
                board = boards.get(board_id)
                if board is not None and not too_close(board, avoid):
                    return board
            if len(ids) < _CHUNK:
                break
            after = ids[-1]
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


def _plan(db: Engine, day: date, positions: Sequence[PlanEntry], timeout: float, attempts: int,
          budget: _Budget) -> list[dict[str, Any]]:
    number = day_number(day)
    neighbours = _neighbours(db, day)
    chosen: list[dict[str, Any]] = []
    for position, entry in enumerate(positions):
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


def make_daily(*, db: Engine, day: date, timeout: float = DEFAULT_TIMEOUT, attempts: int = MAX_ATTEMPTS,
               budget: float | None = None, plan: Sequence[PlanEntry] | None = None) -> list[dict[str, Any]]:
    """The day's set as board JSON dicts in the order of `plan` (None: plan_from_environment()): read
    back if the day has one, made and written (once, also against concurrent callers) if not. With a
    `budget`, generation stops after that many seconds with OutOfBudget (each board made is stored, so a
    later call makes only the rest), as a task hands its work over before its soft time limit. Raises
    DailyError, PlanError, StoreError."""
    if not isinstance(day, date) or isinstance(day, datetime):
        raise DailyError(f"a day must be a date, got {day!r}")
    if not timeout > 0 or attempts < 1:
        raise DailyError("timeout must be positive and attempts at least 1")
    if budget is not None and not budget > 0:
        raise DailyError("a time budget must be positive")
    positions = tuple(plan_from_environment() if plan is None else plan)
    if not positions:
        raise DailyError("a daily plan needs at least one position")
    clock = _Budget(budget)
    for _ in range(_ROUNDS):
        with session(db, read_only=True) as s:
            existing = daily_set(session=s, day=day)
        if existing:
            return existing
        chosen = _plan(db, day, positions, timeout, attempts, clock)
        with session(db) as s:
            outcome = save_daily(session=s, day=day, board_ids=[board["id"] for board in chosen])
            if outcome != "taken":         # stored, or another caller's set came first: read it back
                return daily_set(session=s, day=day)
        # Another day's set took one of the chosen boards meanwhile: choose again.
    raise DailyError(f"could not write the set of {day.isoformat()}: other days kept taking its boards")
