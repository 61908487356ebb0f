"""`puzzlefleet enqueue` and `jobs` as real processes: bad parameters are refused in one line (exit 2)
before anything is written; an unreachable broker (Redis or RabbitMQ) or store is one line and exit 6
(the job, once made, is printed at once and kept, marked failed); a connection cut after the send is
a warning and exit 7; `--key` finds the job an earlier enqueue made."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.workers.conftest import free_port, redis_client, waiting_messages

pytestmark = [pytest.mark.fleet]

EXE = Path(sys.executable).with_name("puzzlefleet")


def run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}",
            "PUZZLEFLEET_BROKER": f"redis://127.0.0.1:{free_port()}/0", **env}
    return subprocess.run([str(EXE), *args], env=full, cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["--size", "0"], "queens offers sizes 4–20, not 0"),
    (["--size", "99"], "queens offers sizes 4–20, not 99"),
    (["--size", "nine"], "'nine' is not a whole number"),
    (["--size", "8", "--band", "nonsense"], "invalid choice: 'nonsense'"),
    (["--size", "8", "--stars", "2"], "queens has 1 star per unit"),
    (["--size", "8", "--count", "0"], "0 is out of range"),
    (["--size", "8", "--timeout", "0"], "--timeout must be a positive number"),
    (["--size", "8", "--seed", "-1"], "a seed is a whole number"),
    (["--size", "8", "--style", "cubist"], "invalid choice: 'cubist'"),
])
def test_bad_parameters_are_refused_in_one_line_before_anything_is_written(tmp_path: Path, args: list[str],
                                                                           message: str) -> None:
    result = run(tmp_path, "enqueue", "--game", "queens", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlefleet: error:") and message in lines[0], lines
    assert not (tmp_path / "p.db").exists()


@pytest.mark.parametrize("args, message", [
    (["--game", "starbattle", "--size", "10", "--stars", "2", "--style", "composed"],
     "no drawing style 'composed' for starbattle 10 2: expected one of"),
    (["--game", "sudoku", "--size", "9", "--style", "organic"], "sudoku has no drawing styles"),
])
def test_a_style_the_rules_do_not_take_is_refused_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = run(tmp_path, "enqueue", *args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert not (tmp_path / "p.db").exists()


def test_star_battle_sizes_are_checked_against_those_the_game_offers(tmp_path: Path) -> None:
    result = run(tmp_path, "enqueue", "--game", "starbattle", "--size", "6", "--stars", "2")
    assert result.returncode == 2 and "starbattle offers sizes 8–16, not 6" in result.stderr


def test_a_bad_fleet_setting_is_one_line(tmp_path: Path) -> None:
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", PUZZLEFLEET_VISIBILITY_TIMEOUT="soon")
    assert result.returncode == 2
    assert result.stderr.strip() == "puzzlefleet: error: PUZZLEFLEET_VISIBILITY_TIMEOUT='soon' is not a number"
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", PUZZLEFLEET_SOFT_TIME_LIMIT="90",
                 PUZZLEFLEET_TIME_LIMIT="60")
    assert result.returncode == 2 and "must be below the hard one" in result.stderr
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", PUZZLEFLEET_BROKER="sqs://key:secret@queue/")
    assert result.returncode == 2 and result.stderr.strip() == (
        "puzzlefleet: error: PUZZLEFLEET_BROKER must be a redis:// (Redis) or amqp:// (RabbitMQ) URL, got a sqs:// URL")
    assert not (tmp_path / "p.db").exists()


@pytest.mark.parametrize("url", ["redis://:hunter2@127.0.0.1:{port}/0", "amqp://guest:hunter2@127.0.0.1:{port}//"],
                         ids=["redis", "rabbitmq"])
def test_an_unreachable_broker_is_one_line_and_the_job_is_marked_failed(tmp_path: Path, url: str) -> None:
    broker = url.format(port=free_port())
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", "--count", "3", PUZZLEFLEET_BROKER=broker)
    assert result.returncode == 6
    assert result.stdout.startswith("job 1: 3 x queens 8"), result.stdout      # said before the send failed
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlefleet: error: cannot send job 1 to the broker"), lines
    assert "hunter2" not in result.stderr
    shown = run(tmp_path, "jobs", "1", "--json")
    assert shown.returncode == 0, shown.stderr
    status = json.loads(shown.stdout)
    assert status["state"] == "failed" and status["error"].startswith("cannot send job 1")
    assert "hunter2" not in status["error"]


def test_jobs_with_no_jobs_and_a_missing_job(tmp_path: Path) -> None:
    assert run(tmp_path, "jobs").stdout.strip() == "no jobs"
    assert run(tmp_path, "jobs", "--json").stdout.strip() == ""
    missing = run(tmp_path, "jobs", "7")
    assert missing.returncode == 1 and missing.stderr.strip() == "puzzlefleet: no job with id 7"
    bad = run(tmp_path, "jobs", "x")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1


def test_an_unreachable_store_exits_6_for_every_verb_that_reads_it(tmp_path: Path) -> None:
    dead = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
    for verb in (["enqueue", "--game", "queens", "--size", "8"], ["jobs"], ["jobs", "1"], ["list"],
                 ["export"], ["show", "0123456789abcdef"], ["daily", "--date", "2026-01-01"]):
        result = run(tmp_path, *verb, PUZZLEFLEET_DB=dead)
        assert result.returncode == 6, (verb, result.returncode, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("puzzlefleet: error:") and "Traceback" not in result.stderr
    # A store that answers but is asked nonsense is still bad input.
    assert run(tmp_path, "jobs", PUZZLEFLEET_DB="mysql://x/y").returncode == 2


def test_a_store_that_does_not_answer_fails_enqueue_within_3_s_and_every_verb_spells_its_url_alike(
        tmp_path: Path) -> None:
    """A PostgreSQL host whose packets are dropped (a listener whose backlog is full: the kernel drops
    further SYNs): `enqueue` exits 6 within 3 s (it waited 10 s for libpq before), and enqueue, jobs and
    list name the store as it was given, postgresql:// (enqueue said postgresql+psycopg://)."""
    import time
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    filling = []
    for _ in range(4):                          # fill the backlog: later connection attempts hang
        client = socket.socket()
        client.setblocking(False)
        client.connect_ex(listener.getsockname())
        filling.append(client)
    try:
        dead = f"postgresql://postgres:secret@127.0.0.1:{listener.getsockname()[1]}/test"
        # What the same command costs against a store that refuses at once (starting, importing): on a
        # busy machine that alone can take seconds, and it is not the wait this test is about.
        started = time.monotonic()
        refused = run(tmp_path, "enqueue", "--game", "queens", "--size", "8",
                      PUZZLEFLEET_DB=f"postgresql://postgres:secret@127.0.0.1:{free_port()}/test")
        baseline = time.monotonic() - started
        assert refused.returncode == 6, refused.stderr
        started = time.monotonic()
        result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", PUZZLEFLEET_DB=dead)
        took = time.monotonic() - started
        assert result.returncode == 6 and took < max(3.0, baseline + 2.0), (took, baseline, result.stderr)
        said = [result.stderr]
        for verb in (["list"], ["jobs"]):
            said.append(run(tmp_path, *verb, PUZZLEFLEET_DB=f"postgresql://postgres:secret@127.0.0.1:{free_port()}/test")
                        .stderr)
        for text in said:
            assert "postgresql://postgres:***@127.0.0.1:" in text and "+psycopg" not in text and "secret" not in text, text
    finally:
        for client in filling:
            client.close()
        listener.close()


