"""Pictures like static bytes: `PUZZLEFLEET_PICTURES_DIR=DIR puzzlefleet serve` writes each board's
puzzle picture once, as DIR/boards/ID.png and ID.svg (the paths of their URLs), and nginx set up as
deploy/nginx/puzzlefleet.conf sends those files from then on without asking the API."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from store.api.http import pictures_dir
from tests.serve_support import nginx_binary, nginx_in_front, serving


def _get(url: str) -> tuple[int, bytes, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read(), {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), {k.lower(): v for k, v in exc.headers.items()}


@pytest.fixture
def pictures() -> Iterator[Path]:
    """A picture folder a static server's workers (another user) can read."""
    folder = Path(tempfile.mkdtemp(prefix="puzzlefleet-pictures-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_pictures_folder_comes_from_the_environment() -> None:
    assert pictures_dir("") is None and pictures_dir("  ") is None
    assert pictures_dir("/srv/pictures") == Path("/srv/pictures")


def test_serve_writes_each_puzzle_picture_once_as_a_file(store_url, queens, pictures) -> None:
    env = {**os.environ, "PUZZLEFLEET_DB": store_url, "PUZZLEFLEET_PICTURES_DIR": str(pictures)}
    with serving(env) as base:
        for kind in ("png", "svg"):
            status, body, headers = _get(f"{base}/boards/{queens['id']}.{kind}")
            assert status == 200 and headers["cache-control"] == "public, max-age=86400"
            kept = pictures / "boards" / f"{queens['id']}.{kind}"
            assert kept.read_bytes() == body and kept.stat().st_mode & 0o044 == 0o044
            assert _get(f"{base}/boards/{queens['id']}.{kind}")[1] == body          # the same bytes again
        assert _get(f"{base}/boards/{queens['id']}.png?solution=1")[0] == 200     # drawn, kept in memory only
        assert _get(f"{base}/boards/0000000000000000.png")[0] == 404
    # Only the two puzzle pictures, no temporary file left behind.
    assert sorted(p.name for p in pictures.rglob("*") if p.is_file()) == sorted(
        [f"{queens['id']}.png", f"{queens['id']}.svg"])


def test_nginx_sends_the_files_without_the_api(store_url, queens, pictures, tmp_path) -> None:
    if nginx_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is required under CI (Debian: nginx-light)")
        pytest.skip("nginx not installed")
    env = {**os.environ, "PUZZLEFLEET_DB": store_url, "PUZZLEFLEET_PICTURES_DIR": str(pictures)}
    board = queens["id"]
    with serving(env) as api, nginx_in_front(api, pictures, tmp_path) as front:
        first = _get(f"{front}/boards/{board}.png")           # drawn by the API, which writes the file
        assert first[0] == 200 and first[2]["content-type"] == "image/png"
        assert _get(f"{front}/boards/{board}.svg")[0] == 200
        assert _get(f"{front}/boards/{board}")[0] == 200         # the JSON, through nginx to the API
        solution = _get(f"{front}/boards/{board}.png?solution=1")
        assert solution[0] == 200 and solution[1] != first[1]
    # The API is stopped: the pictures it wrote are still sent, by nginx alone.
    with nginx_in_front("http://127.0.0.1:1", pictures, tmp_path) as front:
        status, body, headers = _get(f"{front}/boards/{board}.png")
        assert (status, body) == (200, first[1])
        assert headers["content-type"] == "image/png" and headers["cache-control"] == "public, max-age=86400"
        assert _get(f"{front}/boards/{board}.svg")[0] == 200
        assert _get(f"{front}/boards/{board}")[0] == 502                  # JSON needs the API
        assert _get(f"{front}/boards/{board}.png?solution=1")[0] == 502   # so does a query


def test_a_pictures_folder_that_cannot_be_written_is_one_line(store_url, tmp_path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {**os.environ, "PUZZLEFLEET_DB": store_url, "PUZZLEFLEET_PICTURES_DIR": str(blocker)}
    out = subprocess.run([str(Path(sys.executable).with_name("puzzlefleet")), "serve", "--port", "1"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == f"puzzlefleet: error: PUZZLEFLEET_PICTURES_DIR={blocker}: cannot write pictures there (Not a directory)"
