"""Typed errors: bad input is a ValueError subclass with a one-line message fit for a user."""


class PuzzleError(ValueError):
    """Base of every error caused by bad input to the engine."""


class InvalidRules(PuzzleError):
    """Rules no board can have (a size with no valid layout, too many stars, an unknown game)."""


class InvalidBoard(PuzzleError):
    """A board whose text or shape is malformed."""


class DeadlineExceeded(Exception):
    """The engine's own deadline passed (compiled loops do not see Celery's soft time limit)."""
