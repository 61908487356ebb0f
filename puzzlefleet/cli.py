"""The `puzzlefleet` command: its parser, the fleet verbs (`enqueue`, `jobs`), and dispatch to the
verbs that work on boards (puzzlefleet.verbs). Bad input gets one line on stderr and a non-zero exit,
never a traceback.

Exit codes: 0 success; 1 not found; 2 bad input; `solve` also uses 3 (several solutions) and 4 (none);
5 `enqueue --wait` found no worker; 6 the store or broker unreachable; 7 `enqueue`'s job exists and was
sent but a later step failed; 130 interrupted.

`jobs` must answer at once, so this module imports neither the engine nor SQLAlchemy: the other verbs'
modules are imported when one of them runs, and the engine's names for --game and --band are read
when an argument is checked.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from datetime import date
from typing import TYPE_CHECKING, NoReturn

from puzzlefleet import fleet
from puzzlefleet.errors import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_JOB_EXISTS, EXIT_NO_WORKER, EXIT_NOT_FOUND,
                                EXIT_UNREACHABLE, MissingExtra, UsageError)
from store.errors import StoreError, StoreUnreachable, one_line

if TYPE_CHECKING:
    from engine import OptionSpec


class _Parser(argparse.ArgumentParser):
    # The engine's list of the games' options whose flags the verb takes (generate and enqueue: every
    # request option; list and export: those boards record, as filters). They are added when the verb
    # is parsed (or its help shown), not when the parser is built: the other verbs need not import the engine.
    game_options_from: str | None = None
    # A request verb may take the flags of the one built-in game named alone (_own_game_specs): set by
    # build_parser(own_game_flags=True), which _parse tries first.
    own_game_flags = False

    # A request verb's help ends with what every game offers (engine.offer_table), read when it is shown.
    offers_in_help = False

    def format_help(self) -> str:
        if self.offers_in_help:
            self.epilog = ("sizes and bands each game offers (a band \"not at\" a size is never found there:\n"
                           "a request for it is refused at once):\n" + importlib.import_module("engine").offer_table())
            self.offers_in_help = False
        return super().format_help()

    def error(self, message: str) -> NoReturn:      # one line instead of usage + message
        raise UsageError(message)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def]  # argparse's own
        if self.game_options_from:
            words = sys.argv[1:] if args is None else list(args)
            named = _named_game(words)
            specs = _own_game_specs(self, words, named) if self.own_game_flags else None
            if specs is None:
                specs = getattr(importlib.import_module("engine"), self.game_options_from)(named)
            _game_option_flags(self, specs)
            self.game_options_from = None
        return super().parse_known_args(args, namespace)


def _own_game_specs(verb: argparse.ArgumentParser, words: Sequence[str], named: str | None) -> Sequence[OptionSpec] | None:
    """The options of the built-in game `named` alone, when the command line asks no help and every
    word starting with "-" is, spelt out whole, one of the verb's flags or that game's: argparse then
    reads it as it does with every game's flags (the same values; an abbreviation or another game's
    flag would read differently, so those take every game's), and the other games are not imported.
    None otherwise. A parse that fails with these is parsed again with every game's (_parse), so its
    error is the usual one."""
    from engine.games import own_option_specs

    own = own_option_specs(named)
    if own is None:
        return None
    known = {flag for flag in verb._option_string_actions if flag not in ("-h", "--help")}
    known.update(spec.flag for spec in own)
    if any(word.startswith("-") and word.split("=", 1)[0] not in known for word in words):
        return None
    return own


def _named_game(args: Sequence[str]) -> str | None:
    """The value of --game on a command line (either spelling), if any."""
    for i, word in enumerate(args):
        if word == "--game" and i + 1 < len(args):
            return args[i + 1]
        if word.startswith("--game="):
            return word.split("=", 1)[1]
    return None


class _GameOption(argparse.Action):
    """A game's option given on the command line, kept in args.game_options under the option's name
    (left out when not given: the game's default)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        namespace.game_options = {**namespace.game_options, self.dest: self.const if self.nargs == 0 else values}


def _game_option_flags(verb: argparse.ArgumentParser, specs: Sequence[OptionSpec]) -> None:
    """A flag for each of these options of the games (--stars, --diagonals, --band-by, ...), listed after
    --size: a yes/no option takes no value, one with choices lists them."""
    added = []
    for spec in specs:
        if spec.kind is bool:
            kwargs: dict = {"nargs": 0, "const": True, "help": spec.help}
        elif spec.choices:
            kwargs = {"choices": spec.choices, "metavar": spec.metavar, "help": f"%(choices)s: {spec.help}"}
        else:
            kwargs = {"type": spec.kind, "metavar": spec.metavar, "help": spec.help}
        added.append(verb.add_argument(spec.flag, dest=spec.name, action=_GameOption, **kwargs))
    # argparse appends; move them where the flags stood before the games declared them, after --size,
    # in the usage line and in the help
    for listed in (verb._actions, verb._optionals._group_actions) if added else ():
        del listed[-len(added):]
        after = next(i for i, action in enumerate(listed) if "--size" in action.option_strings) + 1
        listed[after:after] = added


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


def usable_cores() -> int:
    """The cores this process may run on: a run pinned with taskset, or confined by a cpuset, gets
    its own share, not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:          # macOS and Windows have no affinity call
        return os.cpu_count() or 1


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


FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2099, 12, 31)     # the days a daily set may be made for


def _date(text: str) -> date:
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError
        day = date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise argparse.ArgumentTypeError(f"{text} is outside {FIRST_DAY}..{LAST_DAY}")
    return day


class _EngineNames:
    """Choices named by the engine's game registry (its games, their bands), read on first use, so
    that building the parser does not import the engine. Arguments using it give a metavar, which
    argparse would otherwise build by listing the choices."""

    def __init__(self, name: str, member: str | None = None) -> None:
        self._name, self._member = name, member

    def _values(self) -> Sequence[str]:
        return getattr(importlib.import_module("engine"), self._name)()

    def __contains__(self, value: object) -> bool:
        if self._member:        # asks about one value without listing them all (importing every game)
            return getattr(importlib.import_module("engine"), self._member)(value)
        return value in self._values()

    def __iter__(self) -> Iterator[str]:
        return iter(self._values())


GAMES = _EngineNames("names", member="is_game")
BANDS = _EngineNames("bands", member="is_band")
STYLES = _EngineNames("style_names")


def _is_puzzle_error(exc: BaseException) -> bool:
    # Only a verb that imported the engine can raise its PuzzleError.
    engine = sys.modules.get("engine")
    return engine is not None and isinstance(exc, engine.PuzzleError)


def _request_arguments(verb: argparse.ArgumentParser, *, max_count: int, seed_of: str, own_game_flags: bool) -> None:
    """What `generate` and `enqueue` both take: generate(game, size, band, count) and its options."""
    verb.add_argument("--game", required=True, choices=GAMES, metavar="GAME", help="%(choices)s")
    verb.add_argument("--size", type=_size, help="the grid's width (default: the game's only size, for a game "
                                                 "with one; the sizes and bands each game offers are listed below)")
    verb.game_options_from = "option_specs"        # type: ignore[attr-defined]  # see _Parser
    verb.own_game_flags = own_game_flags           # type: ignore[attr-defined]
    verb.offers_in_help = True                     # type: ignore[attr-defined]
    verb.set_defaults(game_options={})
    verb.add_argument("--band", choices=BANDS, metavar="BAND", help="%(choices)s")
    verb.add_argument("--style", choices=STYLES, metavar="STYLE",
                      help="%(choices)s: how the regions are drawn, for games with drawing styles (default: "
                           "the game's for the rules; GET /games lists which rules take which)")
    verb.add_argument("--count", type=_positive(max_count), default=1)
    verb.add_argument("--seed", type=_seed, help=f"{seed_of} seed (default: random, printed)")
    verb.add_argument("--timeout", type=float, default=300.0,
                      help="seconds allowed per board attempt; enqueue --wait also gives up after this long "
                           "when no worker consumes the queue and the job is still queued (exit 5)")


def _board_filters(verb: argparse.ArgumentParser) -> None:
    """What `export` and `list` select stored boards by."""
    verb.add_argument("--game", choices=GAMES, metavar="GAME", help="%(choices)s")
    verb.add_argument("--size", type=_size)
    verb.game_options_from = "recorded_option_specs"   # type: ignore[attr-defined]  # see _Parser
    verb.set_defaults(game_options={})
    verb.add_argument("--band", choices=BANDS, metavar="BAND", help="%(choices)s")
    verb.add_argument("--style", choices=STYLES, metavar="STYLE",
                      help="%(choices)s: only boards drawn in this style (boards made before styles were "
                           "recorded have none)")
    verb.add_argument("--job", type=_positive(2**31 - 1), help="only the boards this job stored")


def build_parser(*, own_game_flags: bool = False) -> argparse.ArgumentParser:
    """The command line's parser; with `own_game_flags`, `generate` and `enqueue` may take the flags of
    the game named alone (_own_game_specs)."""
    parser = _Parser(prog="puzzlefleet", description="Generate logic puzzles with exactly one solution, "
                     "grade them like a person, keep them in a store, and serve them. Quick start: "
                     "puzzlefleet generate --game queens --size 8 --count 3; puzzlefleet list; puzzlefleet show ID.",
                     epilog="Exit codes: 0 success, 1 not found or fewer boards than asked, 2 bad input, "
                            "3 and 4 (solve) several or no solutions, 5 (enqueue --wait) no worker took "
                            "the job, 6 the store or the broker unreachable (try again later), 7 (enqueue) "
                            "the job exists and was sent but a later step failed, 130 interrupted.")
    verbs = parser.add_subparsers(dest="verb", required=True, parser_class=_Parser)

    gen = verbs.add_parser("generate", help="generate boards into the store (embedded: no broker)",
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    _request_arguments(gen, max_count=100_000, seed_of="run", own_game_flags=own_game_flags)
    gen.add_argument("--jobs", type=_positive(256), default=usable_cores(),
                     help="worker processes (default: %(default)s, the cores this command may run on)")

    enq = verbs.add_parser("enqueue", help="create a job and send its tasks to the fleet (Celery on Redis or "
                                                  "RabbitMQ)", formatter_class=argparse.RawDescriptionHelpFormatter)
    _request_arguments(enq, max_count=1_000_000, seed_of="job", own_game_flags=own_game_flags)
    enq.add_argument("--wait", action="store_true", help="follow the job's progress to its end")
    enq.add_argument("--json", action="store_true", help="JSON lines instead of text: the job as soon as it "
                                                          "exists, then (--wait) its final progress")
    enq.add_argument("--key", help="an idempotency key (up to 200 characters): if a job was already made with "
                                   "it, that job is returned (and sent, if sending it had failed) instead "
                                   "of a second one; use it when retrying")

    jobs = verbs.add_parser("jobs", help="a job's progress, or the latest jobs")
    jobs.add_argument("id", nargs="?", type=_positive(2**31 - 1))
    jobs.add_argument("--json", action="store_true", help="JSON lines instead of text")

    exp = verbs.add_parser("export", help="boards from the store")
    _board_filters(exp)
    exp.add_argument("--limit", type=_positive(10_000_000))
    exp.add_argument("--format", choices=("json", "text", "pzpr", "svg", "png", "print"), default="json",
                     help="svg/png: two files per board (ID-puzzle, ID-solution) into the --out folder; "
                          "print: one HTML page per puzzle and per solution")
    exp.add_argument("--out", help="write to this file (atomically) instead of stdout; an existing folder "
                                   "(or one ending in /) gets boards.jsonl, boards.txt, boards.pzpr.txt or "
                                   "boards.html; svg/png need a folder")

    show = verbs.add_parser("show", help="one board: the puzzle, its solution and solve path (coloured on a "
                                         "terminal unless NO_COLOR is set)")
    show.add_argument("id")
    show.add_argument("--no-solution", action="store_true", help="the puzzle only: no solution, no solve path")

    lst = verbs.add_parser("list", help="the newest boards in the store, a line each")
    _board_filters(lst)
    lst.add_argument("--limit", type=_positive(1_000_000), default=20, help="how many (default 20)")

    solve = verbs.add_parser("solve", help="solve and grade boards: JSON (one or one per line) or "
                                           "puzz.link URLs")
    solve.add_argument("file", help="a file, or - for standard input")
    solve.add_argument("--explain", action="store_true", help="after each board, its solve path in words")
    solve.add_argument("--no-grade", dest="grade", action="store_false",
                       help="only prove each board unique and give its solution: no grade, solve path or gates")

    regrade = verbs.add_parser("regrade", help="re-grade every board graded by another engine version "
                                               "(in this process, or with --fleet by the workers)")
    regrade.add_argument("--fleet", action="store_true",
                         help="send the work to the fleet's workers and wait, showing progress; run it again "
                              "to resume: boards already regraded are not done twice")
    regrade.add_argument("--patience", type=_positive(86_400), default=120, metavar="SECONDS",
                         help="with --fleet: give up after this long without a board regraded (default 120)")

    serve = verbs.add_parser("serve", help="the read API and the player page (uvicorn)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=_positive(65_535), default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=_positive(256), default=1,
                       help="server processes sharing the port (default 1; about one a core for many readers)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log every request")

    daily = verbs.add_parser("daily", help="the day's set: a board per position of PUZZLEFLEET_DAILY_PLAN (by "
                                           "default every game's own positions), no near-duplicates (made on "
                                           "first request)")
    daily.add_argument("--date", type=_date, help="YYYY-MM-DD (default: today, UTC)")
    daily.add_argument("--json", action="store_true", help="one JSON board per line instead of a table")
    return parser


def _warn(message: str) -> None:
    print(f"puzzlefleet: warning: {message}", file=sys.stderr, flush=True)


def cmd_enqueue(args: argparse.Namespace) -> int:
    """Make the job, say its id at once (stdout), send it, then check that a worker consumes its queue
    and, with --wait, follow it. A failure once the job exists is one warning line: exit 6 when its
    tasks could not be sent (enqueue again with the same --key to send them), 7 when they were."""
    if not args.timeout > 0:
        raise UsageError("--timeout must be a positive number of seconds")

    def created(summary: dict) -> None:
        if summary.get("differs"):
            _warn(f"job {summary['job']} was made with key {summary['key']!r} from another request (its "
                  f"{', '.join(summary['differs'])} differ): that job is kept, this request's values are not used")
        if args.json:
            print(fleet.as_json(summary), flush=True)
        else:
            again = " (already made with this key)" if summary.get("existing") else ""
            print(f"job {summary['job']}: {summary['requested']} x {summary['rules']} (seed {summary['seed']}), "
                  f"queue {summary['queue']}{again}", flush=True)

    try:
        sent = fleet.enqueue(game=args.game, size=args.size, style=args.style, band=args.band, count=args.count,
                             seed=args.seed, timeout=args.timeout, key=args.key, on_created=created,
                             **args.game_options)
    except fleet.FleetError as exc:
        if isinstance(exc, fleet.BrokerUnreachable):
            print(f"puzzlefleet: error: {exc}", file=sys.stderr)
            return EXIT_UNREACHABLE
        raise UsageError(str(exc)) from None
    job_id, queue = sent["job"], sent["queue"]
    # From here on the job exists and its tasks are sent: whatever fails is a warning, and exit 7.
    try:
        # Nobody to take the job would leave it queued, silently: say so (a broadcast, about a second;
        # once more a second later before saying it, for a worker that was reconnecting).
        answered, consuming = fleet.consumers(queue)
        if not consuming:
            time.sleep(1.0)
            answered, consuming = fleet.consumers(queue)
        unserved = not consuming
    except Exception as exc:         # the broker went away after the send (a cut connection, a restart)
        _warn(f"job {job_id} was sent, but asking the workers whether one consumes queue {queue} failed: "
              f"{one_line(exc, 200)}")
        if not args.wait:
            return EXIT_JOB_EXISTS
        unserved, answered = None, 0
    if unserved and answered:
        _warn(f"no worker consumes queue {queue} (of the {answered} that answered; one reconnecting to the broker "
              f"does not answer); job {job_id} waits until one does (celery -A workers worker -Q {queue},fleet)")
    elif unserved:
        _warn(f"no worker answered: none is running, or they are reconnecting to the broker; job {job_id} waits "
              f"until one consumes queue {queue} (celery -A workers worker -Q {queue},fleet)")
    if not args.wait:
        return 0
    try:
        status = fleet.follow(job_id, progress=sys.stderr.isatty() and not args.json,
                              give_up_queued=args.timeout if unserved else None)
    except fleet.NoWorker as exc:
        print(f"puzzlefleet: error: {exc}", file=sys.stderr)
        return EXIT_NO_WORKER
    except (fleet.FleetError, StoreError) as exc:
        _warn(f"job {job_id} exists, but following it failed: {one_line(exc, 200)} "
              f"(puzzlefleet jobs {job_id} shows it)")
        return EXIT_JOB_EXISTS
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


FLEET_COMMANDS = {"enqueue": cmd_enqueue, "jobs": cmd_jobs}

# The optional parts of the install, by the top-level module a verb fails to import without them.
EXTRAS = {"celery": "fleet", "kombu": "fleet", "redis": "fleet", "amqp": "fleet", "flower": "fleet",
          "prometheus_client": "fleet", "pydantic_settings": "fleet", "fastapi": "api", "starlette": "api",
          "uvicorn": "api", "psycopg": "postgres"}


def console() -> int:
    """The installed `puzzlefleet` command: main() with the garbage collector set for a process that
    ends when the verb does. Start-up imports allocate a few hundred thousand long-lived objects and
    no garbage, so collecting while they load is wasted (~30 ms), and so is walking them again in
    every later full collection (~35 ms) and at exit (~60 ms): they are frozen out of its sight.

    Pydantic looks for plugins when its first model is built, by reading the metadata of every installed
    package (~10 ms of a `generate`); the command uses none, so it looks only if PYDANTIC_DISABLE_PLUGINS
    is set (empty: load them all)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    gc.disable()
    try:
        return main()
    finally:
        gc.freeze()


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _run(argv)
        sys.stdout.flush()          # here, where a closed pipe can still be caught
        return code
    except BrokenPipeError:
        # The reader went away (`... | head`): what it wanted it has; end quietly. Point stdout at
        # /dev/null so that the interpreter's own flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _collect_from_here() -> None:
    """The verb's modules are loaded: if console() turned the collector off for that, turn it back
    on for the work, past what is loaded so far."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line read with the flags of the one game it names where that reads the same
    (_own_game_specs: the other games are not imported), else, and after any error, with every game's."""
    try:
        return build_parser(own_game_flags=True).parse_args(argv)
    except UsageError:
        return build_parser().parse_args(argv)


def _run(argv: Sequence[str] | None) -> int:
    try:
        args = _parse(argv)
        if args.verb in FLEET_COMMANDS:
            _collect_from_here()
            return FLEET_COMMANDS[args.verb](args)
        from puzzlefleet import verbs
        _collect_from_here()
        return verbs.COMMANDS[args.verb](args)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in EXTRAS:
            raise
        print(f"puzzlefleet: error: {MissingExtra(EXTRAS[missing], missing)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except StoreUnreachable as exc:
        print(f"puzzlefleet: error: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except (UsageError, StoreError) as exc:
        print(f"puzzlefleet: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:
        if not _is_puzzle_error(exc):
            raise
        print(f"puzzlefleet: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("puzzlefleet: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(console())
