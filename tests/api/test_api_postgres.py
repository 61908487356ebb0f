"""`puzzlefleet serve` on PostgreSQL, as docs/api.md runs it: several processes, and reads that outlive
the server dropping their connections (the reader's engine does not ping before each use)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from store import make_engine
from tests.api.conftest import make_store
from tests.conftest import PG_URL, pg_schema, schema_url
from tests.serve_support import serving

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_store(pg_admin: Engine, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(URL, application name) of a PostgreSQL schema of its own holding the API tests' boards."""
    with pg_schema(pg_admin, "test_api") as schema:
        url = f"{schema_url(schema)}&application_name={schema}"
        make_store(tmp_path / "unused.db", url=url)
        yield url, schema


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def _drop_connections(application_name: str) -> int:
    """Ends, on the server, every connection the served processes hold; how many it ended."""
    admin = make_engine(PG_URL)
    try:
        with admin.begin() as conn:
            return len(conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %(name)s",
                {"name": application_name}).all())
    finally:
        admin.dispose()


def test_reads_survive_the_server_dropping_every_connection(pg_store: tuple[str, str]) -> None:
    url, name = pg_store
    with serving({**os.environ, "PUZZLEFLEET_DB": url}) as base:
        listings = [f"{base}/boards?limit=2", f"{base}/boards?game=starbattle&stars=2",
                    f"{base}/boards?game=queens&diagonals=true", f"{base}/daily"]
        for listing in listings:
            assert _get(listing)[0] == 200
        assert _drop_connections(name) >= 1      # the pooled connection the next read takes
        answers = [_get(listing) for _ in range(8) for listing in listings]
        assert [status for status, _ in answers] == [200] * len(answers), answers
        assert _get(f"{base}/boards?game=starbattle&stars=2")[1]["boards"]


def test_several_processes_serve_one_port(pg_store: tuple[str, str]) -> None:
    url, name = pg_store
    with serving({**os.environ, "PUZZLEFLEET_DB": url}, "--workers", "2") as base:
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda _: _get(f"{base}/boards?limit=1")[0], range(400)))
        assert statuses == [200] * 400
        admin = make_engine(PG_URL)
        try:
            with admin.connect() as conn:
                # One process reads on one connection at a time, and keeps it pooled: two are two processes.
                pooled = conn.exec_driver_sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                              "%(name)s", {"name": name}).scalar()
        finally:
            admin.dispose()
        assert pooled >= 2


def test_workers_out_of_range_is_one_line() -> None:
    exe = Path(sys.executable).with_name("puzzlefleet")
    done = subprocess.run([str(exe), "serve", "--workers", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--workers: 0 is out of range 1..256" in done.stderr
    assert "Traceback" not in done.stderr
