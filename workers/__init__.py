"""The Celery fleet: `celery -A workers worker | beat | flower`.

Thin tasks (validate -> engine -> store) in `workers.tasks`; the app, configured from the environment,
in `workers.celeryapp`; metrics in `workers.metrics`; one slot's work, free of Celery, in `workers.slot`.
`app` is built on first use, so importing `workers.slot` (the embedded run does) needs no Celery."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from celery import Celery

    app: Celery

__all__ = ["app"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from workers.celeryapp import app
        return app
    raise AttributeError(f"module 'workers' has no attribute {name!r}")
