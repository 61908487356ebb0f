"""Fit a drawing style's likeness: how much more often people draw a map like this than the style does.

    .venv/bin/python bench/fit_likeness.py --style composed [--stars 1] [--boards 300]
        [--sizes 6 7 8 9 10 11 13 15] [--rounds 3] [--stage drawn|finished] [--split 0.69]
        [--calibration PATH] [--jobs 2] [--on-top] [--write]

Needs scikit-learn (`pip install -e '.[bench]'`). What must look published is the finished map, but
the likeness may judge either it or the drawing it came from (`--stage drawn`: turning a drawing away
costs a drawing, not a repair; it works where repair moves little). Each round generates `--boards`
finished boards per size (seeds 1,000,000 + i, never the classifier bench's 70,000 + i) with the
likeness fitted so far, keeping each board's drawing beside it; fits a logistic regression of the
calibration boards against the finished maps (the log density ratio, the generated boards weighing
as much as the calibration boards); and regresses that log-ratio on the features of the maps the
likeness judges (ridge), adding the result to the fit. Round one starts from no likeness (the style's
own habits); each later round corrects what the last one left; the last round only measures.
`--split` gives the ragged indicator of engine/games/starbattle/likeness.py (a ratio per kind, for a
corpus drawn in two kinds). Each star count and each size with 20+ calibration boards gets a fit of its own (other
sizes are not sampled). The cap is the `--quantile` of the fitted log-ratio over round one's judged
maps: above it a map is always kept, so the share kept is the cost. Reported per round: that share,
and the classifier's AUC of the round's boards against the calibration boards (the fitting boards,
so a flattering figure; bench/bench_shape_classifier.py gives the honest one).
`--on-top` fits a second likeness, judged on the finished map, over the style's current one (which
keeps judging while the boards are made, round one included): the style's FINISHED table, for what a
fit judged on the drawing leaves. `--write` replaces the fitted star counts' tables in
engine/games/starbattle/styles/<style>_fit.py and keeps the rest of that file (its docstring names
the commands: add this one).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression, Ridge

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_shape_classifier import aucs, vector  # noqa: E402
from engine import DeadlineExceeded  # noqa: E402
from engine.games.starbattle.likeness import BASE, NAMES, SPLIT_NAMES, Likeness, features  # noqa: E402
from engine.games.starbattle import Rules, styles  # noqa: E402
from engine.games.starbattle.generator import Settings, generate  # noqa: E402

SHARED = ROOT / ".." / "shared" / "calibration"
CORPUS = {"composed": SHARED / "queens-handmade.jsonl", "interlocking": SHARED / "starbattle-labelled.jsonl"}
SEED = 1_000_000
MIN_BOARDS = 20             # published boards a size needs for a fit of its own

Map = tuple[int, ...]


def _board(job: tuple[int, int, str, int, bool]) -> tuple[Map, Map] | None:
    """One finished board's raw drawing and final map (None on a timeout)."""
    size, stars, style, seed, sample = job
    drawing = styles.named(style)
    drawn: list[Map] = []
    entry = "draw_planted" if getattr(drawing, "PLANTS", False) else "draw"   # a style drawing its own answer
    original = getattr(drawing, entry)

    def recording(*args, **kwargs):
        made = original(*args, **kwargs)
        regions = made[0] if entry == "draw_planted" and made is not None else made
        if regions is not None:
            drawn.append(tuple(regions))     # repair changes the list in place
        return made

    setattr(drawing, entry, recording)       # this worker's own copy of the module
    try:
        board, _ = generate(Rules(size, stars), SEED + seed, style=style, timeout=120,
                            settings=Settings(sample=sample))
    except DeadlineExceeded:
        return None
    finally:
        setattr(drawing, entry, original)
    return drawn[-1], board.regions          # the board came from the last drawing


