"""A worker survives a malformed message on its queue.

kombu's Redis transport decodes each message it pops with one `loads` and hands the result on; a
payload that is not a kombu envelope (`LPUSH queens 'not json'`, or JSON of another shape) raised out
of the worker's event loop and stopped the worker ("Unrecoverable error: JSONDecodeError"). The
transport's `loads` is wrapped here: such a payload, already popped, is dropped with one log line and
counted (`puzzlefleet_malformed_messages_total{reason}`: not-json, not-a-task), and the transport carries on as if the queue had been
empty. Lists (kombu's own bookkeeping of unacknowledged messages) pass unchanged."""

from __future__ import annotations

import logging
from collections.abc import Callable
from queue import Empty
from typing import Any

log = logging.getLogger("puzzlefleet.malformed")


def tolerant(loads: Callable[[Any], Any], dropped: Callable[[str], None]) -> Callable[[Any], Any]:
    def load(text: Any) -> Any:
        try:
            value = loads(text)
        except ValueError as exc:
            reason, detail = "not-json", str(exc)
        else:
            if isinstance(value, list) or (isinstance(value, dict) and "body" in value
                                           and isinstance(value.get("properties"), dict)):
                return value
            reason, detail = "not-a-task", "JSON, but not a task message"
        log.error("dropped a malformed message (%s): %.80r", detail, text)
        dropped(reason)
        raise Empty()
    load.__wrapped__ = loads                      # type: ignore[attr-defined]
    return load


def install(dropped: Callable[[str], None]) -> None:
    """Wrap the Redis transport's decoder (once per process)."""
    from kombu.transport import redis as transport
    if not hasattr(transport.loads, "__wrapped__"):
        transport.loads = tolerant(transport.loads, dropped)
