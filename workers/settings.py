"""The fleet's settings, read from the environment once, checked, with one-line errors.

Each field reads the variable PUZZLEFLEET_ + its name in capitals, or its alias; docs/fleet.md holds
the table of every variable, its meaning and its default.

Recovery rests on the brokers' own redelivery of unacknowledged messages (tasks ack late): a dead
worker's messages come back on RabbitMQ as soon as its connection closes, on Redis once the visibility
timeout has passed since it took them. So on Redis a live worker must finish what it took within the
visibility timeout: a task's hard limit, and the countdown of a retry (which waits in the worker that
received it), fit under it, which the settings check.

pydantic-settings reads them (an empty variable, or one of spaces, counts as unset); `load` turns its
first error into one line naming the variable, never with the broker URL in it.
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticUseDefault
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:
    from jobs.daily import PlanEntry

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
# kombu's URL schemes for the two brokers the fleet supports.
REDIS_SCHEMES = frozenset({"redis", "rediss", "redis+socket", "sentinel"})
AMQP_SCHEMES = frozenset({"amqp", "amqps", "pyamqp"})
PREFIX = "PUZZLEFLEET_"

Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
RETRY_BACKOFF_MAX = 10
DEFAULT_TIME_LIMIT = 30.0
HOLD_MARGIN = 5.0           # seconds of the visibility timeout and stall time past a task's longest hold
Count = Annotated[int, Field(gt=0)]


class ConfigError(ValueError):
    """A bad environment setting, with a one-line message."""


def broker_kind(url: str) -> str:
    """"redis" or "amqp" (RabbitMQ), by the URL's scheme; ConfigError for anything else."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in REDIS_SCHEMES:
        return "redis"
    if scheme in AMQP_SCHEMES:
        return "amqp"
    shown = f"a {scheme}:// URL" if scheme else "no URL"       # never the URL itself: it may hold a password
    raise ConfigError(f"PUZZLEFLEET_BROKER must be a redis:// (Redis) or amqp:// (RabbitMQ) URL, got {shown}")


