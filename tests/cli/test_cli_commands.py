"""The `puzzlefleet` command run as a real process against a fresh SQLite store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import exported, run

from engine.games.starbattle import Board, Rules
from engine.games.starbattle.reference import reference_solutions

KNOWN_URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"   # pzprjs test board, one solution


def _by_id(boards: list[dict]) -> list[dict]:
    return sorted(boards, key=lambda board: board["id"])


def test_generate_stores_unique_boards_reproducibly(env, tmp_path):
    result = run(env, "generate", "--game", "queens", "--size", "7", "--count", "6", "--seed", "5",
                 "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert "accepted 6 of 6" in result.stdout
    boards = exported(env)
    assert len(boards) == 6
    for data in boards:
        board = Board.from_json(data)
        # an independent re-check: the plain reference counter finds the stored answer alone
        assert reference_solutions(board.rules, board.regions, 2) == [board.solution]
    other = {**env, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'q.db'}"}
    assert run(other, "generate", "--game", "queens", "--size", "7", "--count", "6", "--seed", "5", "--jobs", "1")\
        .returncode == 0
    assert {b["id"] for b in exported(other)} == {b["id"] for b in boards}


def test_generate_takes_every_core_it_may_run_on_by_default(env):
    """Without --jobs a run has one process per core it may run on (a run pinned with taskset, one), and
    never more processes than boards; the help says the default."""
    cores = len(os.sched_getaffinity(0))
    result = run(env, "generate", "--game", "queens", "--size", "6", "--count", "3", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert f"(seed 2, {min(cores, 3)} process(es))" in result.stdout
    exe = Path(sys.executable).with_name("puzzlefleet")
    pinned = subprocess.run(["taskset", "-c", str(min(os.sched_getaffinity(0))), str(exe), "generate", "--game",
                             "queens", "--size", "6", "--count", "3", "--seed", "2"],
                            capture_output=True, text=True, env=env, timeout=300)
    assert pinned.returncode == 0, pinned.stderr
    assert "(seed 2, 1 process(es))" in pinned.stdout and "accepted 3 of 3" in pinned.stdout
    assert f"default: {cores}, the cores" in " ".join(run(env, "generate", "--help").stdout.split())


@pytest.mark.parametrize("jobs, message", [("0", "0 is out of range 1..256"), ("257", "257 is out of range 1..256"),
                                           ("two", "'two' is not a whole number")])
def test_generate_refuses_a_bad_process_count_in_one_line(env, jobs, message):
    result = run(env, "generate", "--game", "queens", "--size", "6", "--count", "2", "--jobs", jobs)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == f"puzzlefleet: error: argument --jobs: {message}"
    assert "Traceback" not in result.stderr


def test_a_second_run_with_the_same_seed_adds_new_boards_not_duplicates(env):
    for _ in range(2):
        result = run(env, "generate", "--game", "starbattle", "--size", "8", "--stars", "2",
                     "--count", "3", "--seed", "11")
        assert result.returncode == 0, result.stderr
    boards = exported(env)
    assert len(boards) == 6 and len({b["id"] for b in boards}) == 6
    assert "duplicate 3" in result.stdout


def test_generate_with_a_style_stores_and_shows_it_and_listings_filter_on_it(env):
    """`--style` draws the boards in that style; every styled board names its style, the default's too
    (in `style` and `generation.style`), and `list`/`export --style` select by it."""
    from engine import game_named
    runs = [("--style", "composed", "--count", "2"), ("--style", "organic"), ()]
    for extra in runs:
        result = run(env, "generate", "--game", "queens", "--size", "8", "--seed", "4", *extra)
        assert result.returncode == 0, result.stderr
    boards = exported(env)                                  # oldest first
    default = game_named("queens").styles(Rules(8))[0]      # what the run without --style drew in
    assert [(b["style"], b["generation"]["style"]) for b in boards] == [
        ("composed", "composed"), ("composed", "composed"), ("organic", "organic"), (default, default)]
    assert all(isinstance(b["generation"]["style_score"], int) for b in boards)
    assert exported(env, "--style", "organic") == [b for b in boards if b["style"] == "organic"]
    # the run's two processes may store its boards in either order
    assert _by_id(exported(env, "--style", "composed", "--job", "1")) == _by_id(boards[:2])
    assert exported(env, "--style", "organic", "--job", "1") == []
    listing = run(env, "list", "--style", "composed").stdout.splitlines()
    assert listing[0].split()[5] == "style"
    assert sorted(line.split()[0] for line in listing[1:]) == sorted(b["id"] for b in boards
                                                                       if b["style"] == "composed")
    assert all(line.split()[5] == "composed" for line in listing[1:])
    assert "match" in run(env, "list", "--style", "composed", "--size", "9").stdout
    shown = run(env, "show", boards[0]["id"])
    assert shown.returncode == 0 and "; style composed" in shown.stdout


def test_generate_says_the_style_it_was_asked_for(env):
    result = run(env, "generate", "--game", "queens", "--size", "6", "--seed", "2", "--style", "composed")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("generating 1 x queens 6, style composed (seed 2")


@pytest.mark.slow
def test_export_formats_and_show(env, tmp_path):
    assert run(env, "generate", "--game", "queens", "--size", "8", "--diagonals", "--seed", "3")\
        .returncode == 0
    (data,) = exported(env, "--game", "queens", "--size", "8")
    assert data["rules"] == {"size": 8, "stars": 1, "diagonals": True}
    text = run(env, "export", "--format", "text").stdout
    assert text.startswith(f"# {data['id']} queens 8x8") and text.count("*") == 8
    pzpr = run(env, "export", "--format", "pzpr")       # puzz.link has no diagonal rule: none exported
    assert pzpr.returncode == 0 and pzpr.stdout == "" and "diagonal rule" in pzpr.stderr
    out = tmp_path / "boards.jsonl"
    assert run(env, "export", "--out", str(out)).returncode == 0
    assert json.loads(out.read_text()) == data
    shown = run(env, "show", data["id"])
    assert shown.returncode == 0 and data["id"] in shown.stdout
    assert run(env, "export", "--game", "starbattle").stdout == ""


@pytest.mark.slow
def test_band_solve_explain_show_and_regrade(env, tmp_path):
    result = run(env, "generate", "--game", "starbattle", "--size", "10", "--band", "medium", "--count", "2",
                 "--seed", "8")
    assert result.returncode == 0, result.stderr
    boards = exported(env)
    assert [b["difficulty"]["band"] for b in boards] == ["medium", "medium"]
    board = boards[0]
    # a stored board clears the generator's own fun gate and says so when solved
    assert board["steps"] and board["engine_version"]
    # solve re-grades an external copy to the same measurement and can explain it in words
    bare = {key: board[key] for key in ("game", "rules", "regions")}
    solved = run(env, "solve", "--explain", "-", stdin=json.dumps(bare))
    assert solved.returncode == 0, solved.stderr
    first, *words = solved.stdout.splitlines()
    again = json.loads(first)
    assert again["difficulty"] == board["difficulty"] and again["steps"] == board["steps"]
    assert again["gates"] == {"fun": True, "shape": True}
    assert words[0].startswith("difficulty medium") and len(words) == 1 + len(board["steps"])
    shown = run(env, "show", board["id"])
    assert shown.returncode == 0 and board["steps"][0]["why"] in shown.stdout
    # a board graded by an older engine is re-graded, and only it
    import sqlite3
    db = sqlite3.connect(env["PUZZLEFLEET_DB"].removeprefix("sqlite:///"))
    stale = {**board, "engine_version": "0.0.1", "steps": [], "difficulty": {"band": "easy", "score": 1}}
    db.execute("update puzzle set engine_version='0.0.1', band='easy', data=? where id=?",
               (json.dumps(stale), board["id"]))
    db.commit()
    db.close()
    regraded = run(env, "regrade")
    assert regraded.returncode == 0 and "regraded 1 board" in regraded.stdout
    assert {b["id"]: b for b in exported(env)}[board["id"]]["steps"] == board["steps"]
    assert exported(env, "--band", "medium") and "regraded 0 board" in run(env, "regrade").stdout


def test_solve_reports_unique_several_and_none(env):
    unique = run(env, "solve", "-", stdin=KNOWN_URL + "\n")
    assert unique.returncode == 0, unique.stderr
    line = json.loads(unique.stdout)
    assert line["status"] == "unique" and len(line["solution"]) == 6
    rows = {"game": "queens", "rules": {"size": 5}, "regions": [[r] * 5 for r in range(5)]}
    several = run(env, "solve", "-", stdin=json.dumps(rows))
    assert several.returncode == 3 and json.loads(several.stdout)["status"] == "several"
    # 5x5, region 0 is the top-left 2x2 block plus nothing else that can hold a star with the others
    none = {"game": "queens", "rules": {"size": 4},
            "regions": [[0, 0, 0, 0], [0, 1, 1, 0], [0, 2, 3, 0], [0, 0, 0, 0]]}
    assert not reference_solutions(Rules(4), [x for row in none["regions"] for x in row], 2)
    result = run(env, "solve", "-", stdin=json.dumps(none))
    assert result.returncode == 4 and json.loads(result.stdout)["status"] == "none"
    both = run(env, "solve", "-", stdin=KNOWN_URL + "\n" + json.dumps(rows) + "\n")
    assert both.returncode == 3 and len(both.stdout.splitlines()) == 2


@pytest.mark.parametrize("args, message", [
    (["generate", "--game", "queens", "--size", "0"], "queens offers sizes 4–20, not 0"),
    (["generate", "--game", "queens", "--size", "99"], "queens offers sizes 4–20, not 99"),
    (["generate", "--game", "queens", "--size", "3"], "queens offers sizes 4–20, not 3"),
    (["generate", "--game", "starbattle", "--size", "6", "--stars", "2"], "starbattle offers sizes 8–16, not 6"),
    (["generate", "--game", "starbattle", "--size", "10", "--stars", "4"], "stars must be"),
    (["generate", "--game", "queens", "--size", "8", "--stars", "2"], "1 star"),
    (["generate", "--game", "starbattle", "--size", "10", "--diagonals"], "diagonal"),
    (["generate", "--game", "chess", "--size", "8"], "invalid choice"),
    (["generate", "--game", "queens", "--size", "eight"], "not a whole number"),
    (["generate", "--game", "queens", "--size", "8", "--count", "0"], "out of range"),
    (["generate", "--game", "queens", "--size", "8", "--seed", "-1"], "seed"),
    (["generate", "--game", "queens", "--size", "8", "--band", "legendary"], "invalid choice"),
    (["generate", "--game", "queens", "--size", "8", "--timeout", "0"], "timeout"),
    (["generate", "--game", "queens", "--size", "8", "--style", "cubist"], "invalid choice"),
    (["generate", "--game", "starbattle", "--size", "10", "--stars", "2", "--style", "composed"],
     "no drawing style 'composed' for starbattle 10 2"),
    (["generate", "--game", "sudoku", "--size", "9", "--style", "organic"], "sudoku has no drawing styles"),
    (["list", "--style", "cubist"], "invalid choice"),
    (["list", "--game", "sudoku", "--style", "organic"], "draws no boards of game sudoku"),
    (["export", "--game", "starbattle", "--style", "composed"], "draws no boards of game starbattle"),
    (["export", "--format", "bmp"], "invalid choice"),
    (["export", "--out", "/nonexistent/dir/x.json"], "cannot write"),
    (["solve", "/nonexistent/file.json"], "cannot read"),
    ([], "required"),
])
def test_bad_input_gets_one_line_and_exit_2(env, args, message):
    result = run(env, *args)
    assert result.returncode == 2
    assert result.stdout == "" or "generating" not in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr


@pytest.mark.parametrize("stdin, message", [
    ("", "no boards"),
    ("{not json\n", "malformed JSON"),
    ('{"game": "queens", "rules": {"size": 5}, "regions": [[0]]}', "5 rows of 5"),
    ('{"game": "queens", "rules": {"size": 4}, "regions": [[0,0,0,0],[1,1,1,1],[2,2,2,2],[2,2,2,9]]}',
     "0..3"),
    ('{"game": "queens", "rules": {"size": 4}, "regions": [[0,0,0,0],[1,1,1,1],[2,2,2,2],[2,2,2,2]]}',
     "needs all 4 regions"),
    ('{"game": "queens", "rules": {"size": 99}, "regions": []}', "out of range"),
    ('{"game": "go", "rules": {"size": 9}, "regions": []}', "unknown game 'go'"),
    ("https://puzz.link/p?starbattle/6/6/1/4ilbhg\n", "border data"),
    ("https://puzz.link/p?starbattle/6/5/1/4ilbhgdnmhou\n", "square"),
    ("hello\n", "expected a JSON board"),
    ("55" + "." * 79 + "\n", "appears twice"),
    ("[1, 2]", "JSON object"),
])
def test_solve_refuses_bad_boards_with_one_line(env, stdin, message):
    result = run(env, "solve", "-", stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_a_bad_database_url_is_one_line(env):
    result = run({**env, "PUZZLEFLEET_DB": "mysql://nobody@127.0.0.1/x"}, "export")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_solve_file_reports_the_generator_gates(env, tmp_path):
    """docs/cli.md's `puzzlefleet solve FILE`: per unique board, whether the generator's gates (the
    game's own, as `generate` applies them) would keep it; a published board passes, a drawing with
    three gift cells fails the shape gate."""
    from engine.games.starbattle.generator import Settings, generate

    sample = Path(__file__).parents[1] / "data" / "starbattle_calibration_sample.jsonl"
    published = json.loads(sample.read_text().splitlines()[0])
    ugly, _ = generate(Rules(8), 3, style="organic", settings=Settings(min_fun=0, min_shape=0, gifts=3))
    boards = tmp_path / "boards.jsonl"
    board = {key: published[key] for key in ("game", "rules", "regions")}     # its id is the site's own
    boards.write_text(json.dumps(board) + "\n" + json.dumps(
        {"game": "queens", "rules": {"size": 8}, "regions": ugly.region_rows()}) + "\n")
    result = run(env, "solve", str(boards))
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["gates"] == {"fun": True, "shape": True}
    assert second["gates"]["shape"] is False and second["shape"]["gifts"] >= 3


def test_the_installed_command_collects_garbage_while_a_verb_works(monkeypatch):
    """console() turns the collector off for start-up only: a verb runs with it on (a long
    `generate` or `serve` must not grow without bound), and main() as a library call leaves the
    caller's collector as it found it."""
    import gc

    from puzzlefleet import cli, verbs
    seen: list[tuple[bool, int]] = []
    monkeypatch.setitem(verbs.COMMANDS, "show", lambda args: seen.append((gc.isenabled(), gc.get_freeze_count())) or 0)
    monkeypatch.setattr(sys, "argv", ["puzzlefleet", "show", "0123456789abcdef"])
    frozen = gc.get_freeze_count()
    try:
        assert cli.console() == 0
        assert seen[0][0] and seen[0][1] > frozen     # on, past the start-up objects frozen out of its walks
        # A library call freezes nothing: a freeze would add every tracked object to the frozen count,
        # while frozen objects whose last reference goes (the first call's own) only take it down.
        before = gc.get_freeze_count()
        assert cli.main(["show", "0123456789abcdef"]) == 0
        assert seen[1][0] and seen[1][1] <= before
    finally:
        gc.unfreeze()
        gc.enable()
    assert Path(sys.executable).with_name("puzzlefleet").read_text().count("console()") == 1
