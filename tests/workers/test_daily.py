"""The day's set (jobs/daily.py) on a real SQLite file and the real PostgreSQL (a fresh schema per
test): the plan (every game's own by default, or the operator's PUZZLEFLEET_DAILY_PLAN, checked at
start), idempotence, determinism, no near-duplicates within a day or 30 days (each game's resemblance),
stored boards before new ones, concurrent callers; then `puzzlefleet daily`, the settings, the worker's
start and the beat task.

Boards come from the real engine. A pool of them (3 per plan entry, made once per session and kept in
pytest's cache per engine version and plan) stands in for a store the fleet has filled."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.schedules import crontab
from sqlalchemy import Engine

import engine
import store
from engine import ENGINE_VERSION, DeadlineExceeded, InvalidBoard, InvalidRules, derive_seed, game_named, parse_rules
from engine.games.starbattle import Board, GenerationStats, Rules, generate
from engine.games.starbattle.grade import BANDS
from tests.workers.conftest import make_db_url
from jobs import daily as daily_mod
from jobs.daily import (MAX_OVERLAP, PLAN_VARIABLE, DailyError, OutOfBudget, PlanEntry, PlanError, default_plan,
                           make_daily, resemblance, too_close)

pytestmark = [pytest.mark.xdist_group("daily-pool")]

Entry = tuple[dict[str, Any], str]          # (board JSON, fingerprint)
POOL_SIZE = 3
DAY = date(2025, 6, 15)                      # any date; this one generates its set quickly
DAILY_PLAN = default_plan()                  # every registered game's own positions
ROOT = Path(__file__).resolve().parents[2]
CLI = [str(Path(sys.executable).parent / "puzzlefleet")]      # the installed command, as docs/daily.md runs it


@pytest.fixture(autouse=True)
def no_plan_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default plan unless a test sets one."""
    monkeypatch.delenv(PLAN_VARIABLE, raising=False)


# ---- fixtures ---------------------------------------------------------------------------------------

def _make_pool() -> list[list[Entry]]:
    pool = []
    for position, (rules, band, style) in enumerate(DAILY_PLAN):
        game = game_named(rules.game)
        boards: list[Entry] = []
        attempt = 0
        while len(boards) < POOL_SIZE:
            try:
                board, _ = game.generate(rules, derive_seed(4242, position, attempt), band=band, timeout=1.5,
                                         style=style)
                boards.append((board.to_json(), board.fingerprint))
            except DeadlineExceeded:
                pass
            attempt += 1
        pool.append(boards)
    return pool


@pytest.fixture(scope="session")
def pool(request: pytest.FixtureRequest) -> list[list[Entry]]:
    """POOL_SIZE generated boards per DAILY_PLAN position (from the cache when the engine is unchanged)."""
    cache = getattr(request.config, "cache", None)
    plan = hashlib.sha1(repr([(str(e.rules), e.band, e.style) for e in DAILY_PLAN]).encode()).hexdigest()[:12]
    key = f"puzzlefleet/daily-pool/{ENGINE_VERSION}/{POOL_SIZE}/{plan}"
    cached = cache.get(key, None) if cache is not None else None
    if (isinstance(cached, list) and len(cached) == len(DAILY_PLAN)
            and all(len(boards) == POOL_SIZE and all(_plan_entry(data) == DAILY_PLAN[position] for data, _ in boards)
                    for position, boards in enumerate(cached))):
        return [[(data, fp) for data, fp in boards] for boards in cached]
    made = _make_pool()
    if cache is not None:
        cache.set(key, made)
    return made


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return make_db_url(request.param, tmp_path, request)


@pytest.fixture
def db(db_url: str) -> Iterator[Engine]:
    engine = store.make_engine(db_url)
    store.init_db(engine)
    yield engine
    engine.dispose()


# ---- helpers ----------------------------------------------------------------------------------------

def _plan_entry(board: dict[str, Any]) -> PlanEntry:
    """The plan entry a board serves (the plan names no style: every entry takes the default)."""
    return PlanEntry(game_named(board["game"]).board_rules(board["rules"]), board["difficulty"]["band"])


def position_of(rules: str, band: str) -> int:
    """The default plan's position of these rules and band."""
    return DAILY_PLAN.index(PlanEntry(parse_rules(rules), band))


def fill(db: Engine, entries: list[Entry]) -> None:
    with store.session(db) as s:
        for data, fp in entries:
            assert store.save_board(session=s, data=data, fingerprint=fp)


def fill_pool(db: Engine, pool: list[list[Entry]], skip: tuple[int, ...] = ()) -> list[Entry]:
    entries = [entry for position, boards in enumerate(pool) if position not in skip for entry in boards]
    fill(db, entries)
    return entries


def count(db: Engine) -> int:
    with store.session(db, read_only=True) as s:
        return store.count_boards(session=s)


