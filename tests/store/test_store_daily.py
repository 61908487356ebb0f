"""The daily table (Alembic 0003) and its repository functions, on SQLite and PostgreSQL: the keys the
database enforces, all-or-nothing writes of a day's set, and concurrent writers of one day."""

from __future__ import annotations

import threading
import time
from datetime import date, timedelta
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, inspect, insert
from sqlalchemy.exc import IntegrityError

import store
from store import DailyEntry, StoreError, daily_days, daily_set, daily_sets_between, save_daily, unused_board_ids
from store.db import alembic_config

DAY = date(2025, 3, 14)


def _stored(engine: Engine, board: Any, keys: list[str], **kw: Any) -> list[str]:
    ids = []
    with store.session(engine) as s:
        for key in keys:
            data, fp = board(key, **kw)
            assert store.save_board(session=s, data=data, fingerprint=fp)
            ids.append(data["id"])
    return ids


def _rows(engine: Engine) -> list[tuple[date, int, str]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(DailyEntry.__table__.select().order_by("day", "position"))]


def test_migration_creates_the_daily_table_with_its_keys(engine: Engine) -> None:
    insp = inspect(engine)
    assert "daily" in insp.get_table_names()
    assert insp.get_pk_constraint("daily")["constrained_columns"] == ["day", "position"]
    uniques = {u["name"]: u["column_names"] for u in insp.get_unique_constraints("daily")}
    assert uniques["uq_daily_day_board"] == ["day", "board_id"]
    fks = insp.get_foreign_keys("daily")
    assert [(fk["constrained_columns"], fk["referred_table"], fk["referred_columns"]) for fk in fks] == [
        (["board_id"], "puzzle", ["id"])]
    assert "ix_daily_board_id" in {ix["name"] for ix in insp.get_indexes("daily")}


def test_migration_0003_downgrades_and_upgrades_again(engine: Engine, board: Any) -> None:
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    assert "daily" not in inspect(engine).get_table_names()
    assert {"puzzle", "job", "job_slot"} <= set(inspect(engine).get_table_names())
    store.init_db(engine)
    ids = _stored(engine, board, ["a"])
    with store.session(engine) as s:
        assert save_daily(session=s, day=DAY, board_ids=ids) == "stored"


def test_the_database_enforces_the_unique_keys_and_the_board_reference(engine: Engine, board: Any) -> None:
    a, b = _stored(engine, board, ["a", "b"])
    table = DailyEntry.__table__
    with engine.begin() as conn:
        conn.execute(insert(table).values(day=DAY, position=0, board_id=a))
    for row in ({"day": DAY, "position": 0, "board_id": b},       # (day, position) taken
                {"day": DAY, "position": 1, "board_id": a},       # (day, board_id) taken
                {"day": DAY, "position": 1, "board_id": "0" * 16}):  # no such board
        with pytest.raises(IntegrityError):
            with engine.begin() as conn:
                conn.execute(insert(table).values(**row))
    # The same board on another day is the scheduler's business, not a key.
    with engine.begin() as conn:
        conn.execute(insert(table).values(day=DAY + timedelta(days=1), position=0, board_id=a))
    assert len(_rows(engine)) == 2


def test_save_daily_writes_a_set_once(engine: Engine, board: Any) -> None:
    ids = _stored(engine, board, ["a", "b", "c", "d"])
    with store.session(engine) as s:
        assert save_daily(session=s, day=DAY, board_ids=ids[:3]) == "stored"
    with store.session(engine, read_only=True) as s:
        assert [b["id"] for b in daily_set(session=s, day=DAY)] == ids[:3]
        assert daily_set(session=s, day=DAY + timedelta(days=1)) == []
    with store.session(engine) as s:        # the day is written: nothing changes
        assert save_daily(session=s, day=DAY, board_ids=[ids[3]]) == "exists"
    with store.session(engine) as s:        # another day may not take a board a set holds
        assert save_daily(session=s, day=DAY + timedelta(days=1), board_ids=[ids[3], ids[0]]) == "taken"
    assert _rows(engine) == [(DAY, i, board_id) for i, board_id in enumerate(ids[:3])]


@pytest.mark.parametrize("ids, message", [
    ([], "at least one board"),
    (["nothex"], "16 lowercase hex"),
    ("dup", "each board once"),
    ("missing", "no board with id"),
])
def test_save_daily_refuses_bad_sets_and_writes_nothing(engine: Engine, board: Any, ids: Any, message: str) -> None:
    stored = _stored(engine, board, ["a", "b"])
    if ids == "dup":
        ids = [stored[0], stored[1], stored[0]]
    elif ids == "missing":
        ids = [stored[0], "f" * 16]
    with pytest.raises(StoreError, match=message):
        with store.session(engine) as s:
            save_daily(session=s, day=DAY, board_ids=ids)
    assert _rows(engine) == []


def test_save_daily_refuses_a_moment_for_a_day(engine: Engine, board: Any) -> None:
    from datetime import datetime
    ids = _stored(engine, board, ["a"])
    with pytest.raises(StoreError, match="must be a date"):
        with store.session(engine) as s:
            save_daily(session=s, day=datetime(2025, 3, 14, 12), board_ids=ids)  # type: ignore[arg-type]


