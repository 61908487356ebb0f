"""The one error type the store raises, so callers (CLI, workers) can print a single line and exit,
and the helper that makes that line."""


class StoreError(Exception):
    """A store failure with a one-line, human-readable message (bad URL, unreachable database,
    invalid board data, unsupported backend)."""


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message squeezed onto one line, at most `limit` characters; for a database
    error, the driver's own message (SQLAlchemy keeps it as .orig) rather than a dump of the SQL."""
    inner = getattr(exc, "orig", None) or exc
    text = " ".join(str(inner).split()) or type(inner).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."