def rows(db: Engine) -> list[tuple[date, int, str]]:
    with db.connect() as conn:
        return [tuple(r) for r in conn.execute(store.DailyEntry.__table__.select().order_by("day", "position"))]


def ids(boards: list[dict[str, Any]]) -> list[str]:
    return [board["id"] for board in boards]


def twins(original: dict[str, Any], band: str, how_many: int) -> list[Entry]:
    """Boards with the original's answer (overlap 1.0) but regions moved a little (so their own
    fingerprints), graded `band`: stored near-duplicates to tempt the scheduler."""
    n, stars = original["rules"]["size"], {tuple(cell) for cell in original["solution"]}
    regions = original["regions"]
    movable = [(r, c, regions[r + dr][c + dc]) for r in range(n) for c in range(n) if (r, c) not in stars
               for dr, dc in ((0, 1), (1, 0)) if r + dr < n and c + dc < n and regions[r + dr][c + dc] != regions[r][c]]
    out: list[Entry] = []
    for r, c, label in movable:
        if len(out) == how_many:
            break
        data = copy.deepcopy(original)
        data["regions"][r][c] = label
        data["difficulty"]["band"] = band
        try:
            fp = Board.from_json(data).fingerprint
        except InvalidBoard:
            continue                      # the move cut its region in two: not a board
        if fp in {other for _, other in out}:
            continue
        data["id"] = fp[:16]
        out.append((data, fp))
    assert len({fp for _, fp in out}) == how_many
    return out


def no_near_duplicates(boards: list[dict[str, Any]]) -> bool:
    return all(resemblance(a, b) <= MAX_OVERLAP for i, a in enumerate(boards) for b in boards[i + 1:])


# ---- the plan and the resemblance measure -------------------------------------------------------------


def patch_generation(monkeypatch: pytest.MonkeyPatch, fake: Any) -> None:
    """Put `fake(rules, seed, **kw)` in place of the Star Battle family's generation: the daily set's
    attempts reach it through the game registry, as a job's slots do."""
    from engine.games.starbattle.game import StarFamily
    monkeypatch.setattr(StarFamily, "generate", lambda self, rules, seed, **kw: fake(rules, seed, **kw))

def test_the_default_plan_is_star_battle_and_queens_as_before_then_every_other_game() -> None:
    """The first seven positions are the set's as they have always been (their seeds stay); each other
    registered game adds its own (Game.daily_positions), in registry order."""
    sudoku, killer = parse_rules("sudoku 9"), parse_rules("killer 9")
    assert DAILY_PLAN[:9] == (*(PlanEntry(Rules(10, 2), band) for band in BANDS),
                              PlanEntry(Rules(8), "easy"), PlanEntry(Rules(9), "medium"), PlanEntry(Rules(9), "hard"),
                              PlanEntry(sudoku, "medium"), PlanEntry(sudoku, "hard"))
    assert PlanEntry(killer, "medium") in DAILY_PLAN
    assert {entry.rules.game for entry in DAILY_PLAN} == set(engine.names())      # every registered game
    assert default_plan() == daily_mod.plan(p for g in engine.all_games() for p in g.daily_positions())


def test_a_game_that_joins_the_registry_joins_the_default_plan() -> None:
    """A game with no positions of its own gets one: its sample request in its second-easiest band."""
    sys.path.insert(0, str(ROOT / "tests" / "toygame"))
    try:
        import toy_latin
    finally:
        sys.path.remove(str(ROOT / "tests" / "toygame"))
    assert "latin" not in engine.names()
    engine.register(toy_latin.GAME)
    try:
        game = toy_latin.GAME
        rules = game.rules(**game.sample_request())
        assert default_plan() == (*DAILY_PLAN, PlanEntry(rules, game.bands[1]))
    finally:
        engine.unregister("latin")
    assert default_plan() == DAILY_PLAN


def _board(size: int, cells: list[tuple[int, int]], game: str = "starbattle") -> dict[str, Any]:
    return {"game": game, "rules": {"size": size}, "solution": [list(cell) for cell in cells]}


def test_star_boards_resemble_by_their_shared_star_cells_of_boards_of_one_size() -> None:
    base = [(r, c) for r in range(10) for c in (r % 5, r % 5 + 5)]          # 20 stars
    same12 = base[:12] + [(r, (c + 1) % 10) for r, c in base[12:]]          # 12 of 20 in place: 60%
    same13 = base[:13] + [(r, (c + 1) % 10) for r, c in base[13:]]
    assert resemblance(_board(10, base), _board(10, base)) == 1.0
    assert resemblance(_board(10, base), _board(10, same12)) == pytest.approx(0.6)
    assert not too_close(_board(10, same12), [_board(10, base)])              # "over 60%" is strict
    assert too_close(_board(10, same13), [_board(10, base)])
    assert resemblance(_board(10, base), _board(11, base)) == 0.0             # only boards of one size
    assert resemblance(_board(10, base), _board(10, base, "queens")) == 0.0   # ... and of one game
    assert not too_close(_board(10, base), [])


GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _grid(solution: str, game: str = "sudoku") -> dict[str, Any]:
    return {"game": game, "rules": {"size": 9}, "solution": solution}


def _changed(solution: str, cells: int) -> str:
    """The grid with its first `cells` cells given other digits (each moved on by one)."""
    return "".join(str(int(d) % 9 + 1) if i < cells else d for i, d in enumerate(solution))


def test_digit_answers_resemble_by_their_cells_agreeing_beyond_chance() -> None:
    """A Sudoku answer is a string: never read as star cells. Two grids that agree on 1/9 of their
    cells, as unrelated grids do, resemble 0; the same grid 1; "too close" past 64% of the cells, the
    threshold being on one scale for every game."""
    relabelled = GRID.translate(str.maketrans("123456789", "234567891"))      # the same grid, other digits
    assert resemblance(_grid(GRID), _grid(GRID)) == 1.0
    assert resemblance(_grid(GRID), _grid(relabelled)) == 0.0
    assert resemblance(_grid(GRID), _grid(GRID, "killer")) == 0.0          # boards of two games: never alike
    assert not too_close(_grid(GRID), [_grid(GRID, "killer"), _board(9, [(0, 0)], "queens")])
    close, apart = _changed(GRID, 81 - 53), _changed(GRID, 81 - 52)         # 53 and 52 of 81 cells alike
    assert resemblance(_grid(GRID), _grid(close)) == pytest.approx((53 / 81 - 1 / 9) / (8 / 9))
    assert too_close(_grid(close), [_grid(GRID)]) and not too_close(_grid(apart), [_grid(GRID)])
    assert too_close(_grid(GRID, "killer"), [_grid(close, "killer")])


# ---- make_daily ---------------------------------------------------------------------------------------

def test_the_set_follows_the_plan_from_stored_boards(db: Engine, pool: list[list[Entry]]) -> None:
    stored = fill_pool(db, pool)
    boards = make_daily(db=db, day=DAY)
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    # Stored boards come first: nothing was generated, and each board is one of the pool's.
    assert count(db) == len(stored)
    for position, board in enumerate(boards):
        assert board["id"] in {data["id"] for data, _ in pool[position]}
    assert no_near_duplicates(boards)
    assert rows(db) == [(DAY, position, board_id) for position, board_id in enumerate(ids(boards))]


