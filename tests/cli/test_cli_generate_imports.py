"""What a one-process `generate` loads: its game's engine and the store, not the other games (a command
line that names a built-in game and gives only its flags reads them alone), nor the process pool of
--jobs N, nor the fleet or the web API. Start-up time is measured by bench/bench_startup.py; these
tests guard what it depends on without timing anything."""

from __future__ import annotations

import subprocess
import sys

import pytest

# The command as installed (puzzlefleet.cli:console), then the modules it loaded, on stderr.
SCRIPT = ("import sys; from puzzlefleet.cli import console; sys.argv = ['puzzlefleet'] + sys.argv[1:]; code = console();"
          "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(code)")

NEVER = ("multiprocessing", "fastapi", "celery", "kombu", "redis", "alembic", "PIL")
OTHER_GAMES = {
    "queens": ("engine.games.sudoku", "engine.games.killer", "engine.games.tango"),
    "sudoku": ("engine.games.starbattle", "engine.games.queens", "engine.games.killer", "engine.games.tango"),
    "killer": ("engine.games.starbattle", "engine.games.queens", "engine.games.tango"),
}


def loaded_by(env: dict[str, str], *args: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True, env=env, timeout=300)
    return done, set(done.stderr.split())


@pytest.mark.parametrize("request_args", [("queens", "--size", "6"), ("sudoku", "--size", "9", "--band", "easy"),
                                          ("killer", "--size", "9", "--band", "easy")])
def test_a_generate_loads_its_game_alone(env: dict[str, str], request_args: tuple[str, ...]) -> None:
    # The first command makes the store (Alembic stamps it); the one measured finds it made.
    made, _ = loaded_by(env, "generate", "--game", *request_args, "--count", "1", "--seed", "2", "--jobs", "1")
    assert made.returncode == 0, made.stderr
    done, loaded = loaded_by(env, "generate", "--game", *request_args, "--count", "1", "--seed", "3", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "accepted 1 of 1" in done.stdout
    game = request_args[0]
    assert f"engine.games.{game}" in loaded and "sqlalchemy" in loaded
    assert [name for name in (*NEVER, *OTHER_GAMES[game]) if name in loaded] == []


def test_a_queens_generate_loads_no_other_games_generator(env: dict[str, str]) -> None:
    done, loaded = loaded_by(env, "generate", "--game", "queens", "--size", "6", "--count", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "engine.games.starbattle.generator" in loaded
    assert [name for name in ("engine.games.sudoku.generator", "engine.games.killer.generator") if name in loaded] == []


def test_another_games_flag_still_reads_every_games_options(env: dict[str, str]) -> None:
    # --stars is Star Battle's: the game named refuses it in its own words, as before
    done, loaded = loaded_by(env, "generate", "--game", "sudoku", "--size", "9", "--stars", "2", "--count", "1")
    assert done.returncode == 2 and "puzzlefleet: error: sudoku has no stars" in done.stderr
    assert "engine.games.starbattle" in loaded


def test_help_and_jobs_load_neither_the_engine_nor_the_store(env: dict[str, str]) -> None:
    for args in (("--help",), ("jobs",)):
        done, loaded = loaded_by(env, *args)
        assert done.returncode == 0, done.stderr
        assert [name for name in ("engine", "sqlalchemy", "sqlmodel", "pydantic", *NEVER) if name in loaded] == []


def test_python_m_puzzlefleet_is_the_command(env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "puzzlefleet", "generate", "--game", "queens", "--size", "6",
                           "--count", "1", "--seed", "3"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "accepted 1 of 1" in done.stdout


PLUGIN = '''class Plugin:
    def new_schema_validator(self, schema, schema_type, schema_type_path, schema_kind, config, plugin_settings):
        return None, None, None


plugin = Plugin()
'''


@pytest.mark.parametrize("given, looked_for", [(None, False), ("", True)])
def test_pydantic_plugins_are_looked_for_only_when_asked(env: dict[str, str], tmp_path, given: str | None,
                                                         looked_for: bool) -> None:
    """The command skips pydantic's plugin search (every installed package's metadata read) unless
    PYDANTIC_DISABLE_PLUGINS is set; a plugin installed beside it is then loaded as pydantic loads it."""
    (tmp_path / "fake_pydantic_plugin.py").write_text(PLUGIN)
    info = tmp_path / "fake_pydantic_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-pydantic-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nfake = fake_pydantic_plugin:plugin\n")
    env = {**env, "PYTHONPATH": str(tmp_path)}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    if given is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = given
    done, loaded = loaded_by(env, "generate", "--game", "queens", "--size", "6", "--count", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert ("fake_pydantic_plugin" in loaded) is looked_for
