"""A store call cut short by an exception from outside the database (a task's soft time limit is raised
by a signal handler, at whatever line the task has reached), on the real PostgreSQL."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, text

import store
from tests.conftest import PG_URL

pytestmark = pytest.mark.postgres


class Interrupted(Exception):
    """Stands for Celery's SoftTimeLimitExceeded."""


@pytest.fixture
def pg(pg_admin: Engine) -> Iterator[Engine]:
    engine = store.make_engine(PG_URL)
    yield engine
    engine.dispose()


def _backend(engine: Engine) -> int:
    with store.session(engine, read_only=True) as s:
        return s.execute(text("SELECT pg_backend_pid()")).scalar_one()


def test_a_connection_cut_short_mid_query_is_closed_not_pooled_again(pg: Engine) -> None:
    before = _backend(pg)

    def interrupt(_signum: int, _frame: Any) -> None:
        raise Interrupted()
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Interrupted):
            with store.session(pg) as s:
                s.execute(text("SELECT pg_sleep(5)"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # pooled again, the same connection would answer "another command is already in progress"
    after = _backend(pg)
    assert after != before
    assert pg.pool.checkedout() == 0
