"""What every benchmark prints about the machine it ran on (the scripts run as `python bench/X.py`,
so this folder is on the import path)."""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

# Each bench's latest figures, one JSON file per bench, read by bench/report.py.
RESULTS = Path(__file__).resolve().parent / "results"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def run_header() -> str:
    """The command as run (`.venv/bin/python bench/X.py ARGS`) and the machine line: CPU, cores,
    Python, the time in UTC and the load average, Markdown ready."""
    command = f"`{command_line()}`"
    return (f"{command}\n\n{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.1f} at the start\n")


def machine() -> dict[str, object]:
    """The machine a figure was measured on, for a result file."""
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version()}


def write_result(name: str, tables: list[dict[str, object]], *, notes: list[str] | None = None,
                 load_at_start: float | None = None) -> Path:
    """Write bench/results/<name>.json, the figures `make bench-report` puts into BENCHMARKS.md.

    Each table is {"title": str, "columns": [str, ...], "rows": [[cell, ...], ...]} with cells that are
    already what a reader should see (strings or numbers). The file also records the command as run,
    the commit, the machine, the time and the load average, so a figure always travels with its
    command."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    result = {
        "name": name,
        "command": command_line(),
        "commit": current_commit(),
        "machine": machine(),
        "when": f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC",
        "load": [round(x, 1) for x in os.getloadavg()] if load_at_start is None else [round(load_at_start, 1)],
        "tables": tables,
        "notes": notes or [],
    }
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return path


def markdown_row(cells: list[object]) -> str:
    """One Markdown table row, as the benches print their tables while they run."""
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def markdown_head(columns: list[str]) -> str:
    """A Markdown table's header and rule, from the same column names its result file gets."""
    return markdown_row(columns) + "\n|" + "---|" * len(columns)


def command_line() -> str:
    """The command as a user types it from the repository's root."""
    return shlex.join([".venv/bin/python", f"bench/{os.path.basename(sys.argv[0])}", *sys.argv[1:]])


def current_commit(root: Path | None = None) -> str:
    """The short hash of HEAD, with "+" when the work tree has changes to tracked files (of this
    repository, or of the checkout at `root`)."""
    root = root or Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=root).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def markdown_tables(text: str) -> list[dict[str, object]]:
    """The Markdown tables in a bench's printed text, as write_result's tables: for a bench that already
    builds its report as Markdown, so the JSON holds exactly the figures it prints. Each table's title
    is the last line of prose above it (or "table N")."""
    tables: list[dict[str, object]] = []
    lines = text.splitlines()
    title, i = "", 0
    while i < len(lines):
        line = lines[i].strip()
        is_head = (line.startswith("|") and i + 1 < len(lines)
                   and set(lines[i + 1].strip().replace("|", "").replace(" ", "")) <= set("-:")
                   and lines[i + 1].strip().startswith("|"))
        if is_head:
            columns = _cells(line)
            rows, i = [], i + 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i].strip()))
                i += 1
            tables.append({"title": title or f"table {len(tables) + 1}", "columns": columns, "rows": rows})
            title = ""
            continue
        if line and not line.startswith("|"):
            title = line.rstrip(":").strip("#* ").strip()
        i += 1
    return tables


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
