"""The player page. Served: self-contained HTML (no CDN), a spec per game, the pictures' colouring.
Played in a real headless Chromium the way the README and docs/api.md say (`puzzlefleet generate`,
`puzzlefleet serve`, open /play/ID): Queens, Star Battle, Sudoku and Killer Sudoku each solved on a 390×844 phone by taps alone
and on a 1200×900 desktop by keys alone; drag, auto-×, notes, highlighting, undo/redo, hints, check,
reveal (which locks the board), progress kept across a reload, Malay words, fixed row heights, 44 px
targets and no sideways scrolling; Killer's cage outlines, sums and combinations. Screenshots go to a folder the run prints."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine

from tests.browser_support import chromium, viewport
from tests.serve_support import serving

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _spec(page: str, name: str = "play") -> Any:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_play_page_is_self_contained(client, queens):
    r = client.get(f"/play/{queens['id']}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=\"https?://", page), "no CDN, no remote assets"
    assert "{{" not in page
    play = _spec(page)
    n = queens["rules"]["size"]
    assert play["mode"] == "marks" and play["n"] == n and play["areas"] == queens["regions"]
    stars = {r * n + c for r, c in queens["solution"]}
    assert play["answer"] == ["★" if i in stars else "" for i in range(n * n)]
    assert play["symbols"] == ["×", "★"] and play["notes"] == ["×"]
    assert play["letters"][:3] == ["A", "B", "C"]
    # every step is a hint, eliminations included, with the cells of the units it names
    assert [hint["why"] for hint in play["hints"]] == [step["why"] for step in queens["steps"]]
    for hint, step in zip(play["hints"], queens["steps"]):
        assert hint["place"] == step["place"] and hint["clear"] == step["eliminate"]
        assert len(hint["units"]) == len(step["units"])
        for name, cells in zip(step["units"], hint["units"]):
            kind, which = name.split()
            if kind == "row":
                assert cells == [(int(which) - 1) * n + c for c in range(n)]
            elif kind == "column":
                assert cells == [r * n + int(which) - 1 for r in range(n)]
            else:
                label = ord(which) - ord("A")
                assert cells == [r * n + c for r in range(n) for c in range(n) if queens["regions"][r][c] == label]
    assert client.get("/play/0123456789abcdef").status_code == 404


def test_play_page_for_sudoku_words_sudoku(client):
    from tests.api.conftest import SUDOKU
    page = client.get(f"/play/{SUDOKU['id']}").text
    assert "<title>Sudoku 9×9" in page and "1 to 9" in page and "star" not in page.split("<style>")[0]
    play = _spec(page)
    assert play["mode"] == "digits" and play["symbols"] == list("123456789") and play["rules"]["ms"].startswith("Isi")


def test_player_pictures_and_print_page_share_one_colouring(client, boards):
    from engine.core.regions import touching_areas
    svg_ns = "{http://www.w3.org/2000/svg}"
    import xml.etree.ElementTree as ET
    for board in boards:
        if board["game"] == "sudoku":
            continue
        colours = {int(k): v for k, v in _spec(client.get(f"/play/{board['id']}").text, "colours").items()}
        svg = ET.fromstring(client.get(f"/boards/{board['id']}.svg").text)
        fills = {int(rect.get("data-region")): rect.get("fill") for rect in svg.iter(f"{svg_ns}rect")
                 if rect.get("class") == "cell"}
        assert colours == fills
        printed = ET.fromstring(re.search(r"<svg.*?</svg>", client.get(f"/boards/{board['id']}/print").text, re.S).group(0))
        assert {int(rect.get("data-region")): rect.get("fill") for rect in printed.iter(f"{svg_ns}rect")
                if rect.get("class") == "cell"} == colours
        for label, others in touching_areas(board["regions"]).items():
            assert all(colours[label] != colours[other] for other in others)


# --- in Chromium ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, dict]]]:
    """A store made the way the README and docs/api.md make one, served by `puzzlefleet serve`: the base
    URL and its boards by game."""
    folder = tmp_path_factory.mktemp("player")
    env = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{folder / 'puzzles.db'}"}
    exe = str(Path(sys.executable).with_name("puzzlefleet"))
    made_as = [["--game", "queens", "--size", "8", "--seed", "1"],
               ["--game", "starbattle", "--size", "10", "--stars", "2", "--seed", "5"],
               ["--game", "sudoku", "--size", "9", "--band", "medium", "--seed", "2"]]
    named = {args[1] for args in made_as}
    for game in engine.all_games():          # every other game from its own sample request
        if game.name not in named:
            made_as.append(["--game", game.name, "--seed", "1",
                            *(f"{flag} {value}" for name, value in game.sample_request().items()
                              for flag in ["--" + name.replace("_", "-")])])
    for args in made_as:
        args = [word for arg in args for word in arg.split()]
        made = subprocess.run([exe, "generate", *args, "--count", "1"], env=env, capture_output=True, text=True,
                              timeout=300)
        assert made.returncode == 0, made.stderr
    out = subprocess.run([exe, "export"], env=env, capture_output=True, text=True, timeout=60)
    boards = {data["game"]: data for data in map(json.loads, out.stdout.splitlines())}
    assert set(boards) == set(engine.names())
    with serving(env) as base:
        yield base, boards


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("player-screenshots")
    yield folder
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled():          # shown even when the run passes
        print(f"\nplayer screenshots: {folder}")


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    driver = chromium(390, 844)
    viewport(driver, 390, 844, phone=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def desktop() -> Iterator[Any]:
    driver = chromium(1200, 900)
    viewport(driver, 1200, 900)
    yield driver
    driver.quit()


def _open(driver: Any, base: str, board: dict, query: str = "") -> dict[tuple[int, int], Any]:
    """The board's page with no saved progress; its cells by (row, column) from data-row/data-col."""
    from selenium.webdriver.common.by import By
    driver.get(f"{base}/play/{board['id']}{query}")
    driver.execute_script("localStorage.clear()")
    driver.refresh()
    cells = driver.find_elements(By.CSS_SELECTOR, "#grid .cell")
    n = board["rules"]["size"]
    assert len(cells) == n * n
    return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))): c for c in cells}


