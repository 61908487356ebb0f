"""The command line as a newcomer meets it, each case run as the real command: Ctrl-C (a real SIGINT to
the process group), closed pipes, folders for --out, the umask, `list`, `show --no-solution`, text that
shows the puzzle before the solution, words that count from 1, and bad input in one line."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import exported, run

EXE = Path(sys.executable).with_name("puzzlefleet")


def _stored_ids(db_file: Path) -> set[str]:
    with sqlite3.connect(db_file) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM puzzle")}


def _interrupt(env: dict[str, str], jobs: str, signals: int, tmp_path: Path) -> tuple[subprocess.Popen, float, str]:
    """Start a long generate, wait for its first stored board, Ctrl-C its process group `signals`
    times; returns the process, the seconds from the first SIGINT to its end, and its stdout."""
    # PYTHONFAULTHANDLER: a generate that hangs is sent SIGABRT below, and prints every thread's stack.
    # Started with SIGINT ignored, as a shell starts a background job (and some CI runners their
    # steps): Ctrl-C must stop generate all the same.
    proc = subprocess.Popen([str(EXE), "generate", "--game", "starbattle", "--size", "12", "--stars", "2",
                             "--count", "500", "--seed", "5", "--jobs", jobs], env={**env, "PYTHONFAULTHANDLER": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    db_file = Path(env["PUZZLEFLEET_DB"].removeprefix("sqlite:///"))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if db_file.exists() and _stored_ids(db_file):
                break
        except sqlite3.OperationalError:
            pass                                  # the tables are not there yet
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("no board stored in 120 s")
    started = time.monotonic()
    for _ in range(signals):
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.05)
    try:
        out, _err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGABRT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)                           # its stacks written
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)             # its worker processes, which hold its pipes
        out, err = proc.communicate()
        pytest.fail(f"generate did not end 30 s after Ctrl-C; it printed:\n{out}\n{err[-6000:]}")
    took = time.monotonic() - started
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)                    # nothing of the group is left running
    return proc, took, out


@pytest.mark.slow
@pytest.mark.parametrize("jobs, signals", [("2", 1), ("1", 1), ("2", 2)])
def test_ctrl_c_stops_generate_and_keeps_what_it_stored(
        env: dict[str, str], tmp_path: Path, jobs: str, signals: int) -> None:
    """The "within two seconds" of the README and docs/cli.md is measured by bench/bench_interrupt.py;
    here the bound only catches a generate that ignores Ctrl-C (a loaded machine must not fail it)."""
    proc, took, out = _interrupt(env, jobs, signals, tmp_path)
    assert proc.returncode == 130
    assert took < 15, f"took {took:.2f} s"
    stored = _stored_ids(Path(env["PUZZLEFLEET_DB"].removeprefix("sqlite:///")))
    assert f"interrupted: stored {len(stored)} of 500 board(s)" in out
    jobs_line = json.loads(run(env, "jobs", "1", "--json").stdout)
    assert jobs_line["stored"] == len(stored) and jobs_line["state"] == "incomplete"
    assert {board["id"] for board in exported(env)} == stored


@pytest.fixture
def store(env: dict[str, str]) -> dict[str, str]:
    made = run(env, "generate", "--game", "queens", "--size", "8", "--count", "3", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert run(env, "generate", "--game", "sudoku", "--size", "9", "--count", "1", "--seed", "1").returncode == 0
    return env


def test_generate_says_what_it_stored_and_where(env: dict[str, str]) -> None:
    made = run(env, "generate", "--game", "queens", "--size", "8", "--count", "7", "--seed", "2")
    ids = [board["id"] for board in exported(env)]
    stored_line = next(line for line in made.stdout.splitlines() if line.startswith("stored: "))
    shown = stored_line.split()[1:6]     # the first five slots' boards; processes store them in any order
    assert len(set(shown)) == 5 and set(shown) <= set(ids) and "and 2 more (puzzlefleet list --job 1)" in stored_line
    db_file = env["PUZZLEFLEET_DB"].removeprefix("sqlite:///")
    assert f"store: {env['PUZZLEFLEET_DB']} ({db_file})" in made.stdout
    job = run(env, "jobs", "1").stdout                # the run is a job; its acceptance at a glance
    assert re.search(r"^acceptance: 7 of \d+ candidates accepted \(\d+%\)", job, re.M), job
    assert re.search(r"\d+\.\d boards/s\)$", job, re.M), job


def test_generate_draws_a_progress_bar_on_a_terminal_and_nothing_on_a_pipe(env: dict[str, str]) -> None:
    import pty
    main, terminal = pty.openpty()          # stderr a real terminal (it reports no size: 80 x 24 is used)
    exe = Path(sys.executable).with_name("puzzlefleet")
    try:
        made = subprocess.run([str(exe), "generate", "--game", "queens", "--size", "8", "--count", "3", "--seed", "4"],
                              stdout=subprocess.PIPE, stderr=terminal, text=True, env=env, timeout=300)
        os.close(terminal)
        drawn = b""
        while chunk := _read_some(main):
            drawn += chunk
    finally:
        os.close(main)
    text = drawn.decode()
    assert made.returncode == 0 and "3/3 [" in text and "boards/s, rejected " in text, text
    assert text.count("\n") == 1 and "Traceback" not in text           # redrawn in place, one line left
    piped = run(env, "generate", "--game", "queens", "--size", "8", "--count", "2", "--seed", "5")
    assert piped.returncode == 0 and piped.stderr == ""


def _read_some(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:                         # the terminal's other end is closed: all read
        return b""


def test_list_shows_the_newest_boards_with_filters(store: dict[str, str]) -> None:
    listing = run(store, "list")
    lines = listing.stdout.splitlines()
    assert listing.returncode == 0 and lines[0].split()[:7] == ["id", "game", "size", "stars", "band", "style", "score"]
    assert [line.split()[1] for line in lines[1:]] == ["sudoku", "queens", "queens", "queens"]
    assert len(run(store, "list", "--game", "queens", "--limit", "2").stdout.splitlines()) == 1 + 2 + 1
    assert [line.split()[1] for line in run(store, "list", "--job", "2").stdout.splitlines()[1:]] == ["sudoku"]
    assert "no boards" in run(store, "list", "--game", "starbattle").stdout
    bad = run(store, "list", "--limit", "0")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1


def test_show_and_text_export_print_the_puzzle_then_the_solution(store: dict[str, str]) -> None:
    board = next(b for b in exported(store) if b["game"] == "queens")
    n = board["rules"]["size"]
    text = run(store, "export", "--game", "queens", "--limit", "1", "--format", "text").stdout.splitlines()
    letters = [" ".join("ABCDEFGH"[label] for label in row) for row in board["regions"]]
    assert text[1:1 + n] == letters                          # the puzzle: every region visible
    assert text[1 + n] == "solution"
    assert sum(line.count("*") for line in text[2 + n:2 + 2 * n]) == n
    hidden = run(store, "show", board["id"], "--no-solution").stdout
    assert "*" not in hidden and "solution" not in hidden and "difficulty" not in hidden
    assert hidden.splitlines()[1:1 + n] == letters
    shown = run({**store, "NO_COLOR": "1"}, "show", board["id"]).stdout
    assert "\x1b[" not in shown and "solution" in shown and "difficulty" in shown


def test_words_count_from_one_and_name_regions_by_letter(store: dict[str, str]) -> None:
    for board in exported(store):
        for step in board["steps"]:
            assert "row 0" not in step["why"] and "column 0" not in step["why"] and "box 0" not in step["why"]
            assert "(0," not in step["why"]
            for unit in step["units"]:
                kind, name = unit.split()
                assert name.isalpha() if kind == "region" else int(name) >= 1


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(store: dict[str, str], tmp_path: Path) -> None:
    board = exported(store)[0]
    (tmp_path / "boards.jsonl").write_text(run(store, "export").stdout)
    for args in (("show", board["id"]), ("export", "--format", "text"), ("export",), ("list",),
                 ("solve", str(tmp_path / "boards.jsonl"), "--explain")):
        pipeline = subprocess.run(f"'{EXE}' {' '.join(args)} | head -c 1 >/dev/null; echo ${{PIPESTATUS[0]}}",
                                  shell=True, executable="/bin/bash", env=store, capture_output=True, text=True)
        assert pipeline.stderr == "" and pipeline.stdout.strip() == "0", (args, pipeline.stderr)


@pytest.mark.slow
def test_out_takes_a_folder_for_every_format_and_leaves_no_temporary_file(
        store: dict[str, str], tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    for fmt, name in (("json", "boards.jsonl"), ("text", "boards.txt"), ("print", "boards.html")):
        result = run(store, "export", "--format", fmt, "--out", str(folder))
        assert result.returncode == 0, result.stderr
        assert (folder / name).stat().st_size > 0
    assert run(store, "export", "--format", "svg", "--out", str(tmp_path / "new") + "/").returncode == 0
    clash = run(store, "export", "--format", "png", "--out", str(folder / "boards.txt"))
    assert clash.returncode == 2 and len(clash.stderr.splitlines()) == 1 and "is a file" in clash.stderr
    unwritable = run(store, "export", "--out", "/proc/no-such-folder/boards.jsonl")
    assert unwritable.returncode == 2 and len(unwritable.stderr.splitlines()) == 1
    assert not [p for p in tmp_path.rglob(".export-*")]


def test_files_are_written_with_the_users_umask(store: dict[str, str], tmp_path: Path) -> None:
    for umask, mode in ((0o022, 0o644), (0o077, 0o600)):
        folder = tmp_path / f"mask{umask:o}"
        subprocess.run(f"umask {umask:o}; '{EXE}' export --format svg --out '{folder}' && "
                       f"'{EXE}' export --out '{folder}/all.jsonl'", shell=True, check=True, env=store)
        modes = {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}
        assert modes == {mode}, (oct(umask), [oct(m) for m in modes])


def test_pzpr_export_skips_games_without_a_url(store: dict[str, str]) -> None:
    result = run(store, "export", "--format", "pzpr")
    assert result.returncode == 0
    assert len(result.stdout.splitlines()) == 3 and all("puzz.link" in line for line in result.stdout.splitlines())
    assert "skipped 1 board(s) with no exact puzz.link form (1: sudoku boards have no puzz.link form)" in result.stderr


def test_every_exported_url_states_its_board_exactly(env: dict[str, str]) -> None:
    """puzz.link URLs go only where they state the puzzle: each one, solved again, is unique; classic-
    diagonal Queens (no such type on puzz.link) is skipped with a note."""
    for args in (("queens", "--size", "8", "--count", "3"), ("queens", "--size", "8", "--diagonals", "--count", "2"),
                 ("starbattle", "--size", "10", "--stars", "2", "--count", "2")):
        assert run(env, "generate", "--game", *args, "--seed", "9").returncode == 0
    urls = run(env, "export", "--format", "pzpr")
    assert urls.returncode == 0 and "2: puzz.link has no Queens with the diagonal rule" in urls.stderr
    assert len(urls.stdout.splitlines()) == 5
    solved = run(env, "solve", "-", stdin=urls.stdout)
    assert solved.returncode == 0
    assert [json.loads(line)["status"] for line in solved.stdout.splitlines()] == ["unique"] * 5


@pytest.mark.parametrize("stdin, message", [
    ("[]", "no boards in the input"),
    ('{"game": "queens", "rules": {"size": 4}, "regions": [[0, 1, 0, 2], [1, 1, 2, 2], [3, 3, 3, 3], '
     '[3, 3, 3, 3]]}', "region A (number 0) is in pieces"),
])
def test_solve_refuses_empty_input_and_split_regions(env: dict[str, str], stdin: str, message: str) -> None:
    result = run(env, "solve", "-", stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr


@pytest.mark.parametrize("day", ["1900-01-01", "2100-01-01", "9999-12-31"])
def test_daily_refuses_dates_outside_a_sane_range(env: dict[str, str], day: str) -> None:
    result = run(env, "daily", "--date", day)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "outside" in result.stderr


def test_help_texts_are_whole_sentences(env: dict[str, str]) -> None:
    top = run(env, "--help").stdout
    assert "Quick start" in top and "Exit codes" in top
    description = top.split("\n\n")[1]
    assert description.rstrip().endswith(".")
    for verb in ("generate", "enqueue", "jobs", "export", "show", "list", "solve", "regrade", "serve", "daily"):
        assert run(env, verb, "--help").returncode == 0
