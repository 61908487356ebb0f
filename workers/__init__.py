"""The Celery fleet: `celery -A workers worker | beat | flower`.

Thin tasks (the work of `jobs`, its faults retried) in `workers.tasks`; the app, configured from the
environment, in `workers.celeryapp`; metrics in `workers.metrics`. `app` is built on first use."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from celery import Celery

    app: Celery

__all__ = ["app"]


def __getattr__(name: str) -> Any:
    if name == "app":
        # `celery -A workers worker|beat|flower` asks for this first: a bad setting stops the process
        # with one line and exit 2, as `enqueue` says it, not with Celery's traceback of the import.
        from workers.settings import ConfigError, settings
        try:
            settings()
        except ConfigError as exc:
            print(f"puzzlefleet: error: {exc}", file=sys.stderr, flush=True)
            raise SystemExit(2) from None
        from workers.celeryapp import app
        return app
    raise AttributeError(f"module 'workers' has no attribute {name!r}")
