"""The `puzzlefleet` command. Bad input gets one line on stderr and a non-zero exit, never a traceback.

Exit codes: 0 success; 1 not found; 2 bad input; `solve` also uses 3 (several solutions) and 4 (none).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import sys
import tempfile
from collections.abc import Sequence
from datetime import date
from typing import Any, NoReturn

import engine
from engine import (BANDS, Board, PuzzleError, Rules, SudokuBoard, SudokuRules, board_from_json, describe_board,
                    from_url, parse_sudoku_line, rules_for, solve_board, to_url)
from puzzlefleet import embedded, fleet, render
from store import (StoreError, board_ids_graded_by_other_versions, get_board, init_db, list_boards, make_engine,
                   regrade_board, session)
from store.render import RenderError, png as render_png, print_page, svg as render_svg
from workers.daily import DailyError, make_daily, today

EXIT_BAD_INPUT, EXIT_NOT_FOUND, EXIT_SEVERAL, EXIT_NONE = 2, 1, 3, 4


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:      # one line instead of usage + message
        raise UsageError(message)


def _positive(limit: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"{value} is out of range 1..{limit}")
        return value
    return parse


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < 2 ** 63:
        raise argparse.ArgumentTypeError("a seed is a whole number 0..2^63-1")
    return value


def _size(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _date(text: str) -> date:
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="puzzlefleet", description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True, parser_class=_Parser)

    gen = verbs.add_parser("generate", help="generate boards into the store (embedded: no broker)")
    gen.add_argument("--game", required=True, choices=engine.GAMES)
    gen.add_argument("--size", required=True, type=_size)
    gen.add_argument("--stars", type=int, help="stars per unit (Star Battle; default 2; Queens is 1)")
    gen.add_argument("--diagonals", action="store_true", help="classic Queens: no two on a diagonal")
    gen.add_argument("--band", choices=BANDS)
    gen.add_argument("--band-by", choices=("technique", "clues"),
                     help="Sudoku: bands by the hardest technique needed (default) or by clue count")
    gen.add_argument("--count", type=_positive(100_000), default=1)
    gen.add_argument("--seed", type=_seed, help="run seed (default: random, printed)")
    gen.add_argument("--jobs", type=_positive(256), default=1, help="worker processes")
    gen.add_argument("--timeout", type=float, default=300.0, help="seconds allowed per board attempt")

    enq = verbs.add_parser("enqueue", help="create a job and send its tasks to the fleet (Celery on Redis)")
    enq.add_argument("--game", required=True, choices=engine.GAMES)
    enq.add_argument("--size", required=True, type=_size)
    enq.add_argument("--stars", type=int, help="stars per unit (Star Battle; default 2; Queens is 1)")
    enq.add_argument("--diagonals", action="store_true", help="classic Queens: no two on a diagonal")
    enq.add_argument("--band", choices=BANDS)
    enq.add_argument("--band-by", choices=("technique", "clues"), help="Sudoku: band by technique (default) "
                                                                       "or by clue count")
    enq.add_argument("--count", type=_positive(1_000_000), default=1)
    enq.add_argument("--seed", type=_seed, help="job seed (default: random, printed)")
    enq.add_argument("--timeout", type=float, default=300.0, help="seconds allowed per board attempt")
    enq.add_argument("--wait", action="store_true", help="follow the job's progress to its end")
    enq.add_argument("--json", action="store_true", help="one JSON line instead of text")

    jobs = verbs.add_parser("jobs", help="a job's progress, or the latest jobs")
    jobs.add_argument("id", nargs="?", type=_positive(2**31 - 1))
    jobs.add_argument("--json", action="store_true", help="JSON lines instead of text")

    exp = verbs.add_parser("export", help="boards from the store")
    exp.add_argument("--game", choices=engine.GAMES)
    exp.add_argument("--size", type=_size)
    exp.add_argument("--band", choices=BANDS)
    exp.add_argument("--job", type=_positive(2**31 - 1), help="only the boards this job stored, in slot order")
    exp.add_argument("--limit", type=_positive(10_000_000))
    exp.add_argument("--format", choices=("json", "text", "pzpr", "svg", "png", "print"), default="json",
                     help="svg/png: two files per board (ID-puzzle, ID-solution) into the --out folder; "
                          "print: one HTML page per puzzle and per solution")
    exp.add_argument("--out", help="write to this file (atomically) instead of stdout; a folder for svg/png")

    show = verbs.add_parser("show", help="one board, coloured, in the terminal")
    show.add_argument("id")

    solve = verbs.add_parser("solve", help="solve and grade boards: JSON (one or one per line) or "
                                           "puzz.link URLs")
    solve.add_argument("file", help="a file, or - for standard input")
    solve.add_argument("--explain", action="store_true", help="after each board, its solve path in words")

    verbs.add_parser("regrade", help="re-grade every board graded by another engine version")

    serve = verbs.add_parser("serve", help="the read API and the player page (uvicorn, one process)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=_positive(65_535), default=8000, help="port (default 8000)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log every request")

    daily = verbs.add_parser("daily", help="the day's set: Star Battle easy..expert and Queens, no "
                                           "near-duplicates (made on first request)")
    daily.add_argument("--date", type=_date, help="YYYY-MM-DD (default: today, UTC)")
    daily.add_argument("--json", action="store_true", help="one JSON board per line instead of a table")
    return parser


def _rules(args: argparse.Namespace) -> Rules | SudokuRules:
    return rules_for(args.game, args.size, args.stars, args.diagonals, args.band_by, args.band)


def cmd_generate(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if not args.timeout > 0:
        raise UsageError("--timeout must be a positive number of seconds")
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    band = f" {args.band}" if args.band else ""
    print(f"generating {args.count} x {rules}{band} (seed {seed}, {args.jobs} process(es))", flush=True)
    summary = embedded.run(rules, count=args.count, seed=seed, jobs=args.jobs, timeout=args.timeout,
                           band=args.band, db_url=None, progress=sys.stderr.isatty())
    print(summary.line())
    return 0 if summary.accepted == summary.requested else 1


def _store_session(read_only: bool = True):
    db = make_engine(None)
    init_db(db)
    return db, session(db, read_only=read_only)


def cmd_enqueue(args: argparse.Namespace) -> int:
    if not args.timeout > 0:
        raise UsageError("--timeout must be a positive number of seconds")
    try:
        sent = fleet.enqueue(game=args.game, size=args.size, stars=args.stars, diagonals=args.diagonals,
                             band_by=args.band_by,
                             band=args.band, count=args.count, seed=args.seed, timeout=args.timeout)
        if not args.wait:
            print(fleet.as_json(sent) if args.json else
                  f"job {sent['job']}: {sent['requested']} x {sent['rules']} (seed {sent['seed']}) "
                  f"sent to queue {sent['queue']}")
            return 0
        if not args.json:
            print(f"job {sent['job']}: {sent['requested']} x {sent['rules']} (seed {sent['seed']})", flush=True)
        status = fleet.follow(sent["job"], progress=sys.stderr.isatty() and not args.json)
    except fleet.FleetError as exc:
        raise UsageError(str(exc)) from None
    print(fleet.as_json(status) if args.json else fleet.describe(status))
    return 0 if status["state"] == "done" else 1


def cmd_jobs(args: argparse.Namespace) -> int:
    if args.id is None:
        listed = fleet.latest()
        print("\n".join(map(fleet.as_json, listed)) if args.json else fleet.table(listed))
        return 0
    status = fleet.job(args.id)
    if status is None:
        print(f"puzzlefleet: no job with id {args.id}", file=sys.stderr)
        return EXIT_NOT_FOUND
    print(fleet.as_json(status) if args.json else fleet.describe(status))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.format in ("svg", "png") and not args.out:
        raise UsageError(f"--format {args.format} writes one file per board: give --out FOLDER")
    if args.job is not None:
        try:
            boards = fleet.job_boards(args.job)
        except fleet.FleetError as exc:
            print(f"puzzlefleet: {exc}", file=sys.stderr)
            return EXIT_NOT_FOUND
        boards = [b for b in boards if (args.game is None or b.get("game") == args.game)
                  and (args.size is None or b.get("rules", {}).get("size") == args.size)
                  and (args.band is None or (b.get("difficulty") or {}).get("band") == args.band)]
        boards = boards[:args.limit]
    else:
        db, ctx = _store_session()
        with ctx as s:
            boards = list_boards(session=s, game=args.game, size=args.size, band=args.band, limit=args.limit)
        db.dispose()
    if args.format in ("svg", "png"):
        _export_pictures(boards, args.format, args.out)
        return 0
    if args.format == "json":
        text = "".join(json.dumps(b, separators=(",", ":")) + "\n" for b in boards)
    elif args.format == "print":
        text = print_page(boards, title=f"puzzlefleet: {len(boards)} board(s)")
    elif args.format == "text":
        text = "".join(_plain(b) + "\n\n" for b in boards)
    else:
        text = "".join(to_url(Board.from_json(b)) + "\n" for b in boards)
    if args.out:
        _write_atomically(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


def _export_pictures(boards: list[dict[str, Any]], fmt: str, folder: str) -> None:
    """ID-puzzle.FMT and ID-solution.FMT for every board, each written atomically into `folder`."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create folder {folder}: {exc.strerror}") from None
    draw = render_svg if fmt == "svg" else render_png
    for board in boards:
        for part, solution in (("puzzle", False), ("solution", True)):
            try:
                picture = draw(board, solution=solution)
            except RenderError as exc:
                raise UsageError(f"board {board.get('id')}: cannot draw it: {exc}") from None
            _write_atomically(os.path.join(folder, f"{board['id']}-{part}.{fmt}"), picture)


