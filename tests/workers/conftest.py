"""Fixtures for the fleet's integration tests: the real Redis (a dedicated database number, flushed) or
the real RabbitMQ (a virtual host of its own), the real PostgreSQL (a fresh schema per test) or a
SQLite WAL file, and real `celery -A workers ...` processes started as subprocesses and always stopped
in teardown. Tests that hold on either broker take the `broker` fixture, parametrised with BROKERS.

Under CI (env CI set) a missing Redis, RabbitMQ or PostgreSQL is a failure, not a skip."""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text

import engine
import store
from tests.conftest import PG_URL, drop_schema, missing, new_schema, schema_url
from tests.documented import documented_flower

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _redis_database(base: int) -> int:
    """A Redis database of this pytest-xdist worker's own (gw0 gets `base`, gw1 the next, ...), so
    parallel fleet tests never flush or consume each other's queues; `make test` runs at most six."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return base + int(worker.removeprefix("gw") or 0)


REDIS_URL = os.environ.get("PUZZLEFLEET_TEST_REDIS", f"redis://127.0.0.1:6379/{_redis_database(9)}")
# The machine's RabbitMQ: each pytest process makes a virtual host of its own there (deleted at the
# end), as Redis gives each a database; or PUZZLEFLEET_TEST_AMQP names one to use as it is.
AMQP_URL = os.environ.get("PUZZLEFLEET_TEST_AMQP", "")
AMQP_HOST, AMQP_PORT = "127.0.0.1", 5672
BROKERS = ("redis", "rabbitmq")          # ids for @pytest.mark.parametrize("broker", BROKERS, indirect=True)
# seconds: a killed worker's tasks come back fast; tasks of at most TIME_LIMIT s and retries of at most
# BACKOFF s, so that a live worker settles what it holds within the visibility timeout
VISIBILITY, TIME_LIMIT, BACKOFF = 6, 4, 2
# What a test or bench gives the fleet to run on the settings people run (empty is unset: the default)
DEFAULT_SETTINGS = {"PUZZLEFLEET_VISIBILITY_TIMEOUT": "", "PUZZLEFLEET_TIME_LIMIT": "",
                    "PUZZLEFLEET_RETRY_BACKOFF_MAX": ""}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check: Callable[[], Any], timeout: float, what: str, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def redis_client(url: str) -> Any:
    import redis
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        redis_client(REDIS_URL).ping()
    except Exception as exc:   # redis.ConnectionError and friends
        missing("Redis at " + REDIS_URL, exc)
    return REDIS_URL


def _rabbitmqctl(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> str:
    """rabbitmqctl ARGS (the machine's node unless `-n NODE` and its `env` are given); its output."""
    exe = shutil.which("rabbitmqctl") or shutil.which("rabbitmqctl", path="/usr/sbin")
    if exe is None:
        raise FileNotFoundError("rabbitmqctl is not installed")
    if env is not None:           # a node of a test's own: the real script, not Debian's `su rabbitmq` wrapper
        exe = _rabbit_script("rabbitmqctl")
    out = subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout,
                         env=None if env is None else {**os.environ, **env})
    if out.returncode != 0:
        raise RuntimeError(f"rabbitmqctl {' '.join(args)} failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    return out.stdout


@pytest.fixture(scope="session")
def amqp_url() -> Iterator[str]:
    """A RabbitMQ virtual host of this pytest process's own on the machine's node (guest may use it)."""
    if AMQP_URL:
        yield AMQP_URL
        return
    vhost = f"puzzlefleet-test-{os.environ.get('PYTEST_XDIST_WORKER', 'gw0')}-{os.getpid()}"
    try:
        _rabbitmqctl("add_vhost", vhost)
        _rabbitmqctl("set_permissions", "-p", vhost, "guest", ".*", ".*", ".*")
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as exc:
        missing(f"RabbitMQ at {AMQP_HOST}:{AMQP_PORT} (rabbitmqctl)", exc)
    try:
        yield f"amqp://guest:guest@{AMQP_HOST}:{AMQP_PORT}/{vhost}"
    finally:
        _rabbitmqctl("delete_vhost", vhost)


@pytest.fixture
def broker(request: pytest.FixtureRequest) -> str:
    """The broker URL for a test parametrised with BROKERS ("redis": redis_url, "rabbitmq": amqp_url)."""
    kind = getattr(request, "param", "redis")
    return request.getfixturevalue("redis_url" if kind == "redis" else "amqp_url")


def is_amqp(url: str) -> bool:
    return url.split("://", 1)[0] in ("amqp", "amqps", "pyamqp")


class PgSchemas:
    """Fresh PostgreSQL schemas, each dropped at teardown."""

    def __init__(self, admin: Engine) -> None:
        self.admin, self.names = admin, []

    def new(self) -> str:
        self.names.append(new_schema(self.admin, "test_fleet"))
        return schema_url(self.names[-1])

    def drop(self) -> None:
        for schema in self.names:
            drop_schema(self.admin, schema)


def make_db_url(kind: str, tmp: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp / 'puzzles.db'}"
    schemas = PgSchemas(request.getfixturevalue("pg_admin"))
    request.addfinalizer(schemas.drop)
    return schemas.new()


class Proc:
    """A real process in its own process group (so the whole worker, pool included, can be stopped)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.name, self.log = name, cwd / f"{name}.log"
        self.killed = False                       # by kill(), on purpose
        self._out = open(self.log, "wb")
        self.popen = subprocess.Popen(argv, env=env, cwd=cwd, stdout=self._out, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stacks(self) -> str:
        """Every thread's stack in the process and its children (a worker's pool), by py-spy when it is
        installed: what a test that hangs shows."""
        spy = shutil.which("py-spy") or (str(BIN / "py-spy") if (BIN / "py-spy").exists() else None)
        if spy is None or self.popen.poll() is not None:
            return "(no stacks: py-spy is not installed, or the process has exited)"
        children = subprocess.run(["pgrep", "-P", str(self.popen.pid)], capture_output=True, text=True).stdout.split()
        out = []
        for pid in (str(self.popen.pid), *children):
            dump = subprocess.run([spy, "dump", "--pid", pid], capture_output=True, text=True, timeout=60)
            out.append(f"--- {self.name} pid {pid}\n{dump.stdout or dump.stderr}")
        return "\n".join(out)

    def wait_for_log(self, needle: str, timeout: float = 40) -> None:
        def seen() -> bool:
            if self.popen.poll() is not None:
                raise AssertionError(f"{self.name} exited ({self.popen.returncode}):\n{self.text()[-3000:]}")
            return needle in self.text()
        wait_for(seen, timeout, f"{needle!r} in {self.name}'s log")

    def kill(self) -> None:
        """SIGKILL the whole group: the main process and its pool, no chance to clean up."""
        self.killed = True
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait(timeout=10)

    def stop(self, grace: float = 10) -> None:
        if self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signal.SIGTERM)
                self.popen.wait(timeout=grace)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:   # whatever is left of the group (pool processes of a killed worker)
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.popen.poll() is None:
            self.popen.wait(timeout=10)
        self._out.close()


class Fleet:
    """Workers, beat and Flower for one store and one broker; every process stopped at teardown."""

    def __init__(self, tmp: Path, db_url: str, broker: str, **env: str) -> None:
        self.tmp, self.db_url, self.broker = tmp, db_url, broker
        self.procs: list[Proc] = []
        self.env = {**os.environ, "PUZZLEFLEET_DB": db_url, "PUZZLEFLEET_BROKER": broker,
                    "PUZZLEFLEET_VISIBILITY_TIMEOUT": str(VISIBILITY), "PUZZLEFLEET_TIME_LIMIT": str(TIME_LIMIT),
                    "PUZZLEFLEET_RETRY_BACKOFF_MAX": str(BACKOFF),
                    "PYTHONUNBUFFERED": "1", **env}
        for key in ("PROMETHEUS_MULTIPROC_DIR", "PUZZLEFLEET_METRICS_PORT", "FLOWER_BASIC_AUTH"):
            if key not in env:
                self.env.pop(key, None)

    def _start(self, name: str, args: list[str], env: dict[str, str]) -> Proc:
        proc = Proc(name, [str(BIN / "celery"), "-A", "workers", *args], {**self.env, **env}, self.tmp)
        self.procs.append(proc)
        return proc

    def worker(self, name: str, *, concurrency: int = 2, pool: str = "prefork", metrics_port: int | None = None,
               queues: str = "queens,starbattle,sudoku,killer,fleet", **env: str) -> Proc:
        extra = dict(env)
        if metrics_port is not None:            # as docs/fleet.md says: the port alone
            extra["PUZZLEFLEET_METRICS_PORT"] = str(metrics_port)
        proc = self._start(name, ["worker", "--pool", pool, "-c", str(concurrency), "-n", f"{name}@test",
                                  "-Q", queues, "-l", "info", "--without-mingle", "--without-gossip"], extra)
        proc.worker_args = dict(concurrency=concurrency, pool=pool,          # type: ignore[attr-defined]
                                metrics_port=metrics_port, queues=queues, **env)
        proc.wait_for_log(" ready.")
        return proc

    def revive(self, after: float = 3.0) -> list[Proc]:
        """`after` seconds past a broker restart, a new worker (same options, name + "b") for each
        one whose main process died on the lost connection instead of reconnecting: a race in kombu's
        Redis transport ("Unrecoverable error: AttributeError ... 'hostname'") now and then. In
        production systemd (Restart=on-failure) or Kubernetes starts it again. Any other exit fails."""
        time.sleep(after)
        revived = []
        workers = [p for p in self.procs if hasattr(p, "worker_args") and not p.killed and not hasattr(p, "revived")]
        for proc in workers:
            if proc.popen.poll() is not None:
                assert "Unrecoverable error" in proc.text(), proc.text()[-3000:]
                proc.revived = True                 # type: ignore[attr-defined]
                revived.append(self.worker(proc.name + "b", **proc.worker_args))   # type: ignore[attr-defined]
        return revived

    def beat(self, **env: str) -> Proc:
        proc = self._start("beat", ["beat", "-l", "info", "--schedule", str(self.tmp / "beat-schedule")], env)
        proc.wait_for_log("beat: Starting")
        return proc

    def flower(self, port: int, basic_auth: str) -> Proc:
        # As docs/fleet.md starts it: the task list shows each task's result (its acceptance line).
        columns = documented_flower().option("--tasks_columns")
        proc = self._start("flower", ["flower", "--address=127.0.0.1", f"--port={port}", f"--tasks_columns={columns}"],
                           {"FLOWER_BASIC_AUTH": basic_auth})

        def listening() -> bool:
            if proc.popen.poll() is not None:
                raise AssertionError(f"flower exited:\n{proc.text()[-3000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return True
            except OSError:
                return False
        wait_for(listening, 40, "Flower to listen")
        return proc

    def cli(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "puzzlefleet"), *args], env=self.env, cwd=self.tmp, capture_output=True,
                              text=True, timeout=timeout)

    def enqueue(self, *args: str) -> dict[str, Any]:
        """`puzzlefleet enqueue ARGS --json`, which must succeed: the job line it prints."""
        result = self.cli("enqueue", *args, "--json")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) == 1, lines
        return json.loads(lines[0])

    def job(self, job_id: int) -> dict[str, Any]:
        engine = store.make_engine(self.db_url)
        try:
            with store.session(engine, read_only=True) as s:
                status = store.get_job(session=s, job_id=job_id)
        finally:
            engine.dispose()
        assert status is not None
        return status

    def wait_job(self, job_id: int, timeout: float = 90) -> dict[str, Any]:
        return self._wait_status(job_id, lambda status: status["state"] in store.FINAL_STATES, timeout,
                                 "to finish", interval=0.25)

    def wait_stored(self, job_id: int, at_least: int, timeout: float = 60) -> dict[str, Any]:
        return self._wait_status(job_id, lambda status: status["stored"] >= at_least, timeout,
                                 f"to store {at_least} boards", interval=0.1)

    def _wait_status(self, job_id: int, done: Callable[[dict[str, Any]], bool], timeout: float, what: str,
                     interval: float) -> dict[str, Any]:
        """The job's status once `done` holds; on a timeout the message shows the job, the broker and
        every process's log tail."""
        def check() -> dict[str, Any] | None:
            status = self.job(job_id)
            return status if done(status) else None
        try:
            return wait_for(check, timeout, f"job {job_id} {what}", interval=interval)
        except AssertionError:
            logs = "\n".join(f"--- {p.name}\n{p.text()[-2000:]}" for p in self.procs)
            raise AssertionError(f"job {job_id} did not {what.removeprefix('to ')} in {timeout:g} s: "
                                 f"{self.job(job_id)}\nbroker: {self.broker_state()}\n{logs}") from None

    def broker_state(self) -> str:
        """What the broker holds for the fleet (for a failure's message): messages waiting per queue;
        on Redis also the unacknowledged ones and the lock that guards their restoring."""
        try:
            if is_amqp(self.broker):
                return f"queues {waiting_messages(self.broker)}"
            client = redis_client(self.broker)
            queues = {name: client.llen(name) for name in (*(game.queue for game in engine.all_games()), "fleet")}
            return (f"queues {queues}, unacked {client.hlen('unacked')}, "
                    f"unacked_mutex ttl {client.ttl('unacked_mutex')}")
        except Exception as exc:        # the broker may be the fault under test
            return f"unreadable ({exc})"

    def boards(self, job_id: int | None = None) -> list[dict[str, Any]]:
        engine = store.make_engine(self.db_url)
        try:
            store.init_db(engine)
            with store.session(engine, read_only=True) as s:
                if job_id is None:
                    return store.list_boards(session=s)
                return store.list_job_boards(session=s, job_id=job_id)
        finally:
            engine.dispose()

    def new_job(self, requested: int, game: str = "queens", **params: Any) -> tuple[int, dict[str, Any]]:
        """A job (Queens size 6 unless given) recorded in the store, seed 99, nothing sent: (id, params)."""
        from jobs.params import JobParams
        built = JobParams.build(game=game, size=params.pop("size", 6), **params)
        job_params = built.to_json()
        engine = store.make_engine(self.db_url)
        try:
            store.init_db(engine)
            with store.session(engine) as s:
                job_id = store.create_job(session=s, game=game, rules=str(built.rules()),
                                          band=None, params=job_params, seed=99, requested=requested)
        finally:
            engine.dispose()
        return job_id, job_params

    def stop(self) -> None:
        for proc in reversed(self.procs):
            proc.stop()