class CuttingProxy:
    """A TCP proxy in front of Redis that cuts every connection, and refuses new ones, the moment a
    client sends a PUBLISH: enqueue's broadcast to the workers comes right after the job's tasks are
    pushed, so this is the broker going away between the send and the check."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.cut = threading.Event()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.cut.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, server]
            for src, dst, upstream in ((client, server, True), (server, client, False)):
                threading.Thread(target=self._pump, args=(src, dst, upstream), daemon=True).start()

    def close(self) -> None:
        self.cut.set()
        self.listener.close()
        with self.lock:
            for sock in self.sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                sock.close()

    def _pump(self, src: socket.socket, dst: socket.socket, upstream: bool) -> None:
        while True:
            try:
                data = src.recv(65536)
                if not data:
                    return
                if upstream and b"PUBLISH" in data.upper():
                    self.close()
                    return
                dst.sendall(data)
            except OSError:
                return


@pytest.fixture
def cutting_proxy(redis_url: str) -> Iterator[tuple[CuttingProxy, str]]:
    client = redis_client(redis_url)
    client.flushdb()
    kwargs = client.connection_pool.connection_kwargs
    proxy = CuttingProxy((kwargs.get("host", "127.0.0.1"), int(kwargs.get("port", 6379))))
    yield proxy, f"redis://127.0.0.1:{proxy.port}/{kwargs.get('db', 0)}"
    proxy.close()
    client.flushdb()


def test_a_connection_cut_after_the_send_leaves_the_job_id_and_no_traceback(
        tmp_path: Path, redis_url: str, cutting_proxy: tuple[CuttingProxy, str]) -> None:
    proxy, broker = cutting_proxy
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "6", "--count", "2", "--json",
                 PUZZLEFLEET_BROKER=broker)
    assert proxy.cut.is_set(), "the check never reached the broker"
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 7, (result.returncode, result.stderr)
    sent = json.loads(result.stdout)
    assert sent["job"] == 1 and sent["queue"] == "queens"
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlefleet: warning: job 1 was sent, but asking the workers"), lines
    # The job exists and its tasks are in Redis (the send came before the cut).
    status = json.loads(run(tmp_path, "jobs", "1", "--json").stdout)
    assert status["state"] == "queued" and status["requested"] == 2
    assert waiting_messages(redis_url, ("queens",)).get("queens", 0) == 2


def test_the_same_key_twice_gives_the_same_job(tmp_path: Path, redis_url: str) -> None:
    redis_client(redis_url).flushdb()
    try:
        args = ("enqueue", "--game", "queens", "--size", "6", "--count", "2", "--key", "nightly-2026-12-02", "--json")
        first = run(tmp_path, *args, PUZZLEFLEET_BROKER=redis_url)
        again = run(tmp_path, *args, PUZZLEFLEET_BROKER=redis_url)
        assert first.returncode == again.returncode == 0, first.stderr + again.stderr
        one, two = json.loads(first.stdout), json.loads(again.stdout)
        assert one["job"] == two["job"] and one["seed"] == two["seed"]
        assert (one["existing"], two["existing"]) == (False, True)
        assert "another request" not in again.stderr, again.stderr
        changed = run(tmp_path, *args[:5], "--count", "3", *args[7:], PUZZLEFLEET_BROKER=redis_url)
        assert changed.returncode == 0 and json.loads(changed.stdout)["job"] == one["job"]
        assert "made with key 'nightly-2026-12-02' from another request (its requested differ)" in changed.stderr
        other = run(tmp_path, *args[:-3], "--key", "another", PUZZLEFLEET_BROKER=redis_url)
        assert other.returncode == 0 and other.stdout.startswith("job 2:"), other.stdout + other.stderr
        listed = [json.loads(line) for line in run(tmp_path, "jobs", "--json").stdout.splitlines()]
        assert sorted(j["job"] for j in listed) == [1, 2]
        # The second enqueue sent nothing: the queue holds the first job's two tasks and the other's.
        assert waiting_messages(redis_url, ("queens",)).get("queens", 0) == 4
    finally:
        redis_client(redis_url).flushdb()


def test_a_key_whose_send_failed_is_sent_when_enqueued_again(tmp_path: Path, redis_url: str) -> None:
    redis_client(redis_url).flushdb()
    try:
        args = ("enqueue", "--game", "queens", "--size", "6", "--count", "3", "--key", "retry-me")
        down = run(tmp_path, *args, PUZZLEFLEET_BROKER=f"redis://127.0.0.1:{free_port()}/0")
        assert down.returncode == 6 and down.stdout.startswith("job 1:"), down.stdout + down.stderr
        assert json.loads(run(tmp_path, "jobs", "1", "--json").stdout)["state"] == "failed"
        up = run(tmp_path, *args, PUZZLEFLEET_BROKER=redis_url)
        assert up.returncode == 0 and "job 1:" in up.stdout and "already made with this key" in up.stdout, up.stderr
        status = json.loads(run(tmp_path, "jobs", "1", "--json").stdout)
        assert status["state"] == "queued" and status["error"] is None
        assert waiting_messages(redis_url, ("queens",)).get("queens", 0) >= 1
    finally:
        redis_client(redis_url).flushdb()
