"""Engines, SQLite pragmas, schema migrations and sessions.

SQLite is the default (several writer processes on one file: WAL, a busy timeout and BEGIN IMMEDIATE);
PostgreSQL is used by URL through psycopg 3. Create engines after forking worker processes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, MetaData, create_engine, event, inspect
from sqlalchemy.engine import URL, ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlmodel import Session

from store.errors import StoreError, exception_chain, one_line, store_error
from store.progress import database_url, shown_url

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

# Execution option read by the SQLite "begin" hook: read-only sessions start deferred so readers
# never queue behind writers (WAL lets them read while a writer holds the lock).
_READ_ONLY = "puzzlefleet_read_only"
# Any fixed number: the key of the PostgreSQL advisory lock that serialises concurrent init_db calls.
_MIGRATION_LOCK_KEY = 0x70757A7A6C65
# The newest revision in store/migrations/versions (a test keeps the two equal). A store already at it
# needs no migration, so init_db reads one row and leaves Alembic (about a quarter of a second of
# imports) unloaded.
SCHEMA_REVISION = "0008"

T = TypeVar("T")
# Each engine's read-only twin, made once: execution_options() builds a new engine object each call.
_readers: WeakKeyDictionary[Engine, Engine] = WeakKeyDictionary()


def engine_url(url: str | None = None) -> URL:
    """Parse and check a database URL; plain postgresql:// is pointed at psycopg 3 (the driver we ship)."""
    raw = url or database_url()
    try:
        parsed = make_url(raw)
    except (ArgumentError, ValueError):
        raise StoreError("bad database URL: cannot parse it; expected sqlite:///FILE "
                         "or postgresql://USER@HOST[:PORT]/DB") from None
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        if "+" not in parsed.drivername:
            parsed = parsed.set(drivername="postgresql+psycopg")
    elif backend != "sqlite":
        raise StoreError(f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://USER@HOST/DB")
    return parsed


def _setup_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control away from pysqlite, so the "begin" hook below decides how each
        # transaction starts (and so the PRAGMAs below run outside any transaction).
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        try:
            cursor.execute("PRAGMA busy_timeout=30000")  # first, so switching to WAL also waits for locks
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # safe with WAL; commits skip the fsync
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A deferred transaction that later upgrades its read lock to a write lock fails at once when
        # another process writes, whatever the busy timeout; IMMEDIATE takes the write lock up front
        # and waits for it.
        mode = "DEFERRED" if conn.get_execution_options().get(_READ_ONLY) else "IMMEDIATE"
        conn.exec_driver_sql(f"BEGIN {mode}")


def _close_interrupted(engine: Engine) -> None:
    @event.listens_for(engine, "handle_error")
    def _on_error(ctx: ExceptionContext) -> None:
        # An exception from outside the database raised in the middle of a call (a task's soft time
        # limit comes from a signal handler, at any line) can leave the connection with its command in
        # flight and its transaction open on the server, holding locks. Pooled again, every later call
        # on it fails ("another command is already in progress"); closed, the server ends the
        # transaction. Only this connection: the others are sound. The driver's own error may come
        # first, raised while it cleaned up after the interruption (psycopg's "cannot exit pipeline
        # mode while busy" after a soft limit in the middle of an executemany): that is interrupted too.
        if _interrupted(ctx.original_exception, (SQLAlchemyError, ctx.dialect.loaded_dbapi.Error)):
            ctx.is_disconnect = True
            ctx.invalidate_pool_on_disconnect = False


def _interrupted(exc: BaseException, database_errors: tuple[type[BaseException], ...]) -> bool:
    """Whether `exc`, or an exception it was raised from or while handling, is not a database error."""
    return any(not isinstance(each, database_errors) for each in exception_chain(exc))


def shown(engine: Engine) -> str:
    """An engine's URL for messages: as the user gave it (postgresql://, not the driver's
    postgresql+psycopg://), its password hidden, as every verb prints it (store.progress.shown_url)."""
    return getattr(engine, "puzzlefleet_url", None) or engine.url.render_as_string(hide_password=True)


def make_engine(url: str | None = None, *, connect_timeout: int = 10, ping: bool = True) -> Engine:
    """An engine for `url` (default: database_url()), connected once to prove it works; a PostgreSQL
    connection attempt gives up after `connect_timeout` seconds (unless the URL says otherwise).

    ping=True tests each pooled PostgreSQL connection with a round trip before handing it out, so that
    a connection the server dropped is never used. A reader that goes through read() instead runs a
    query that met a dropped connection once more, and saves that round trip on every use.

    Raises StoreError with a one-line message for a bad URL or an unreachable database."""
    parsed = engine_url(url)
    given = shown_url(url or database_url())
    try:
        if parsed.get_backend_name() == "sqlite":
            engine = create_engine(parsed)
            _setup_sqlite(engine)
        else:
            # Without a timeout a blackholed host hangs a worker for minutes.
            connect_args = {} if "connect_timeout" in parsed.query else {"connect_timeout": connect_timeout}
            engine = create_engine(parsed, connect_args=connect_args, pool_pre_ping=ping)
        _close_interrupted(engine)
        engine.puzzlefleet_url = given              # type: ignore[attr-defined]
        # Fail here, with one line, rather than deep inside the first task.
        with engine.connect():
            pass
    except (SQLAlchemyError, ImportError, ValueError, TypeError) as exc:
        hint = " (pip install 'puzzlefleet[postgres]')" if isinstance(exc, ImportError) else ""
        raise store_error(f"cannot open database {given}: {one_line(exc)}{hint}", exc) from exc
    # Leave no pooled connection behind to be shared by a process forked after this.
    engine.dispose()
    return engine


_process_engine: tuple[int, Engine] | None = None       # (the pid it was made in, the engine)


def process_engine() -> Engine:
    """This process's engine for the store (database_url()), made and its schema migrated on first use,
    and again in a process forked after that: a pool process never uses its parent's."""
    global _process_engine
    if _process_engine is None or _process_engine[0] != os.getpid():
        engine = make_engine(None)
        init_db(engine)
        _process_engine = os.getpid(), engine
    return _process_engine[1]


def alembic_config(url: str | None = None) -> Config:
    """An Alembic Config built in code (no alembic.ini needed), pointing at store/migrations."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def schema_revision(engine: Engine) -> str | None:
    """The store's Alembic revision, or None when it has none yet (a new database): one read."""
    try:
        with engine.execution_options(**{_READ_ONLY: True}).connect() as conn:
            return conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    except DBAPIError:              # no alembic_version table: nothing migrated yet
        return None
    except SQLAlchemyError as exc:
        raise store_error(f"cannot migrate database {shown(engine)}: {one_line(exc)}", exc) from exc


def init_db(engine: Engine) -> None:
    """Bring the schema to the latest revision; safe to call again, and from several processes.

    A store already at SCHEMA_REVISION costs one read: Alembic and its migrations (about 0.35 s of a
    command's start) are loaded only for a store to make or upgrade. A new database (no tables) gets
    the models' tables, which a test keeps equal to what the migrations make, stamped by Alembic at
    SCHEMA_REVISION."""
    if schema_revision(engine) == SCHEMA_REVISION:
        return
    where = shown(engine)
    try:
        # One transaction for the whole of it: on SQLite it begins IMMEDIATE, which already
        # serialises concurrent callers; on PostgreSQL an advisory lock does the same.
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_KEY})")
            if inspect(conn).get_table_names():
                _upgrade(conn, where)
            else:
                _create_newest(conn)
    except SQLAlchemyError as exc:
        raise store_error(f"cannot migrate database {where}: {one_line(exc)}", exc) from exc


