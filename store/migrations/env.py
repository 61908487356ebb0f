"""Alembic environment. init_db() passes its open connection in `config.attributes["connection"]`;
the alembic command line (alembic -c store/alembic.ini ...) connects to PUZZLEFLEET_DB instead."""

from alembic import context
from sqlalchemy.engine import Connection
from store.db import engine_url, make_engine, schema_metadata

config = context.config
target_metadata = schema_metadata()


def _url() -> str | None:
    return config.get_main_option("sqlalchemy.url") or None


def run_offline() -> None:
    context.configure(url=engine_url(_url()), target_metadata=target_metadata,
                      literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_on(connection: Connection) -> None:
    # Batch mode lets later revisions ALTER tables on SQLite (it copies and swaps the table).
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.begin() as conn:
            run_on(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
