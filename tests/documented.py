"""The commands the documentation tells a user to run: the shell blocks of README.md and of the pages
in docs/, read the way a shell reads them, so that a test runs a command as the page that documents it
has it (and fails when the page stops having it)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)\s*$")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass(frozen=True)
class Command:
    """One documented command: the variables set before it, its words, and where it is written."""

    env: dict[str, str]
    argv: list[str]
    page: Path
    text: str                      # its words joined again (no variables, no comment)

    def option(self, name: str) -> str:
        """The value of `--name=value` or `--name value` in this command (KeyError when absent)."""
        for i, word in enumerate(self.argv):
            if word.startswith(name + "="):
                return word.split("=", 1)[1]
            if word == name and i + 1 < len(self.argv):
                return self.argv[i + 1]
        raise KeyError(f"{name} is not in {self.text!r} ({self.page.relative_to(ROOT)})")


def pages() -> list[Path]:
    """README.md and every page of the documentation site."""
    return [README, *sorted(DOCS.glob("*.md"))]


def shell_lines(page: Path) -> list[str]:
    """The lines of the page's ```sh blocks, each command whole (a line ending in \\ joined to the next)."""
    return shell_lines_of(page.read_text(encoding="utf-8"))


def shell_lines_of(markdown: str) -> list[str]:
    """`shell_lines` of a piece of Markdown."""
    lines: list[str] = []
    in_shell, pending = False, ""
    for line in markdown.splitlines():
        fence = FENCE.match(line)
        if fence:
            in_shell = not in_shell and fence.group(1) in ("sh", "bash", "shell")
            continue
        if not in_shell:
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    return lines


def commands(page_list: Iterable[Path] | None = None) -> list[Command]:
    """Every command of the shell blocks of these pages (default: all of them), comments dropped."""
    return [command for page in (page_list if page_list is not None else pages())
            for command in commands_of(page.read_text(encoding="utf-8"), page)]


def commands_of(markdown: str, page: Path) -> list[Command]:
    """The commands of the shell blocks of a piece of `page`: a line that only sets variables
    (`key=...`) or holds only a comment is none."""
    found = []
    for line in shell_lines_of(markdown):
        words = shlex.split(line, comments=True)
        env = {}
        while words and ASSIGNMENT.match(words[0]):
            name, value = words.pop(0).split("=", 1)
            env[name] = value
        if words:
            found.append(Command(env, words, page, shlex.join(words)))
    return found


def documented(program: Sequence[str], page: Path | None = None) -> list[Command]:
    """The documented commands that start with these words (`["celery", "-A", "workers", "worker"]`),
    on one page or on any."""
    chosen = commands([page] if page is not None else None)
    return [command for command in chosen if command.argv[:len(program)] == list(program)]


CELERY_WORKER = ("celery", "-A", "workers", "worker")
CELERY_FLOWER = ("celery", "-A", "workers", "flower")
FLEET_PAGE = DOCS / "fleet.md"


def documented_worker(queue: str) -> Command:
    """The worker command docs/fleet.md starts for the queue `queue` (on Redis, with its metrics port)."""
    for command in documented(CELERY_WORKER, FLEET_PAGE):
        if command.option("-Q").split(",")[0] == queue and "PUZZLEFLEET_METRICS_PORT" in command.env:
            return command
    raise LookupError(f"docs/fleet.md starts no worker of queue {queue!r} with a metrics port")


def documented_flower() -> Command:
    """The first Flower command docs/fleet.md gives (on Redis)."""
    flowers = documented(CELERY_FLOWER, FLEET_PAGE)
    if not flowers:
        raise LookupError("docs/fleet.md starts no Flower")
    return flowers[0]
