"""What each game offers, through whole `puzzlefleet` processes: a game with one size needs no --size, a
size a game does not offer is refused naming those it does, a band no board of a size is found in is
refused at once naming those that are, and `generate --help` lists it all."""

from __future__ import annotations

import resource
import socket
import time

import pytest

from engine import all_games
from tests.cli.cli_support import exported, run


def _one_line_error(result, code: int = 2) -> str:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlefleet: error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize("game", ["sudoku", "killer"])
def test_a_game_with_one_size_needs_no_size(env, game):
    result = run(env, "generate", "--game", game, "--count", "1", "--seed", "3", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert f"generating 1 x {game} 9 " in result.stdout
    [board] = exported(env, "--game", game)
    assert board["rules"]["size"] == 9


def test_a_game_with_several_sizes_names_them_when_no_size_is_given(env):
    line = _one_line_error(run(env, "generate", "--game", "queens", "--count", "1"))
    assert line.endswith("size is required: queens offers sizes 4–20")
    line = _one_line_error(run(env, "generate", "--game", "queens", "--diagonals"))
    assert line.endswith("size is required: queens offers sizes 4–16 with --diagonals")


@pytest.mark.parametrize("args, message", [
    (["--game", "queens", "--size", "3"], "queens offers sizes 4–20, not 3"),
    (["--game", "queens", "--size", "17", "--diagonals"], "queens offers sizes 4–16 with --diagonals, not 17"),
    (["--game", "starbattle", "--size", "10", "--stars", "3"], "starbattle offers sizes 12–16 with --stars 3, not 10"),
    (["--game", "tango", "--size", "5"], "tango offers sizes 4, 6, 8, 10, 12, not 5"),
    (["--game", "sudoku", "--size", "8"], "sudoku offers only 9×9, not 8"),
    (["--game", "killer", "--size", "10"], "killer offers only 9×9, not 10"),
])
def test_a_size_a_game_does_not_offer_is_refused_naming_those_it_does(env, tmp_path, args, message):
    line = _one_line_error(run(env, "generate", *args))
    assert line.endswith(message)
    assert not (tmp_path / "p.db").exists()


def _unreachable_cells():
    """(game, options, size, band, the bands at that size) for every cell the games declare unreachable."""
    for game in all_games():
        for offer in game.offers():
            for (size, band) in offer.unreachable:
                yield game, dict(offer.options), size, band, offer.bands_at(size)


def _flags(game, options) -> list[str]:
    out = []
    for spec in game.option_specs():
        value = options.get(spec.name, spec.default)
        if value != spec.default:
            out += [spec.flag] if spec.kind is bool else [spec.flag, str(value)]
    return out


def test_some_band_is_declared_unreachable():
    # the refusal below is tested on every declared cell; Queens 7×7 expert is one the bench never finds
    cells = {(game.name, size, band) for game, options, size, band, _ in _unreachable_cells() if not options.get("diagonals")}
    assert ("queens", 7, "expert") in cells


@pytest.mark.parametrize("verb", ["generate", "enqueue"])
def test_a_band_no_board_is_found_in_is_refused_at_once(env, tmp_path, verb):
    # enqueue is refused before it looks for a broker: none listens on this port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        env = {**env, "PUZZLEFLEET_BROKER": f"redis://127.0.0.1:{sock.getsockname()[1]}/0"}
    for game, options, size, band, bands in _unreachable_cells():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = run(env, verb, "--game", game.name, "--size", str(size), *_flags(game, options), "--band", band,
                     "--count", "1", "--seed", "1")
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        line = _one_line_error(result)
        at = game.request_words(options, size)
        assert f"{at} has no {band} boards (" in line, line
        assert line.endswith(f"; bands at {at.split(' ', 1)[1]}: {', '.join(bands)}"), line
        # before any board is drawn: the process's own time is that of starting up (a second, generously;
        # its wall time is that too on an idle machine, and bounded well under an attempt on a busy one)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        assert cpu <= 1.0 and wall <= 10.0, (cpu, wall)
        assert not (tmp_path / "p.db").exists()


def test_enqueue_fills_in_the_only_size(env, tmp_path):
    # no broker listens: the job is made (and printed, with its rules) before sending it fails (exit 6)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        env = {**env, "PUZZLEFLEET_BROKER": f"redis://127.0.0.1:{sock.getsockname()[1]}/0"}
    result = run(env, "enqueue", "--game", "sudoku", "--count", "2", "--seed", "5")
    assert result.returncode == 6, result.stderr
    assert "2 x sudoku 9 (seed 5)" in result.stdout
    line = _one_line_error(run(env, "enqueue", "--game", "tango", "--count", "2"))
    assert line.endswith("size is required: tango offers sizes 4, 6, 8, 10, 12")


def test_generate_help_lists_what_each_game_offers(env):
    result = run(env, "generate", "--help")
    assert result.returncode == 0, result.stderr
    assert "  queens 4–20: easy, medium, hard (not at 4), expert (not at 4–7)\n" in result.stdout
    assert "  queens --diagonals 4–16: easy, medium, hard (not at 4), expert (not at 4–7)\n" in result.stdout
    assert "sudoku 9×9: easy, medium, hard, expert" in result.stdout
    assert "sudoku --band-by clues 9×9: easy, medium, hard" in result.stdout
    for game in all_games():
        for offer in game.offers():
            assert f"  {game.request_words(offer.options)} " in result.stdout
    assert "default: the game's only size" in result.stdout
