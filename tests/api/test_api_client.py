"""A client generated from the read API's own schema (openapi-python-client, from the /openapi.json of
`puzzlefleet serve`) reads every endpoint of the running server into its typed models: the schema
says enough for a client to be written from it alone."""

from __future__ import annotations

import compileall
import importlib
import json
import os
import subprocess
import sys
import urllib.request
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import engine
from tests.api.conftest import DAILY_DAY, make_store
from tests.serve_support import serving

PACKAGE = "puzzlefleet_client"
# Pictures are bytes (PNG) and text (SVG) to the client: the generator reads only the media types it knows.
CONFIG = """\
package_name_override: puzzlefleet_client
post_hooks: []
content_type_overrides:
  image/png: application/octet-stream
  image/svg+xml: text/plain
"""


@contextmanager
def _generated_client(base: str, folder: Path) -> Iterator[ModuleType]:
    """The client generated from the server's schema, imported for the test and unloaded after it:
    a generated module left in sys.modules would be read again, outside this test, by whatever scans
    the loaded modules' sources (Hypothesis gathers constants from them in later tests of the worker)."""
    folder.mkdir()
    (folder / "config.yaml").write_text(CONFIG)
    exe = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run([str(exe), "generate", "--url", f"{base}/openapi.json", "--meta", "none",
                          "--config", str(folder / "config.yaml"), "--fail-on-warning",
                          "--output-path", str(folder / PACKAGE)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "Warning" not in run.stdout, run.stdout + run.stderr
    with warnings.catch_warnings():
        # The generator writes an optional const integer's check without a space, `size != 9and not
        # isinstance(size, Unset)` (Sudoku's and Killer's `size: Literal[9]`): valid Python that warns
        # where it is compiled, here, once; the imports below read the bytecode written now.
        warnings.filterwarnings("ignore", "invalid decimal literal", SyntaxWarning)
        assert compileall.compile_dir(folder / PACKAGE, quiet=1)
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_a_client_generated_from_the_schema_reads_every_endpoint(tmp_path):
    env = {**os.environ, "PUZZLEFLEET_DB": make_store(tmp_path / "puzzles.db")}
    with serving(env) as base, _generated_client(base, tmp_path / "generated") as package:
        with urllib.request.urlopen(f"{base}/openapi.json", timeout=10) as r:
            operation_ids = {op["operationId"] for methods in json.load(r)["paths"].values() for op in methods.values()}
        api = {operation: importlib.import_module(f"{PACKAGE}.api.{tag}.{operation}")
               for tag in ("meta", "boards", "pictures", "daily", "player")
               for operation in operation_ids
               if (tmp_path / "generated" / PACKAGE / "api" / tag / f"{operation}.py").exists()}
        assert set(api) == operation_ids
        models = importlib.import_module(f"{PACKAGE}.models")
        called: set[str] = set()

        def call(operation: str, *args: object, **kwargs: object) -> object:
            called.add(operation)
            response = api[operation].sync_detailed(*args, client=client, **kwargs)
            assert response.parsed is not None, (operation, response.status_code, response.content[:300])
            return response.parsed

        with package.Client(base_url=base, raise_on_unexpected_status=True) as client:
            health = call("get_health")
            assert isinstance(health, models.Health) and health.status == "ok"
            games = call("get_games")
            assert [game.name for game in games] == list(engine.names())
            assert call("get_board_schema").additional_properties["title"] == "puzzlefleet board"
            # The enumerated parameters are the registry's, as the client was written from them.
            assert {game.value for game in models.ListBoardsGameType0} == set(engine.names())
            assert {style.value for style in models.ListBoardsStyleType0} == set(engine.style_names())
            assert {band.value for band in models.ListBoardsBandType0} == set(engine.bands())

            listed, cursor = [], None
            while True:             # page by the cursor, two boards a page
                page = call("list_boards", limit=2, **({"cursor": cursor} if cursor else {}))
                assert isinstance(page, models.BoardPage) and len(page.boards) <= 2
                listed += page.boards
                cursor = page.cursor
                if cursor is None:
                    break
            assert len(listed) == page.total == 5
            sudoku = call("list_boards", game=models.ListBoardsGameType0("sudoku")).boards
            assert [str(summary.game) for summary in sudoku] == ["sudoku"]

            for summary in listed:
                board = call("get_board", summary.id)
                assert board.id == summary.id and str(board.game) == str(summary.game)
                assert type(board).__name__ == ("SudokuBoardModel" if str(summary.game) == "sudoku" else "StarBoard")
                steps = call("get_board_steps", summary.id)
                assert isinstance(steps, models.Steps) and steps.steps and steps.steps[0].technique
                assert call("get_board_svg", summary.id, solution=True).startswith("<svg")
                assert call("get_board_png", summary.id).payload.read(8) == b"\x89PNG\r\n\x1a\n"
                pzpr = call("get_board_pzpr", summary.id)
                assert (pzpr.startswith("https://puzz.link/") if isinstance(pzpr, str)
                        else pzpr.detail[0].type_ == "no_puzz_link"), pzpr
                assert "<html" in call("get_board_print", summary.id).lower()
                assert "<html" in call("play_board", summary.id).lower()

            days = call("list_daily_days")
            assert isinstance(days, models.DailyDays) and days.days == [DAILY_DAY] and days.earlier is None
            daily = call("get_daily", DAILY_DAY)
            assert isinstance(daily, models.DailySet) and daily.date == DAILY_DAY and len(daily.boards) == 2

            # Errors come back in the one declared body, parsed as such.
            missing = call("get_board", "0123456789abcdef")
            assert isinstance(missing, models.ErrorBody) and missing.detail[0].type_ == "not_found"
            refused = call("list_boards", limit=0)
            assert isinstance(refused, models.ErrorBody) and refused.detail[0].loc == ["query", "limit"]
        assert called == operation_ids