def schema_metadata() -> MetaData:
    """SQLModel's metadata with every table of the store on it (each model module registers its own)."""
    from sqlmodel import SQLModel

    import store.dailymodels  # noqa: F401
    import store.jobmodels  # noqa: F401
    import store.models  # noqa: F401
    return SQLModel.metadata


def _create_newest(conn: Connection) -> None:
    """The models' tables in an empty database, stamped by Alembic as the newest revision, so that a
    later upgrade starts from there."""
    from alembic import command

    schema_metadata().create_all(conn)
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    command.stamp(cfg, SCHEMA_REVISION)


def _upgrade(conn: Connection, shown: str) -> None:
    """Alembic's upgrade to the newest revision, on this connection's transaction."""
    from alembic import command
    from alembic.util import CommandError

    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    try:
        command.upgrade(cfg, "head")
    except CommandError as exc:
        raise store_error(f"cannot migrate database {shown}: {one_line(exc)}", exc) from exc


def _reader(engine: Engine) -> Engine:
    """The engine's read-only twin. On SQLite its transactions begin deferred (no write lock). On
    PostgreSQL it reads in autocommit: at READ COMMITTED each statement takes its own snapshot inside a
    transaction too, so BEGIN and COMMIT would only add two round trips to every read."""
    reader = _readers.get(engine)
    if reader is None:
        options: dict[str, Any] = {_READ_ONLY: True}
        if engine.dialect.name == "postgresql":
            options["isolation_level"] = "AUTOCOMMIT"
        reader = _readers[engine] = engine.execution_options(**options)
    return reader


@contextmanager
def session(engine: Engine, *, read_only: bool = False) -> Iterator[Session]:
    """A session that commits on success and rolls back on error; database errors become StoreError.

    read_only=True reads through the engine's read-only twin (see _reader); do not write in such a
    session."""
    bind = _reader(engine) if read_only else engine
    try:
        with Session(bind) as s:
            yield s
            s.commit()
    except SQLAlchemyError as exc:
        raise store_error(f"database error: {one_line(exc)}", exc) from exc


def read(engine: Engine, query: Callable[[Session], T]) -> T:
    """query(session) in a read-only session. A pooled connection that the server dropped since its last
    use (a restart, an idle timeout) fails on its first statement and is discarded with the rest of the
    pool; the query then runs once more on a new connection. Only for queries that write nothing."""
    try:
        with session(engine, read_only=True) as s:
            return query(s)
    except StoreError as exc:
        dropped = exc.__cause__
        if not (isinstance(dropped, DBAPIError) and dropped.connection_invalidated):
            raise
    with session(engine, read_only=True) as s:
        return query(s)
