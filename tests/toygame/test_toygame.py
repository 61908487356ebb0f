"""A game defined only here (toy_latin) goes end to end: `generate`, `solve`, `export`, the read API, a
fleet worker's task and the player serve it, with nothing outside this folder knowing it exists.

Other processes learn of it the documented way: an installed distribution's entry point in the group
"puzzlefleet.games" (here a `*.dist-info` folder with its entry_points.txt, on PYTHONPATH with this
folder), or PUZZLEFLEET_GAMES=toy_latin; this process registers it with engine.register."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from engine.games import BUILTIN, ENTRY_POINTS, PLUGINS_VARIABLE
import toy_latin
from tests.browser_support import chromium
from tests.serve_support import serving

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
REDIS_URL = os.environ.get("PUZZLEFLEET_TEST_TOY_REDIS", "redis://127.0.0.1:6379/8")


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    engine.register(toy_latin.GAME)
    yield
    engine.unregister("latin")


def installed(folder: Path, entry_points: str) -> dict[str, str]:
    """An environment in which a distribution `toy-latin` is installed in `folder` (its metadata is all
    it needs) with these lines of entry points, beside this folder's modules."""
    dist = folder / "toy_latin-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-latin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\n{entry_points}\n")
    env = {key: value for key, value in os.environ.items() if key != PLUGINS_VARIABLE}
    return {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), str(HERE), os.environ.get("PYTHONPATH")]))}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**installed(tmp_path / "site", "latin = toy_latin"),
            "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'puzzles.db'}"}


LIST_GAMES = ("import sys, engine; engine.game_named('sudoku'); print('toy_latin' in sys.modules);"
              "print(' '.join(engine.names()))")
BUILT_IN = " ".join(module.rsplit(".", 1)[1] for module in BUILTIN)     # the built-in games first, in order


def test_an_installed_distribution_adds_its_game_and_one_built_in_game_loads_alone(env: dict[str, str]) -> None:
    out = subprocess.run([sys.executable, "-c", LIST_GAMES], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.splitlines() == ["False", f"{BUILT_IN} latin"]


def test_the_environment_variable_still_adds_a_game(tmp_path: Path) -> None:
    env = {**installed(tmp_path, ""), PLUGINS_VARIABLE: " toy_latin ,"}
    out = subprocess.run([sys.executable, "-c", LIST_GAMES], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.splitlines() == ["False", f"{BUILT_IN} latin"]


@pytest.mark.parametrize("entry_point, variable, message", [
    ("latin = toy_latin_gone", "", "entry point latin = toy_latin_gone (puzzlefleet.games): cannot load it: "
                                   "No module named 'toy_latin_gone'"),
    ("latin = toy_latin:NOPE", "", "entry point latin = toy_latin:NOPE (puzzlefleet.games): cannot load it: "),
    ("latin = json", "", "entry point latin = json (puzzlefleet.games): exports no Game as GAME (got NoneType)"),
    ("", "toy_latin_gone", "PUZZLEFLEET_GAMES: toy_latin_gone: cannot load it: No module named 'toy_latin_gone'"),
])
def test_a_game_that_cannot_be_loaded_is_one_line(tmp_path: Path, entry_point: str, variable: str, message: str) -> None:
    env = {**installed(tmp_path / "site", entry_point), PLUGINS_VARIABLE: variable,
           "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}"}
    made = cli(env, "generate", "--game", "latin", "--size", "4", "--count", "1")
    assert made.returncode == 2 and made.stdout == ""
    assert made.stderr.startswith(f"puzzlefleet: error: {message}") and made.stderr.count("\n") == 1, made.stderr
    built_in = cli(env, "generate", "--game", "queens", "--size", "6", "--count", "1")   # not loaded: unharmed
    assert built_in.returncode == 0, built_in.stderr


def cli(env: dict[str, str], *args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "puzzlefleet"), *args], input=stdin, capture_output=True, text=True, env=env,
                          timeout=timeout)


