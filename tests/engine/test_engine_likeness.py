"""The fitted likeness (engine/games/starbattle/likeness.py) behind a style's `keep`: deterministic, a
probability, fitted on the features it evaluates, and it keeps published boards more often than the style's own."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.games.starbattle import likeness
from engine.games.starbattle.likeness import BASE, NAMES, SPLIT_NAMES, Likeness, features
from engine.games.starbattle import Rules
from engine.games.starbattle.generator import Settings, generate
from engine.games.starbattle.styles import composed_fit, interlocking_fit, named

DATA = Path(__file__).parents[1] / "data"


def _published(name: str) -> list[tuple[int, tuple[int, ...]]]:
    out = []
    for line in (DATA / name).read_text().splitlines():
        board = json.loads(line)
        if board["rules"].get("stars", 1) == 1:
            out.append((board["rules"]["size"], tuple(v for row in board["regions"] for v in row)))
    return out


def test_every_fit_is_of_these_features() -> None:
    for table in (composed_fit.LIKENESS, interlocking_fit.LIKENESS, interlocking_fit.FINISHED):
        for by_size in table.values():
            for size, fitted in by_size.items():
                names = NAMES if fitted.split is None else SPLIT_NAMES
                assert fitted.names == names and len(fitted.weights) == len(names) == len(fitted.means)
                assert list(fitted.log_caps) == [size]


def test_a_split_adds_the_ragged_indicator() -> None:
    """With a split, a map whose boundary per row lies at or above it repeats its features on the
    ragged indicator; one below it has zeros there."""
    blocky = tuple(cell // 32 for cell in range(64))             # two halves: one boundary line
    ragged = tuple((cell // 8 + cell % 8) % 8 for cell in range(64))  # diagonal stripes
    for regions, indicator in ((blocky, 0.0), (ragged, 1.0)):
        values = features(8, regions, 8, 8, split=0.69)
        assert len(values) == len(SPLIT_NAMES)
        assert values[-1] == indicator
        assert values[len(NAMES):-1] == [v * indicator for v in values[:len(BASE)]]
        assert values[:len(NAMES)] == features(8, regions, 8, 8)


def test_a_fit_judges_maps_only_at_its_own_stage() -> None:
    """A likeness fitted for drawings never turns a finished map away, and the other way round; at
    its own stage it draws from the rng (a probability below one here)."""
    regions = generate(Rules(8), 1)[0].regions
    never = Likeness(NAMES, (0.0,) * len(NAMES), (1.0,) * len(NAMES), (0.0,) * len(NAMES), -50.0, {8: 0.0},
                     drawn=True)
    table = {8: never}
    assert likeness.keep(table, 8, regions, random.Random(1), drawn=False)
    assert not likeness.keep(table, 8, regions, random.Random(1), drawn=True)


def test_only_three_star_boards_are_judged_twice() -> None:
    """At 14x14 3-star the drawing's fit is followed by one on the finished map (FINISHED), for what
    the first leaves; no other rules have a second fit, so their boards stay as they were."""
    assert {stars: sorted(sizes) for stars, sizes in interlocking_fit.FINISHED.items()} == {3: [14]}
    assert interlocking_fit.LIKENESS[3][14].drawn and not interlocking_fit.FINISHED[3][14].drawn


def test_interlocking_keep_asks_the_finished_fit_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawing's fit passes a map that the finished map's fit then turns away; each judges only
    at its own stage, and without a FINISHED entry every finished map is kept."""
    style = named("interlocking")
    zeros, ones = (0.0,) * len(NAMES), (1.0,) * len(NAMES)
    always_drawn = Likeness(NAMES, zeros, ones, zeros, 50.0, {8: 0.0}, drawn=True)
    never_finished = Likeness(NAMES, zeros, ones, zeros, -50.0, {8: 0.0})
    monkeypatch.setattr(style, "LIKENESS", {1: {8: always_drawn}})
    monkeypatch.setattr(style, "FINISHED", {1: {8: never_finished}})
    regions = generate(Rules(8), 1)[0].regions
    assert style.keep(Rules(8), regions, random.Random(1), drawn=True)
    assert not style.keep(Rules(8), regions, random.Random(1), drawn=False)
    monkeypatch.setattr(style, "FINISHED", {})
    assert style.keep(Rules(8), regions, random.Random(1), drawn=False)


def test_sizes_without_a_fit_keep_every_map() -> None:
    table = composed_fit.LIKENESS[1]
    assert sorted(table) == [6, 7, 8, 9, 10, 11]            # the sizes with 20+ hand-drawn boards
    regions = generate(Rules(12), 1)[0].regions
    assert all(likeness.keep(table, 12, regions, random.Random(seed), drawn=False) for seed in range(20))


def test_a_refit_for_other_features_fails_loudly() -> None:
    stale = Likeness(NAMES[:-1], (0.0,), (1.0,), (0.0,), 0.0, {8: 0.0})
    with pytest.raises(ValueError, match="refit"):
        stale.log_ratio(8, generate(Rules(8), 1)[0].regions)


def test_keep_is_a_seeded_probability() -> None:
    regions = generate(Rules(8), 1)[0].regions
    fitted = composed_fit.LIKENESS[1][8]
    assert 0.0 < fitted.keep_probability(8, regions) <= 1.0
    assert len(features(8, regions, 8, 8)) == len(NAMES)
    draws = [fitted.keep(8, regions, random.Random(seed)) for seed in range(50)]
    assert draws == [fitted.keep(8, regions, random.Random(seed)) for seed in range(50)]


def test_published_boards_are_kept_more_often_than_the_styles_own() -> None:
    """The ratio points the right way: the hand-drawn sample scores above composed's unsampled output."""
    composed = named("composed")
    hand_drawn = _published("queens_handmade_sample.jsonl")
    own = [(8, generate(Rules(8), seed, style="composed", settings=Settings(sample=False))[0].regions)
           for seed in range(30)]
    fitted = composed_fit.LIKENESS[1]

    def mean_keep(maps: list[tuple[int, tuple[int, ...]]]) -> float:
        return sum(fitted[n].keep_probability(n, regions) for n, regions in maps if n in fitted) / len(maps)

    assert len(hand_drawn) >= 10
    assert mean_keep(hand_drawn) > mean_keep(own)
    assert composed.keep(Rules(8), own[0][1], random.Random(1), drawn=False) in (True, False)


def test_sampling_turns_maps_away_only_when_on() -> None:
    """The generator counts the maps the likeness sets aside (`unlike-published`); with
    `Settings(sample=False)`, as the fit draws the style's own output, it sets none aside."""
    on = sum(generate(Rules(8), seed, style="composed")[1].rejected["unlike-published"] for seed in range(10))
    off = sum(generate(Rules(8), seed, style="composed", settings=Settings(sample=False))[1]
              .rejected["unlike-published"] for seed in range(10))
    assert on > 0 and off == 0