class OwnRedis:
    """redis-server processes of a test's own on one free port (the machine's Redis is shared: never
    restarted or wiped by a test): start() runs one, empty, on that port; stop() ends them all."""

    def __init__(self, tmp: Path) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            if os.environ.get("CI"):
                pytest.fail("redis-server is required under CI")
            pytest.skip("redis-server not installed")
        self.exe, self.tmp, self.port = exe, tmp, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.procs: list[Proc] = []

    def start(self, persist: bool = False) -> Proc:
        """A redis-server on the port: empty, or with `persist` its append-only file in the test's folder
        (every write synced, as `--appendonly yes`), so that a restart finds the queues as they were."""
        keep = (["--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.tmp)] if persist
                else ["--appendonly", "no"])
        proc = Proc(f"redis-{len(self.procs)}", [self.exe, "--port", str(self.port), "--bind", "127.0.0.1",
                                                 "--save", "", *keep, "--daemonize", "no"],
                    {}, self.tmp)
        self.procs.append(proc)
        proc.wait_for_log("Ready to accept connections", timeout=20)
        return proc

    __call__ = start

    def stop(self) -> None:
        for proc in self.procs:
            proc.stop(grace=5)


def _rabbit_script(name: str) -> str:
    """RabbitMQ's own start script `name` (Debian's /usr/sbin one switches to the rabbitmq user)."""
    for candidate in (f"/usr/lib/rabbitmq/bin/{name}", shutil.which(name), f"/usr/sbin/{name}"):
        if candidate and os.path.exists(candidate):
            return candidate
    raise FileNotFoundError(f"{name} is not installed")


class OwnRabbit:
    """A RabbitMQ node of a test's own (the machine's node is shared: never restarted by a test): its
    own node name, ports on the loopback, data, logs, Erlang cookie (HOME) and configuration under
    `tmp`, no plugins. start() runs it and waits until it takes connections; kill() SIGKILLs it, and a
    start() after that finds its durable queues and their messages again; stop() ends it for good."""

    def __init__(self, tmp: Path) -> None:
        try:
            self.exe = _rabbit_script("rabbitmq-server")
        except FileNotFoundError:
            if os.environ.get("CI"):
                pytest.fail("rabbitmq-server is required under CI")
            pytest.skip("rabbitmq-server not installed")
        self.tmp, self.port, dist = tmp / "rabbit", free_port(), free_port()
        self.node = f"pf-test-{self.port}@localhost"
        self.url = f"amqp://guest:guest@127.0.0.1:{self.port}//"
        home = self.tmp / "home"
        home.mkdir(parents=True, exist_ok=True)
        (self.tmp / "enabled_plugins").write_text("[].\n")
        (self.tmp / "rabbitmq.conf").write_text(f"listeners.tcp.1 = 127.0.0.1:{self.port}\n")
        (self.tmp / "rabbitmq-env.conf").write_text("")         # not the machine's /etc/rabbitmq one
        self.env = {"HOME": str(home), "RABBITMQ_NODENAME": self.node, "RABBITMQ_NODE_PORT": str(self.port),
                    "RABBITMQ_DIST_PORT": str(dist), "RABBITMQ_MNESIA_BASE": str(self.tmp / "mnesia"),
                    "RABBITMQ_LOG_BASE": str(self.tmp / "log"), "RABBITMQ_LOGS": "-",
                    "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.tmp / "enabled_plugins"),
                    "RABBITMQ_CONFIG_FILE": str(self.tmp / "rabbitmq.conf"),
                    "RABBITMQ_CONF_ENV_FILE": str(self.tmp / "rabbitmq-env.conf"),
                    "RABBITMQ_ADVANCED_CONFIG_FILE": str(self.tmp / "advanced.config"),
                    "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": "-kernel inet_dist_use_interface {127,0,0,1}"}
        self.procs: list[Proc] = []

    def start(self) -> Proc:
        proc = Proc(f"rabbit-{len(self.procs)}", [self.exe], {**os.environ, **self.env}, self.tmp)
        self.procs.append(proc)
        proc.wait_for_log("Server startup complete", timeout=120)
        return proc

    __call__ = start

    def kill(self) -> None:
        """SIGKILL the node, as a crash: no chance to write anything more."""
        self.procs[-1].kill()

    def stop(self) -> None:
        if self.procs and self.procs[-1].popen.poll() is None:
            try:
                _rabbitmqctl("-n", self.node, "stop", env=self.env)
            except (OSError, RuntimeError, subprocess.TimeoutExpired):
                pass                    # its pid, below
        for proc in self.procs:
            proc.stop(grace=10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """own_redis() starts a redis-server of this test's own, empty, on its port (own_redis.url)."""
    server = OwnRedis(tmp_path)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def rabbit_node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnRabbit]:
    """One RabbitMQ node of this pytest process's own for the tests that restart their broker
    (starting one takes 10-20 s); stopped at the end. Take it through own_rabbit."""
    node = OwnRabbit(tmp_path_factory.mktemp("rabbit"))
    yield node
    node.stop()


@pytest.fixture
def own_rabbit(rabbit_node: OwnRabbit) -> OwnRabbit:
    """The process's own RabbitMQ node, running (started again if a test left it down); fleet_factory
    empties the fleet's queues on it."""
    if not rabbit_node.procs or rabbit_node.procs[-1].popen.poll() is not None:
        rabbit_node.start()
    return rabbit_node


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class OwnPostgres:
    """A throwaway PostgreSQL cluster: trust auth, loopback only, no fsync (nothing here must outlive
    the test), its socket and data in one temporary directory. PostgreSQL refuses to run as root, so
    under root its commands run as the `postgres` OS user."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin, self.port = bin_dir, free_port()
        self.root = Path(tempfile.mkdtemp(prefix="puzzlefleet-pg-"))
        self.data, self.log = self.root / "data", self.root / "postgres.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        out = subprocess.run([*self.as_user, str(self.bin / tool), *args], capture_output=True, text=True,
                             timeout=60)
        if out.returncode != 0:
            raise AssertionError(f"{tool} failed ({out.returncode}): {out.stdout}{out.stderr}")

    def start(self) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off "
                   "-c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "30", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def remove(self) -> None:
        if self.running():
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    """A PostgreSQL of the test's own, running (own_postgres.stop() and .start() for an outage); under
    CI a machine without initdb is a failure, not a skip."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail("initdb is required under CI (Debian: the postgresql package)")
        pytest.skip("initdb not found")
    server = OwnPostgres(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.remove()


def assert_exactly(fleet: Fleet, job_id: int, n: int, *, alone: bool = True) -> None:
    """Job `job_id` ended done with exactly `n` boards, one per slot; `alone`: the only job of the store.
    With other jobs, every board stored is still counted by exactly one job's slots."""
    status = fleet.wait_job(job_id, timeout=120)
    assert (status["state"], status["stored"], status["failed"]) == ("done", n, 0), status
    boards = fleet.boards(job_id)
    assert len(boards) == n == len({b["id"] for b in boards})
    engine = store.make_engine(fleet.db_url)
    # Other jobs may still be storing: the counts must come from one snapshot, which PostgreSQL's
    # default (read committed) gives each statement rather than the transaction.
    snapshot = (engine.execution_options(isolation_level="REPEATABLE READ")
                if engine.dialect.name == "postgresql" else engine)
    try:
        with store.session(snapshot, read_only=True) as s:
            assert store.count_job_boards(session=s, job_id=job_id) == n
            assert store.unfinished_slots(session=s, job_id=job_id) == []
            counted = sum(j["stored"] for j in store.list_jobs(session=s, limit=10_000))
            # Beat's daily set (00:05 UTC) makes boards of its own when a test runs across that minute.
            daily = s.execute(text("SELECT count(*) FROM daily WHERE board_id NOT IN "
                                   "(SELECT puzzle_id FROM job_slot WHERE puzzle_id IS NOT NULL)")).scalar_one()
            assert store.count_boards(session=s) == counted + daily
            if alone:
                assert counted == n              # nothing stored outside the job's slots either
    finally:
        engine.dispose()


def add_consumer(broker: str, queue: str, worker: str) -> None:
    """Tell a running worker (its node name) to consume `queue` too, as `celery control add_consumer`."""
    from celery import Celery
    client = Celery("test-control", broker=broker)
    try:
        replies = client.control.add_consumer(queue, destination=[worker], reply=True, timeout=10)
    finally:
        client.close()
    assert replies and "ok" in next(iter(replies[0].values())), replies


def _fleet_queue_names() -> list[str]:
    """Every RabbitMQ queue the fleet declares: its own and Celery's native delayed delivery ones."""
    from kombu.transport.native_delayed_delivery import MAX_LEVEL, level_name
    from workers.celeryapp import task_queues
    return [q.name for q in task_queues("amqp")] + [level_name(level) for level in range(MAX_LEVEL + 1)]


def waiting_messages(url: str, names: tuple[str, ...] = ()) -> dict[str, int]:
    """Messages waiting (not delivered to a worker) in each fleet queue (or those `names`) that holds
    any, on either broker: as the sweep counts them (workers.celeryapp.waiting)."""
    from workers.celeryapp import broker_connection, waiting
    from jobs.params import FLEET_QUEUE, queues
    kind = "amqp" if is_amqp(url) else "redis"
    with broker_connection(url) as conn:
        depths = {name: waiting(conn, name, kind) for name in names or (*queues(), FLEET_QUEUE)}
    return {name: n for name, n in depths.items() if n}


def flush(url: str) -> None:
    """Empty a test broker: flush a Redis database; on RabbitMQ delete the fleet's queues."""
    if not is_amqp(url):
        redis_client(url).flushdb()
        return
    from kombu import Connection
    with Connection(url, connect_timeout=5) as conn:
        for name in _fleet_queue_names():
            conn.default_channel.queue_delete(queue=name)


@pytest.fixture
def fleet_factory(tmp_path: Path, redis_url: str) -> Iterator[Callable[..., Fleet]]:
    """fleet_factory(db_url, broker=redis_url, **env) -> a Fleet; the test Redis (and a RabbitMQ
    broker, which must be running) emptied first; all stopped, and those brokers flushed, at teardown."""
    fleets: list[Fleet] = []

    def make(db_url: str, broker: str = redis_url, **env: str) -> Fleet:
        if broker == redis_url or is_amqp(broker):
            flush(broker)
        fleet = Fleet(tmp_path, db_url, broker, **env)
        fleets.append(fleet)
        return fleet

    yield make
    for fleet in fleets:
        fleet.stop()
    for url in {redis_url, *(f.broker for f in fleets if is_amqp(f.broker))}:
        try:
            flush(url)
        except Exception:               # a broker of the test's own, already stopped
            if url == redis_url:
                raise


def send_raw(broker: str, *messages: tuple[list[Any], str], name: str = "puzzlefleet.generate_slots") -> list[str]:
    """Send task messages by name, as any client could (args, queue); returns task ids."""
    from celery import Celery
    client = Celery("test-client", broker=broker)
    client.conf.update(task_serializer="json", accept_content=["json"])
    if is_amqp(broker):
        # On RabbitMQ a client must declare the queues as the fleet does (quorum, a topic exchange each):
        # RabbitMQ refuses a second declaration with other arguments.
        from workers.celeryapp import task_queues
        client.conf.update(task_queues=task_queues("amqp"), task_default_exchange_type="topic")
    try:
        return [client.send_task(name, args=args, queue=queue).id for args, queue in messages]
    finally:
        client.close()
