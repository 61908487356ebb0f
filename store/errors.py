"""The one error type the store raises, so callers (CLI, workers) can print a single line and exit,
and the helper that makes that line."""

from __future__ import annotations

from collections.abc import Iterator

# Exception class names (anywhere in a class's MRO) that mean "the database did not answer", whichever
# layer raised them: SQLAlchemy's wrappers, sqlite3 and psycopg all name them so. Matched by name so
# that this module imports no driver (store.progress reads jobs without SQLAlchemy).
_UNREACHABLE = frozenset({"OperationalError", "InterfaceError", "DisconnectionError", "TimeoutError",
                          "ConnectionError"})
# SQLite says OperationalError for a bad statement too ("no such table", "duplicate column name"): only
# these mean the file could not be used.
_SQLITE_UNREACHABLE = ("unable to open", "database is locked", "disk i/o error", "readonly database")


class StoreError(Exception):
    """A store failure with a one-line, human-readable message (bad URL, unreachable database,
    invalid board data, unsupported backend)."""


class StoreUnreachable(StoreError):
    """The database could not be reached or dropped the connection: retrying later may succeed (the
    command line exits 6 for it, not 2)."""


def exception_chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, then each exception it was raised from or while handling, once each."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        yield current
        seen.add(id(current))
        current = current.__cause__ or current.__context__


def is_unreachable(exc: BaseException) -> bool:
    """Whether an exception, or the driver error it wraps (SQLAlchemy keeps it as .orig), says the
    database did not answer rather than refused the request."""
    driver = getattr(exc, "orig", None) or exc
    if type(driver).__module__ == "sqlite3":
        return any(phrase in str(driver).lower() for phrase in _SQLITE_UNREACHABLE)
    return any(cls.__name__ in _UNREACHABLE for error in (exc, driver) for cls in type(error).__mro__)


def store_error(message: str, exc: BaseException) -> StoreError:
    """A StoreError for `exc` with `message`: StoreUnreachable when the database did not answer."""
    return (StoreUnreachable if is_unreachable(exc) else StoreError)(message)


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message squeezed onto one line, at most `limit` characters; for a database
    error, the driver's own message (SQLAlchemy keeps it as .orig) rather than a dump of the SQL."""
    inner = getattr(exc, "orig", None) or exc
    text = " ".join(str(inner).split()) or type(inner).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."