def _classes(driver: Any) -> list[set[str]]:
    return [set(names) for names in driver.execute_script(
        "return [...document.querySelectorAll('#grid .cell')].map(c => [...c.classList])")]


def _stars(driver: Any, n: int) -> set[tuple[int, int]]:
    return {divmod(i, n) for i, names in enumerate(_classes(driver)) if "placed" in names}


def _row_heights(driver: Any) -> list[float]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#grid .cell')].map(c => c.getBoundingClientRect().height)")


def _touch(driver: Any, through: list[Any]) -> None:
    """A finger put down on the first element, moved over the others, lifted (Chromium's touch input)."""
    points = [driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                    "return {x: r.x + r.width / 2, y: r.y + r.height / 2};", e) for e in through]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [points[0]]})
    for point in points[1:]:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _wait_solved(driver: Any, how: str = "true") -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "grid").get_attribute("data-solved") == how)


def _fits_a_phone(driver: Any) -> None:
    sizes = driver.execute_script("""
        const visible = [...document.querySelectorAll('button')].filter(b => b.offsetParent);
        return {scroll: document.documentElement.scrollWidth, width: innerWidth,
                small: visible.map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length,
                grid: document.getElementById('grid').getBoundingClientRect().width};""")
    assert sizes["scroll"] <= sizes["width"], "no sideways scrolling"
    assert sizes["small"] == 0, "every button and pad key is at least 44 px"
    assert sizes["grid"] >= sizes["width"] - 16, "the board takes the screen's width"