def test_the_techniques_are_sound_against_brute_force() -> None:
    """Every step any technique finds, on many random positions, agrees with every solution."""
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        n = rng.choice((4, 5, 6))
        board, _ = toy_latin.GAME.generate(toy_latin.LatinRules(n), rng.randrange(2**31))
        givens = board.givens
        # the board's own position (one answer), and a looser one (usually several)
        loose = list(givens)
        for cell in rng.sample(range(n * n), rng.randrange(0, 3)):
            loose[cell] = "."
        for text in (givens, "".join(loose)):
            solutions = toy_latin.count_solutions(n, text, 200)
            state = toy_latin.LatinState(n, text)
            for _name, _tier, _cost, find in toy_latin.TABLE:
                step = find(state)
                if step is None:
                    continue
                checked += 1
                for x in step.place:
                    assert all(int(s[x // 8]) == x % 8 for s in solutions), step
                for x in step.eliminate:
                    assert all(int(s[x // 8]) != x % 8 for s in solutions), step
    assert checked > 500


def test_generate_solve_export_and_show_from_the_command_line(env: dict[str, str], tmp_path: Path) -> None:
    made = cli(env, "generate", "--game", "latin", "--size", "5", "--count", "3", "--seed", "1", "--jobs", "2")
    assert made.returncode == 0, made.stderr
    assert "accepted 3 of 3" in made.stdout
    exported = cli(env, "export", "--game", "latin")
    boards = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(boards) == 3 and {b["game"] for b in boards} == {"latin"}
    assert all(b["difficulty"]["band"] in toy_latin.BANDS and b["steps"] for b in boards)

    # the same seed gives the same boards, as for every game
    again = dict(env, PUZZLEFLEET_DB=f"sqlite:///{tmp_path / 'again.db'}")
    assert cli(again, "generate", "--game", "latin", "--size", "5", "--count", "3", "--seed", "1").returncode == 0
    assert sorted(json.loads(l)["id"] for l in cli(again, "export").stdout.splitlines()) == sorted(b["id"] for b in boards)

    puzzle = {"game": "latin", "rules": {"size": 5}, "givens": boards[0]["givens"]}
    solved = cli(env, "solve", "-", stdin=json.dumps(puzzle))
    assert solved.returncode == 0, solved.stderr
    out = json.loads(solved.stdout)
    assert out["status"] == "unique" and out["solution"] == boards[0]["solution"] and out["id"] == boards[0]["id"]
    several = cli(env, "solve", "-", stdin=json.dumps({**puzzle, "givens": "." * 25}))
    assert several.returncode == 3 and json.loads(several.stdout)["status"] == "several"
    bad = cli(env, "solve", "-", stdin=json.dumps({**puzzle, "givens": "9" * 25}))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "givens" in bad.stderr

    text = cli(env, "export", "--game", "latin", "--limit", "1", "--format", "text")
    assert text.returncode == 0 and text.stdout.startswith(f"# {boards[0]['id']} latin 5x5")
    folder = tmp_path / "pictures"
    for fmt in ("svg", "png"):
        assert cli(env, "export", "--game", "latin", "--format", fmt, "--out", str(folder)).returncode == 0
    assert len(list(folder.glob("*-puzzle.svg"))) == 3 and len(list(folder.glob("*-solution.png"))) == 3
    page = cli(env, "export", "--game", "latin", "--format", "print")
    assert page.returncode == 0 and "Latin square 5×5" in page.stdout and "symbols 1 to 5" in page.stdout
    pzpr = cli(env, "export", "--game", "latin", "--format", "pzpr")
    assert pzpr.returncode == 0 and pzpr.stdout == "" and "skipped 3 board(s) with no exact puzz.link form" in pzpr.stderr
    show = cli(env, "show", boards[0]["id"])
    assert show.returncode == 0 and "latin 5x5" in show.stdout


def test_the_read_api_serves_it(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    import store
    from store.api import create_app
    db = store.make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    store.init_db(db)
    board, _ = toy_latin.GAME.generate(toy_latin.LatinRules(4), 7)
    with store.session(db) as s:
        assert store.save_board(session=s, data=board.to_json(), fingerprint=board.fingerprint)
    with TestClient(create_app(db=db)) as client:
        listing = client.get("/boards", params={"game": "latin"}).json()
        assert [b["id"] for b in listing["boards"]] == [board.id]
        # the read API's schema names the new game among the games a listing takes
        parameters = client.get("/openapi.json").json()["paths"]["/boards"]["get"]["parameters"]
        assert "latin" in next(p for p in parameters if p["name"] == "game")["schema"]["anyOf"][0]["enum"]
        assert client.get(f"/boards/{board.id}").json()["givens"] == board.givens
        svg = client.get(f"/boards/{board.id}.svg", params={"solution": 1}).text
        assert svg.count('<text class="digit') == 16
        assert client.get(f"/boards/{board.id}.png").content.startswith(b"\x89PNG")
        assert client.get(f"/boards/{board.id}.pzpr").status_code == 404     # puzz.link has no Latin squares
        assert "Latin square 4×4" in client.get(f"/boards/{board.id}/print").text
        assert '"mode":"digits"' in client.get(f"/play/{board.id}").text
        schema = client.get("/schema/board.json").json()
        assert "LatinBoardModel" in json.dumps(schema)
    db.dispose()


def test_a_fleet_worker_makes_it(env: dict[str, str], tmp_path: Path) -> None:
    try:
        import redis
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).flushdb()
    except Exception as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is required under CI: {exc}")
        pytest.skip(f"no Redis: {exc}")
    fleet_env = {**env, "PUZZLEFLEET_BROKER": REDIS_URL, "PYTHONUNBUFFERED": "1"}
    log = open(tmp_path / "worker.log", "w")
    worker = subprocess.Popen([str(BIN / "celery"), "-A", "workers", "worker", "-Q", "latin,fleet", "-c", "1",
                               "-n", f"latin-{os.getpid()}@%h", "-l", "info"], env=fleet_env, cwd=tmp_path,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        sent = cli(fleet_env, "enqueue", "--game", "latin", "--size", "4", "--count", "4", "--seed", "3",
                   "--wait", "--json", timeout=180)
        assert sent.returncode == 0, sent.stderr + (tmp_path / "worker.log").read_text()[-3000:]
        status = json.loads(sent.stdout.splitlines()[-1])
        assert status["state"] == "done" and status["stored"] == 4
        boards = cli(fleet_env, "export", "--job", str(status["job"])).stdout.splitlines()
        embedded = dict(env, PUZZLEFLEET_DB=f"sqlite:///{tmp_path / 'embedded.db'}")
        assert cli(embedded, "generate", "--game", "latin", "--size", "4", "--count", "4", "--seed", "3").returncode == 0
        assert (sorted(json.loads(b)["id"] for b in boards)
                == sorted(json.loads(b)["id"] for b in cli(embedded, "export").stdout.splitlines()))
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        log.close()
        redis.Redis.from_url(REDIS_URL).flushdb()


@pytest.fixture
def browser() -> Iterator[object]:
    driver = chromium()
    yield driver
    driver.quit()


def test_the_player_plays_it_in_chromium(env: dict[str, str], browser: object, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    assert cli(env, "generate", "--game", "latin", "--size", "4", "--count", "1", "--seed", "9").returncode == 0
    board = json.loads(cli(env, "export").stdout)
    with serving(env) as base:
        browser.get(f"{base}/play/{board['id']}")                              # type: ignore[attr-defined]
        cells = browser.find_elements(By.CSS_SELECTOR, "#grid .cell")          # type: ignore[attr-defined]
        assert len(cells) == 16
        empty = [i for i, ch in enumerate(board["givens"]) if ch == "."]
        wrong = str(int(board["solution"][empty[0]]) % 4 + 1)
        grid = browser.find_element(By.ID, "grid")                             # type: ignore[attr-defined]
        cells[empty[0]].click()
        grid.send_keys(wrong)
        browser.find_element(By.ID, "check").click()                           # type: ignore[attr-defined]
        assert "wrong" in cells[empty[0]].get_attribute("class")
        for i in empty:
            cells[i].click()
            grid.send_keys(board["solution"][i])
        WebDriverWait(browser, 5).until(lambda d: "Solved" in d.find_element(By.ID, "status").text)
        assert re.search(r"Latin square 4×4", browser.title)                   # type: ignore[attr-defined]
        shot = tmp_path / "latin.png"
        assert browser.save_screenshot(str(shot))                              # type: ignore[attr-defined]
