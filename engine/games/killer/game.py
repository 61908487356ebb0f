"""9x9 Killer Sudoku as a Game object. Its board, counter, ladder and generator are imported by the
methods that use them: listing the games' options (every command that names a game) loads this module
alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.errors import InvalidRules
from engine.games.base import Offer, Outline, Picture, PlaySpec, adds_up, distinct, hints_from_steps
from engine.games.killer.reach import UNREACHABLE
from engine.games.killer.model import KillerBoardModel
from engine.games.killer.rules import BANDS, GENERATED, KillerRules
from engine.games.sudoku.game import UNITS, NineByNine

if TYPE_CHECKING:
    from engine.games.killer.board import KillerBoard

def _board(model: KillerBoardModel, seed: int | None = None) -> KillerBoard:
    from engine.games.killer.board import board_of
    return board_of([(cage.sum, [tuple(cell) for cell in cage.cells]) for cage in model.cages],
                    model.givens, model.solution, seed)


# the player's words for a cage, the sum check each cage makes
PHRASES = {"en": {"sum": "cage {s}", "sums": "Cage {s} in {k}: {list}"},
           "ms": {"sum": "sangkar {s}", "sums": "Sangkar {s} dalam {k}: {list}"}}


def _outlines(board: KillerBoard) -> tuple[Outline, ...]:
    """The cages as outlines labelled with their sums."""
    return tuple(Outline(str(cage.total), tuple(cage.cells)) for cage in board.cages)


class Killer(NineByNine):
    name = "killer"
    title = "Killer Sudoku"
    model = KillerBoardModel
    bands = BANDS

    def rules(self, *, size: int, band: str | None = None, **options: Any) -> KillerRules:
        self.read_options(options)          # it takes none: refuses any asked for
        self.check_band(band)
        if band is not None and band not in GENERATED:
            raise InvalidRules(f"the {band} band is graded, not generated: expected one of {', '.join(GENERATED)}")
        self.check_offered(size, {}, band)
        return KillerRules(size)

    def offers(self) -> tuple[Offer, ...]:
        """9×9 only, in the bands a board is generated for."""
        return (Offer({}, (9,), GENERATED, {(9, band): why for band, why in UNREACHABLE.items()}),)

    def parse_rules(self, text: str) -> KillerRules:
        return KillerRules.parse(text)

    def board_from_json(self, data: Any) -> KillerBoard:
        model = self.validate(data)
        assert isinstance(model, KillerBoardModel)
        return _board(model, model.seed)

    def generate(self, rules: KillerRules, seed: int, *, band: str | None = None,
                 timeout: float | None = None, style: str | None = None) -> tuple[KillerBoard, Any]:
        self.check_style(rules, style)          # no styles: any is refused
        from engine.games.killer.generator import generate
        return generate(seed, band=band, timeout=timeout)

    def solutions(self, board: KillerBoard, limit: int) -> list[str]:
        from engine.games.killer.count import count_solutions
        return list(count_solutions(board, limit).solutions)

    def describe(self, board: KillerBoard) -> dict[str, Any]:
        from engine.games.killer.grade import describe
        return describe(board)

    def text(self, data: Mapping[str, Any], *, with_solution: bool = True, colour: bool = False) -> str:
        model = self.validate_grid(data)
        assert isinstance(model, KillerBoardModel)
        return _board(model).to_text(with_solution=with_solution)

    def rules_sentence(self, data: Mapping[str, Any]) -> str:
        return ("Fill every row, column and 3×3 box with the digits 1 to 9, each once; the digits in each "
                "cage add up to its sum, and no digit repeats within a cage.")

    def _rules_sentence_ms(self) -> str:
        """The rules in Malay, for the player's `?lang=ms`."""
        return ("Isi setiap baris, lajur dan kotak 3×3 dengan digit 1 hingga 9, setiap satu sekali sahaja; "
                "jumlah digit dalam setiap sangkar sama dengan angkanya, dan tiada digit berulang dalam sangkar.")

    def picture(self, data: Mapping[str, Any], *, solution: bool = False) -> Picture:
        model = self.validate_grid(data)
        assert isinstance(model, KillerBoardModel)
        board = _board(model)
        # boxes as in Sudoku (thick rules, no colours); the cages dashed over them, with their sums
        return self.digits_picture(board.givens, board.solution, with_solution=solution, outlines=_outlines(board))

    def play(self, data: Mapping[str, Any]) -> PlaySpec:
        from engine.games.killer.board import unit_name
        from engine.games.killer.techniques import SEVERAL_REGIONS, SINGLE_REGIONS
        model = self.validate(data)
        assert isinstance(model, KillerBoardModel)
        board = _board(model)
        names = {unit_name(u): cells for u, cells in enumerate(UNITS)}
        names.update({cage.name: cage.cells for cage in board.cages})
        names.update({region.name: tuple(sorted(region.cells)) for region in SINGLE_REGIONS + SEVERAL_REGIONS})
        # a repeated digit is a conflict in a cage as in a unit, and a full cage must make its sum
        checks = (*(distinct(cage.cells) for cage in board.cages),
                  *(adds_up(cage.total, cage.cells) for cage in board.cages))
        return self.digits_play(board.givens, model.solution, hints_from_steps(model.steps, names),
                                self._rules_sentence_ms(), checks, outlines=_outlines(board), phrases=PHRASES)


GAME = Killer()