def test_a_plan_entry_may_name_a_style(db: Engine, pool: list[list[Entry]], monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry naming a style takes only boards of that style (here none is stored: one is made in
    it); an entry naming none takes the default's, or a board stored before styles were recorded."""
    queens8 = pool[position_of("queens 8", "easy")]          # the default style
    default = queens8[0][0]["style"]
    old = copy.deepcopy(queens8[1][0])
    del old["style"], old["generation"]["style"]              # as stored before styles were recorded
    fill(db, [queens8[0], (old, queens8[1][1])])
    plan = daily_mod.plan([("queens 8", "easy", "organic"), ("queens 8", "easy"), ("queens 8", "easy")])
    boards = make_daily(db=db, day=DAY, plan=plan)
    assert default == "pictured" and boards[0]["style"] == "organic"
    assert boards[0]["id"] not in {data["id"] for data, _ in queens8}       # made, in the style asked
    assert {boards[1]["id"], boards[2]["id"]} == {queens8[0][0]["id"], old["id"]}
    assert {board.get("style") for board in boards[1:]} == {default, None}
    assert [board["difficulty"]["band"] for board in boards] == ["easy"] * 3
    with store.session(db, read_only=True) as s:
        assert [row["id"] for row in store.board_summaries(session=s, style="organic")[0]] == [boards[0]["id"]]


def test_a_plan_entry_with_a_style_its_rules_do_not_take_is_refused() -> None:
    with pytest.raises(InvalidRules, match="no drawing style 'composed' for starbattle 10 2"):
        daily_mod.plan([("starbattle 10 2", "easy", "composed")])
    with pytest.raises(InvalidRules, match="sudoku has no drawing styles"):
        daily_mod.plan([("sudoku 9", "easy", "organic")])


def test_make_daily_is_idempotent(db: Engine, pool: list[list[Entry]], monkeypatch: pytest.MonkeyPatch) -> None:
    fill_pool(db, pool)
    first = make_daily(db=db, day=DAY)

    def no_generation(*_: Any, **__: Any) -> Any:
        raise AssertionError("a set that exists is read back, not made again")
    patch_generation(monkeypatch, no_generation)
    monkeypatch.setattr(daily_mod, "save_daily", no_generation)
    assert make_daily(db=db, day=DAY) == first
    assert len(rows(db)) == len(DAILY_PLAN)


@pytest.fixture(scope="module")
def reference_set(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The ids of DAY's set made on an empty SQLite store."""
    engine = store.make_engine(f"sqlite:///{tmp_path_factory.mktemp('reference') / 'puzzles.db'}")
    store.init_db(engine)
    try:
        return ids(make_daily(db=engine, day=DAY))
    finally:
        engine.dispose()


def test_a_date_gives_the_same_set_on_an_empty_store(db: Engine, reference_set: list[str]) -> None:
    boards = make_daily(db=db, day=DAY)
    assert ids(boards) == reference_set
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    assert no_near_duplicates(boards)
    # Every board was generated (seeds from the date) and stored.
    assert count(db) == len(DAILY_PLAN)
    for position, board in enumerate(boards):
        seeds = {derive_seed(daily_mod.day_number(DAY), position, attempt) for attempt in range(daily_mod.MAX_ATTEMPTS)}
        assert board["seed"] in seeds


@pytest.mark.parametrize("alternative", [True, False], ids=["stored-alternative", "generated"])
def test_no_two_boards_of_a_day_overlap_heavily(db: Engine, pool: list[list[Entry]], alternative: bool) -> None:
    """Star Battle easy and medium are compared: the only easy board is A; the medium boards stored
    are A's twins (same answer) and, in one case, one unrelated board."""
    a = pool[0][0]
    fill_pool(db, pool, skip=(0, 1))
    fill(db, [a, *twins(a[0], "medium", 4)])
    if alternative:
        fill(db, [pool[1][0]])
    before = {data["id"] for data in store_boards(db)}
    boards = make_daily(db=db, day=DAY)
    assert boards[0]["id"] == a[0]["id"]
    assert resemblance(boards[0], boards[1]) <= MAX_OVERLAP
    if alternative:
        assert boards[1]["id"] == pool[1][0][0]["id"]
    else:
        assert boards[1]["id"] not in before                  # every stored medium was a twin: a new one
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    assert no_near_duplicates(boards)


def store_boards(db: Engine) -> list[dict[str, Any]]:
    with store.session(db, read_only=True) as s:
        return store.list_boards(session=s)


def test_boards_of_the_last_30_days_are_not_repeated(db: Engine, pool: list[list[Entry]]) -> None:
    """Day 0's set holds A; the only other stored easy boards are A's twins. Thirty-one days later
    they may come back; thirty days later they may not (day 31's set is a day away by then)."""
    fill_pool(db, pool, skip=(0,))
    a = pool[0][0]
    fill(db, [a, *twins(a[0], "easy", 3)])
    day0 = DAY
    with store.session(db) as s:
        assert store.save_daily(session=s, day=day0, board_ids=[a[0]["id"]] + [boards[0][0]["id"]
                                                                               for boards in pool[1:]]) == "stored"
    twin_ids = {data["id"] for data, _ in twins(a[0], "easy", 3)}

    later = make_daily(db=db, day=day0 + timedelta(days=31))
    assert later[0]["id"] in twin_ids                         # outside the window: a stored twin is fine

    boards = make_daily(db=db, day=day0 + timedelta(days=30))
    assert boards[0]["id"] not in twin_ids | {a[0]["id"]}    # a new easy board instead
    assert resemblance(boards[0], a[0]) <= MAX_OVERLAP and resemblance(boards[0], later[0]) <= MAX_OVERLAP
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    # No board is in two days' sets.
    all_ids = [board_id for _, _, board_id in rows(db)]
    assert len(all_ids) == len(set(all_ids)) == 3 * len(DAILY_PLAN)


def digit_twins(original: dict[str, Any], how_many: int) -> list[Entry]:
    """Boards with the original's answer (a string of digits: resemblance 1.0) but a given fewer, so
    their own fingerprints: stored near-duplicates of a Sudoku-like board."""
    game, out = game_named(original["game"]), []
    for cell in (i for i, given in enumerate(original["givens"]) if given != "."):
        if len(out) == how_many:
            break
        data = copy.deepcopy(original)
        data["givens"] = data["givens"][:cell] + "." + data["givens"][cell + 1:]
        fp = game.board_from_json(data).fingerprint
        data["id"] = fp[:16]
        out.append((data, fp))
    assert len({fp for _, fp in out}) == how_many
    return out


def test_a_digit_board_like_a_recent_one_is_passed_over(db: Engine, pool: list[list[Entry]]) -> None:
    """Sudoku answers are strings, compared by the game's resemblance (never read as star cells):
    yesterday's Sudoku medium is A, and the only other stored ones are A's twins, so today's is made."""
    where = position_of("sudoku 9", "medium")
    a = pool[where][0]
    fill_pool(db, pool, skip=(where,))
    twins_of_a = digit_twins(a[0], 3)
    fill(db, [a, *twins_of_a])
    with store.session(db) as s:
        assert store.save_daily(session=s, day=DAY - timedelta(days=1), board_ids=[a[0]["id"]]) == "stored"
    before = count(db)
    boards = make_daily(db=db, day=DAY)
    assert boards[where]["id"] not in {data["id"] for data, _ in [a, *twins_of_a]}
    assert count(db) == before + 1 and resemblance(boards[where], a[0]) <= MAX_OVERLAP
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    assert no_near_duplicates(boards)


def test_the_window_reaches_30_days_either_side(db: Engine, pool: list[list[Entry]]) -> None:
    entries = [boards[0] for boards in pool] + [pool[0][1]]
    fill(db, entries)
    offsets = [-31, -30, 0, 30, 31]
    with store.session(db) as s:
        for offset, (data, _) in zip(offsets, entries):
            assert store.save_daily(session=s, day=DAY + timedelta(days=offset), board_ids=[data["id"]]) == "stored"
    assert ids(daily_mod._neighbours(db, DAY)) == [entries[1][0]["id"], entries[3][0]["id"]]


def test_concurrent_calls_for_one_day_make_one_set(db_url: str, pool: list[list[Entry]]) -> None:
    """Four callers at once on a store with no Queens 8 board: they race to generate that one (the same
    seeds, so the same board: the losers of save_board use it too) and to write the set."""
    setup = store.make_engine(db_url)
    store.init_db(setup)
    stored = fill_pool(setup, pool, skip=(4,))
    barrier, results = threading.Barrier(4), {}

    def caller(k: int) -> None:
        engine = store.make_engine(db_url)
        try:
            barrier.wait(timeout=30)
            results[k] = ids(make_daily(db=engine, day=DAY))
        except BaseException as exc:          # reported below, not lost in the thread
            results[k] = repr(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=caller, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(results) == 4 and all(isinstance(r, list) for r in results.values()), results
    assert len({tuple(r) for r in results.values()}) == 1
    assert rows(setup) == [(DAY, position, board_id) for position, board_id in enumerate(results[0])]
    assert count(setup) >= len(stored) + 1
    setup.dispose()


@pytest.mark.parametrize("used_elsewhere", [False, True], ids=["fresh-duplicate", "used-duplicate"])
def test_a_generated_duplicate_is_used_only_if_no_day_holds_it(db: Engine, pool: list[list[Entry]],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               used_elsewhere: bool) -> None:
    """The Queens 8 board of attempt 0 gets stored by someone else just before we store it (a
    concurrent caller for the same day): it is ours to use, unless some day's set already holds it,
    and then the next attempt's board is used."""
    fill_pool(db, pool, skip=(4,))
    real_generate = generate
    seeds: list[int] = []

    def generate_racing(rules: Rules, seed: int, **kw: Any) -> Any:
        board, stats = real_generate(rules, seed, **kw)
        seeds.append(seed)
        if len(seeds) == 1:
            with store.session(db) as s:
                assert store.save_board(session=s, data=board.to_json(), fingerprint=board.fingerprint)
                if used_elsewhere:
                    assert store.save_daily(session=s, day=DAY - timedelta(days=400),
                                            board_ids=[board.id]) == "stored"
        return board, stats

    patch_generation(monkeypatch, generate_racing)
    boards = make_daily(db=db, day=DAY)
    number = daily_mod.day_number(DAY)
    expected = [derive_seed(number, 4, 0), derive_seed(number, 4, 1)] if used_elsewhere else [derive_seed(number, 4, 0)]
    assert seeds == expected
    assert boards[4]["seed"] == expected[-1]
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)


def test_a_caller_that_loses_the_race_returns_the_winners_set(db: Engine, pool: list[list[Entry]],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    fill_pool(db, pool)
    real_plan = daily_mod._plan
    winner: list[str] = []

    def plan_then_lose(*args: Any) -> list[dict[str, Any]]:
        planned = real_plan(*args)
        # Another caller writes a different set for the day between our plan and our write.
        winner[:] = [next(data["id"] for data, _ in boards if data["id"] != board["id"])
                     for boards, board in zip(pool, planned)]
        with store.session(db) as s:
            assert store.save_daily(session=s, day=DAY, board_ids=winner) == "stored"
        return planned

    monkeypatch.setattr(daily_mod, "_plan", plan_then_lose)
    assert ids(make_daily(db=db, day=DAY)) == winner
    assert [board_id for _, _, board_id in rows(db)] == winner


def test_boards_another_day_took_meanwhile_are_chosen_again(db: Engine, pool: list[list[Entry]],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fill_pool(db, pool)
    real_plan = daily_mod._plan
    calls: list[list[str]] = []

    def plan(*args: Any) -> list[dict[str, Any]]:
        planned = real_plan(*args)
        calls.append(ids(planned))
        if len(calls) == 1:      # a far-away day's set takes our first choice before we write
            with store.session(db) as s:
                assert store.save_daily(session=s, day=DAY + timedelta(days=365),
                                        board_ids=[planned[0]["id"]]) == "stored"
        return planned

    monkeypatch.setattr(daily_mod, "_plan", plan)
    boards = make_daily(db=db, day=DAY)
    assert len(calls) == 2 and boards[0]["id"] != calls[0][0]
    assert ids(boards) == calls[1]


def test_when_nothing_can_be_made_the_error_is_one_line_and_nothing_is_written(
        db: Engine, pool: list[list[Entry]], monkeypatch: pytest.MonkeyPatch) -> None:
    fill_pool(db, pool, skip=(6,))

    def out_of_time(*_: Any, **__: Any) -> Any:
        raise DeadlineExceeded("no board in time", GenerationStats())
    patch_generation(monkeypatch, out_of_time)
    with pytest.raises(DailyError, match=r"^no queens 9 hard board for 2025-06-15 in 2 attempt\(s\) of 0.5 s$"):
        make_daily(db=db, day=DAY, timeout=0.5, attempts=2)
    assert rows(db) == []


def test_a_set_made_in_budgeted_calls_is_whole_and_nothing_is_half_written(db: Engine) -> None:
    """Calls with a time budget, as the daily task makes them before its soft limit: a call that runs
    out raises OutOfBudget and writes no set, the boards it made stay stored for the next call. The
    budget starts too small for any board and doubles after a call that stored nothing, so some call
    runs out after making progress, whatever the machine's speed (the day's slowest board is under a
    third of its set)."""
    day, budget = date(2026, 4, 28), 0.05
    progressed = calls = 0
    while True:
        before = count(db)
        calls += 1
        try:
            boards = make_daily(db=db, day=day, budget=budget)
            break
        except OutOfBudget as exc:
            assert str(exc).startswith("the time budget ran out at position ")
            assert rows(db) == []
            if count(db) == before:
                budget *= 2
            else:
                progressed += 1
        assert calls < 40
    assert progressed >= 1
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    assert no_near_duplicates(boards)
    assert [row[2] for row in rows(db)] == ids(boards)


@pytest.mark.parametrize("kwargs, message", [
    ({"day": "2025-06-15"}, "must be a date"),
    ({"day": DAY, "timeout": 0}, "timeout must be positive"),
    ({"day": DAY, "attempts": 0}, "attempts at least 1"),
    ({"day": DAY, "budget": 0}, "budget must be positive"),
])
def test_bad_arguments_are_refused(db: Engine, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(DailyError, match=message):
        make_daily(db=db, **kwargs)


# ---- puzzlefleet daily --------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["2025-02-30", "20250615", "2025-6-15", "tomorrow", "2025-W24-7", ""])
def test_cli_bad_date_is_one_line_and_exit_2(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlefleet.cli import main
    assert main(["daily", "--date", value]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "YYYY-MM-DD" in err and "Traceback" not in err


def test_cli_prints_the_set_as_a_table_or_json_lines(tmp_path: Path, pool: list[list[Entry]],
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlefleet.cli import main
    url = f"sqlite:///{tmp_path / 'puzzles.db'}"
    engine = store.make_engine(url)
    store.init_db(engine)
    fill_pool(engine, pool)
    monkeypatch.setenv("PUZZLEFLEET_DB", url)

    assert main(["daily", "--date", DAY.isoformat(), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    boards = [json.loads(line) for line in lines]
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    assert ids(boards) == [board_id for _, _, board_id in rows(engine)]

    assert main(["daily", "--date", DAY.isoformat()]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "daily set for 2025-06-15"
    assert table[1].split() == ["pos", "game", "size", "stars", "band", "id"]
    assert [line.split() for line in table[2:]] == [           # a game without stars shows "-" there
        [str(p), b["game"], str(b["rules"]["size"]), str(b["rules"].get("stars", "-")), b["difficulty"]["band"],
         b["id"]] for p, b in enumerate(boards)]
    engine.dispose()


def cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`puzzlefleet ARGS` as a user runs it, on the store PUZZLEFLEET_DB names (a SQLite file in
    tmp_path unless given), with the variables given."""
    environ = {key: value for key, value in os.environ.items() if key != PLAN_VARIABLE}
    environ.setdefault("PUZZLEFLEET_DB", f"sqlite:///{tmp_path / 'puzzles.db'}")
    environ.update(env)
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=environ, cwd=tmp_path, timeout=240)


def test_cli_makes_a_set_of_every_game_by_default(tmp_path: Path, pool: list[list[Entry]]) -> None:
    """`PUZZLEFLEET_DB=sqlite:///... puzzlefleet daily`, as docs/daily.md has it: a board of every
    registered game, each as the default plan asks, the table and the JSON alike."""
    url = f"sqlite:///{tmp_path / 'puzzles.db'}"
    db = store.make_engine(url)
    store.init_db(db)
    fill_pool(db, pool)
    db.dispose()
    made = cli(tmp_path, "daily", "--date", DAY.isoformat(), "--json", PUZZLEFLEET_DB=url)
    assert made.returncode == 0, made.stderr
    boards = [json.loads(line) for line in made.stdout.splitlines()]
    assert [_plan_entry(board) for board in boards] == list(DAILY_PLAN)
    assert {board["game"] for board in boards} == set(engine.names())
    assert no_near_duplicates(boards)
    table = cli(tmp_path, "daily", "--date", DAY.isoformat(), PUZZLEFLEET_DB=url)
    assert table.returncode == 0 and table.stderr == ""
    assert [line.split()[1] for line in table.stdout.splitlines()[2:]] == [board["game"] for board in boards]


PLAN_TEXT = "killer 9, easy; sudoku 9, hard\n# a comment\nqueens 8, medium, organic  # a style too\n"
PLAN_JSON = json.dumps([{"rules": "killer 9", "band": "easy"}, ["sudoku 9", "hard"],
                        {"rules": "queens 8", "band": "medium", "style": "organic"}])


@pytest.mark.parametrize("form", ["text", "json", "text-file", "json-file"])
def test_cli_follows_the_plan_the_setting_gives(tmp_path: Path, form: str) -> None:
    """PUZZLEFLEET_DAILY_PLAN changes the set with no code: inline positions "RULES, BAND[, STYLE]"
    between ";" or lines, a JSON list, or the path of a file holding either."""
    value = PLAN_JSON if form.startswith("json") else PLAN_TEXT
    if form.endswith("file"):
        (tmp_path / "plan.txt").write_text(value, encoding="utf-8")
        value = str(tmp_path / "plan.txt")
    made = cli(tmp_path, "daily", "--date", DAY.isoformat(), "--json", PUZZLEFLEET_DAILY_PLAN=value)
    assert made.returncode == 0, made.stderr
    boards = [json.loads(line) for line in made.stdout.splitlines()]
    assert [(str(_plan_entry(board).rules), board["difficulty"]["band"]) for board in boards] == [
        ("killer 9", "easy"), ("sudoku 9", "hard"), ("queens 8", "medium")]
    assert boards[2]["style"] == "organic"
    # The day's set is kept: another plan later shows the set the day has.
    again = cli(tmp_path, "daily", "--date", DAY.isoformat(), "--json")
    assert again.returncode == 0 and again.stdout == made.stdout


BAD_PLANS = [
    ("chess 8, easy", r'position 1 \("chess 8, easy"\): unknown game \'chess\''),
    ("queens 8, easy; sudoku 9, impossible", r"position 2 .*unknown band 'impossible'"),
    ("killer 9, beyond", r"position 1 .*the beyond band is graded, not generated"),
    ("sudoku 9 by-clues, expert", r"unknown band 'expert' by clues"),
    ("starbattle 10 2, easy, composed", r"no drawing style 'composed' for starbattle 10 2"),
    ("sudoku 9, easy, organic", r"sudoku has no drawing styles"),
    ("queens 99, easy", r"position 1 \(\"queens 99, easy\"\): "),
    ("queens 8, easy, organic, extra", r"expected RULES, BAND\[, STYLE\]"),
    ("queens 8,", r"expected RULES, BAND\[, STYLE\]"),
    ("; ;", r"the plan holds no position$"),
    ("[[\"queens 8\", \"easy\"]", r"not JSON"),
    ('[{"rules": "queens 8", "level": "easy"}]', r"unknown key 'level'"),
    ('{"rules": "queens 8"}', r"cannot read the plan file"),
    ("queens 8 easy", r"cannot read the plan file queens 8 easy \(No such file or directory\); a plan is"),
    (";".join(["queens 8, easy"] * 101), r"101 positions, more than 100"),
]


@pytest.mark.parametrize("value, message", BAD_PLANS, ids=[f"bad{i}" for i in range(len(BAD_PLANS))])
def test_a_bad_plan_is_one_line_naming_the_setting_and_exit_2(tmp_path: Path, value: str, message: str) -> None:
    """Checked before the store is opened: nothing is made, not even the database file."""
    bad = cli(tmp_path, "daily", "--date", DAY.isoformat(), PUZZLEFLEET_DAILY_PLAN=value)
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr, bad.stderr
    assert bad.stderr.startswith(f"puzzlefleet: error: {PLAN_VARIABLE}: ")
    assert re.search(message, bad.stderr), bad.stderr
    assert not (tmp_path / "puzzles.db").exists()


def test_a_blank_plan_is_the_default_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PLAN_VARIABLE, "  ")
    assert daily_mod.plan_from_environment() == DAILY_PLAN
    with pytest.raises(PlanError, match=f"^{PLAN_VARIABLE}: position 1 "):
        daily_mod.read_plan("queens 8, easiest")


def test_the_read_api_shows_a_set_of_every_game(tmp_path: Path, pool: list[list[Entry]]) -> None:
    """GET /daily/DAY gives the boards in plan order as stored, and each board of every game has its
    player page and its pictures: nothing on the way reads a game's answer as another game's."""
    from fastapi.testclient import TestClient

    from store.api import create_app
    url = f"sqlite:///{tmp_path / 'puzzles.db'}"
    db = store.make_engine(url)
    store.init_db(db)
    fill_pool(db, pool)
    boards = make_daily(db=db, day=DAY)
    db.dispose()
    with TestClient(create_app(url)) as client:
        shown = client.get(f"/daily/{DAY.isoformat()}")
        assert shown.status_code == 200 and shown.json() == {"date": DAY.isoformat(), "boards": boards}
        assert {board["game"] for board in shown.json()["boards"]} == set(engine.names())
        for board in boards:
            for path in (f"/play/{board['id']}", f"/boards/{board['id']}.svg?solution=true",
                         f"/boards/{board['id']}.png"):
                assert client.get(path).status_code == 200, (board["game"], path)


# ---- the fleet's settings and the worker's start -----------------------------------------------------

def test_the_fleet_reads_the_plan_once_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """workers.settings checks the plan when a process starts, and keeps a file's plan as it was read."""
    from workers import settings as settings_mod
    assert settings_mod.load().daily_plan == DAILY_PLAN
    (tmp_path / "plan.txt").write_text("sudoku 9, easy\nkiller 9, hard", encoding="utf-8")
    monkeypatch.setenv(PLAN_VARIABLE, str(tmp_path / "plan.txt"))
    conf = settings_mod.load()
    (tmp_path / "plan.txt").write_text("chess 8, easy", encoding="utf-8")
    assert conf.daily_plan == (PlanEntry(parse_rules("sudoku 9"), "easy"), PlanEntry(parse_rules("killer 9"), "hard"))
    with pytest.raises(settings_mod.ConfigError, match=f"^{PLAN_VARIABLE}: position 1 .*unknown game 'chess'") as bad:
        settings_mod.load()
    assert "\n" not in str(bad.value)


@pytest.mark.parametrize("role", ["worker", "beat"])
def test_a_worker_or_beat_with_a_bad_plan_stops_at_start_in_one_line(tmp_path: Path, role: str) -> None:
    environ = {**os.environ, PLAN_VARIABLE: "starbattle 10 2, easy, composed"}
    args = ["--schedule", str(tmp_path / "beat-schedule")] if role == "beat" else ["-Q", "fleet", "--pool", "solo"]
    started = subprocess.run([sys.executable, "-m", "celery", "-A", "workers", role, "-l", "info", *args],
                             capture_output=True, text=True, env=environ, cwd=ROOT, timeout=120)
    assert started.returncode == 2
    assert started.stderr.splitlines() == [
        f"puzzlefleet: error: {PLAN_VARIABLE}: position 1 (\"starbattle 10 2, easy, composed\"): no drawing style "
        "'composed' for starbattle 10 2: expected one of interlocking, organic"], started.stderr


# ---- beat -----------------------------------------------------------------------------------------------

def test_beat_schedules_the_daily_task_just_after_midnight_utc() -> None:
    from workers import tasks
    from workers.celeryapp import app
    entry = app.conf.beat_schedule["daily-set"]
    assert entry["task"] == tasks.daily.name == "puzzlefleet.daily"
    assert "puzzlefleet.daily" in app.tasks
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    assert schedule.hour == {0} and schedule.minute == {5}
    assert app.conf.timezone == "UTC" and app.conf.enable_utc


def test_the_daily_task_follows_the_plan_of_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import settings as settings_mod
    from workers import tasks
    engine = store.make_engine(f"sqlite:///{tmp_path / 'puzzles.db'}")
    store.init_db(engine)
    monkeypatch.setattr(tasks, "process_engine", lambda: engine)
    monkeypatch.setenv(PLAN_VARIABLE, "sudoku 9, medium; killer 9, medium")
    monkeypatch.setattr(tasks, "settings", settings_mod.load)
    result = tasks.daily(DAY.isoformat())
    with store.session(engine, read_only=True) as s:
        boards = store.daily_set(session=s, day=DAY)
    assert result["boards"] == ids(boards) and [board["game"] for board in boards] == ["sudoku", "killer"]
    engine.dispose()


def test_the_daily_task_is_a_thin_call_of_make_daily(tmp_path: Path, pool: list[list[Entry]],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import tasks
    from jobs.params import BadTask
    engine = store.make_engine(f"sqlite:///{tmp_path / 'puzzles.db'}")
    store.init_db(engine)
    fill_pool(engine, pool)
    monkeypatch.setattr(tasks, "process_engine", lambda: engine)
    result = tasks.daily(DAY.isoformat())
    assert result == {"day": "2025-06-15", "boards": [board_id for _, _, board_id in rows(engine)]}
    monkeypatch.setattr(daily_mod, "today", lambda: DAY + timedelta(days=1))
    monkeypatch.setattr(tasks, "today", lambda: DAY + timedelta(days=1))
    assert tasks.daily()["day"] == "2025-06-16"
    with pytest.raises(BadTask, match="not a day"):
        tasks.daily("15/06/2025")
    engine.dispose()