@pytest.mark.parametrize("game", ["queens", "starbattle"])
def test_star_games_solved_by_taps_on_a_phone(played, phone, shots, game):
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards[game]
    n = board["rules"]["size"]
    cell = _open(phone, base, board)
    _fits_a_phone(phone)
    heights = _row_heights(phone)
    assert max(heights) - min(heights) < 0.05, "all rows are one height (to a layout unit)"
    answer = sorted(map(tuple, board["solution"]))
    first = answer[0]
    cell[first].click()
    assert "mark" in _classes(phone)[first[0] * n + first[1]]
    assert phone.find_element(By.ID, f"cell-{first[0] * n + first[1]}").get_attribute("aria-label") == \
        f"row {first[0] + 1}, column {first[1] + 1}, region {chr(65 + board['regions'][first[0]][first[1]])}, crossed out"
    for rc in answer:
        cell[rc].click()
        if rc != first:
            cell[rc].click()
        if rc == answer[len(answer) // 2]:
            assert _row_heights(phone) == heights, "marking never changes a row's height"
            phone.save_screenshot(str(shots / f"{game}-phone-playing.png"))
    _wait_solved(phone)
    assert _stars(phone, n) == set(answer)
    assert _row_heights(phone) == heights
    finish = phone.find_element(By.ID, "finish")
    assert finish.is_displayed() and re.search(r"\d\d:\d\d", finish.text)
    assert "Solved in" in phone.find_element(By.ID, "status").text
    phone.save_screenshot(str(shots / f"{game}-phone-solved.png"))
    phone.find_element(By.ID, "finish-close").click()
    cell[answer[0]].click()                                         # a solved board is locked
    assert _stars(phone, n) == set(answer)


def test_tango_solved_by_taps_on_a_phone_with_its_clues_givens_and_conflicts(played, phone, shots):
    """A game of another kind through the same page: two symbols cycled by taps, clues on the edges,
    given cells that do not change, and its conflicts (three alike, a clue broken) marked."""
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards["tango"]
    n = board["rules"]["size"]
    cell = _open(phone, base, board)
    _fits_a_phone(phone)
    play = _spec(phone.page_source)
    assert play["mode"] == "marks" and play["symbols"] == ["☀", "☾"] and play["notes"] == []
    edges = phone.find_elements(By.CSS_SELECTOR, "#grid svg.parts g.edge")
    assert sorted((e.get_attribute("data-cells"), e.get_attribute("data-symbol")) for e in edges) == sorted(
        (" ".join(f"{r},{c}" for r, c in clue["cells"]), "=" if clue["kind"] == "same" else "×")
        for clue in board["clues"])
    assert phone.find_element(By.ID, "autox-option").is_displayed() is False, "no memo mark, no auto-memo"
    given = next(divmod(i, n) for i, ch in enumerate(board["givens"]) if ch != ".")
    before = phone.find_element(By.ID, f"cell-{given[0] * n + given[1]}").get_attribute("innerHTML")
    cell[given].click()
    assert phone.find_element(By.ID, f"cell-{given[0] * n + given[1]}").get_attribute("innerHTML") == before
    assert "given" in _classes(phone)[given[0] * n + given[1]]
    # three alike side by side in a row of empty cells is a conflict; so is a broken clue
    row = next(r for r in range(n) if all(board["givens"][r * n + c] == "." for c in range(3)))
    for c in range(3):
        cell[(row, c)].click()                          # one tap: a sun
    assert all("conflict" in _classes(phone)[row * n + c] for c in range(3))
    for c in range(3):
        cell[(row, c)].click()
        cell[(row, c)].click()                          # a moon, then empty again
    assert not any("conflict" in names for names in _classes(phone))
    clue = board["clues"][0]
    (r0, c0), (r1, c1) = clue["cells"]
    want = {"same": ("☀", "☾"), "opposite": ("☀", "☀")}[clue["kind"]]      # the wrong pair for the clue
    for (r, c), symbol in zip(((r0, c0), (r1, c1)), want):
        if board["givens"][r * n + c] == ".":
            for _ in range(play["symbols"].index(symbol) + 1):
                cell[(r, c)].click()
    shown = [board["givens"][r * n + c] if board["givens"][r * n + c] != "." else "SM"[play["symbols"].index(symbol)]
             for (r, c), symbol in zip(((r0, c0), (r1, c1)), want)]
    if (shown[0] == shown[1]) != (clue["kind"] == "same"):
        assert "conflict" in _classes(phone)[r0 * n + c0] and "conflict" in _classes(phone)[r1 * n + c1]
    phone.find_element(By.ID, "reset").click()
    for i, symbol in enumerate(board["solution"]):
        if board["givens"][i] == ".":
            for _ in range("SM".index(symbol) + 1):
                cell[divmod(i, n)].click()
    _wait_solved(phone)
    phone.save_screenshot(str(shots / "tango-phone-solved.png"))


def test_drag_auto_cross_undo_redo_check_and_reload_on_a_phone(played, phone, shots):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards["starbattle"]
    n = board["rules"]["size"]
    cell = _open(phone, base, board)
    answer = {tuple(p) for p in board["solution"]}
    # a drag crosses out every empty cell it passes, as one undo step
    path = [(0, 0), (0, 1), (1, 1), (2, 1)]
    drag = ActionChains(phone).click_and_hold(cell[path[0]])
    for rc in path[1:]:
        drag = drag.move_to_element(cell[rc])
    drag.release().perform()
    marked = {divmod(i, n) for i, names in enumerate(_classes(phone)) if "mark" in names}
    assert marked == set(path)
    phone.find_element(By.ID, "undo").click()
    assert not any("mark" in names for names in _classes(phone))
    phone.find_element(By.ID, "redo").click()
    assert {divmod(i, n) for i, names in enumerate(_classes(phone)) if "mark" in names} == set(path)

    # the same with a finger: a touch drag crosses out, a touch tap cycles
    phone.find_element(By.ID, "reset").click()
    _touch(phone, [cell[rc] for rc in path])
    assert {divmod(i, n) for i, names in enumerate(_classes(phone)) if "mark" in names} == set(path)
    _touch(phone, [cell[(n - 1, n - 1)]])
    assert "mark" in _classes(phone)[n * n - 1]
    _touch(phone, [cell[(n - 1, n - 1)]])
    assert "placed" in _classes(phone)[n * n - 1]
    phone.find_element(By.ID, "undo").click(); phone.find_element(By.ID, "undo").click()

    # check outlines the wrong entries only: a star off the answer, a × on a star of it
    wrong_star = next((r, c) for r in range(3, n) for c in range(n) if (r, c) not in answer)
    crossed_star = next(rc for rc in sorted(answer) if rc not in path and rc[0] != wrong_star[0])
    cell[wrong_star].click(); cell[wrong_star].click()
    cell[crossed_star].click()
    phone.find_element(By.ID, "check").click()
    wrong = {divmod(i, n) for i, names in enumerate(_classes(phone)) if "wrong" in names}
    assert wrong == {wrong_star, crossed_star}
    assert "2 wrong" in phone.find_element(By.ID, "status").text
    phone.save_screenshot(str(shots / "starbattle-phone-check.png"))

    # a reload restores the board, its clock and its undo history
    before = _classes(phone)
    phone.refresh()
    after = _classes(phone)
    assert [names & {"mark", "placed"} for names in after] == [names & {"mark", "placed"} for names in before]
    phone.find_element(By.ID, "undo").click()                   # the × on the answer's star goes
    assert "mark" not in _classes(phone)[crossed_star[0] * n + crossed_star[1]]

    # auto-×: a placed star crosses out its neighbours
    cell = {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))): c
            for c in phone.find_elements(By.CSS_SELECTOR, "#grid .cell")}
    phone.find_element(By.ID, "reset").click()
    phone.find_element(By.ID, "autox").click()
    star = sorted(answer)[0]
    cell[star].click(); cell[star].click()
    names = _classes(phone)
    r, c = star
    for rr in range(max(0, r - 1), min(n, r + 2)):
        for cc in range(max(0, c - 1), min(n, c + 2)):
            if (rr, cc) != star:
                assert "mark" in names[rr * n + cc], (rr, cc)
    phone.find_element(By.ID, "autox").click()                   # the setting is kept for every board: off again


