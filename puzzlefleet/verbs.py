"""The verbs that work on boards: generate (the embedded run), export, show, solve, regrade, daily
and serve. Dispatched from puzzlefleet.cli, which parses the command line; the same one-line errors
and exit codes (puzzlefleet.errors). Whatever depends on the game is asked of its Game object.

What only one verb needs (pictures, the daily plan, the web stack) is imported by that verb, so that
`generate` starts quickly."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import engine
from engine import PuzzleError, all_games, board_from_json, game_of, recorded_option_specs
from puzzlefleet import embedded, fleet, render
from puzzlefleet.progress import Progress
from puzzlefleet.errors import (EXIT_INTERRUPTED, EXIT_NONE, EXIT_NOT_FOUND, EXIT_SEVERAL, EXIT_UNREACHABLE,
                                UsageError)
from store import board_summaries, count_stale_boards, get_board, init_db, make_engine, session
from store.progress import describe_store
from store.repo import Listing, board_style, iter_board_texts, recorded_options
from jobs.params import BadTask, JobParams


def cmd_generate(args: argparse.Namespace) -> int:
    if not args.timeout > 0:
        raise UsageError("--timeout must be a positive number of seconds")
    try:
        params = JobParams.build(game=args.game, size=args.size, band=args.band, timeout=args.timeout,
                                 style=args.style, **args.game_options)
    except BadTask as exc:
        raise UsageError(str(exc)) from None
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    band = f" {args.band}" if args.band else ""
    style = f", style {args.style}" if args.style else ""
    print(f"generating {args.count} x {params.rules()}{band}{style} (seed {seed}, "
          f"{embedded.processes(args.jobs, args.count)} process(es))",
          flush=True)
    summary = embedded.run(params, count=args.count, seed=seed, jobs=args.jobs, db_url=None,
                           progress=sys.stderr.isatty())
    if summary.interrupted:
        print(f"interrupted: stored {summary.accepted} of {summary.requested} board(s) before Ctrl-C "
              f"(job {summary.job})")
    print(summary.line())
    _say_stored(summary)
    if summary.interrupted:
        return EXIT_INTERRUPTED
    return 0 if summary.accepted == summary.requested else 1


def _say_stored(summary: embedded.Summary) -> None:
    """The ids just stored (the first few) and where the store is."""
    if summary.accepted:
        more = (f" and {summary.accepted - len(summary.first_ids)} more (puzzlefleet list --job {summary.job})"
                if summary.accepted > len(summary.first_ids) else "")
        print(f"stored: {' '.join(summary.first_ids)}{more}")
    print(f"store: {describe_store()}")


def _store_session(read_only: bool = True):
    db = make_engine(None)
    init_db(db)
    return db, session(db, read_only=read_only)


def _check_style_filter(args: argparse.Namespace) -> None:
    """A --style no board of the other filters can have is bad input, as it is to generate."""
    if args.style is not None:
        engine.check_style_filter(args.style, game=args.game, size=args.size, **args.game_options)


def cmd_export(args: argparse.Namespace) -> int:
    if args.format in ("svg", "png") and not args.out:
        raise UsageError(f"--format {args.format} writes one file per board: give --out FOLDER")
    _check_style_filter(args)
    if args.job is not None:
        try:
            boards = fleet.job_boards(args.job)
        except fleet.FleetError as exc:
            print(f"puzzlefleet: {exc}", file=sys.stderr)
            return EXIT_NOT_FOUND
        boards = [b for b in boards if (args.game is None or b.get("game") == args.game)
                  and (args.size is None or b.get("rules", {}).get("size") == args.size)
                  and (args.band is None or (b.get("difficulty") or {}).get("band") == args.band)
                  and (args.style is None or board_style(b) == args.style)
                  and all(recorded_options(b.get("rules") or {})[name] == value
                          for name, value in args.game_options.items())]
        _export(iter(json.dumps(b, separators=(",", ":")) for b in boards[:args.limit]), args)
        return 0
    db, ctx = _store_session()
    try:
        with ctx as s:
            # Read by cursor while written: memory stays bounded whatever the store holds.
            listing = Listing.of(game=args.game, size=args.size, band=args.band, style=args.style,
                                 options=args.game_options)
            _export(iter_board_texts(session=s, listing=listing, limit=args.limit), args)
    finally:
        db.dispose()
    return 0


def _export(texts: Iterator[str], args: argparse.Namespace) -> None:
    """Write board JSON texts in the asked format, to --out or stdout, as they come."""
    counted = [0]

    def boards() -> Iterator[dict[str, Any]]:
        for text in texts:
            counted[0] += 1
            yield json.loads(text)

    if args.format in ("svg", "png"):
        _export_pictures(boards(), args.format, args.out)
        return
    chunks: Iterable[str]
    if args.format == "json":
        def lines() -> Iterator[str]:
            for text in texts:           # as stored: no parse and re-dump
                counted[0] += 1
                yield text + "\n"
        chunks = lines()
    elif args.format == "print":
        from store.render import print_page
        every = list(boards())           # one page of every board: it is held whole
        chunks = [print_page(every, title=f"puzzlefleet: {len(every)} board(s)")]
    elif args.format == "text":
        chunks = (_plain(b) + "\n\n" for b in boards())
    else:
        chunks = _urls(boards())
    if args.out:
        path = args.out
        if os.path.isdir(path) or path.endswith(os.sep):
            os.makedirs(path, exist_ok=True)
            path = os.path.join(path, EXPORT_FILE[args.format])
        _write_atomically(path, chunks)
        print(f"wrote {counted[0]} board(s) to {path}", file=sys.stderr)
    else:
        for chunk in chunks:
            sys.stdout.write(chunk)


# The file an export writes when --out names a folder.
EXPORT_FILE = {"json": "boards.jsonl", "text": "boards.txt", "pzpr": "boards.pzpr.txt", "print": "boards.html"}


def _urls(boards: Iterable[dict[str, Any]]) -> Iterator[str]:
    """puzz.link URLs, one per line, of the boards puzz.link states exactly; the others (a game it
    does not have, Queens with the diagonal rule) are counted on stderr, not an error: a store of
    several games exports what it can."""
    skipped: Counter[str] = Counter()
    for data in boards:
        game = game_of(data)
        try:
            yield game.to_url(game.board_from_json(data)) + "\n"
        except PuzzleError as exc:
            skipped[str(exc)] += 1
    if skipped:
        why = "; ".join(f"{n}: {reason}" for reason, n in sorted(skipped.items()))
        print(f"puzzlefleet: skipped {sum(skipped.values())} board(s) with no exact puzz.link form ({why})",
              file=sys.stderr)


def _export_pictures(boards: Iterable[dict[str, Any]], fmt: str, folder: str) -> None:
    """ID-puzzle.FMT and ID-solution.FMT for every board, each written atomically into `folder`."""
    from store.render import RenderError, png as render_png, svg as render_svg
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"--format {fmt} writes two files per board: --out must be a folder, and {folder} is a file")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create folder {folder}: {exc.strerror}") from None
    draw = render_svg if fmt == "svg" else render_png
    written = 0
    for board in boards:
        for part, solution in (("puzzle", False), ("solution", True)):
            try:
                picture = draw(board, solution=solution)
            except RenderError as exc:
                raise UsageError(f"board {board.get('id')}: cannot draw it: {exc}") from None
            _write_atomically(os.path.join(folder, f"{board['id']}-{part}.{fmt}"), [picture])
            written += 1
    print(f"wrote {written} file(s) to {folder}", file=sys.stderr)


def _write_atomically(path: str, chunks: Iterable[str | bytes]) -> None:
    """Write a whole file or nothing: the chunks into a temporary file in the same folder, renamed over
    `path` once all are written; the file gets the permissions the user's umask gives a new file (not
    mkstemp's 0600)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".export-")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                out.write(chunk if isinstance(chunk, bytes) else chunk.encode())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _plain(data: dict[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
    """A board as text, as its game writes it."""
    return game_of(data).text(data, with_solution=with_solution, colour=colour)


