"""`puzzlefleet regrade --fleet`, as docs/cli.md ("regrade") runs it: the workers regrade a store's stale boards
while the command shows the count falling; a worker SIGKILLed midway costs time, not a board, and
no board is regraded twice (a trigger in the store notes every regrade); run again, it resumes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import text

import store
from engine import ENGINE_VERSION
from tests.workers.conftest import BIN, Fleet, make_db_url, wait_for, waiting_messages

pytestmark = [pytest.mark.fleet, pytest.mark.xdist_group("faults-recovery")]

STALE = "0.0.0-old"


def _stale_store(db_url: str, boards: int, env: dict[str, str]) -> Callable[[], dict[str, int]]:
    """A store of `boards` Tango boards, every one marked graded by an old engine, with a trigger
    that notes each regrade; returns a reader of how often each board was regraded."""
    subprocess.run([str(BIN / "puzzlefleet"), "generate", "--game", "tango", "--size", "6", "--count", str(boards),
                    "--seed", "3"], env=env, check=True, capture_output=True)
    db = store.make_engine(db_url)
    with db.begin() as conn:
        conn.execute(text("UPDATE puzzle SET engine_version = :old"), {"old": STALE})
        conn.execute(text("CREATE TABLE regraded (board_id TEXT NOT NULL)"))
        conn.execute(text("CREATE TRIGGER noted AFTER UPDATE OF engine_version ON puzzle "
                          "WHEN OLD.engine_version <> NEW.engine_version "
                          "BEGIN INSERT INTO regraded VALUES (NEW.id); END"))

    def counts() -> dict[str, int]:
        with db.connect() as conn:
            return dict(conn.execute(text("SELECT board_id, count(*) FROM regraded GROUP BY board_id")).all())
    return counts


def _regraded_once(command: subprocess.Popen, out: str, err: str, regraded: Callable[[], dict[str, int]],
                   n: int) -> None:
    """The command ended well, having regraded all `n` boards, each once."""
    assert command.returncode == 0, err
    assert f"regraded {n} board(s) to engine {ENGINE_VERSION}" in out
    counts = regraded()
    assert len(counts) == n and set(counts.values()) == {1}, {k: v for k, v in counts.items() if v != 1}


def _regrade(env: dict[str, str], *extra: str) -> subprocess.Popen:
    return subprocess.Popen([str(BIN / "puzzlefleet"), "regrade", "--fleet", *extra], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_a_worker_killed_midway_costs_no_board_and_regrades_none_twice(tmp_path: Path,
                                                                        request: pytest.FixtureRequest,
                                                                        fleet_factory: Callable[..., Fleet]) -> None:
    db_url = make_db_url("sqlite", tmp_path, request)
    fleet = fleet_factory(db_url)
    n = 2500
    regraded = _stale_store(db_url, n, fleet.env)
    first = fleet.worker("w1", queues="fleet")
    command = _regrade(fleet.env)
    try:
        wait_for(lambda: len(regraded()) >= n // 10, 120, "a tenth of the boards regraded")
        first.kill()
        at_kill = len(regraded())
        assert at_kill < n, "the kill should come midway"
        fleet.worker("w2", queues="fleet")
        out, err = command.communicate(timeout=240)
    finally:
        if command.poll() is None:
            command.kill()
    _regraded_once(command, out, err, regraded, n)
    db = store.make_engine(db_url)
    with store.session(db, read_only=True) as s:
        assert store.count_stale_boards(session=s, version=ENGINE_VERSION) == 0
    again = subprocess.run([str(BIN / "puzzlefleet"), "regrade", "--fleet"], env=fleet.env, capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 0 and "regraded 0 board(s)" in again.stdout


def test_with_no_worker_it_gives_up_in_one_line_and_a_second_run_resumes(tmp_path: Path,
                                                                         request: pytest.FixtureRequest,
                                                                         fleet_factory: Callable[..., Fleet]) -> None:
    db_url = make_db_url("sqlite", tmp_path, request)
    fleet = fleet_factory(db_url)
    n = 40
    regraded = _stale_store(db_url, n, fleet.env)
    waiting = _regrade(fleet.env, "--patience", "2")
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 1 and "regraded 0 board(s)" in out
    assert err.strip().splitlines()[-1].startswith(f"puzzlefleet: {n} board(s) still graded by another engine")
    assert "Traceback" not in err
    fleet.worker("w1", queues="fleet")
    # the first run's tasks waited in the queue: the worker takes them, and a second run finds the rest
    done = subprocess.run([str(BIN / "puzzlefleet"), "regrade", "--fleet"], env=fleet.env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    counts = regraded()
    assert len(counts) == n and set(counts.values()) == {1}


@pytest.mark.slow
@pytest.mark.xdist_group("regrade-lost")    # kills nothing: beside the fault tests, not after them
def test_a_regrade_task_lost_in_the_broker_is_sent_again_after_a_quiet_spell(tmp_path: Path,
                                                                              request: pytest.FixtureRequest,
                                                                              fleet_factory: Callable[..., Fleet]) -> None:
    """The fleet queue is purged under a running `regrade --fleet`, as a worker killed between taking a
    message and noting it held loses it: with no board regraded for the visibility timeout and a
    margin, the command sends the ranges still holding stale boards again and ends whole."""
    db_url = make_db_url("sqlite", tmp_path, request)
    fleet = fleet_factory(db_url)
    n = 60
    regraded = _stale_store(db_url, n, fleet.env)
    command = _regrade(fleet.env, "--patience", "60")
    try:
        wait_for(lambda: waiting_messages(fleet.broker, ('fleet',)), 30, "the regrade tasks in the fleet queue")
        purged = subprocess.run([str(BIN / "celery"), "-A", "workers", "purge", "-f", "-Q", "fleet"], env=fleet.env,
                                capture_output=True, text=True, timeout=60)
        assert purged.returncode == 0, purged.stderr
        assert not waiting_messages(fleet.broker, ('fleet',))
        fleet.worker("w1", queues="fleet")
        out, err = command.communicate(timeout=120)
    finally:
        if command.poll() is None:
            command.kill()
    _regraded_once(command, out, err, regraded, n)

