"""The player page: self-contained HTML (no CDN), and in a real headless Chromium: check marks only the
wrong star, hint shows the stored step's sentence, and clicking the answer's cells solves the board."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator

import pytest

from tests.browser_support import chromium
from tests.serve_support import serving



def test_play_page_is_self_contained(client, queens):
    r = client.get(f"/play/{queens['id']}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=\"https?://", page), "no CDN, no remote assets"
    assert "{{" not in page
    play = json.loads(re.search(r'<script id="play" type="application/json">(.*?)</script>', page, re.S)
                      .group(1).replace("<\\/", "</"))
    n = queens["rules"]["size"]
    assert play["mode"] == "marks" and play["n"] == n and play["areas"] == queens["regions"]
    assert play["answer"] == sorted(r * n + c for r, c in queens["solution"])
    assert [hint["why"] for hint in play["hints"]] == [step["why"] for step in queens["steps"]]
    assert client.get("/play/0123456789abcdef").status_code == 404


def test_play_page_for_sudoku(client):
    from tests.api.conftest import SUDOKU
    r = client.get(f"/play/{SUDOKU['id']}")
    assert r.status_code == 200 and "1 to 9" in r.text


@pytest.fixture(scope="module")
def server(store_url: str) -> Iterator[str]:
    with serving({**os.environ, "PUZZLEFLEET_DB": store_url}) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def test_solve_a_queens_board_in_chromium(server, browser, queens, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{server}/play/{queens['id']}")
    n = queens["rules"]["size"]
    cells = browser.find_elements(By.CSS_SELECTOR, "#grid .cell")
    assert len(cells) == n * n
    cell = {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))): c for c in cells}
    answer = {tuple(p) for p in queens["solution"]}

    # a star on a wrong cell: Check marks that one only, and shows nothing of the answer
    wrong = next(rc for rc in cell if rc not in answer)
    cell[wrong].click()
    assert "mark" in cell[wrong].get_attribute("class")
    cell[wrong].click()
    assert "star" in cell[wrong].get_attribute("class")
    browser.find_element(By.ID, "check").click()
    assert [c for c in cells if "wrong" in c.get_attribute("class")] == [cell[wrong]]
    assert len([c for c in cells if "star" in c.get_attribute("class")]) == 1
    assert "1 wrong" in browser.find_element(By.ID, "status").text
    cell[wrong].click()                                   # star -> empty
    assert "star" not in cell[wrong].get_attribute("class")

    # two touching stars are flagged as a conflict
    r0, c0 = sorted(answer)[0]
    nb = (r0 + 1, c0) if r0 + 1 < n else (r0 - 1, c0)
    for rc in ((r0, c0), nb):
        cell[rc].click(); cell[rc].click()
    assert "conflict" in cell[nb].get_attribute("class") and "conflict" in cell[(r0, c0)].get_attribute("class")
    cell[nb].click()                                      # clear the neighbour again
    assert "conflict" not in cell[(r0, c0)].get_attribute("class")

    # the hint is the stored solve path's sentence
    browser.find_element(By.ID, "hint").click()
    why = browser.find_element(By.ID, "why").text
    assert any(step["why"] in why for step in queens["steps"])
    assert browser.find_elements(By.CSS_SELECTOR, "#grid .cell.hint")

    for rc in sorted(answer - {(r0, c0)}):
        cell[rc].click(); cell[rc].click()
    WebDriverWait(browser, 5).until(lambda d: "Solved" in d.find_element(By.ID, "status").text)
    assert browser.find_element(By.ID, "grid").get_attribute("data-solved") == "true"
    assert re.fullmatch(r"\d\d:\d\d", browser.find_element(By.ID, "timer").text)
    shot = tmp_path / "solved.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000

    # keyboard: arrows and space on a fresh board; reveal fills in the answer
    browser.find_element(By.ID, "reset").click()
    grid = browser.find_element(By.ID, "grid")
    from selenium.webdriver.common.keys import Keys
    grid.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.SPACE)
    assert "mark" in cell[(1, 1)].get_attribute("class")
    browser.find_element(By.ID, "reveal").click()
    stars = {rc for rc, c in cell.items() if "star" in c.get_attribute("class")}
    assert stars == answer
    assert browser.find_element(By.ID, "grid").get_attribute("data-solved") == "revealed"
