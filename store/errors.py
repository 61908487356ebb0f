"""The one error type the store raises, so callers (CLI, workers) can print a single line and exit."""


class StoreError(Exception):
    """A store failure with a one-line, human-readable message (bad URL, unreachable database,
    invalid board data, unsupported backend)."""
