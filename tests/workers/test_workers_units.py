"""The fleet's pieces without services: settings, parameters, fault classes, backoff, routing, and the
slot-range loop (run_slots) against a SQLite store, with the real engine or a stand-in."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import kombu.exceptions
import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

import engine
import store
from store import StoreError
from workers import settings as settings_mod
from jobs import slot as slot_mod
from jobs.params import BadTask, JobParams, check_ids


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> Any:
    for key in ("PUZZLEFLEET_VISIBILITY_TIMEOUT", "PUZZLEFLEET_TIME_LIMIT", "PUZZLEFLEET_SOFT_TIME_LIMIT",
                "PUZZLEFLEET_METRICS_PORT", "PROMETHEUS_MULTIPROC_DIR", "PUZZLEFLEET_BROKER",
                "PUZZLEFLEET_MAX_TASKS_PER_CHILD", "PUZZLEFLEET_STALL_SECONDS", "PUZZLEFLEET_SPLIT_SECONDS",
                "PUZZLEFLEET_JOB_METRICS_SECONDS"):
        monkeypatch.delenv(key, raising=False)

    def set_(**values: str) -> settings_mod.Settings:
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        return settings_mod.load()
    return set_


def test_default_settings(env: Any) -> None:
    """Defaults that recover within a minute on the brokers' own redelivery: tasks of at most 30 s,
    retries waiting at most 10 s, so a Redis message a live worker holds is settled within 40 s and the
    visibility timeout is 45 s; a sweep every 10 s looks at jobs without progress for as long."""
    conf = env()
    assert conf.broker == "redis://127.0.0.1:6379/0"
    assert (conf.visibility_timeout, conf.time_limit, conf.soft_time_limit) == (45, 30, 27)
    assert conf.metrics_port is None and conf.max_tasks_per_child == 1000
    assert conf.retry_backoff_max == 10 and conf.stall_seconds == 45 and conf.split_seconds == 2
    assert conf.resume_interval == 10 and conf.longest_hold == 40
    assert conf.job_metrics_seconds == 3600


def test_the_visibility_timeout_and_the_stall_time_follow_the_time_limit(env: Any) -> None:
    # RabbitMQ has no visibility timeout: any given one is let be
    assert env(PUZZLEFLEET_BROKER="amqp://guest:guest@host//", PUZZLEFLEET_VISIBILITY_TIMEOUT="5").time_limit == 30
    conf = env(PUZZLEFLEET_BROKER="", PUZZLEFLEET_VISIBILITY_TIMEOUT="", PUZZLEFLEET_TIME_LIMIT="600")
    assert conf.soft_time_limit == 540 and conf.visibility_timeout == conf.stall_seconds == 615
    assert 0 < conf.work_budget < conf.soft_time_limit
    assert env(PUZZLEFLEET_VISIBILITY_TIMEOUT="60", PUZZLEFLEET_TIME_LIMIT="50").visibility_timeout == 60


@pytest.mark.parametrize("values, message", [
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "abc"}, "is not a number"),
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "-3"}, "must be above 0"),
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "nan"}, "must be above 0"),
    ({"PUZZLEFLEET_TIME_LIMIT": "100", "PUZZLEFLEET_SOFT_TIME_LIMIT": "100"}, "must be below the hard one"),
    ({"PUZZLEFLEET_METRICS_PORT": "70000"}, "must be a port number"),
    ({"PUZZLEFLEET_MAX_TASKS_PER_CHILD": "1.5"}, "is not a whole number"),
    ({"PUZZLEFLEET_SPLIT_SECONDS": "0"}, "must be above 0"),
    ({"PUZZLEFLEET_JOB_METRICS_SECONDS": "soon"}, "is not a number"),
    ({"PUZZLEFLEET_BROKER": "sqs://key:secret@queue/"}, r"or amqp:// \(RabbitMQ\) URL, got a sqs:// URL$"),
    ({"PUZZLEFLEET_BROKER": "127.0.0.1:6379"}, "got no URL"),
    ({"PUZZLEFLEET_STALL_SECONDS": "inf"}, "^PUZZLEFLEET_STALL_SECONDS must be above 0, got inf$"),
    ({"PUZZLEFLEET_TIME_LIMIT": "soon"}, "^PUZZLEFLEET_TIME_LIMIT='soon' is not a number$"),
    ({"PUZZLEFLEET_VISIBILITY_TIMEOUT": "30"},
     r"^PUZZLEFLEET_VISIBILITY_TIMEOUT \(30 s\) must be at least a task's hard time limit plus the longest "
     r"retry delay \(30 \+ 10 s\): Redis would hand a task still running to a second worker$"),
    ({"PUZZLEFLEET_BROKER": "amqp://fleet:secret@host//", "PUZZLEFLEET_SOFT_TIME_LIMIT": "5000",
      "PUZZLEFLEET_TIME_LIMIT": "50"}, r"^the soft time limit \(5000 s\) must be below the hard one \(50 s\)$"),
])
def test_bad_settings_are_one_line(env: Any, values: dict[str, str], message: str) -> None:
    with pytest.raises(settings_mod.ConfigError, match=message) as caught:
        env(**values)
    assert "\n" not in str(caught.value) and "secret" not in str(caught.value)


def test_unset_limits_follow_the_given_ones(env: Any) -> None:
    conf = env(PUZZLEFLEET_SOFT_TIME_LIMIT="700", PUZZLEFLEET_VISIBILITY_TIMEOUT=" ", PUZZLEFLEET_SPLIT_SECONDS="")
    assert (conf.time_limit, conf.soft_time_limit, conf.stall_seconds) == (760, 700, 775)
    assert conf.split_seconds == 2 and "secret" not in repr(env(PUZZLEFLEET_BROKER="redis://:secret@host/0"))


@pytest.mark.parametrize("url, kind", [
    ("redis://127.0.0.1:6379/0", "redis"), ("rediss://:pw@host:6380/1", "redis"),
    ("sentinel://host:26379", "redis"), ("amqp://guest:guest@127.0.0.1:5672//", "amqp"),
    ("amqps://u:p@host/vhost", "amqp"), ("pyamqp://host//", "amqp"), ("AMQP://host//", "amqp"),
])
def test_the_broker_kind_follows_the_url_scheme(env: Any, url: str, kind: str) -> None:
    assert env(PUZZLEFLEET_BROKER=url).broker_kind == kind


def test_on_rabbitmq_the_queues_are_durable_quorum_queues_and_sends_are_confirmed(env: Any) -> None:
    from workers.celeryapp import make_app
    app = make_app(env(PUZZLEFLEET_BROKER="amqp://guest:guest@127.0.0.1:5672//"))
    conf = app.conf
    declared = {q.name: q for q in conf.task_queues}
    assert set(declared) == {name for base in (*(game.queue for game in engine.all_games()), "fleet")
                             for name in (base, base + ".resent")}
    for queue in declared.values():
        assert queue.durable and queue.queue_arguments == {"x-queue-type": "quorum"}
        assert queue.exchange.type == "topic" and queue.routing_key == queue.name == queue.exchange.name
    assert conf.broker_transport_options == {"confirm_publish": True}      # none of Redis's options
    assert conf.task_acks_late and conf.task_reject_on_worker_lost and conf.worker_prefetch_multiplier == 1
    assert conf.task_default_queue_type == "quorum" and conf.worker_consumer == "workers.consumer:FleetConsumer"
    from workers.consumer import FleetConsumer
    steps = FleetConsumer.Blueprint.default_steps       # Celery's steps, its delayed delivery replaced by ours
    assert "workers.consumer:DeclaredDelayedDelivery" in steps and not any(":DelayedDelivery" in s for s in steps)


def test_on_redis_priorities_and_the_visibility_timeout_are_set(env: Any) -> None:
    from jobs.queues import NEW_PRIORITY, RESENT_PRIORITY
    from workers.celeryapp import make_app
    conf = make_app(env(PUZZLEFLEET_BROKER="redis://127.0.0.1:6379/3")).conf
    assert {q.name for q in conf.task_queues} == {*(game.queue for game in engine.all_games()), "fleet"}
    options = conf.broker_transport_options
    assert options["priority_steps"] == [RESENT_PRIORITY, NEW_PRIORITY] and options["visibility_timeout"] == 45
    assert "confirm_publish" not in options and conf.worker_consumer != "workers.consumer:FleetConsumer"


def test_a_metrics_port_gets_a_multiprocess_directory(env: Any) -> None:
    conf = env(PUZZLEFLEET_METRICS_PORT="9123")
    assert conf.metrics_port == 9123 and conf.multiproc_dir and conf.multiproc_dir.endswith("9123")


def test_job_parameters_round_trip_and_refuse_bad_values() -> None:
    params = JobParams.build(game="starbattle", size=10)
    assert params.options["stars"] == 2 and JobParams.from_json(params.to_json()) == params
    assert str(params.rules()) == "starbattle 10 2" and params.queue == "starbattle"
    assert JobParams.build(game="queens", size=9, diagonals=True).rules().diagonals
    sudoku = JobParams.build(game="sudoku", size=9, band="hard", band_by="clues")
    assert "stars" not in sudoku.options and sudoku.queue == "sudoku" and JobParams.from_json(sudoku.to_json()) == sudoku
    assert sudoku.rules().game == "sudoku"
    for bad, message in [
        ({"game": "queens", "size": 99}, "queens offers sizes 4–20, not 99"),
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
        ({"game": "queens", "size": 8, "style": "cubist"}, "no drawing style 'cubist' for queens 8"),
        ({"game": "queens", "size": 8, "style": 3}, "unknown style"),
        ({"game": "starbattle", "size": 10, "stars": 2, "style": "composed"}, "no drawing style 'composed'"),
        ({"game": "sudoku", "size": 9, "style": "organic"}, "sudoku has no drawing styles"),
        ("queens 8", "must be an object"),
    ]:
        with pytest.raises(BadTask, match=message):
            JobParams.from_json(bad)
    # A style is a job parameter like the band: checked at enqueue (build) and again by the worker
    # (from_json); a job in the default style carries none, so it reads as jobs did before styles.
    styled = JobParams.build(game="queens", size=8, style="composed")
    assert styled.to_json()["style"] == "composed" and JobParams.from_json(styled.to_json()) == styled
    assert "style" not in JobParams.build(game="queens", size=8).to_json()
    with pytest.raises(BadTask, match="no drawing style 'composed' for starbattle 10 2"):
        JobParams.build(game="starbattle", size=10, style="composed")
    with pytest.raises(BadTask, match="slot"):
        check_ids(1, -1, 5)
    with pytest.raises(BadTask, match="seed"):
        check_ids(1, 0, 2**63)


def test_an_expected_fault_is_logged_in_one_line_and_a_bug_keeps_its_traceback() -> None:
    import io
    import logging
    import sys
    import traceback

    from workers.faults import OneLine
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(OneLine())
    logger = logging.getLogger("test.one_line")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise kombu.exceptions.OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        except Exception as exc:      # as celery.beat logs a send that failed
            logger.error("Message Error: %s\n%s", exc, traceback.format_stack(), exc_info=True)
        assert out.getvalue().splitlines() == [
            "Message Error: Error 111 connecting to 127.0.0.1:6379. Connection refused."]
        out.truncate(0)
        out.seek(0)
        try:
            raise StoreError("cannot open database x") from OperationalError("SELECT 1", {}, Exception("refused"))
        except StoreError:
            logger.warning("sweep failed", exc_info=sys.exc_info())
        assert out.getvalue().splitlines() == ["sweep failed (cannot open database x)"]
        out.truncate(0)
        out.seek(0)
        # A pool process died while the broker was away: Celery's resend failed and the message is
        # requeued; it logs the pool's error, wrapped, with its traceback, at ERROR
        from billiard.einfo import ExceptionInfo
        from billiard.exceptions import WorkerLostError
        try:
            try:
                raise ConnectionResetError(104, "Connection reset by peer")
            except ConnectionResetError:
                raise WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL) Job: 7.")
        except WorkerLostError as lost:
            einfo, died = ExceptionInfo(internal=True), lost
        assert "Traceback" in str(einfo.exc_info[1])           # the pool's wrapper, which prints the stack
        logger.error("Task handler raised error: %r", died, exc_info=einfo.exc_info)
        assert out.getvalue().splitlines() == [
            "Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 7.'): "
            "its resend could not be sent, so its message goes back to the broker"]
        out.truncate(0)
        out.seek(0)
        try:
            raise ValueError("a bug")
        except ValueError:
            logger.exception("Task raised unexpected")
        assert "Traceback" in out.getvalue()
    finally:
        logger.removeHandler(handler)


def test_the_store_tells_an_unreachable_database_from_a_bad_request() -> None:
    import sqlite3

    from store.errors import is_unreachable
    assert is_unreachable(OperationalError("SELECT 1", {}, sqlite3.OperationalError("unable to open database file")))
    assert not is_unreachable(OperationalError("SELECT 1", {}, sqlite3.OperationalError("no such table: job")))
    assert is_unreachable(ConnectionRefusedError())
    assert not is_unreachable(IntegrityError("INSERT", {}, Exception("duplicate key")))


def test_only_transient_faults_are_retried() -> None:
    from workers.faults import is_transient
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


def test_a_fault_set_off_by_the_soft_time_limit_is_retried() -> None:
    """A soft limit that lands in the pool's ping of a PostgreSQL connection makes SQLAlchemy raise
    psycopg's ProgrammingError ("can't change 'autocommit' now") while handling it: not a transient
    fault, but the limit's doing. Failed instead of retried, the task's message was acknowledged and
    its slots waited for beat's sweep (seen in the soft-limit fleet test)."""
    from billiard.exceptions import SoftTimeLimitExceeded
    from sqlalchemy.exc import ProgrammingError

    from workers.tasks import _retryable
    try:
        try:
            try:
                raise SoftTimeLimitExceeded()
            except SoftTimeLimitExceeded:
                raise ProgrammingError("SELECT 1", {}, Exception("can't change 'autocommit' now"))
        except ProgrammingError as exc:
            raise StoreError("database error: can't change 'autocommit' now") from exc
    except StoreError as wrapped:
        assert _retryable(wrapped)
    assert not _retryable(StoreError("database error: duplicate key"))