def _colour() -> bool:
    """ANSI colours on a terminal, unless NO_COLOR is set (the common convention for turning them off)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def cmd_show(args: argparse.Namespace) -> int:
    db, ctx = _store_session()
    with ctx as s:
        data = get_board(session=s, board_id=args.id)
    db.dispose()
    if data is None:
        print(f"puzzlefleet: no board with id {args.id!r}", file=sys.stderr)
        return EXIT_NOT_FOUND
    print(_plain(data, with_solution=not args.no_solution, colour=_colour()))
    if not args.no_solution:
        print(render.explained(data))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    _check_style_filter(args)
    db, ctx = _store_session()
    with ctx as s:
        rows, total, more = board_summaries(session=s, game=args.game, size=args.size, band=args.band,
                                      style=args.style, options=args.game_options, job_id=args.job, limit=args.limit)
    db.dispose()
    if not rows:
        print(f"no boards in {describe_store()}" + (" match" if total == 0 and _filtered(args) else ""))
        return 0
    table = [("id", "game", "size", _options_heading(), "band", "style", "score", "created (UTC)")]
    for row in rows:
        created = row["created_at"]
        table.append((row["id"], row["game"], f"{row['size']}x{row['size']}",
                      _options_cell(row["rules"]),
                      row["band"] or "-", row["style"] or "-", "-" if row["score"] is None else str(row["score"]),
                      created.strftime("%Y-%m-%d %H:%M:%S") if hasattr(created, "strftime") else str(created)[:19]))
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
    if more:
        print(f"newest {len(rows)} of more than {total:,}; --limit N for more")
    elif total > len(rows):
        print(f"newest {len(rows)} of {total:,}; --limit N for more")
    return 0


def _options_heading() -> str:
    """The heading of a table's column of options boards record: the names of those with values."""
    return "/".join(spec.name for spec in recorded_option_specs() if spec.kind is not bool)