class Settings(BaseSettings):
    """The fleet's settings. A `given_` field is None when its variable is unset: its property
    (`time_limit`, ...) then derives the value from the others."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, frozen=True, extra="ignore")

    broker: str = Field(DEFAULT_BROKER, repr=False)     # the URL may hold a password
    given_visibility_timeout: Seconds | None = Field(None, validation_alias=PREFIX + "VISIBILITY_TIMEOUT")
    given_time_limit: Seconds | None = Field(None, validation_alias=PREFIX + "TIME_LIMIT")
    given_soft_time_limit: Seconds | None = Field(None, validation_alias=PREFIX + "SOFT_TIME_LIMIT")
    max_tasks_per_child: Count = 1000
    metrics_port: Count | None = None
    metrics_addr: str = "127.0.0.1"
    given_multiproc_dir: str | None = Field(None, validation_alias="PROMETHEUS_MULTIPROC_DIR")
    resume_interval: Seconds = 10.0
    given_stall_seconds: Seconds | None = Field(None, validation_alias=PREFIX + "STALL_SECONDS")
    resend_slots: Count = 1000
    # The longest retry delay, in whole seconds as Celery's backoff counts: a task waiting out a store
    # outage tries again within that of its return, and a retry's countdown (which waits in the worker
    # that received it, on Redis) fits with the hard limit under the visibility timeout.
    retry_backoff_max: Count = RETRY_BACKOFF_MAX
    split_seconds: Seconds = 2.0
    job_metrics_seconds: Seconds = 3600.0
    # the plan's text as given, or the content of the file the variable names (read once, at start)
    given_daily_plan: str | None = Field(None, validation_alias=PREFIX + "DAILY_PLAN")

    @field_validator("*", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        # A variable set to spaces counts as unset, as an empty one does.
        if isinstance(value, str):
            value = value.strip()
            if not value:
                raise PydanticUseDefault()
        return value

    @field_validator("broker")
    @classmethod
    def _known_broker(cls, url: str) -> str:
        broker_kind(url)
        return url

    @field_validator("metrics_port")
    @classmethod
    def _port_number(cls, port: int | None) -> int | None:
        if port is not None and port > 65535:
            raise ConfigError(f"PUZZLEFLEET_METRICS_PORT must be a port number, got {port}")
        return port

    @field_validator("given_daily_plan")
    @classmethod
    def _usable_plan(cls, value: str | None) -> str | None:
        if value is None:
            return None
        from jobs.daily import PLAN_VARIABLE, PlanError, parse_plan, plan_text    # the engine, only when set
        try:
            text = plan_text(value)
            parse_plan(text)            # every position checked by its game, now
        except PlanError as exc:
            raise ConfigError(f"{PLAN_VARIABLE}: {exc}") from None
        return text

    @model_validator(mode="after")
    def _limits_in_order(self) -> Settings:
        soft, hard = self.soft_time_limit, self.time_limit
        if not soft < hard:
            raise ConfigError(f"the soft time limit ({soft:g} s) must be below the hard one ({hard:g} s)")
        if self.broker_kind == "redis" and self.visibility_timeout < self.longest_hold:
            raise ConfigError(f"PUZZLEFLEET_VISIBILITY_TIMEOUT ({self.visibility_timeout:g} s) must be at least a "
                              f"task's hard time limit plus the longest retry delay ({hard:g} + "
                              f"{self.retry_backoff_max} s): Redis would hand a task still running to a second "
                              f"worker")
        return self

    @property
    def broker_kind(self) -> str:
        """"redis" or "amqp" (RabbitMQ)."""
        return broker_kind(self.broker)

    @property
    def time_limit(self) -> float:
        """A task's hard time limit: by default 30 s, or more when a soft limit given alone would not
        fit below it."""
        if self.given_time_limit is not None:
            return self.given_time_limit
        soft = self.given_soft_time_limit
        hard = DEFAULT_TIME_LIMIT
        return soft + min(60.0, 0.1 * soft) if soft is not None and soft >= hard else hard

    @property
    def soft_time_limit(self) -> float:
        """A task's soft time limit: by default the hard one less 10% (at most 60 s)."""
        if self.given_soft_time_limit is not None:
            return self.given_soft_time_limit
        hard = self.time_limit
        return hard - min(60.0, 0.1 * hard)

    @property
    def longest_hold(self) -> float:
        """The longest a live worker holds a message before it settles it: the task's hard time limit,
        after the countdown of a retry (a retry waits in the worker that received it)."""
        return self.time_limit + self.retry_backoff_max

    @property
    def visibility_timeout(self) -> float:
        """Redis: seconds before a message taken and not acknowledged goes to another worker; by default
        the longest hold plus HOLD_MARGIN."""
        if self.given_visibility_timeout is not None:
            return self.given_visibility_timeout
        return self.longest_hold + HOLD_MARGIN

    @property
    def stall_seconds(self) -> float:
        """Seconds without progress before the sweep looks at a job; by default the longest hold plus
        HOLD_MARGIN: a job whose message a live worker holds shows progress within that."""
        if self.given_stall_seconds is not None:
            return self.given_stall_seconds
        return self.longest_hold + HOLD_MARGIN

    @property
    def daily_plan(self) -> tuple[PlanEntry, ...]:
        """The daily set's positions: the plan given, or every game's own (jobs.daily.default_plan)."""
        from jobs.daily import default_plan, parse_plan
        return default_plan() if self.given_daily_plan is None else parse_plan(self.given_daily_plan)

    @property
    def multiproc_dir(self) -> str | None:
        """prometheus_client's multiprocess directory: by default one per metrics port."""
        if self.given_multiproc_dir is not None or self.metrics_port is None:
            return self.given_multiproc_dir
        return os.path.join(tempfile.gettempdir(), f"puzzlefleet-metrics-{self.metrics_port}")

    @property
    def work_budget(self) -> float:
        """Seconds a task may spend on attempts before it hands the rest of its work to a new task: the
        soft limit less 10%, at least 0.5 s (Celery's own handling of a retry, its traceback included,
        took over 80 ms on a loaded machine, and over 0.25 s with the load at three and a half times
        the cores) and at most 5 s."""
        soft = self.soft_time_limit
        return max(0.1, soft - min(5.0, max(0.5, 0.1 * soft)))


def _variable(location: str) -> str:
    """The variable an error's location names: a field's own name, or the alias it reads."""
    return PREFIX + location.upper() if location in Settings.model_fields else location


def _one_line(error: Any) -> str:
    """The first of pydantic's errors as one line; it never shows the broker URL (it may hold a
    password): only our own checks see that value, and their messages leave it out."""
    if error["type"] == "value_error" and isinstance(error.get("ctx", {}).get("error"), ConfigError):
        return str(error["ctx"]["error"])
    name = _variable(str(error["loc"][0])) if error["loc"] else "the settings"
    text = str(error.get("input", "")).strip()
    if error["type"] in ("float_parsing", "float_type"):
        return f"{name}={text!r} is not a number"
    if error["type"] in ("int_parsing", "int_type", "int_from_float"):
        return f"{name}={text!r} is not a whole number"
    if error["type"] in ("greater_than", "finite_number"):
        return f"{name} must be above 0, got {text}"
    return f"{name}: {error['msg']}"


def load() -> Settings:
    """Read and check the settings now (raises ConfigError)."""
    try:
        return Settings()
    except ValidationError as exc:       # its text would show the values, the broker's password too
        raise ConfigError(_one_line(exc.errors(include_url=False)[0])) from None


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings, read once."""
    return load()