def _write_atomically(path: str, text: str | bytes) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".export-")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as out:
        out.write(text)
    os.replace(tmp, path)


def _plain(data: dict[str, Any], *, with_solution: bool = True) -> str:
    """A board as plain text: the Sudoku grid from its value, the others from puzzlefleet.render."""
    if data.get("game") == "sudoku":
        return SudokuBoard.from_json(data).to_text(with_solution=with_solution)
    return render.plain(data, with_solution=with_solution)


def cmd_show(args: argparse.Namespace) -> int:
    db, ctx = _store_session()
    with ctx as s:
        data = get_board(session=s, board_id=args.id)
    db.dispose()
    if data is None:
        print(f"puzzlefleet: no board with id {args.id!r}", file=sys.stderr)
        return EXIT_NOT_FOUND
    print(_plain(data, with_solution=False).splitlines()[0])
    coloured = sys.stdout.isatty() and data.get("game") != "sudoku"
    print(render.coloured(data) if coloured else "\n".join(_plain(data).splitlines()[1:]))
    print(render.explained(data))
    return 0


def parse_boards(text: str) -> list[Board | SudokuBoard]:
    """Boards from JSON (one object, an array, or one per line), puzz.link URLs or 81-character Sudoku
    lines ('.' or '0' for empty), one per line."""
    stripped = text.strip()
    if not stripped:
        raise PuzzleError("no boards in the input")
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, list):
        return [board_from_json(item) for item in whole]
    if isinstance(whole, dict):             # a bare number or string is read line by line below
        return [board_from_json(whole)]
    boards = []
    for number, line in enumerate(stripped.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("{"):
                try:
                    boards.append(board_from_json(json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise PuzzleError(f"malformed JSON ({exc.msg})") from None
            elif "starbattle/" in line:
                boards.append(from_url(line))
            elif set(line) <= set(".0123456789"):
                boards.append(parse_sudoku_line(line))
            else:
                raise PuzzleError("expected a JSON board, a puzz.link starbattle URL or an 81-character "
                                  "Sudoku line")
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
    for board in boards:
        status, out = solve_board(board)
        print(json.dumps(out, separators=(",", ":")), flush=True)
        if args.explain and status == "unique":
            print(render.explained(out), flush=True)
        worst = max(worst, {"unique": 0, "several": EXIT_SEVERAL, "none": EXIT_NONE}[status])
    return worst


def cmd_regrade(args: argparse.Namespace) -> int:
    db = make_engine(None)
    init_db(db)
    with session(db, read_only=True) as s:
        stale = board_ids_graded_by_other_versions(session=s, version=engine.ENGINE_VERSION)
    for board_id in stale:
        with session(db) as s:          # one board per transaction: an interruption loses no work
            data = get_board(session=s, board_id=board_id)
            if data is not None:
                regrade_board(session=s, board_id=board_id,
                              data={**data, **describe_board(board_from_json(data))})
    db.dispose()
    print(f"regraded {len(stale)} board(s) to engine {engine.ENGINE_VERSION}")
    return 0


def cmd_daily(args: argparse.Namespace) -> int:
    day = args.date or today()
    db = make_engine(None)
    try:
        init_db(db)
        boards = make_daily(db=db, day=day)
    except DailyError as exc:
        print(f"puzzlefleet: {exc}", file=sys.stderr)
        return 1
    finally:
        db.dispose()
    if args.json:
        sys.stdout.write("".join(json.dumps(b, separators=(",", ":")) + "\n" for b in boards))
        return 0
    rows = [("pos", "game", "size", "stars", "band", "id")]
    rows += [(str(position), b["game"], str(b["rules"]["size"]), str(b["rules"].get("stars", "")),
              str((b.get("difficulty") or {}).get("band") or "-"), b["id"]) for position, b in enumerate(boards)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    print(f"daily set for {day.isoformat()}")
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn                          # the web stack loads only for this verb

    from store.api import create_app
    db = make_engine(None)
    init_db(db)                             # the API only reads: migrate once, before serving
    db.dispose()
    print(f"serving http://{args.host}:{args.port}/ (API docs at /docs, player at /play/ID)", flush=True)
    try:
        uvicorn.run(create_app(None), host=args.host, port=args.port, access_log=not args.no_access_log,
                    log_level="info")
    except (OSError, SystemExit) as exc:    # uvicorn exits on a port it cannot bind
        raise UsageError(f"cannot serve on {args.host}:{args.port} (in use, or not allowed; exit {exc})") from None
    return 0


COMMANDS = {"serve": cmd_serve, "generate": cmd_generate, "regrade": cmd_regrade, "export": cmd_export, "show": cmd_show, "solve": cmd_solve,
            "enqueue": cmd_enqueue, "jobs": cmd_jobs, "daily": cmd_daily}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.verb](args)
    except (UsageError, PuzzleError, StoreError) as exc:
        print(f"puzzlefleet: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("puzzlefleet: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