def _options_cell(rules: dict[str, Any]) -> str:
    """A board's recorded options in a table: the values of those with values, then the word for each
    yes/no rule in force ("1 diag")."""
    shown = recorded_options(rules)
    specs = recorded_option_specs()
    return " ".join([str(shown[spec.name]) for spec in specs if spec.kind is not bool and shown[spec.name] is not None]
                    + [spec.label or spec.name for spec in specs if spec.kind is bool and shown[spec.name]])


def _filtered(args: argparse.Namespace) -> bool:
    return bool(args.game_options) or any(value is not None for value in (args.game, args.size, args.band,
                                                                             args.style, args.job))


def _from_line(line: str) -> Any:
    """A board from the one-line text form of whichever game reads it."""
    for game in all_games():
        board = game.parse_text(line)
        if board is not None:
            return board
    forms = [game.text_form for game in all_games() if game.text_form]
    raise PuzzleError("expected a JSON board" + "".join(f", {form}" for form in forms[:-1])
                      + (f" or {forms[-1]}" if forms else ""))


class Brought(NamedTuple):
    """A board as a user brought it: the board value and the id they gave it (None: none given)."""
    board: Any
    given_id: str | int | None


def _brought(data: Any) -> Brought:
    board = board_from_json(data)           # checks the id's form with the rest of the board
    return Brought(board, data.get("id"))


def parse_boards(text: str) -> list[Brought]:
    """Boards from JSON (one object, an array, or one per line), or the games' one-line text forms
    (puzz.link URLs, 81-character Sudoku lines, ...), one per line."""
    stripped = text.strip()
    if not stripped:
        raise PuzzleError("no boards in the input")
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, list):
        if not whole:
            raise PuzzleError("no boards in the input (an empty list)")
        return [_brought(item) for item in whole]
    if isinstance(whole, dict):             # a bare number or string is read line by line below
        return [_brought(whole)]
    boards = []
    for number, line in enumerate(stripped.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("{"):
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise PuzzleError(f"malformed JSON ({exc.msg})") from None
                boards.append(_brought(data))
            else:
                boards.append(Brought(_from_line(line), None))
        except PuzzleError as exc:
            raise PuzzleError(f"line {number}: {exc}") from None
    return boards


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}") from None
    boards = parse_boards(text)
    worst = 0
    for board, given_id in boards:
        status, out = engine.game_named(board.game).solve(board, grade=args.grade)
        # The answer keeps the user's id; the id the store would give the board is beside it.
        out["board_id"] = out.get("id")
        if given_id is not None:
            out["id"] = given_id
        print(json.dumps(out, separators=(",", ":")), flush=True)
        if args.explain and status == "unique" and args.grade:
            print(render.explained(out), flush=True)
        worst = max(worst, {"unique": 0, "several": EXIT_SEVERAL, "none": EXIT_NONE}[status])
    return worst