def test_every_task_retries_through_celerys_own_options() -> None:
    from workers import tasks
    from workers.faults import Retryable
    for task in (tasks.generate_slots, tasks.resume_stalled, tasks.daily):
        assert task.autoretry_for == (Retryable,) and task.retry_backoff is True and task.retry_jitter is True
        assert task.max_retries == tasks.MAX_RETRIES
        assert task.retry_backoff_max == settings_mod.settings().retry_backoff_max


def _counted(game: str, outcome: str = "retry") -> float:
    from prometheus_client import REGISTRY
    return REGISTRY.get_sample_value("puzzlefleet_slot_tasks_total", {"game": game, "outcome": outcome}) or 0.0


def _store_engine_raising(monkeypatch: pytest.MonkeyPatch, fault: Exception) -> list[int]:
    """The tasks' store engine raises `fault`; the list returned gets an item per try."""
    from workers import tasks
    tries: list[int] = []

    def failing() -> Any:
        tries.append(1)
        raise fault
    monkeypatch.setattr(tasks, "process_engine", failing)
    return tries


def test_a_store_that_never_answers_is_retried_max_retries_times_then_fails_with_the_fault(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Celery runs the retries in line under apply() (no broker, no countdown): the slot task is tried
    MAX_RETRIES + 1 times, each retry is counted once Celery has made it, and the last failure carries
    the store's fault as its cause and is counted as an error."""
    from store.errors import StoreUnreachable
    from workers import tasks
    from workers.faults import Retryable
    tries = _store_engine_raising(monkeypatch, StoreUnreachable("the database does not answer: connection refused"))
    before, errors_before = _counted("queens"), _counted("queens", "error")
    params = JobParams(game="queens", size=8).to_json()
    result = tasks.generate_slots.apply(args=(1, 0, 2, params, 5))
    assert result.failed() and isinstance(result.result, Retryable)
    assert isinstance(result.result.__cause__, StoreUnreachable) and "does not answer" in str(result.result)
    assert len(tries) == tasks.MAX_RETRIES + 1
    assert _counted("queens") - before == tasks.MAX_RETRIES
    assert _counted("queens", "error") - errors_before == 1


def test_a_bad_task_and_a_bug_are_not_retried(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from workers import tasks
    tries = _store_engine_raising(monkeypatch, ZeroDivisionError("a bug"))
    before, errors_before = _counted("queens"), _counted("queens", "error")
    result = tasks.generate_slots.apply(args=(1, 0, 2, JobParams(game="queens", size=8).to_json(), 5))
    assert result.failed() and isinstance(result.result, ZeroDivisionError) and len(tries) == 1
    db = store.make_engine(f"sqlite:///{tmp_path / 'puzzles.db'}")
    store.init_db(db)

    def answering() -> Any:
        tries.append(1)
        return db
    monkeypatch.setattr(tasks, "process_engine", answering)
    bad = tasks.generate_slots.apply(args=(1, 0, 2, {"game": "queens", "size": 99}, 5))
    assert bad.failed() and isinstance(bad.result, BadTask) and len(tries) == 2
    assert _counted("queens") == before
    assert _counted("queens", "error") - errors_before == 1       # the bug; the bad task counts as bad
    db.dispose()


def test_a_retried_daily_set_keeps_its_day_past_midnight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beat sends the daily task with no day; the store fails the first try, and the retry runs
    "after midnight": it still makes the first day's set."""
    from datetime import date

    from store.errors import StoreUnreachable
    from workers import tasks
    days = iter([date(2025, 6, 15), date(2025, 6, 16)])
    monkeypatch.setattr(tasks, "today", lambda: next(days))
    monkeypatch.setattr(tasks, "process_engine", lambda: None)
    made: list[date] = []

    def make_daily(*, db: Any, day: date, budget: float, plan: Any) -> list[dict[str, Any]]:
        made.append(day)
        if len(made) == 1:
            raise StoreUnreachable("the database does not answer")
        return [{"id": 7}]
    monkeypatch.setattr(tasks, "make_daily", make_daily)
    result = tasks.daily.apply()
    assert result.successful() and result.result == {"day": "2025-06-15", "boards": [7]}
    assert made == [date(2025, 6, 15)] * 2


def test_slot_tasks_go_to_their_game_queue() -> None:
    from workers.celeryapp import _route, app
    assert _route("puzzlefleet.generate_slots", [1, 0, 4, {"game": "starbattle"}, 5], {}, {}) == {"queue": "starbattle"}
    assert _route("puzzlefleet.generate_slots", [1, 0, 4, "junk", 5], {}, {}) == {"queue": "fleet"}
    assert _route("puzzlefleet.resume_stalled", [], {}, {}) == {"queue": "fleet"}
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert app.conf.worker_prefetch_multiplier == 1 and app.conf.accept_content == ["json"]
    options = app.conf.broker_transport_options   # a killed worker's restore lock must not outlive a minute
    assert options["unacked_mutex_expire"] <= 60 and options["unacked_restore_throttle"] == 1
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


def _run(db: Any, job_id: int, params: dict[str, Any], start: int, stop: int, **options: Any
         ) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    handed: list[tuple[int, int]] = []
    options.setdefault("budget", 1000)
    summary = slot_mod.run_slots(db=db, job_id=job_id, start=start, stop=stop, params=params, seed=3,
                                 hand_over=lambda a, b: handed.append((a, b)), **options)
    return summary, handed


def _slot_boards(db: Any, job_id: int) -> list[str]:
    with store.session(db, read_only=True) as s:
        return [b["id"] for b in store.list_job_boards(session=s, job_id=job_id)]


def test_slot_ranges_cut_runs_of_slots_into_tasks() -> None:
    assert slot_mod.slot_ranges(range(10), 4) == [(0, 4), (4, 8), (8, 10)]
    assert slot_mod.slot_ranges([7, 1, 2, 3, 9, 10], 2) == [(1, 3), (3, 4), (7, 8), (9, 11)]
    assert slot_mod.slot_ranges([], 5) == []
    assert [slot_mod.slots_per_task(n) for n in (1, 8, 200, 10_000)] == [1, 1, 25, slot_mod.MAX_SLOTS_PER_TASK]
    assert slot_mod.slots_per_task(1_000_000) == 500          # no job needs over MAX_TASKS_PER_JOB tasks
    assert len(slot_mod.slot_ranges(range(1_000_000), 500)) == slot_mod.MAX_TASKS_PER_JOB


def test_a_range_stores_the_boards_of_its_slots_and_a_second_run_does_nothing(db: Any, tmp_path: Path) -> None:
    job_id, params = _job(db, 5)
    first, handed = _run(db, job_id, params, 0, 5, split_after=None)
    assert (first["accepted"], first["failed"], handed) == (5, 0, [])
    assert first["attempts"] == 5 + first["rejected"].get("duplicate", 0)
    again, _ = _run(db, job_id, params, 0, 5)
    assert (again["accepted"], again["attempts"]) == (0, 0)
    # in another store, slots run one at a time and flushed after every attempt: the same boards
    other_db = store.make_engine(f"sqlite:///{tmp_path / 'other.db'}")
    store.init_db(other_db)
    other, other_params = _job(other_db, 5)
    for slot in range(5):
        _run(other_db, other, other_params, slot, slot + 1, flush_seconds=0.0)
    assert _slot_boards(other_db, other) == _slot_boards(db, job_id)
    other_db.dispose()


def test_a_killed_range_keeps_what_it_flushed_and_its_rerun_finishes_the_rest(db: Any, monkeypatch: Any) -> None:
    real = slot_mod.generate_one
    calls = {"n": 0}

    def dies_on_the_fourth(*args: Any) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt   # the process dies mid-task
        return real(*args)
    monkeypatch.setattr(slot_mod, "generate_one", dies_on_the_fourth)
    job_id, params = _job(db, 6)
    with pytest.raises(KeyboardInterrupt):
        _run(db, job_id, params, 0, 6, flush_seconds=0.0)
    assert len(_slot_boards(db, job_id)) == 3
    summary, _ = _run(db, job_id, params, 0, 6)
    assert summary["accepted"] == 3
    boards = _slot_boards(db, job_id)
    assert len(boards) == 6 == len(set(boards))


def test_a_duplicate_board_sends_its_slot_round_again(db: Any, monkeypatch: Any) -> None:
    real = slot_mod.generate_one
    first_seed: list[int] = []

    def repeats_the_first_board(rules: str, seed: int, timeout: float | None, band: str | None, style: str | None = None) -> dict[str, Any]:
        first_seed.append(seed)
        return real(rules, first_seed[0] if len(first_seed) <= 2 else seed, timeout, band, style)
    monkeypatch.setattr(slot_mod, "generate_one", repeats_the_first_board)
    job_id, params = _job(db, 2)
    summary, _ = _run(db, job_id, params, 0, 2, split_after=None)
    assert (summary["accepted"], summary["attempts"], summary["rejected"].get("duplicate")) == (2, 3, 1)
    with store.session(db, read_only=True) as s:
        assert store.pending_slots(session=s, job_id=job_id, start=0, stop=2) == {}


def test_slots_give_up_after_max_attempts_and_hand_over_when_out_of_budget(db: Any, monkeypatch: Any) -> None:
    calls: list[float | None] = []

    def timed_out(rules_text: str, seed: int, timeout: float | None, band: str | None, style: str | None = None) -> dict[str, Any]:
        calls.append(timeout)
        return {"board": None, "fingerprint": None, "rejected": {"ambiguous": 2}, "timeout": True,
                "seconds": 0.0}
    monkeypatch.setattr(slot_mod, "generate_one", timed_out)
    job_id, params = _job(db, 4, max_attempts=3, timeout=60)
    summary, handed = _run(db, job_id, params, 0, 2, budget=1000)
    assert (summary["failed"], summary["attempts"], handed) == (2, 6, [])
    assert summary["rejected"] == {"ambiguous": 12, "timeout": 6} and calls == [60] * 6
    # a budget that fits one attempt only: the rest of the range goes to a new task
    summary, handed = _run(db, job_id, params, 2, 4, budget=1e-6)
    assert summary["attempts"] == 1 and handed == [(2, 4)] and summary["handed_over"] == [[2, 4]]
    with store.session(db, read_only=True) as s:
        assert store.pending_slots(session=s, job_id=job_id, start=2, stop=4) == {2: 1, 3: 0}
        assert store.get_job(session=s, job_id=job_id)["state"] == "running"


class Overrun(Exception):
    """Stands for Celery's SoftTimeLimitExceeded, which its signal handler raises inside the attempt."""


def test_an_attempt_that_overruns_the_task_is_a_timeout_and_the_slot_moves_on(db: Any, monkeypatch: Any) -> None:
    """An engine that misses its own deadline meets the task's soft limit: that attempt counts as a
    timeout (retrying its seed would overrun again, for ever) and the rest goes to a new task."""
    real = slot_mod.generate_one
    seeds: list[int] = []
    made: list[dict[str, Any]] = []

    def overruns_on_the_second(rules: str, seed: int, timeout: float | None, band: str | None, style: str | None = None) -> dict[str, Any]:
        seeds.append(seed)
        if len(seeds) == 2:
            raise Overrun()
        made.append(real(rules, seed, timeout, band))
        return made[-1]
    monkeypatch.setattr(slot_mod, "generate_one", overruns_on_the_second)
    job_id, params = _job(db, 4)
    summary, handed = _run(db, job_id, params, 0, 4, split_after=None, overrun=(Overrun,))
    # the stored board's own rejections (its drawing's), and the overrun as one timeout
    assert summary["accepted"] == 1 and handed == [(1, 4)]
    assert summary["rejected"] == {**made[0]["rejected"], "timeout": made[0]["rejected"].get("timeout", 0) + 1}
    with store.session(db, read_only=True) as s:
        assert store.pending_slots(session=s, job_id=job_id, start=1, stop=4) == {1: 1, 2: 0, 3: 0}
    # the new task tries slot 1 with its next seed and finishes the job
    summary, handed = _run(db, job_id, params, 1, 4, split_after=None, overrun=(Overrun,))
    assert summary["accepted"] == 3 and handed == [] and seeds[2] != seeds[1]
    assert len(set(_slot_boards(db, job_id))) == 4
    # anything else still propagates
    monkeypatch.setattr(slot_mod, "generate_one", lambda *args: (_ for _ in ()).throw(KeyError("bug")))
    other_job, other_params = _job(db, 1)
    with pytest.raises(KeyError):
        _run(db, other_job, other_params, 0, 1, overrun=(Overrun,))


def test_an_attempt_cut_short_by_the_budget_is_not_counted(db: Any, monkeypatch: Any) -> None:
    """After the first attempt, an attempt only gets the time the task has left; one that times out
    for that reason goes, uncounted, to a new task (where it gets its full time)."""
    real = slot_mod.generate_one
    given: list[float | None] = []
    made: list[dict[str, Any]] = []

    def slow_unless_given_full_time(rules: str, seed: int, timeout: float | None, band: str | None,
                                    style: str | None = None) -> dict[str, Any]:
        given.append(timeout)
        if timeout is not None and timeout < 0.5:
            return {"board": None, "fingerprint": None, "rejected": {}, "timeout": True, "seconds": timeout}
        made.append(real(rules, seed, timeout, band))
        return made[-1]
    monkeypatch.setattr(slot_mod, "generate_one", slow_unless_given_full_time)
    job_id, params = _job(db, 3, timeout=60)
    summary, handed = _run(db, job_id, params, 0, 3, budget=0.5)
    assert given[0] == 0.5 and 0 < given[1] < 0.5 and len(given) == 2
    assert (summary["accepted"], summary["attempts"], handed) == (1, 1, [(1, 3)])
    with store.session(db, read_only=True) as s:
        assert store.pending_slots(session=s, job_id=job_id, start=0, stop=3) == {1: 0, 2: 0}
        # only the stored board's own rejections: the attempt cut short is not counted
        assert store.get_job(session=s, job_id=job_id)["rejected"] == made[0]["rejected"]


def test_a_slow_range_hands_half_its_untouched_slots_to_another_task(db: Any, monkeypatch: Any) -> None:
    real = slot_mod.generate_one
    worked: list[int] = []

    def traced(rules: str, seed: int, timeout: float | None, band: str | None, style: str | None = None) -> dict[str, Any]:
        worked.append(seed)
        return real(rules, seed, timeout, band, style)
    monkeypatch.setattr(slot_mod, "generate_one", traced)
    job_id, params = _job(db, 8)
    summary, handed = _run(db, job_id, params, 0, 8, split_after=0.0)
    # before each slot, the later half of those not yet touched go: at slot 0, 4..7; at slot 1, 3
    assert handed == [(4, 8), (3, 4)] and summary["accepted"] == 3
    for start, stop in handed:
        _run(db, job_id, params, start, stop, split_after=None)
    assert len(set(_slot_boards(db, job_id))) == 8
    with store.session(db, read_only=True) as s:
        assert store.get_job(session=s, job_id=job_id)["attempts"] == len(worked)   # no slot worked twice


def test_run_slots_refuses_an_unknown_job_or_range(db: Any) -> None:
    job_id, params = _job(db, 2)
    with pytest.raises(BadTask, match="no job"):
        _run(db, job_id + 1, params, 0, 1)
    with pytest.raises(BadTask, match="has slots 0..1"):
        _run(db, job_id, params, 1, 3)
    for start, stop in [(1, 1), (0, "2"), (-1, 1), (0, True)]:
        with pytest.raises(BadTask):
            _run(db, job_id, params, start, stop)


def test_an_ack_the_broker_cannot_take_is_one_line_not_a_dead_worker(own_redis: Any,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """workers.transport on a Redis of the test's own: a message taken before the broker restarted (with
    its append-only file) is acknowledged after it, and one whose broker is away when its task ends is
    left to come back after its visibility timeout, in one INFO line: never an error out of the
    worker's loop."""
    import logging

    from kombu import Connection, Queue

    from tests.workers.conftest import redis_client
    from workers.transport import Transport

    own_redis.start(persist=True)
    client = redis_client(own_redis.url)
    conn = Connection(own_redis.url, transport=Transport, connect_timeout=2,
                      transport_options={"socket_timeout": 2, "socket_connect_timeout": 2})
    try:
        queue = Queue("q").bind(conn.default_channel)
        queue.declare()
        for body in ("one", "two"):
            conn.default_channel.basic_publish(conn.default_channel.prepare_message(body), exchange="",
                                               routing_key="q")
        first, second = queue.get(no_ack=False), queue.get(no_ack=False)
        assert client.hlen("unacked") == 2
        own_redis.stop()
        own_redis.start(persist=True)
        first.ack()
        assert client.hlen("unacked") == 1 and client.llen("q") == 0
        own_redis.stop()                                   # away when the task ends
        caplog.set_level(logging.INFO, logger="puzzlefleet.transport")
        second.ack()
        said = [r for r in caplog.records if r.name == "puzzlefleet.transport"]
        assert len(said) == 1 and said[0].levelname == "INFO", [r.getMessage() for r in said]
        assert said[0].getMessage().startswith(f"could not acknowledge message {second.delivery_tag} (")
        assert "visibility timeout" in said[0].getMessage()
    finally:
        conn.release()


def test_the_sweep_takes_a_stalled_job_for_lost_from_the_store_and_the_queue_depth(
        tmp_path: Path, redis_url: str) -> None:
    """jobs.sweep.lost_jobs, on a real store and the test's own Redis database: a stalled job is lost
    when a job made (5 s of clocks' skew allowed) after its last progress, on its queue, has started,
    or when its queue is empty; one whose queue holds messages, with nothing later started, may wait
    behind older work; a queue whose depth is unknown is not taken for empty."""
    from datetime import timedelta

    from kombu import Connection
    from sqlalchemy import text as sql

    from tests.workers.conftest import redis_client
    from workers.celeryapp import waiting
    from jobs.sweep import lost_jobs

    db = store.make_engine(f"sqlite:///{tmp_path / 'puzzles.db'}")
    store.init_db(db)
    now = datetime.now(timezone.utc)

    def job(game: str, size: int, minutes_ago: float, started: bool = False) -> int:
        params = JobParams.build(game=game, size=size).to_json()
        with store.session(db) as s:
            job_id = store.create_job(session=s, game=game, rules=f"{game} {size}", band=None, params=params,
                                      seed=1, requested=3)
        moment = (now - timedelta(minutes=minutes_ago)).replace(tzinfo=None)
        with db.begin() as conn:
            conn.execute(sql("UPDATE job SET created_at = :t, updated_at = :t, state = :state WHERE id = :id"),
                         {"t": moment, "id": job_id, "state": "running" if started else "queued"})
        return job_id

    passed = job("queens", 8, 30)
    job("queens", 9, 20, started=True)                 # made 10 minutes after the first's last progress
    skewed = job("starbattle", 10, 30)
    job("starbattle", 10, 30 - 3 / 60, started=True)   # 3 s later: within the clocks' skew
    empty = job("sudoku", 9, 30)
    backed = job("tango", 6, 30)
    with store.session(db, read_only=True) as s:
        stalled = [j for j in store.stalled_jobs(session=s, idle_seconds=60) if j["job"] in (passed, skewed, empty, backed)]
    client = redis_client(redis_url)
    client.flushdb()
    try:
        with Connection(redis_url) as conn:
            conn.SimpleQueue("starbattle").put({"a": 1})
            conn.SimpleQueue("tango").put({"a": 1})

            def depths(queues: set[str]) -> dict[str, int]:
                return {queue: waiting(conn, queue, "redis") for queue in queues}
            lost, standing = lost_jobs(db, stalled, depths)
        assert {j["job"]: j["gone"] for j in lost} == {
            passed: "a job made after its last progress has started on queue queens",
            empty: "no message waits in queue sudoku"}
        assert {j["job"] for j in standing} == {skewed, backed}
        lost, standing = lost_jobs(db, stalled, lambda queues: {})
        assert [j["job"] for j in lost] == [passed] and {j["job"] for j in standing} == {skewed, empty, backed}
    finally:
        client.flushdb()
        db.dispose()