def corpus(path: Path, stars: int) -> dict[int, list[Map]]:
    out: dict[int, list[Map]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                if board["rules"]["stars"] == stars:
                    out.setdefault(board["rules"]["size"], []).append(
                        tuple(label for row in board["regions"] for label in row))
    return out


def fit(style: str, stars: int, sizes: list[int], published: dict[int, list[Map]], boards: int,
        rounds: int, quantile: float, strength: float, jobs: int, split: float | None,
        drawn: bool, on_top: bool, min_boards: int = MIN_BOARDS, pooled: bool = False) -> dict[int, Likeness]:
    """A Likeness per size with at least `min_boards` published boards, fitted over `rounds` rounds
    (`on_top`: into the style's FINISHED table, its LIKENESS judging as committed; `pooled`: one set of
    weights for all those sizes, on the base features, each size standardised on its own and with its
    own intercept and cap, so that a size with few published boards borrows from the others)."""
    sizes = [size for size in sizes if len(published.get(size, ())) >= min_boards]
    if not sizes:
        raise SystemExit(f"the calibration file has no size with {min_boards}+ {stars}-star boards")
    if pooled and (drawn or split is not None):
        raise SystemExit("a pooled likeness judges finished maps on the base features (no --split, --stage drawn)")
    module = styles.named(style)
    table = "FINISHED" if on_top else "LIKENESS"
    tables: dict[int, Likeness] = {}
    width = len(BASE) if pooled else None       # the features a pooled fit weighs
    models: dict[int, list] = {}                # size -> [means, scales, weights, intercept] on the judged features
    first: dict[int, np.ndarray] = {}
    theirs_x = {size: np.array([features(size, regions, size, size, split) for regions in published[size]])[:, :width]
                for size in sizes}
    for round_ in range(1, rounds + 1):
        # the workers fork from here, so they draw with the tables fitted so far
        setattr(module, table, {stars: dict(tables)})
        judged, final = {}, {}
        with Pool(jobs) as pool:
            for size in sizes:
                pairs = [pair for pair in pool.map(_board, [(size, stars, style, i, on_top or round_ > 1)
                                                            for i in range(boards)], chunksize=4) if pair]
                theirs = published[size]
                raw = np.array([features(size, regions, size, size, split) for regions, _ in pairs])
                final[size] = np.array([features(size, regions, size, size, split) for _, regions in pairs])
                logistic, boosted = aucs([vector(size, m) for _, m in pairs] + [vector(size, m) for m in theirs],
                                         [1] * len(pairs) + [0] * len(theirs))
                print(f"round {round_}, {size}x{size} {stars}*: {len(pairs)} boards drawn, "
                      f"{len(theirs)} published, AUC {logistic:.3f} / {boosted:.3f}", file=sys.stderr, flush=True)
                judged[size] = (raw if drawn else final[size])[:, :width]
                final[size] = final[size][:, :width]
        if round_ == rounds and rounds > 1:
            break                                 # the last round only measures
        _correct(models, first, theirs_x, final, judged, strength, pooled)
        tables = {size: _likeness(size, models[size], first[size], quantile, split, drawn) for size in sizes}
    setattr(module, table, {stars: dict(tables)})
    return tables


def _correct(models: dict[int, list], first: dict[int, np.ndarray], published: dict[int, np.ndarray],
             final: dict[int, np.ndarray], judged: dict[int, np.ndarray], strength: float, pooled: bool) -> None:
    """One round's correction of every size's fit (`models`: [means, scales, weights, intercept] on the
    judged features, standardised on round one's judged maps, kept in `first`): one step shared by the
    sizes when `pooled`, else one per size."""
    sizes = sorted(final)
    for group in ([sizes] if pooled else [[size] for size in sizes]):
        for size in group:
            if size not in models:
                first[size] = judged[size]
                means, scales = judged[size].mean(axis=0), judged[size].std(axis=0)
                models[size] = [means, np.where(scales > 0, scales, 1.0), np.zeros(judged[size].shape[1]), 0.0]
        step, intercepts = _ratio_step({n: published[n] for n in group}, {n: final[n] for n in group},
                                       {n: judged[n] for n in group}, models, strength)
        for size in group:
            models[size][2] = models[size][2] + step
            models[size][3] += intercepts[size]


def _ratio_step(published: dict[int, np.ndarray], final: dict[int, np.ndarray], judged: dict[int, np.ndarray],
                models: dict[int, list], strength: float) -> tuple[np.ndarray, dict[int, float]]:
    """One round's correction of a fit shared by `published`'s sizes (one size: a fit of its own): a
    logistic regression of the published maps against the finished ones (each size standardised on
    its own and given an intercept of its own; the generated maps weigh as much as the published
    ones) is the log density ratio the fit leaves; a ridge regression of it on the judged maps'
    features, standardised as the fit standardises them, is the step: weights, and an intercept per size."""
    sizes = sorted(published)
    alone = len(sizes) == 1

    def with_size(z: np.ndarray, size: int) -> np.ndarray:
        if alone:                   # the fit's own intercept
            return z
        indicator = np.zeros((len(z), len(sizes)))
        indicator[:, sizes.index(size)] = 1.0
        return np.hstack([z, indicator])

    xs, ys, weights = [], [], []
    for size in sizes:
        x = np.vstack([published[size], final[size]])
        centre, spread = x.mean(axis=0), x.std(axis=0)
        xs.append(with_size((x - centre) / np.where(spread > 0, spread, 1.0), size))
        ys.append(np.r_[np.ones(len(published[size])), np.zeros(len(final[size]))])
        weights.append(np.r_[np.ones(len(published[size])), np.full(len(final[size]), len(published[size]) / len(final[size]))])
    ratio = LogisticRegression(C=strength, max_iter=10_000, fit_intercept=alone).fit(
        np.vstack(xs), np.concatenate(ys), sample_weight=np.concatenate(weights))
    targets = np.concatenate([ratio.decision_function(x[len(published[size]):]) for size, x in zip(sizes, xs)])
    judged_z = np.vstack([with_size((judged[size] - models[size][0]) / models[size][1], size) for size in sizes])
    step = Ridge(alpha=1.0, fit_intercept=alone).fit(judged_z, targets)
    if alone:
        return step.coef_, {sizes[0]: float(step.intercept_)}
    width = judged_z.shape[1] - len(sizes)
    return step.coef_[:width], {size: float(step.coef_[width + i]) for i, size in enumerate(sizes)}


def _cap(model: list, first: np.ndarray, quantile: float, size: int, what: str) -> float:
    """The `quantile` of the fit's log-ratios over round one's maps (the share kept is the cost)."""
    means, scales, coef, intercept = model
    own = intercept + ((first - means) / scales) @ coef
    log_cap = float(np.quantile(own, quantile))
    print(f"{size}x{size}: {what} keeps {np.minimum(1.0, np.exp(own - log_cap)).mean():.0%}",
          file=sys.stderr, flush=True)
    return log_cap


def _likeness(size: int, model: list, first: np.ndarray, quantile: float, split: float | None,
              drawn: bool) -> Likeness:
    """The Likeness of a fit; a pooled fit's features (the base ones) padded with unweighted columns."""
    means, scales, coef, intercept = model
    names = NAMES if split is None else SPLIT_NAMES
    pad = len(names) - len(coef)
    log_cap = _cap(model, first, quantile, size, "the likeness")
    return Likeness(names, tuple(map(float, np.r_[means, np.zeros(pad)])), tuple(map(float, np.r_[scales, np.ones(pad)])),
                    tuple(map(float, np.r_[coef, np.zeros(pad)])), intercept, {size: log_cap}, split, drawn)


def fit_texture(style: str, sizes: list[int], published: dict[int, list[Map]], boards: int, rounds: int,
                quantile: float, strength: float, jobs: int, min_boards: int = MIN_BOARDS,
                pooled: bool = False) -> dict:
    """The pictured style's texture likeness (its TEXTURE table: one Texture per size with `min_boards`
    published boards), fitted over `rounds` rounds as the likeness is, on the boundary texture of the
    finished maps (_pictured.texture, bench/boundary_texture.py's features), its shape likeness judging
    as it stands (`pooled`: as `fit`'s)."""
    from engine.games.starbattle.styles import _pictured
    from engine.games.starbattle.styles.pictured_types import Texture
    module = styles.named(style)
    sizes = [size for size in sizes if len(published.get(size, ())) >= min_boards]
    tables: dict = {}
    models: dict[int, list] = {}
    first: dict[int, np.ndarray] = {}
    theirs_x = {size: np.array([_pictured.texture(size, m) for m in published[size]]) for size in sizes}
    for round_ in range(1, rounds + 1):
        module.TEXTURE = dict(tables)             # the workers fork from here
        final = {}
        with Pool(jobs) as pool:
            for size in sizes:
                pairs = [pair for pair in pool.map(_board, [(size, 1, style, i, True) for i in range(boards)],
                                                   chunksize=4) if pair]
                final[size] = np.array([_pictured.texture(size, m) for _, m in pairs])
                logistic, boosted = aucs([list(row) for row in final[size]] + [list(row) for row in theirs_x[size]],
                                         [1] * len(pairs) + [0] * len(theirs_x[size]))
                print(f"texture round {round_}, {size}x{size}: {len(pairs)} boards, texture AUC "
                      f"{logistic:.3f} / {boosted:.3f}", file=sys.stderr, flush=True)
        if round_ == rounds and rounds > 1:
            break
        _correct(models, first, theirs_x, final, final, strength, pooled)
        for size in sizes:
            means, scales, coef, intercept = models[size]
            log_cap = _cap(models[size], first[size], quantile, size, "the texture likeness")
            tables[size] = Texture(tuple(map(float, means)), tuple(map(float, scales)), tuple(map(float, coef)),
                                   intercept, log_cap)
    module.TEXTURE = dict(tables)
    return tables


def texture_source(tables: dict) -> str:
    def numbers(values) -> str:
        return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ",)"

    return "".join(f"    {size}: Texture(\n        means={numbers(t.means)},\n        scales={numbers(t.scales)},\n"
                   f"        weights={numbers(t.weights)},\n        intercept={t.intercept:.6g},\n"
                   f"        log_cap={t.log_cap:.6g},\n    ),\n" for size, t in sorted(tables.items()))


def source(tables: dict[int, dict[int, Likeness]]) -> str:
    """The Python text of a table's entries, one star count after another."""
    def numbers(values) -> str:
        return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ",)"

    out = []
    for stars, fitted in tables.items():
        rows = [f"{size}: Likeness(\n            names={'NAMES' if t.split is None else 'SPLIT_NAMES'},\n"
                f"            means={numbers(t.means)},\n"
                f"            scales={numbers(t.scales)},\n            weights={numbers(t.weights)},\n"
                f"            intercept={t.intercept:.6g},\n"
                f"            log_caps={{{size}: {t.log_caps[size]:.6g}}},\n"
                + (f"            split={t.split},\n" if t.split is not None else "")
                + ("            drawn=True,\n" if t.drawn else "") + "        )"
                for size, t in fitted.items()]
        out.append(f"    {stars}: {{\n        " + ",\n        ".join(rows) + ",\n    },\n")
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="composed")
    parser.add_argument("--stars", type=int, nargs="*", default=[1])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--sizes", type=int, nargs="*", default=[6, 7, 8, 9, 10, 11, 13, 15])
    parser.add_argument("--rounds", type=int, default=3, help="fitting rounds; the last only measures")
    parser.add_argument("--calibration", type=Path)
    parser.add_argument("--quantile", type=float, default=0.85, help="of the style's own log-ratios")
    parser.add_argument("--strength", type=float, default=1.0, help="inverse regularisation C")
    parser.add_argument("--split", type=float, nargs="*", default=[None],
                        help="boundary per row (/ n) from which a map is ragged, for a corpus of blocky and "
                        "ragged boards (a ratio per kind): one for every star count, or one per --stars")
    parser.add_argument("--stage", choices=("drawn", "finished"), nargs="*", default=["finished"],
                        help="judge the drawing before repair (cheap to turn away) or the finished map: "
                        "one for every star count, or one per --stars")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--on-top", action="store_true",
                        help="fit the style's FINISHED table (finished maps) over its current LIKENESS")
    parser.add_argument("--texture", action="store_true",
                        help="then fit the pictured style's texture likeness (its TEXTURE table) over it")
    parser.add_argument("--pooled", action="store_true",
                        help="one set of weights for all the sizes (each with its own standardisation, "
                        "intercept and cap), for sizes with few published boards")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    path = args.calibration or CORPUS.get(args.style) or SHARED / styles.named(args.style).CALIBRATION
    def per_star(values: list, option: str) -> list:
        if len(values) == 1:
            return values * len(args.stars)
        if len(values) != len(args.stars):
            parser.error(f"{option} takes one value, or one per --stars")
        return values

    stages, splits = per_star(args.stage, "--stage"), per_star(args.split, "--split")
    if args.texture:
        styles.named(args.style).TEXTURE = {}     # the likeness first, without the texture likeness
    fitted_module = importlib.import_module(f"engine.games.starbattle.styles.{args.style}_fit")
    if args.on_top and (set(stages) != {"finished"} or not hasattr(fitted_module, "FINISHED")):
        parser.error("--on-top fits finished maps (--stage finished) of a style with a FINISHED table")
    tables = {stars: fit(args.style, stars, args.sizes, corpus(path, stars), args.boards, args.rounds,
                         args.quantile, args.strength, args.jobs, split, stage == "drawn", args.on_top,
                         pooled=args.pooled)
              for stars, stage, split in zip(args.stars, stages, splits)}
    textures = None
    if args.texture:
        textures = fit_texture(args.style, args.sizes, corpus(path, 1), args.boards, args.rounds, args.quantile,
                               args.strength, args.jobs, pooled=args.pooled)
    command = (f".venv/bin/python bench/fit_likeness.py --style {args.style} --stars "
               f"{' '.join(map(str, args.stars))} --boards {args.boards} --sizes {' '.join(map(str, args.sizes))} "
               f"--rounds {args.rounds} --quantile {args.quantile} --strength {args.strength}"
               + (f" --split {' '.join(map(str, splits))}" if any(splits) else "")
               + f" --stage {' '.join(stages)}" + (" --on-top" if args.on_top else "")
               + (" --texture" if args.texture else "") + (" --pooled" if args.pooled else "") + " --write")
    print(f"the command (for {args.style}_fit.py's docstring): {command}", file=sys.stderr)
    # the star counts not fitted keep their tables, as committed
    merged = {name: dict(getattr(fitted_module, name)) for name in ("LIKENESS", "FINISHED")
              if hasattr(fitted_module, name)}
    merged["FINISHED" if args.on_top else "LIKENESS"].update(tables)
    used = {fitted.names for kinds in merged.values() for sizes in kinds.values() for fitted in sizes.values()}
    names = ", ".join(name for name, kind in (("NAMES", NAMES), ("SPLIT_NAMES", SPLIT_NAMES)) if kind in used)
    text = (f'"""{fitted_module.__doc__}"""\n\n'
            f'from engine.games.starbattle.likeness import {names}, Likeness\n'
            + "".join(f"\n{name}: dict[int, dict[int, Likeness]] = {{\n" + source(dict(sorted(kinds.items()))) + "}\n"
                      for name, kinds in merged.items()))
    if hasattr(fitted_module, "TEXTURE"):     # pictured: its texture likeness, refitted or as committed
        text = text.replace("import NAMES, Likeness\n", "import NAMES, Likeness\n"
                            "from engine.games.starbattle.styles.pictured_types import Texture\n")
        text += ("\nTEXTURE: dict[int, Texture] = {\n"
                 + texture_source(textures if textures is not None else fitted_module.TEXTURE) + "}\n")
    if args.write:
        out = Path(fitted_module.__file__)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(text)


if __name__ == "__main__":
    main()
