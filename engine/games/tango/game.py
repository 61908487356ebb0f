"""Tango (LinkedIn's daily binary puzzle) as a Game object. Its board, counter, ladder and generator are
imported by the methods that use them: listing the games' options loads this module alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.grid import lines
from engine.errors import InvalidBoard
from engine.games.base import (EdgeClue, Game, Gates, Offer, Picture, PlaySpec, alike, at_most, hints_from_steps,
                               no_run, unlike)
from engine.games.tango.glyphs import DRAWING, MOON, OPPOSITE, SAME, SUN
from engine.games.tango.model import TangoBoardModel
from engine.games.tango.reach import UNREACHABLE
from engine.games.tango.rules import BANDS, MIN_FUN, SIZES, TangoRules

if TYPE_CHECKING:
    from engine.games.tango.board import TangoBoard

DRAWN = {"S": SUN, "M": MOON}


def _board(model: TangoBoardModel, seed: int | None = None) -> TangoBoard:
    from engine.games.tango.board import board_of
    return board_of(model.rules.size, model.givens, [(clue.cells, clue.kind) for clue in model.clues],
                    model.solution, seed)


def _edges(board: TangoBoard) -> tuple[EdgeClue, ...]:
    return tuple(EdgeClue((clue.first, clue.second), SAME if clue.same else OPPOSITE) for clue in board.clues)


class Tango(Game):
    name = "tango"
    title = "Tango"
    model = TangoBoardModel
    bands = BANDS
    input_mode = "marks"
    text_form = None
    drawing = DRAWING

    def rules(self, *, size: int, band: str | None = None, **options: Any) -> TangoRules:
        self.read_options(options)          # it takes none: refuses any asked for
        self.check_band(band)
        self.check_offered(size, {}, band)
        return TangoRules(size)

    def offers(self) -> tuple[Offer, ...]:
        return (Offer({}, tuple(SIZES), BANDS, UNREACHABLE),)

    def sample_request(self) -> dict[str, Any]:
        return {"size": 6}

    def parse_rules(self, text: str) -> TangoRules:
        return TangoRules.parse(text)

    def board_from_json(self, data: Any) -> TangoBoard:
        model = self.validate(data)
        assert isinstance(model, TangoBoardModel)
        return _board(model, model.seed)

    def generate(self, rules: TangoRules, seed: int, *, band: str | None = None,
                 timeout: float | None = None, style: str | None = None) -> tuple[TangoBoard, Any]:
        self.check_style(rules, style)          # no styles: any is refused
        from engine.games.tango.generator import generate
        return generate(rules, seed, band=band, timeout=timeout)

    def solutions(self, board: TangoBoard, limit: int) -> list[str]:
        from engine.games.tango.count import count_solutions
        return list(count_solutions(board, limit).solutions)

    def with_solution(self, board: TangoBoard, solution: str) -> TangoBoard:
        return board.with_solution(solution)

    def solution_json(self, board: TangoBoard, solution: str | None) -> str:
        return solution or ""

    def describe(self, board: TangoBoard) -> dict[str, Any]:
        from engine.games.tango.grade import describe
        return describe(board)

    def gates(self, board: Any) -> Gates:
        return Gates(min_fun=MIN_FUN)

    def text(self, data: Mapping[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
        model = self.validate_grid(data)
        assert isinstance(model, TangoBoardModel)
        return _board(model).to_text(with_solution=with_solution)

    def rules_sentence(self, data: Mapping[str, Any]) -> str:
        n = (data.get("rules") or {}).get("size", 6)
        half = n // 2 if isinstance(n, int) else 3
        return (f"Fill every cell with a sun or a moon: each row and each column holds {half} of each, never "
                "three alike side by side; cells joined by = are alike, cells joined by × differ.")

    def _rules_sentence_ms(self, data: Mapping[str, Any]) -> str:
        """The rules in Malay, for the player's `?lang=ms`."""
        n = (data.get("rules") or {}).get("size", 6)
        half = n // 2 if isinstance(n, int) else 3
        return (f"Isi setiap petak dengan matahari atau bulan: setiap baris dan setiap lajur mengandungi {half} "
                "daripada setiap satu, tidak pernah tiga yang sama bersebelahan; petak yang dihubungkan dengan = "
                "adalah sama, petak yang dihubungkan dengan × berbeza.")

    def picture(self, data: Mapping[str, Any], *, solution: bool = False) -> Picture:
        model = self.validate_grid(data)
        assert isinstance(model, TangoBoardModel)
        board = _board(model)
        if solution and not board.solution:
            raise InvalidBoard("the board has no solution to draw")
        n = board.n
        symbols = []
        for cell, given in enumerate(board.givens):
            if given != ".":
                symbols.append((cell // n, cell % n, DRAWN[given], True))
            elif solution:
                symbols.append((cell // n, cell % n, DRAWN[board.solution[cell]], False))
        # one area for the whole grid, not coloured; the clues stand on their edges
        areas = tuple((0,) * n for _ in range(n))
        return Picture(n, areas, False, symbols=tuple(symbols), edges=_edges(board))

    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        from engine.games.tango.board import line_cells, line_name
        model = self.validate(data)
        assert isinstance(model, TangoBoardModel)
        board = _board(model)
        n = board.n
        units = lines(n)                      # rows, then columns: the order line_name counts
        names = {line_name(n, line): cells for line, cells in enumerate(line_cells(n))}
        checks = (*(at_most(symbol, n // 2, unit) for unit in units for symbol in (SUN, MOON)), no_run(3),
                  *((alike if clue.same else unlike)(clue.first, clue.second) for clue in board.clues))
        return PlaySpec(
            mode="marks", n=n, areas=tuple((0,) * n for _ in range(n)), coloured=False, units=units,
            answer=tuple(DRAWN[ch] for ch in model.solution) if model.solution else ("",) * (n * n),
            symbols=(SUN, MOON), givens=tuple(DRAWN.get(ch, "") for ch in board.givens), checks=checks,
            edges=_edges(board), hints=hints_from_steps(model.steps, names, (SUN, MOON)),
            rules={"ms": self._rules_sentence_ms(data)},
            words={"en": {SUN: "sun", MOON: "moon"}, "ms": {SUN: "matahari", MOON: "bulan"}})


GAME = Tango()
