"""What every benchmark prints about the machine it ran on (the scripts run as `python bench/X.py`,
so this folder is on the import path)."""

from __future__ import annotations

import os
import platform
import sys
from datetime import datetime, timezone


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
    command = f"`.venv/bin/python bench/{os.path.basename(sys.argv[0])} {' '.join(sys.argv[1:])}`".replace(" `", "`")
    return (f"{command}\n\n{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.1f} at the start\n")
