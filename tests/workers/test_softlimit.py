"""The soft time limit raised only inside engine work (workers.softlimit), with a real signal sent to
this process."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from workers import softlimit
from workers.slot import generate_one


class Limit(Exception):
    """Stands for Celery's SoftTimeLimitExceeded."""


@pytest.fixture
def held() -> Iterator[None]:
    before = signal.getsignal(signal.SIGUSR2)
    softlimit.hold_outside_engine(signal.SIGUSR2, Limit)
    softlimit.forget()
    yield
    signal.signal(signal.SIGUSR2, before)
    softlimit.forget()


def _signal() -> None:
    os.kill(os.getpid(), signal.SIGUSR2)      # the handler runs before kill returns to Python code


def test_the_limit_inside_engine_work_raises_at_once(held: None) -> None:
    reached = []
    with pytest.raises(Limit):
        with softlimit.engine_work():
            _signal()
            reached.append("after")
    assert reached == []
    with softlimit.engine_work():        # raised once: nothing is left held
        pass


def test_the_limit_outside_engine_work_waits_for_the_next_engine_work(held: None) -> None:
    _signal()                            # a store or broker call in flight is not cut short
    with pytest.raises(Limit):
        with softlimit.engine_work():
            pytest.fail("engine work began after the limit")
    with softlimit.engine_work():
        pass


def test_a_new_task_forgets_a_limit_held_by_the_last(held: None) -> None:
    _signal()
    softlimit.forget()
    with softlimit.engine_work():
        pass


def test_generate_one_is_engine_work(held: None) -> None:
    _signal()
    with pytest.raises(Limit):
        generate_one("queens 6", 1, None)
    assert generate_one("queens 6", 1, None)["board"] is not None
