"""`puzzlefleet serve` as a real process on a free loopback port, for the tests that need a server:
started, waited for (/health), and always stopped, by its own pid; and nginx in front of it as
deploy/nginx/puzzlefleet.conf sets it up (bench/bench_api.py uses it too)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX_SITE = ROOT / "deploy" / "nginx" / "puzzlefleet.conf"

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(env: dict[str, str], *args: str) -> Iterator[str]:
    """The base URL of a `puzzlefleet serve` started with `env` (and `args`), stopped on exit."""
    port = free_port()
    exe = Path(sys.executable).with_name("puzzlefleet")
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--no-access-log", *args], env=env,
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


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


@contextmanager
def nginx_in_front(api_base: str, pictures: Path, folder: Path) -> Iterator[str]:
    """The base URL of an nginx running deploy/nginx/puzzlefleet.conf, pointed at the API at
    `api_base` and the picture folder `pictures` (which its workers must be able to read), with its
    pid, logs and temporary files in `folder`; stopped on exit."""
    binary = nginx_binary()
    assert binary is not None, "nginx is not installed"
    port = free_port()
    site = NGINX_SITE.read_text()
    for old, new in (("127.0.0.1:8000", api_base.removeprefix("http://")), ("listen 80;", f"listen 127.0.0.1:{port};"),
                     ("/var/lib/puzzlefleet/pictures", str(pictures))):
        assert old in site, f"{NGINX_SITE} no longer says {old!r}"
        site = site.replace(old, new)
    temp = " ".join(f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = folder / "nginx.conf"
    conf.write_text(f"worker_processes 1; daemon off; pid {folder}/nginx.pid; error_log {folder}/nginx-error.log;\n"
                    "events { worker_connections 1024; }\n"
                    f"http {{ access_log off; sendfile on; types {{ image/png png; image/svg+xml svg; }} {temp}\n"
                    f"{site}\n}}\n")
    proc = subprocess.Popen([binary, "-p", str(folder), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError(f"nginx exited: {proc.stderr.read().decode()}")
                time.sleep(0.05)
        else:
            raise AssertionError("nginx did not listen")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()            # nginx: a fast shutdown
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
