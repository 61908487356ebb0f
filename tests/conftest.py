"""Fixtures every test package shares: the real PostgreSQL at 127.0.0.1:5432 (or PUZZLEFLEET_TEST_PG),
and schemas of their own on it, so parallel runs never collide."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine

from store import StoreError, make_engine

# Overridable so the suite can point at another server (or prove the skip/fail path).
PG_URL = os.environ.get("PUZZLEFLEET_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def missing(what: str, exc: BaseException) -> None:
    """A service the test needs does not answer: under CI a broken machine, not a reason to pass quietly."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required under CI: {exc}")
    pytest.skip(f"{what} not reachable: {exc}")


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[Engine]:
    try:
        engine = make_engine(PG_URL)
    except StoreError as exc:
        missing("PostgreSQL", exc)
    yield engine
    engine.dispose()


def new_schema(admin: Engine, prefix: str) -> str:
    """Creates a schema of a fresh name; its name."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    return schema


def drop_schema(admin: Engine, schema: str) -> None:
    with admin.begin() as conn:
        conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')


def schema_url(schema: str) -> str:
    """A URL whose every connection sees only `schema`."""
    return f"{PG_URL}?options=-csearch_path%3D{schema}"


@contextmanager
def pg_schema(admin: Engine, prefix: str) -> Iterator[str]:
    """The name of a schema of its own, dropped at the end."""
    schema = new_schema(admin, prefix)
    try:
        yield schema
    finally:
        drop_schema(admin, schema)


# The xdist groups that take longest (each runs on one worker, one test after another), handed out first
# so that none of them starts late and ends the run alone. The fault scenarios are two of them, "faults"
# (broker restarts and wipes, with a RabbitMQ node of their own) and "faults-recovery" (worker kills,
# outages, regrade): at most two fault scenarios share the machine; the Makefile turns off xdist's own order
# (the scopes with the most tests first) so that this collection order is the order work is handed out.
LONGEST_GROUPS = ("faults", "faults-recovery", "chaos", "browser", "fleet-jobs")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        group = item.get_closest_marker("xdist_group")
        name = None if group is None else group.args[0] if group.args else group.kwargs.get("name")
        return LONGEST_GROUPS.index(name) if name in LONGEST_GROUPS else len(LONGEST_GROUPS)
    items.sort(key=rank)
