"""Running the `puzzlefleet` command as a real process, shared by the CLI tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("puzzlefleet")
    return subprocess.run([str(exe), *args], input=stdin, capture_output=True, text=True, env=env,
                          timeout=300)


def exported(env: dict[str, str], *args: str) -> list[dict]:
    result = run(env, "export", *args)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]
