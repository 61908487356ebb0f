"""The read API against a real SQLite store: listings, filters, pagination, boards, steps, pictures,
print pages, caching headers, 404 and 422."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

import pytest
from PIL import Image

import engine
from engine.games.starbattle import Board
from store.api.errors import ErrorBody
from tests.api.conftest import DAILY_DAY, SUDOKU
from store.render import png, svg


def test_the_fixture_boards_are_real_proved_boards(queens):
    assert Board.from_json(queens).id == queens["id"]


def test_health_and_openapi(client):
    r = client.get("/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.headers["cache-control"] == "no-store"
    spec = client.get("/openapi.json").json()
    for path in ("/boards", "/boards/{board_id}", "/boards/{board_id}/steps", "/boards/{board_id}.svg",
                 "/boards/{board_id}.png", "/boards/{board_id}/print", "/health"):
        assert path in spec["paths"], path


def test_list_filters_and_pagination(client, boards):
    r = client.get("/boards")
    assert r.status_code == 200
    page = r.json()
    assert page["total"] == len(boards) == 5 and page["limit"] == 50 and page["next"] is None
    assert page["total_capped"] is False
    assert [b["id"] for b in page["boards"]] == [b["id"] for b in boards]
    assert "etag" in r.headers and "max-age" in r.headers["cache-control"]
    queens = client.get("/boards", params={"game": "queens"}).json()
    assert queens["total"] == 3 and {b["game"] for b in queens["boards"]} == {"queens"}
    assert client.get("/boards", params={"game": "queens", "size": 8}).json()["total"] == 2
    assert client.get("/boards", params={"stars": 2}).json()["boards"][0]["size"] == 10
    assert client.get("/boards", params={"game": "sudoku"}).json()["total"] == 1
    band = boards[0]["difficulty"]["band"]
    assert client.get("/boards", params={"band": band}).json()["total"] == sum(
        (b.get("difficulty") or {}).get("band") == band for b in boards)
    today = datetime.now(timezone.utc).date()
    assert client.get("/boards", params={"date": today.isoformat()}).json()["total"] == 5
    assert client.get("/boards", params={"date": "2001-01-01"}).json()["total"] == 0
    first = client.get("/boards", params={"limit": 2}).json()
    second = client.get(first["next"]).json()
    third = client.get(second["next"]).json()
    assert first["total"] == second["total"] == third["total"] == 5
    assert [b["id"] for b in first["boards"] + second["boards"] + third["boards"]] == [b["id"] for b in boards]
    assert third["next"] is None and len(third["boards"]) == 1
    # the filters ride along in the next link
    queens_first = client.get("/boards", params={"game": "queens", "limit": 1}).json()
    assert queens_first["next"].startswith("/boards?game=queens&limit=1&cursor=")
    assert [b["game"] for b in client.get(queens_first["next"]).json()["boards"]] == ["queens"]
    newest = client.get("/boards", params={"order": "newest", "limit": 3}).json()
    rest = client.get(newest["next"]).json()
    assert [b["id"] for b in newest["boards"] + rest["boards"]] == [b["id"] for b in boards][::-1]


def test_a_total_is_counted_once_in_its_window_while_pages_show_new_boards(tmp_path):
    from fastapi.testclient import TestClient

    import store
    from engine.games.starbattle import Rules, generate
    from store.api import create_app
    url = f"sqlite:///{tmp_path / 'counted.db'}"
    db = store.make_engine(url)
    store.init_db(db)

    def add(seed: int) -> None:
        board, _ = generate(Rules(6, 1, False), seed)
        with store.session(db) as s:
            assert store.save_board(session=s, data=board.to_json(), fingerprint=board.fingerprint)
    add(1)
    with TestClient(create_app(url)) as client:
        first = client.get("/boards", params={"game": "queens"}).json()
        add(2)
        again = client.get("/boards", params={"game": "queens"}).json()
        other = client.get("/boards", params={"game": "queens", "size": 6}).json()
    assert first["total"] == again["total"] == 1                  # counted within the window
    assert len(again["boards"]) == 2                              # the page reads the store as it is
    assert other["total"] == 2                                     # other filters, counted afresh
    db.dispose()


def test_offset_paging_is_refused_naming_the_next_link(client):
    assert client.get("/boards", params={"offset": 0}).status_code == 200
    r = client.get("/boards", params={"offset": 2})
    assert r.status_code == 422
    [entry] = r.json()["detail"]
    assert entry["loc"] == ["query", "offset"] and "`next`" in entry["msg"] and entry["type"] == "offset_not_taken"


@pytest.mark.parametrize("cursor", ["zzz", "", "bm90IGEgY3Vyc29y", "1765091687123456.0123", "1765091687123456|0123456789abcdef"])
def test_a_cursor_not_of_the_declared_form_is_422(client, cursor):
    r = client.get("/boards", params={"cursor": cursor})
    assert r.status_code == 422
    assert [entry["loc"] for entry in r.json()["detail"]] == [["query", "cursor"]], r.json()


def test_any_cursor_of_the_declared_form_is_a_place_in_the_listing(client, boards):
    """The schema's pattern is all a cursor must match: one naming no stored board still continues the
    listing from its place (here: after every board, and before every board)."""
    assert client.get("/boards", params={"cursor": "9999999999999999.ffffffffffffffff"}).json()["boards"] == []
    first = client.get("/boards", params={"cursor": "-9999999999999999.0000000000000000"}).json()
    assert [b["id"] for b in first["boards"]] == [b["id"] for b in boards]


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 201}, {"offset": -1}, {"size": "x"},
                                    {"size": 0}, {"date": "2026-13-01"}, {"game": "Queens!"},
                                    {"band": ""}, {"stars": 99}, {"order": "up"}])
def test_bad_filters_are_422(client, params):
    assert client.get("/boards", params=params).status_code == 422


def test_board_steps_and_etag(client, queens):
    r = client.get(f"/boards/{queens['id']}")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.json() == queens
    etag = r.headers["etag"]
    again = client.get(f"/boards/{queens['id']}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["etag"] == etag and not again.content
    steps = client.get(f"/boards/{queens['id']}/steps").json()
    assert steps["steps"] == queens["steps"] and steps["id"] == queens["id"]
    assert all(step["why"] for step in steps["steps"])


@pytest.mark.parametrize("path", ["/boards/{}", "/boards/{}/steps", "/boards/{}.svg", "/boards/{}.png",
                                  "/boards/{}/print"])
def test_unknown_ids_are_404(client, path):
    for board_id in ("0123456789abcdef", "nope", "%27%3B--"):
        r = client.get(path.format(board_id))
        assert r.status_code == 404, (path, board_id)
        assert ErrorBody.model_validate(r.json()).detail[0].type == "not_found"


def test_every_error_has_the_one_declared_body(client):
    """A parameter that fails validation, an unknown id or day, an unknown path and another method
    all answer {"detail": [{"loc", "msg", "type"}]} (ErrorBody, as the schema declares it)."""
    answers = [(422, client.get("/boards", params={"limit": 0}), ["query", "limit"]),
               (404, client.get("/daily/1999-01-01"), ["path", "day"]),
               (404, client.get("/no/such/path"), []),
               (405, client.post("/boards"), [])]
    for status, r, loc in answers:
        assert r.status_code == status and r.headers["content-type"] == "application/json", (status, r.text)
        [entry] = ErrorBody.model_validate(r.json()).detail
        assert entry.loc == loc and entry.msg and entry.type, r.json()
    assert "GET" in answers[-1][1].headers["allow"]
    schema = client.get("/openapi.json").json()
    assert schema["components"]["schemas"]["ErrorBody"]["required"] == ["detail"]


def test_pictures_and_print(client, queens):
    for solution in (False, True):
        params = {"solution": 1} if solution else {}
        r = client.get(f"/boards/{queens['id']}.svg", params=params)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text == svg(queens, solution=solution)
        stars = ET.fromstring(r.text).findall(".//{http://www.w3.org/2000/svg}path[@data-symbol='★']")
        assert len(stars) == (8 if solution else 0)
        p = client.get(f"/boards/{queens['id']}.png", params=params)
        assert p.status_code == 200 and p.headers["content-type"] == "image/png"
        assert p.content == png(queens, solution=solution)
        assert ("solution" if solution else "puzzle") in p.headers["content-disposition"]
        Image.open(io.BytesIO(p.content)).verify()
        assert client.get(f"/boards/{queens['id']}.png", params=params,
                          headers={"If-None-Match": p.headers["etag"]}).status_code == 304
    assert client.get(f"/boards/{queens['id']}.svg").headers["etag"] != \
        client.get(f"/boards/{queens['id']}.svg", params={"solution": 1}).headers["etag"]
    page = client.get(f"/boards/{queens['id']}/print")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.text.count("<section") == 2 and "page-break-after: always" in page.text


def test_sudoku_from_the_json_alone(client):
    assert client.get(f"/boards/{SUDOKU['id']}").json() == SUDOKU
    digits = ET.fromstring(client.get(f"/boards/{SUDOKU['id']}.svg", params={"solution": "true"}).text)\
        .findall(".//{http://www.w3.org/2000/svg}text")
    assert "".join(t.text for t in digits) == SUDOKU["solution"]
    assert client.get(f"/boards/{SUDOKU['id']}.png").status_code == 200


def test_daily_route(client, boards):
    assert client.get("/daily").json() == {"days": [DAILY_DAY.isoformat()], "earlier": None}
    day = client.get(f"/daily/{DAILY_DAY.isoformat()}").json()
    assert day["date"] == DAILY_DAY.isoformat() and [b["id"] for b in day["boards"]][0] == SUDOKU["id"]
    assert day["boards"][1] == next(b for b in boards if b["id"] == day["boards"][1]["id"])
    assert client.get("/daily", params={"before": DAILY_DAY.isoformat()}).json() == {"days": [], "earlier": None}
    assert client.get("/daily/2001-01-01").status_code == 404
    for bad in ("not-a-date", "0", "2026-01-15T00:00:00", "2026-1-15"):
        r = client.get(f"/daily/{bad}")
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "day"], bad
    assert client.get("/boards", params={"date": "0"}).status_code == 422


def test_steps_model_in_openapi(client):
    spec = json.loads(client.get("/openapi.json").text)
    assert "BoardPage" in spec["components"]["schemas"]


def test_serve_rejects_a_bad_port_in_one_line(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path
    exe = Path(sys.executable).with_name("puzzlefleet")
    result = subprocess.run([str(exe), "serve", "--port", "70000"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}"})
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "--port" in result.stderr


def test_the_puzz_link_url_opens_the_same_board(client, boards):
    from engine.games.starbattle.pzpr import from_url
    from engine.games.starbattle.fingerprint import canonical_labels
    for data in boards:
        r = client.get(f"/boards/{data['id']}.pzpr")
        if data["game"] == "sudoku" or data["rules"].get("diagonals"):
            assert r.status_code == 404          # puzz.link cannot state these exactly
            assert r.json()["detail"][0]["type"] == "no_puzz_link"
            continue
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain") and r.headers["etag"]
        url = r.text.strip()
        assert url.startswith("https://puzz.link/p?starbattle/")
        # the same regions (puzz.link numbers them its own way, and has no flag for classic diagonals)
        board, opened = Board.from_json(data), from_url(url)
        assert opened.rules.stars == board.rules.stars
        assert canonical_labels(board.n, opened.regions) == canonical_labels(board.n, board.regions)
    assert client.get("/boards/0123456789abcdef.pzpr").status_code == 404


def test_the_board_schema_and_the_games_are_served(client):
    from pathlib import Path
    r = client.get("/schema/board.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/schema+json")
    published = (Path(__file__).resolve().parents[2] / "docs" / "board.schema.json").read_text(encoding="utf-8")
    assert r.text == published
    assert client.get("/schema/board.json", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    games = client.get("/games").json()
    assert [g["name"] for g in games] == list(engine.names())
    assert {g["name"]: g["input"] for g in games}["sudoku"] == "digits"
    assert {g["name"]: g["input"] for g in games}["killer"] == "digits"


def test_the_games_list_their_drawing_styles_by_rules(client):
    """Each game's styles as the game states them: groups of rules (sizes, other rules fields), the
    default style first; a game without styles lists none. The OpenAPI schema documents the field."""
    from engine import game_named
    from engine.games.starbattle import Rules
    games = {g["name"]: g for g in client.get("/games").json()}
    assert games["sudoku"]["styles"] == [] and games["killer"]["styles"] == []
    for name, rules in (("queens", Rules(8)), ("queens", Rules(10, 1, True)), ("starbattle", Rules(10, 2))):
        (group,) = [g for g in games[name]["styles"] if g["sizes"][0] <= rules.size <= g["sizes"][1]
                    and g["rules"] == {"stars": rules.stars, "diagonals": rules.diagonals}]
        assert group["styles"] == list(game_named(name).styles(rules))
    assert "composed" in games["queens"]["styles"][0]["styles"]
    assert all("composed" not in g["styles"] for g in games["starbattle"]["styles"])   # one-star only
    spec = client.get("/openapi.json").json()
    schema = spec["components"]["schemas"]
    assert "styles" in schema["GameInfo"]["properties"] and "sizes" in schema["StyleChoice"]["properties"]
    assert "style" in {p["name"] for p in spec["paths"]["/boards"]["get"]["parameters"]}


def test_the_listing_filters_by_style(client, boards):
    """Every generated star board names its style; ?style= selects by it; a style no game has is 422
    (the schema lists the styles), and one no board of the other filters can have (one-star only with
    stars=2, any on Sudoku) selects no boards."""
    styled = [b for b in boards if b["game"] != "sudoku"]
    assert all(b["style"] == b["generation"]["style"] for b in styled)
    for style in {b["style"] for b in styled}:
        page = client.get("/boards", params={"style": style}).json()
        assert [b["id"] for b in page["boards"]] == [b["id"] for b in boards if b.get("style") == style]
        assert {b["style"] for b in page["boards"]} == {style}
    assert client.get("/boards", params={"game": "sudoku"}).json()["boards"][0]["style"] is None
    assert client.get("/boards", params={"style": "composed", "size": 6}).status_code == 200
    for params in ({"style": "cubist"}, {"style": "Organic!"}):
        r = client.get("/boards", params=params)
        assert r.status_code == 422, params
        [entry] = r.json()["detail"]
        assert entry["loc"] == ["query", "style"] and "composed" in entry["msg"], entry
    for params in ({"style": "composed", "stars": 2}, {"style": "composed", "game": "starbattle"},
                   {"style": "organic", "game": "sudoku"}):
        page = client.get("/boards", params=params).json()
        assert page["boards"] == [] and page["total"] == 0, params
