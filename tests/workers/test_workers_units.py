"""The fleet's pieces without services: settings, parameters, fault classes, backoff, routing, and one
slot's loop (run_slot) against a SQLite store with a stand-in engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import kombu.exceptions
import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

import store
from store import StoreError
from workers import settings as settings_mod
from workers import slot as slot_mod
from workers.params import BadTask, JobParams, check_ids


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> Any:
    for key in ("PUZZLEFLEET_VISIBILITY_TIMEOUT", "PUZZLEFLEET_TIME_LIMIT", "PUZZLEFLEET_SOFT_TIME_LIMIT",
                "PUZZLEFLEET_METRICS_PORT", "PROMETHEUS_MULTIPROC_DIR", "PUZZLEFLEET_BROKER",
                "PUZZLEFLEET_MAX_TASKS_PER_CHILD", "PUZZLEFLEET_STALL_SECONDS"):
        monkeypatch.delenv(key, raising=False)

    def set_(**values: str) -> settings_mod.Settings:
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        return settings_mod.load()
    return set_


def test_default_settings(env: Any) -> None:
    conf = env()
    assert conf.broker == "redis://127.0.0.1:6379/0"
    assert (conf.visibility_timeout, conf.time_limit, conf.soft_time_limit) == (3600, 660, 600)
    assert conf.metrics_port is None and conf.max_tasks_per_child == 1000
    assert conf.retry_backoff_max == 600 and conf.stall_seconds == 3600 + 660 + 60


def test_time_limits_follow_a_small_visibility_timeout(env: Any) -> None:
    conf = env(PUZZLEFLEET_VISIBILITY_TIMEOUT="5")
    assert conf.time_limit == 4.5 and conf.soft_time_limit < conf.time_limit
    assert 0 < conf.work_budget < conf.soft_time_limit and conf.retry_backoff_max == 2.5


@pytest.mark.parametrize("values, message", [
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "abc"}, "is not a number"),
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "-3"}, "must be above 0"),
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "nan"}, "must be above 0"),
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "60", "PUZZLEFLEET_TIME_LIMIT": "60"}, "must be below PUZZLEFLEET_VIS"),
    ({"PUZZLEFLEET_TIME_LIMIT": "100", "PUZZLEFLEET_SOFT_TIME_LIMIT": "100"}, "must be below the hard one"),
    ({"PUZZLEFLEET_METRICS_PORT": "70000"}, "must be a port number"),
    ({"PUZZLEFLEET_MAX_TASKS_PER_CHILD": "1.5"}, "is not a whole number"),
])
def test_bad_settings_are_one_line(env: Any, values: dict[str, str], message: str) -> None:
    with pytest.raises(settings_mod.ConfigError, match=message):
        env(**values)


def test_a_metrics_port_gets_a_multiprocess_directory(env: Any) -> None:
    conf = env(PUZZLEFLEET_METRICS_PORT="9123")
    assert conf.metrics_port == 9123 and conf.multiproc_dir and conf.multiproc_dir.endswith("9123")


def test_job_parameters_round_trip_and_refuse_bad_values() -> None:
    params = JobParams.build(game="starbattle", size=10)
    assert params.stars == 2 and JobParams.from_json(params.to_json()) == params
    assert str(params.rules()) == "starbattle 10 2" and params.queue == "starbattle"
    assert JobParams.build(game="queens", size=9, diagonals=True).rules().diagonals
    sudoku = JobParams.build(game="sudoku", size=9, band="hard", band_by="clues")
    assert sudoku.stars is None and sudoku.queue == "sudoku" and JobParams.from_json(sudoku.to_json()) == sudoku
    assert sudoku.rules().game == "sudoku"
    for bad, message in [
        ({"game": "queens", "size": 99}, "out of range"),
        ({"game": "queens", "size": True}, "whole number"),
        ({"game": "queens", "size": 8, "stars": 2}, "1 star per unit"),
        ({"game": "starbattle", "size": 10, "stars": 1}, "is queens, not starbattle"),
        ({"game": "sudoku", "size": 9, "stars": 1}, "no stars"),
        ({"game": "sudoku", "size": 8}, "9"),
        ({"game": "sudoku", "size": 9, "band": "expert", "band_by": "clues"}, "band"),
        ({"game": "queens", "size": 8, "band_by": "clues"}, "technique only"),
        ({"game": "go", "size": 9}, "unknown game"),
        ({"game": "queens", "size": 8, "band": "brutal"}, "unknown band"),
        ({"game": "queens", "size": 8, "timeout": 0}, "timeout"),
        ({"game": "queens", "size": 8, "max_attempts": 0}, "max_attempts"),
        ({"game": "queens", "size": 8, "colour": "red"}, "unknown job parameter"),
        ("queens 8", "must be an object"),
    ]:
        with pytest.raises(BadTask, match=message):
            JobParams.from_json(bad)
    with pytest.raises(BadTask, match="slot"):
        check_ids(1, -1, 5)
    with pytest.raises(BadTask, match="seed"):
        check_ids(1, 0, 2**63)


def test_only_transient_faults_are_retried() -> None:
    from workers.tasks import backoff, is_transient
    try:
        try:
            raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))
        except OperationalError as exc:
            raise StoreError("database error: server closed the connection") from exc
    except StoreError as wrapped:
        assert is_transient(wrapped)
    try:
        try:
            raise IntegrityError("INSERT", {}, Exception("duplicate key"))
        except IntegrityError as exc:
            raise StoreError("database error: duplicate key") from exc
    except StoreError as wrapped:
        assert not is_transient(wrapped)
    assert is_transient(kombu.exceptions.OperationalError("connection refused"))
    assert is_transient(ConnectionRefusedError())
    assert not is_transient(BadTask("size 99 is out of range"))
    assert not is_transient(ValueError("a bug"))
    for retries in range(20):
        delay = backoff(retries)
        cap = min(settings_mod.settings().retry_backoff_max, 2.0 ** retries)
        assert cap / 2 <= delay <= cap


def test_slot_tasks_go_to_their_game_queue() -> None:
    from workers.celeryapp import _route, app
    assert _route("puzzlefleet.generate_slot", [1, 0, {"game": "starbattle"}, 5], {}, {}) == {"queue": "starbattle"}
    assert _route("puzzlefleet.generate_slot", [1, 0, "junk", 5], {}, {}) == {"queue": "fleet"}
    assert _route("puzzlefleet.resume_stalled", [], {}, {}) == {"queue": "fleet"}
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert app.conf.worker_prefetch_multiplier == 1 and app.conf.accept_content == ["json"]
    assert {q.name for q in app.conf.task_queues} >= {"queens", "starbattle", "sudoku", "fleet"}


@pytest.fixture
def db(tmp_path: Path) -> Any:
    engine = store.make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    store.init_db(engine)
    yield engine
    engine.dispose()


def _job(db: Any, requested: int, **params: Any) -> tuple[int, dict[str, Any]]:
    job_params = JobParams.build(game="queens", size=7, **params).to_json()
    with store.session(db) as s:
        return store.create_job(session=s, game="queens", rules="queens 7", band=None, params=job_params,
                                seed=3, requested=requested), job_params


def test_run_slot_stores_one_board_and_a_second_run_does_nothing(db: Any) -> None:
    job_id, params = _job(db, 1)
    first = slot_mod.run_slot(db=db, job_id=job_id, slot=0, params=params, seed=3, budget=30)
    assert first["accepted"] == 1 and first["state"] == "stored" and first["attempts"] >= 1
    again = slot_mod.run_slot(db=db, job_id=job_id, slot=0, params=params, seed=3, budget=30)
    assert again["accepted"] == 0 and again["attempts"] == 0 and again["state"] == "stored"
    with store.session(db, read_only=True) as s:
        assert store.count_boards(session=s) == 1


def test_run_slot_gives_up_after_max_attempts_and_hands_over_when_out_of_budget(db: Any,
                                                                               monkeypatch: Any) -> None:
    calls: list[float | None] = []

    def timed_out(rules_text: str, seed: int, timeout: float | None, band: str | None) -> dict[str, Any]:
        calls.append(timeout)
        return {"board": None, "fingerprint": None, "rejected": {"ambiguous": 2}, "timeout": True,
                "seconds": 0.0}
    monkeypatch.setattr(slot_mod, "generate_one", timed_out)
    job_id, params = _job(db, 2, max_attempts=3, timeout=60)
    summary = slot_mod.run_slot(db=db, job_id=job_id, slot=0, params=params, seed=3, budget=1000)
    assert summary["state"] == "failed" and summary["attempts"] == 3
    assert summary["rejected"] == {"ambiguous": 6, "timeout": 3} and calls == [60, 60, 60]
    # a budget that fits one attempt only: the slot continues in a new task from its next attempt
    calls.clear()
    summary = slot_mod.run_slot(db=db, job_id=job_id, slot=1, params=params, seed=3, budget=1e-6)
    assert summary.get("continue") and summary["attempts"] == 1 and summary["state"] == "pending"
    with store.session(db, read_only=True) as s:
        assert store.slot_status(session=s, job_id=job_id, slot=1) == store.SlotStatus("pending", 1)


def test_run_slot_refuses_an_unknown_job_or_slot(db: Any) -> None:
    job_id, params = _job(db, 1)
    with pytest.raises(BadTask, match="no job"):
        slot_mod.run_slot(db=db, job_id=job_id + 1, slot=0, params=params, seed=3, budget=30)
    with pytest.raises(BadTask, match="has slots 0..0"):
        slot_mod.run_slot(db=db, job_id=job_id, slot=1, params=params, seed=3, budget=30)
