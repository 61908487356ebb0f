"""`puzzlefleet serve` as a real process on a free loopback port, for the tests that need a server:
started, waited for (/health), and always stopped, by its own pid."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(env: dict[str, str]) -> Iterator[str]:
    """The base URL of a `puzzlefleet serve` started with `env`, stopped on exit."""
    port = free_port()
    exe = Path(sys.executable).with_name("puzzlefleet")
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--no-access-log"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/health", timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"serve exited: {proc.stderr.read().decode()}")
                time.sleep(0.1)
        else:
            pytest.fail("serve did not answer /health")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