def test_sudoku_solved_by_taps_on_a_phone_with_notes_and_highlighting(played, phone, shots):
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards["sudoku"]
    cell = _open(phone, base, board)
    _fits_a_phone(phone)
    assert phone.title.startswith("Sudoku 9×9") and "1 to 9" in phone.find_element(By.ID, "rules").text
    assert "star" not in phone.find_element(By.TAG_NAME, "header").text.lower()
    key = {k.get_attribute("data-digit"): k for k in phone.find_elements(By.CSS_SELECTOR, "#pad [data-digit]")}
    assert sorted(key) == list("0123456789")
    heights = _row_heights(phone)
    givens, solution = board["givens"], board["solution"]
    empty = [i for i, ch in enumerate(givens) if ch == "."]

    # notes: pencil two candidates in, then the right digit replaces them and leaves the peers' notes
    first, second = empty[0], next(i for i in empty[1:] if i // 9 == empty[0] // 9)
    digit = solution[first]
    other = next(d for d in "123456789" if d != digit)
    cell[divmod(second, 9)].click()
    phone.find_element(By.ID, "notes").click()
    assert phone.find_element(By.ID, "notes").get_attribute("aria-pressed") == "true"
    key[digit].click(); key[other].click()
    cell[divmod(first, 9)].click()
    key[digit].click()
    assert sorted(cell[divmod(second, 9)].find_element(By.CLASS_NAME, "notes").text.split()) == sorted([digit, other])
    phone.find_element(By.ID, "notes").click()
    key[digit].click()
    assert cell[divmod(first, 9)].find_element(By.CLASS_NAME, "v").text == digit
    assert cell[divmod(second, 9)].find_element(By.CLASS_NAME, "notes").text.split() == [other], \
        "a placed digit leaves the notes of the cells it sees"
    # highlighting: the selected cell's row, column and box, and the same digit elsewhere
    names = _classes(phone)
    r, c = divmod(first, 9)
    peers = {i for i in range(81) if i != first and (i // 9 == r or i % 9 == c or
                                                    (i // 27 == first // 27 and i % 9 // 3 == c // 3))}
    assert {i for i, n in enumerate(names) if "peer" in n} == peers
    same = {i for i in range(81) if i != first and givens[i] == digit}
    assert {i for i, n in enumerate(names) if "same" in n} == same
    phone.save_screenshot(str(shots / "sudoku-phone-notes.png"))

    # a wrong digit: Check marks it; undo takes it back; erase clears
    wrong_at = empty[1] if empty[1] != second else empty[2]
    cell[divmod(wrong_at, 9)].click()
    key[next(d for d in "123456789" if d != solution[wrong_at])].click()
    phone.find_element(By.ID, "check").click()
    assert [i for i, n in enumerate(_classes(phone)) if "wrong" in n] == [wrong_at]
    phone.find_element(By.ID, "undo").click()
    assert cell[divmod(wrong_at, 9)].find_element(By.CLASS_NAME, "v").text == ""

    # the hint stays in view on a phone
    phone.find_element(By.ID, "hint").click()
    box = phone.execute_script("const r = document.getElementById('why').getBoundingClientRect();"
                               "return [r.top, r.bottom, innerHeight];")
    assert phone.find_element(By.ID, "why").text.startswith("Step ") and 0 <= box[0] and box[1] <= box[2]

    for i in empty[1:]:
        cell[divmod(i, 9)].click()
        key[solution[i]].click()
    _wait_solved(phone)
    assert _row_heights(phone) == heights
    assert phone.find_element(By.ID, "finish").is_displayed()
    phone.save_screenshot(str(shots / "sudoku-phone-solved.png"))


def _combinations(total: int, size: int, placed: list[str]) -> list[str]:
    """The sets of distinct digits 1-9 of this size making this total that hold the placed digits."""
    from itertools import combinations
    return ["".join(map(str, digits)) for digits in combinations(range(1, 10), size)
            if sum(digits) == total and all(int(d) in digits for d in placed) and len(set(placed)) == len(placed)]


def test_killer_shows_its_cages_and_combinations_and_is_solved_by_taps_on_a_phone(played, phone, shots):
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards["killer"]
    cell = _open(phone, base, board)
    _fits_a_phone(phone)
    assert phone.title.startswith("Killer Sudoku 9×9") and "cage" in phone.find_element(By.ID, "rules").text
    cages = [(cage["sum"], sorted(r * 9 + c for r, c in cage["cells"])) for cage in board["cages"]]
    # every cage's sum, small in the corner of its first cell; a dashed outline per cage; no colours
    sums = phone.execute_script("return [...document.querySelectorAll('#grid .cell .sum')].map("
                                "s => [+s.closest('.cell').id.slice(5), s.textContent, s.getBoundingClientRect().width,"
                                " s.closest('.cell').getBoundingClientRect().width])")
    assert sorted((i, text) for i, text, _, _ in sums) == sorted((cells[0], str(total)) for total, cells in cages)
    assert all(0 < width < cell_width / 2 for _, _, width, cell_width in sums), "small, in the corner"
    outlines = phone.find_elements(By.CSS_SELECTOR, "#grid svg.parts path.outline")
    assert len(outlines) == len(cages) and outlines[0].value_of_css_property("stroke-dasharray") != "none"
    assert set(phone.execute_script("return [...document.querySelectorAll('#grid .cell')].map(c => c.style.backgroundColor)")) \
        == {"rgb(255, 255, 255)"}, "no region colours"
    assert len(phone.find_elements(By.CSS_SELECTOR, "#grid .cell.bt")) == 2 * 9, "the box rules, as in Sudoku"
    key = {k.get_attribute("data-digit"): k for k in phone.find_elements(By.CSS_SELECTOR, "#pad [data-digit]")}
    heights = _row_heights(phone)

    # the combination hint: the selected cell's cage, narrowed by the digits placed in it
    total, members = next((t, m) for t, m in cages if len(m) == 3) if any(len(m) == 3 for _, m in cages) else \
        next((t, m) for t, m in cages if len(m) >= 2)
    combos = phone.find_element(By.ID, "combos")
    cell[divmod(members[0], 9)].click()
    assert combos.is_displayed()
    assert combos.text == f"Cage {total} in {len(members)}: {' '.join(_combinations(total, len(members), []))}"
    placed = board["solution"][members[1]]
    cell[divmod(members[1], 9)].click()
    key[placed].click()
    cell[divmod(members[0], 9)].click()
    assert combos.text == f"Cage {total} in {len(members)}: {' '.join(_combinations(total, len(members), [placed]))}"
    assert placed in combos.text.split(": ")[1].split()[0]
    assert f"cage {total}" in phone.find_element(By.ID, f"cell-{members[0]}").get_attribute("aria-label")
    phone.save_screenshot(str(shots / "killer-phone-combinations.png"))

    # notes stay clear of the sum in the corner
    cell[divmod(cages[0][1][0], 9)].click()
    phone.find_element(By.ID, "notes").click()
    key["1"].click()
    overlap = phone.execute_script("""
        const cell = document.getElementById(arguments[0]);
        const a = cell.querySelector('.sum').getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents([...cell.querySelectorAll('.notes span')].find(s => s.textContent === '1'));
        const b = range.getBoundingClientRect();                    // the note's glyph box
        return a.right > b.left && b.right > a.left && a.bottom > b.top && b.bottom > a.top;""",
        f"cell-{cages[0][1][0]}")
    assert not overlap
    phone.find_element(By.ID, "notes").click()

    for i, ch in enumerate(board.get("givens") or "." * 81):
        if ch == "." and i != members[1]:                     # the digit placed above is right already
            cell[divmod(i, 9)].click()
            key[board["solution"][i]].click()
    _wait_solved(phone)
    assert _row_heights(phone) == heights
    assert phone.find_element(By.ID, "finish").is_displayed()
    phone.save_screenshot(str(shots / "killer-phone-solved.png"))


def _press(driver: Any, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).send_keys(*keys).perform()


def _walk(at: tuple[int, int], to: tuple[int, int]) -> list[str]:
    from selenium.webdriver.common.keys import Keys
    (r0, c0), (r1, c1) = at, to
    return ([Keys.ARROW_DOWN] * (r1 - r0) + [Keys.ARROW_UP] * (r0 - r1)
            + [Keys.ARROW_RIGHT] * (c1 - c0) + [Keys.ARROW_LEFT] * (c0 - c1))


@pytest.mark.parametrize("game", engine.names())
def test_every_game_solved_by_keys_alone_on_a_desktop(played, desktop, shots, game):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    base, boards = played
    board = boards[game]
    n = board["rules"]["size"]
    _open(desktop, base, board)
    _press(desktop, Keys.TAB)                                 # the board is the first stop
    assert desktop.switch_to.active_element.get_attribute("id") == "grid"
    assert desktop.find_element(By.ID, "grid").get_attribute("role") == "grid"
    assert len(desktop.find_elements(By.CSS_SELECTOR, "#grid [role=row]")) == n
    at = (0, 0)
    play = _spec(desktop.page_source)
    if play["mode"] == "digits":
        givens = board.get("givens") or "." * 81
        targets = [(divmod(i, 9), board["solution"][i]) for i, ch in enumerate(givens) if ch == "."]
        first, digit = targets[0]
        _press(desktop, *_walk(at, first), digit, Keys.BACKSPACE)        # in, out
        undo = ActionChains(desktop).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL)
        undo.perform()                                                      # Ctrl+Z brings it back
        assert desktop.find_element(By.CSS_SELECTOR, f"#cell-{first[0] * 9 + first[1]} .v").text.strip() == digit
        at = first
        for rc, digit in targets[1:]:
            _press(desktop, *_walk(at, rc), digit)
            at = rc
    else:       # marks: Space cycles a cell through the spec's symbols to its answer
        givens = play["givens"] or [""] * (n * n)
        answer = [(divmod(i, n), play["symbols"].index(symbol) + 1) for i, symbol in enumerate(play["answer"])
                  if symbol and not givens[i]]
        (first, presses), words = answer[0], {**play["words"].get("en", {})}
        _press(desktop, *_walk(at, first), *[Keys.SPACE] * presses)
        label = desktop.find_element(By.ID, f"cell-{first[0] * n + first[1]}").get_attribute("aria-label")
        symbol = play["symbols"][presses - 1]
        assert label.startswith(f"row {first[0] + 1}, column {first[1] + 1}, ")
        assert label.endswith(", " + words.get(symbol, symbol))
        ActionChains(desktop).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        assert _stars(desktop, n) == set()
        ActionChains(desktop).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
        assert _stars(desktop, n) == {first}
        at = first
        for rc, presses in answer[1:]:
            _press(desktop, *_walk(at, rc), *[Keys.SPACE] * presses)
            at = rc
    _wait_solved(desktop)
    assert desktop.find_element(By.ID, "finish").is_displayed()
    _press(desktop, Keys.ESCAPE)
    assert not desktop.find_element(By.ID, "finish").is_displayed()
    desktop.save_screenshot(str(shots / f"{game}-desktop-solved.png"))


def test_hints_teach_every_step_drawn_on_the_board(played, desktop, shots):
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards["starbattle"]
    n = board["rules"]["size"]
    cell = _open(desktop, base, board)
    steps = board["steps"]
    hint = desktop.find_element(By.ID, "hint")
    hint.click()
    why = desktop.find_element(By.ID, "why")
    assert why.text == f"Step 1 of {len(steps)}: {steps[0]['why']}", "the first step, whatever it is"
    assert why.is_displayed() and why.location["y"] + why.size["height"] <= 900, "the hint is in view"
    overlay = desktop.find_element(By.ID, "overlay")
    assert len(overlay.find_elements(By.CSS_SELECTOR, "path.unit")) == len(steps[0]["units"])
    assert len(overlay.find_elements(By.CSS_SELECTOR, "rect.place")) == len(steps[0]["place"])
    assert len(overlay.find_elements(By.CSS_SELECTOR, "g.clear")) == len(steps[0]["eliminate"])
    letters = [e for e in desktop.find_elements(By.CSS_SELECTOR, "#grid .lt") if e.is_displayed()]
    assert sorted(e.text for e in letters) == [chr(65 + i) for i in range(n)], "the words' region letters show"
    desktop.save_screenshot(str(shots / "starbattle-desktop-hint.png"))
    hint.click()
    assert why.text.startswith(f"Step 2 of {len(steps)}: "), "Hint again: the step after"
    # doing a shown step clears it; the next hint is the first step not yet done
    hint.click()
    shown = int(re.match(r"Step (\d+)", why.text).group(1)) - 1
    for r, c in steps[shown]["place"]:
        cell[(r, c)].click(); cell[(r, c)].click()
    for r, c in steps[shown]["eliminate"]:
        if "mark" not in _classes(desktop)[r * n + c] and "placed" not in _classes(desktop)[r * n + c]:
            cell[(r, c)].click()
    assert why.text == "" and not overlay.find_elements(By.CSS_SELECTOR, "*")
    hint.click()
    assert not why.text.startswith(f"Step {shown + 1} of")


def test_sudoku_hint_survives_a_click_and_reveal_locks_the_board(played, desktop):
    from selenium.webdriver.common.by import By
    base, boards = played
    board = boards["sudoku"]
    cell = _open(desktop, base, board)
    desktop.find_element(By.ID, "hint").click()
    step = board["steps"][0]
    (r, c, digit), = step["place"]
    cell[(r, c)].click()                                            # selecting the hinted cell keeps the hint
    assert desktop.find_element(By.ID, "why").text.endswith(step["why"])
    desktop.find_element(By.CSS_SELECTOR, f'#pad [data-digit="{digit}"]').click()
    assert desktop.find_element(By.ID, "why").text == "", "a done step's hint goes"
    desktop.find_element(By.ID, "reveal").click()
    _wait_solved(desktop, "revealed")
    values = desktop.execute_script("return [...document.querySelectorAll('#grid .cell .v')].map(v => v.textContent)")
    assert "".join(values) == board["solution"]
    empty = next(i for i, ch in enumerate(board["givens"]) if ch == ".")
    cell[divmod(empty, 9)].click()
    assert not desktop.find_element(By.CSS_SELECTOR, '#pad [data-digit="0"]').is_enabled(), "revealed: locked"
    desktop.find_element(By.ID, "grid").send_keys("0")
    assert desktop.find_element(By.ID, f"cell-{empty}").text.strip() == board["solution"][empty]
    desktop.refresh()
    _wait_solved(desktop, "revealed")                               # and it stays revealed after a reload


def test_malay_words_and_phone_screenshots(played, phone, desktop, shots):
    from selenium.webdriver.common.by import By
    base, boards = played
    _open(phone, base, boards["sudoku"], "?lang=ms")
    assert phone.find_element(By.ID, "check").text == "Semak"
    assert phone.find_element(By.ID, "rules").text.startswith("Isi setiap baris")
    assert phone.find_element(By.ID, "cell-0").get_attribute("aria-label").startswith("baris 1, lajur 1, ")
    assert phone.execute_script("return document.documentElement.lang") == "ms"
    agent = phone.execute_script("return navigator.userAgent")
    phone.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ms-MY,ms"})
    try:
        _open(phone, base, boards["queens"])                        # the browser's language, unasked
        assert phone.find_element(By.ID, "check").text == "Semak"
        assert phone.find_element(By.ID, "rules").text.startswith("Letakkan satu bintang")
    finally:
        phone.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "en-GB,en"})
    _open(phone, base, boards["queens"])
    assert phone.find_element(By.ID, "check").text == "Check"
    phone.find_element(By.ID, "letters").click()
    assert phone.find_element(By.CSS_SELECTOR, "#grid .lt").is_displayed()
    phone.find_element(By.ID, "letters").click()
    viewport(phone, 320, 640, phone=True)                          # the smallest phone still fits
    try:
        _fits_a_phone(phone)
        phone.save_screenshot(str(shots / "queens-phone-320.png"))
    finally:
        viewport(phone, 390, 844, phone=True)
    for game in boards:
        _open(desktop, base, boards[game])
        desktop.save_screenshot(str(shots / f"{game}-desktop.png"))
