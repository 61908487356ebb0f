"""The read API as any HTTP client expects it: no 5xx for a well-formed query, HEAD wherever GET is
served, If-None-Match: *, a diagonals filter, an ETag on the player, a favicon, puzz.link only where it
states the board exactly, and CORS for the origins an operator lists (through a real uvicorn)."""

from __future__ import annotations

import os
import urllib.request

import pytest

from store.api.http import cors_origins
from tests.serve_support import serving


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2026-02-28"])
def test_any_well_formed_date_is_an_answer_not_a_500(client, day):
    r = client.get("/boards", params={"date": day})
    assert r.status_code == 200 and r.json()["boards"] == []


def test_head_is_served_wherever_get_is(client, queens):
    for path in ("/health", "/boards", f"/boards/{queens['id']}", f"/boards/{queens['id']}.svg",
                 f"/boards/{queens['id']}.png", f"/boards/{queens['id']}/steps", f"/play/{queens['id']}",
                 "/schema/board.json", "/favicon.ico"):
        get, head = client.get(path), client.head(path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"" and head.headers.get("etag") == get.headers.get("etag"), path
        assert head.headers["content-length"] == str(len(get.content)), path
    assert client.head("/boards/0123456789abcdef").status_code == 404


def test_if_none_match_star_and_the_players_etag(client, queens):
    for path in (f"/boards/{queens['id']}", f"/boards/{queens['id']}.svg", f"/play/{queens['id']}"):
        first = client.get(path)
        assert first.headers["etag"], path
        assert client.get(path, headers={"If-None-Match": "*"}).status_code == 304, path
        assert client.get(path, headers={"If-None-Match": first.headers["etag"]}).status_code == 304, path
        assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200, path


def test_the_diagonals_filter(client, boards):
    diagonal = [b["id"] for b in boards if (b["rules"].get("diagonals"))]
    assert diagonal
    listed = client.get("/boards", params={"diagonals": "true"}).json()["boards"]
    assert [b["id"] for b in listed] == diagonal
    plain = client.get("/boards", params={"diagonals": "false"}).json()["boards"]
    assert diagonal[0] not in [b["id"] for b in plain] and len(plain) == len(boards) - len(diagonal)


def test_a_favicon(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content


def test_puzz_link_only_where_it_states_the_board(client, boards):
    diagonal = next(b for b in boards if b["rules"].get("diagonals"))
    r = client.get(f"/boards/{diagonal['id']}.pzpr")
    assert r.status_code == 404
    [entry] = r.json()["detail"]
    assert entry == {"loc": ["path", "board_id"], "msg": entry["msg"], "type": "no_puzz_link"}
    assert "diagonal rule" in entry["msg"]


def test_cors_origins_come_from_the_environment():
    assert cors_origins("") == []
    assert cors_origins("https://a.example, https://b.example/") == ["https://a.example", "https://b.example"]


def test_cors_as_an_operator_configures_it(store_url, queens):
    """`PUZZLEFLEET_CORS_ORIGINS=https://puzzles.example puzzlefleet serve`: that origin may read the
    JSON from a browser script; others get no CORS header; nothing is sent when the variable is unset."""
    for origins, allowed in (("https://puzzles.example", True), (None, False)):
        env = {**os.environ, "PUZZLEFLEET_DB": store_url}
        env.pop("PUZZLEFLEET_CORS_ORIGINS", None)
        if origins:
            env["PUZZLEFLEET_CORS_ORIGINS"] = origins
        with serving(env) as base:
            for origin in ("https://puzzles.example", "https://elsewhere.example"):
                request = urllib.request.Request(f"{base}/boards/{queens['id']}", headers={"Origin": origin})
                with urllib.request.urlopen(request, timeout=5) as r:
                    header = r.headers.get("access-control-allow-origin")
                assert header == (origin if allowed and origin == "https://puzzles.example" else None)
                assert r.headers.get("access-control-allow-credentials") is None
            if allowed:
                preflight = urllib.request.Request(f"{base}/boards", method="OPTIONS", headers={
                    "Origin": "https://puzzles.example", "Access-Control-Request-Method": "GET"})
                with urllib.request.urlopen(preflight, timeout=5) as r:
                    assert r.status == 200 and "GET" in r.headers["access-control-allow-methods"]