def cmd_regrade(args: argparse.Namespace) -> int:
    db = make_engine(None)
    init_db(db)
    try:
        with session(db, read_only=True) as s:
            stale = count_stale_boards(session=s, version=engine.ENGINE_VERSION)
        bar = Progress(stale, sys.stderr.isatty(), unit=" boards")
        if args.fleet:
            try:
                done, left = fleet.regrade(db, stale, bar.update, patience=args.patience)
            except fleet.BrokerUnreachable as exc:
                bar.close()
                print(f"puzzlefleet: error: {exc}", file=sys.stderr)
                return EXIT_UNREACHABLE
        else:
            from jobs.regrade import regrade_range
            done, left = regrade_range(db=db, progress=lambda n: bar.update(bar.done + n))[0], 0
        bar.close()
    finally:
        db.dispose()
    print(f"regraded {done} board(s) to engine {engine.ENGINE_VERSION}")
    if left:
        print(f"puzzlefleet: {left} board(s) still graded by another engine after {args.patience} s without "
              f"progress: is a worker consuming the fleet queue? `regrade --fleet` again resumes", file=sys.stderr)
        return 1
    return 0


def cmd_daily(args: argparse.Namespace) -> int:
    from jobs.daily import DailyError, PlanError, make_daily, plan_from_environment, today
    try:
        plan = plan_from_environment()          # PUZZLEFLEET_DAILY_PLAN, checked before the store is opened
    except PlanError as exc:
        raise UsageError(str(exc)) from None
    day = args.date or today()
    db = make_engine(None)
    try:
        init_db(db)
        boards = make_daily(db=db, day=day, plan=plan)
    except DailyError as exc:
        print(f"puzzlefleet: {exc}", file=sys.stderr)
        return 1
    finally:
        db.dispose()
    if args.json:
        sys.stdout.write("".join(json.dumps(b, separators=(",", ":")) + "\n" for b in boards))
        return 0
    rows = [("pos", "game", "size", _options_heading(), "band", "id")]
    rows += [(str(position), b["game"], str(b["rules"]["size"]), _options_cell(b["rules"]) or "-",
              str((b.get("difficulty") or {}).get("band") or "-"), b["id"]) for position, b in enumerate(boards)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    print(f"daily set for {day.isoformat()}")
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn                          # the web stack loads only for this verb

    from store.api import create_app
    from store.api.http import PICTURES_VARIABLE, pictures_dir
    folder = pictures_dir()
    if folder is not None:                  # a folder the pictures cannot be written to is a setup error
        try:
            (folder / "boards").mkdir(parents=True, exist_ok=True)
            if not os.access(folder / "boards", os.W_OK | os.X_OK):
                raise PermissionError(13, "not writable")
        except OSError as exc:
            raise UsageError(f"{PICTURES_VARIABLE}={folder}: cannot write pictures there ({exc.strerror})") from None
    db = make_engine(None)
    init_db(db)                             # the API only reads: migrate once, before serving
    db.dispose()
    print(f"serving http://{args.host}:{args.port}/ (API docs at /docs, player at /play/ID)", flush=True)
    if folder is not None:
        print(f"puzzle pictures kept as files in {folder / 'boards'}", flush=True)
    try:
        # Several processes need the app by name: each builds its own (its engine, its picture cache).
        app = create_app(None) if args.workers == 1 else "store.api:create_app"
        uvicorn.run(app, factory=args.workers > 1, workers=args.workers, host=args.host, port=args.port,
                    access_log=not args.no_access_log, log_level="info")
    except (OSError, SystemExit) as exc:    # uvicorn exits on a port it cannot bind
        raise UsageError(f"cannot serve on {args.host}:{args.port} (in use, or not allowed; exit {exc})") from None
    return 0


COMMANDS = {"generate": cmd_generate, "export": cmd_export, "show": cmd_show, "list": cmd_list, "solve": cmd_solve,
            "regrade": cmd_regrade, "daily": cmd_daily, "serve": cmd_serve}