def test_unused_board_ids_filter_by_rules_and_band_and_skip_used_boards(engine: Engine, board: Any) -> None:
    easy8 = _stored(engine, board, ["e1", "e2", "e3"])
    _stored(engine, board, ["h1"], band="hard")
    _stored(engine, board, ["n9"], size=9)
    with store.session(engine) as s:
        assert save_daily(session=s, day=DAY, board_ids=[easy8[1]]) == "stored"
    with store.session(engine, read_only=True) as s:
        found = unused_board_ids(session=s, rules_text="queens 8", band="easy")
        assert found == sorted([easy8[0], easy8[2]])
        assert unused_board_ids(session=s, rules_text="starbattle 8 2", band="easy") == []
        assert unused_board_ids(session=s, rules_text="queens 8 diagonals", band="easy") == []
        assert len(unused_board_ids(session=s, rules_text="queens 9", band="easy")) == 1


def test_daily_sets_between_includes_both_ends(engine: Engine, board: Any) -> None:
    ids = _stored(engine, board, [f"k{i}" for i in range(5)])
    days = [DAY + timedelta(days=d) for d in (0, 1, 3, 4)]
    with store.session(engine) as s:
        for day, board_id in zip(days, ids):
            assert save_daily(session=s, day=day, board_ids=[board_id]) == "stored"
    with store.session(engine, read_only=True) as s:
        sets = daily_sets_between(session=s, first=days[1], last=days[2])
        assert {day: [b["id"] for b in boards] for day, boards in sets.items()} == {days[1]: [ids[1]],
                                                                                    days[2]: [ids[2]]}
        assert store.in_daily_set(session=s, board_id=ids[0]) and not store.in_daily_set(session=s, board_id=ids[4])
        assert set(store.get_boards(session=s, board_ids=[ids[4], "0" * 16])) == {ids[4]}


def test_daily_days_are_the_days_with_a_set_newest_first(engine: Engine, board: Any) -> None:
    ids = _stored(engine, board, [f"d{i}" for i in range(4)])
    days = [DAY + timedelta(days=d) for d in (0, 2, 3)]
    with store.session(engine) as s:
        assert daily_days(session=s, limit=5) == []
        for day, board_ids in zip(days, (ids[:2], ids[2:3], ids[3:])):
            assert save_daily(session=s, day=day, board_ids=board_ids) == "stored"
    with store.session(engine, read_only=True) as s:
        assert daily_days(session=s, limit=5) == days[::-1]          # a day of two boards listed once
        assert daily_days(session=s, limit=2) == [days[2], days[1]]
        assert daily_days(session=s, limit=5, before=days[2]) == [days[1], days[0]]
        assert daily_days(session=s, limit=5, before=days[0]) == []
        with pytest.raises(StoreError, match="limit"):
            daily_days(session=s, limit=-1)


def test_concurrent_writers_of_one_day_leave_one_set(db_url: str, board: Any) -> None:
    """Four writers with four different sets for one day, each holding its transaction open a moment:
    one set is stored whole, the others are told the day exists, and no rows are mixed."""
    setup = store.make_engine(db_url)
    store.init_db(setup)
    sets = [_stored(setup, board, [f"w{w}-{i}" for i in range(3)]) for w in range(4)]
    barrier, results = threading.Barrier(4), {}

    def writer(w: int) -> None:
        engine = store.make_engine(db_url)
        try:
            barrier.wait(timeout=30)
            with store.session(engine) as s:
                outcome = save_daily(session=s, day=DAY, board_ids=sets[w])
                time.sleep(0.2)           # keep the transaction open while the others try
                results[w] = (outcome, [b["id"] for b in daily_set(session=s, day=DAY)])
        except BaseException as exc:      # reported below, not lost in the thread
            results[w] = ("error", repr(exc))
        finally:
            engine.dispose()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    outcomes = sorted(outcome for outcome, _ in results.values())
    assert outcomes == ["exists", "exists", "exists", "stored"], results
    winner = next(w for w, (outcome, _) in results.items() if outcome == "stored")
    assert {tuple(ids) for _, ids in results.values()} == {tuple(sets[winner])}
    assert _rows(setup) == [(DAY, i, board_id) for i, board_id in enumerate(sets[winner])]
    setup.dispose()


def test_a_writer_that_bypassed_the_lock_still_cannot_mix_rows(db_url: str, board: Any) -> None:
    """A raw, uncommitted insert of the day's row 0 (no lock taken) while save_daily runs: on
    PostgreSQL save_daily's insert waits, then hits the unique key and reports "exists" with its
    transaction intact; on SQLite it waits for the write lock and sees the row."""
    engine = store.make_engine(db_url)
    store.init_db(engine)
    ours, theirs = _stored(engine, board, ["o1", "o2"]), _stored(engine, board, ["t1"])
    result: dict[str, Any] = {}

    def saver() -> None:
        other = store.make_engine(db_url)
        try:
            with store.session(other) as s:
                result["outcome"] = save_daily(session=s, day=DAY, board_ids=ours)
                result["set"] = [b["id"] for b in daily_set(session=s, day=DAY)]
        except BaseException as exc:
            result["outcome"] = repr(exc)
        finally:
            other.dispose()

    with engine.connect() as conn:
        trans = conn.begin()
        conn.execute(insert(DailyEntry.__table__).values(day=DAY, position=0, board_id=theirs[0]))
        thread = threading.Thread(target=saver)
        thread.start()
        time.sleep(0.5)
        trans.commit()
    thread.join(timeout=60)
    assert result == {"outcome": "exists", "set": theirs}
    assert _rows(engine) == [(DAY, 0, theirs[0])]
    engine.dispose()
