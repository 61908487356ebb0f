"""SVG, PNG and print exports, decoded back: the SVG parsed with xml.etree, the PNG with Pillow and
sampled at cell centres, the print page checked for its two pages per board."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from engine.games.starbattle import Rules, generate
from store import init_db, make_engine, save_board, session
from engine.core.regions import touching_areas
from store.render import PALETTE, RenderError, area_colours, layout, png, print_page, svg

pytestmark = [pytest.mark.xdist_group("exports")]

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def boards() -> list[dict]:
    out = []
    for rules, seed in ((Rules(8, 1, False), 3), (Rules(10, 2, False), 5)):
        board, _ = generate(rules, seed)
        out.append(board.to_json())
    return out


SUDOKU = {"id": "00000000000000aa", "game": "sudoku", "rules": {"size": 9},
          "givens": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
          "solution": "534678912672195348198342567859761423426853791713924856961537284287419635345286179"}


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


# Colour vision deficiencies simulated on linear RGB (Machado, Oliveira & Fernandes 2009, severity 1).
_VISION = {
    "normal": None,
    "protanope": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranope": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanope": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _lab(hex_colour: str, vision: str) -> tuple[float, float, float]:
    def linear(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    rgb = [linear(v) for v in _rgb(hex_colour)]
    matrix = _VISION[vision]
    if matrix:
        rgb = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb)))) for row in matrix]
    r, g, b = rgb
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def test_palette_colours_stay_apart_for_colour_blind_eyes_and_under_black_marks():
    assert len(set(PALETTE)) == len(PALETTE) == 9
    for i, a in enumerate(PALETTE):
        assert _lab(a, "normal")[0] >= 60, f"{a}: too dark for black stars and digits"
        for b in PALETTE[i + 1:]:
            for vision in _VISION:
                apart = sum((p - q) ** 2 for p, q in zip(_lab(a, vision), _lab(b, vision))) ** 0.5
                assert apart >= (10 if vision == "tritanope" else 20), (a, b, vision, apart)


def test_touching_regions_never_share_a_fill_in_the_pictures(boards):
    for data in boards:
        lay = layout(data)
        fill = {lay.regions[r][c]: lay.fills[r][c] for r in range(lay.n) for c in range(lay.n)}
        assert fill == area_colours(data["regions"])
        for label, others in touching_areas(data["regions"]).items():
            assert all(fill[label] != fill[other] for other in others)


@pytest.mark.parametrize("which", [0, 1])
def test_svg_cells_regions_and_stars(boards, which):
    data = boards[which]
    n, k = data["rules"]["size"], data["rules"]["stars"]
    for solution in (False, True):
        root = ET.fromstring(svg(data, solution=solution))
        assert root.tag == f"{SVG}svg"
        cells = root.findall(f".//{SVG}rect[@class='cell']")
        assert len(cells) == n * n
        for rect in cells:
            r, c = int(rect.get("data-row")), int(rect.get("data-col"))
            assert int(rect.get("data-region")) == data["regions"][r][c]
            assert rect.get("fill") == area_colours(data["regions"])[data["regions"][r][c]]
        assert len({rect.get("data-region") for rect in cells}) == n
        assert root.find(f".//{SVG}path[@class='border']") is not None
        assert root.find(f".//{SVG}path[@class='grid']") is not None
        stars = {(int(p.get("data-row")), int(p.get("data-col")))
                 for p in root.findall(f".//{SVG}path[@data-symbol='★']")}
        if solution:
            assert len(stars) == n * k and sorted(stars) == sorted(map(tuple, data["solution"]))
        else:
            assert not stars, "the puzzle picture must not give the answer away"


def test_thick_borders_follow_region_edges(boards):
    data = boards[0]
    lay = layout(data)
    n = lay.n
    inner = {seg for seg in lay.thick if seg not in {(0, 0, n, 0), (0, n, n, n), (0, 0, 0, n), (n, 0, n, n)}}
    expected = sum(data["regions"][r][c] != data["regions"][r][c + 1] for r in range(n) for c in range(n - 1))
    expected += sum(data["regions"][r][c] != data["regions"][r + 1][c] for r in range(n - 1) for c in range(n))
    assert len(inner) == expected


@pytest.mark.parametrize("which", [0, 1])
def test_png_colours_and_stars_at_cell_centres(boards, which):
    data = boards[which]
    n = data["rules"]["size"]
    stars = {tuple(p) for p in data["solution"]}
    for solution in (False, True):
        image = Image.open(io.BytesIO(png(data, solution=solution, cell=40)))
        lay = layout(data, cell=40)
        colours = area_colours(data["regions"])
        assert image.format == "PNG" and image.size == (lay.width, lay.width)
        rgb = image.convert("RGB")
        for r in range(n):
            for c in range(n):
                cx, cy = lay.centre(r, c)
                centre = rgb.getpixel((int(cx), int(cy)))
                # off-centre, inside the cell but clear of the star: always the region's colour
                corner = rgb.getpixel((int(cx - 0.4 * lay.cell), int(cy + 0.4 * lay.cell)))
                assert corner == _rgb(colours[data["regions"][r][c]]), (r, c)
                if solution and (r, c) in stars:
                    assert centre == _rgb("#111111"), (r, c)
                else:
                    assert centre == _rgb(colours[data["regions"][r][c]]), (r, c)


def test_sudoku_svg_and_png_from_the_dict_alone():
    root = ET.fromstring(svg(SUDOKU))
    assert len(root.findall(f".//{SVG}rect[@class='cell']")) == 81
    digits = root.findall(f".//{SVG}text")
    assert len(digits) == sum(ch != "." for ch in SUDOKU["givens"])
    for t in digits:
        assert SUDOKU["givens"][int(t.get("data-row")) * 9 + int(t.get("data-col"))] == t.text
    solved = ET.fromstring(svg(SUDOKU, solution=True)).findall(f".//{SVG}text")
    assert "".join(t.text for t in solved) == SUDOKU["solution"]
    assert len(layout(SUDOKU).thick) == 4 + 2 * 2 * 9   # outline + two box rules each way, per cell
    image = Image.open(io.BytesIO(png(SUDOKU, solution=True))).convert("RGB")
    lay = layout(SUDOKU)
    # a digit puts ink near the centre of every solved cell, and none in an empty puzzle cell
    def inked(img: Image.Image, r: int, c: int) -> bool:
        cx, cy = lay.centre(r, c)
        box = img.crop((int(cx - 8), int(cy - 10), int(cx + 8), int(cy + 10)))
        return box.convert("L").getextrema()[0] < 170
    blank = Image.open(io.BytesIO(png(SUDOKU))).convert("RGB")
    assert all(inked(image, i // 9, i % 9) for i in range(81))
    assert not any(inked(blank, i // 9, i % 9) for i in range(81) if SUDOKU["givens"][i] == ".")


def test_print_page_puts_puzzle_and_solution_on_separate_pages(boards):
    page = print_page([boards[0], SUDOKU])
    assert "page-break-after: always" in page and "break-after: page" in page
    assert page.count('<section class="page puzzle"') == 2 and page.count('<section class="page solution"') == 2
    first = page.index('class="page puzzle" data-id="%s"' % boards[0]["id"])
    assert first < page.index('class="page solution" data-id="%s"' % boards[0]["id"])
    assert page.count("<svg") == 4


def test_bad_boards_raise_render_error():
    for bad in (None, {}, {"regions": [[0, 1]]}, {"game": "sudoku", "givens": "12"},
                {"regions": [[0]], "solution": [[5, 5]]}):
        with pytest.raises(RenderError):
            svg(bad, solution=True)


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("puzzlefleet")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, timeout=120)


def test_cli_export_svg_png_print(boards, tmp_path):
    url = f"sqlite:///{tmp_path / 'p.db'}"
    db = make_engine(url)
    init_db(db)
    from engine.games.starbattle import Board
    with session(db) as s:
        for data in boards:
            assert save_board(session=s, data=data, fingerprint=Board.from_json(data).fingerprint)
    db.dispose()
    env = {**os.environ, "PUZZLEFLEET_DB": url}
    out = tmp_path / "pictures"
    result = _cli(env, "export", "--format", "png", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{b['id']}-{part}.png" for b in boards for part in ("puzzle", "solution"))
    Image.open(out / f"{boards[0]['id']}-solution.png").verify()
    assert _cli(env, "export", "--format", "svg", "--out", str(out), "--game", "queens").returncode == 0
    ET.parse(out / f"{boards[0]['id']}-puzzle.svg")
    missing = _cli(env, "export", "--format", "svg")
    assert missing.returncode == 2 and "--out" in missing.stderr and len(missing.stderr.splitlines()) == 1
    sheet = tmp_path / "print.html"
    assert _cli(env, "export", "--format", "print", "--out", str(sheet)).returncode == 0
    assert sheet.read_text().count("<section") == 4


# --- Killer Sudoku: the boxes as in Sudoku, the cages dashed inside their cells with their sums ----------

def _killer() -> dict:
    from engine import game_named
    game = game_named("killer")
    board, _ = game.generate(game.rules(size=9), 1)
    return board.to_json()


def test_cage_outline_runs_inside_its_cells_round_every_boundary():
    from store.render.draw import outline_loops
    # an L: one loop of six corners, the inner corner crossing into the cell below
    assert outline_loops(9, [0, 9, 10], 0.1) == [[(0.1, 0.1), (0.9, 0.1), (0.9, 1.1), (1.9, 1.1), (1.9, 1.9),
                                                   (0.1, 1.9)]]
    # a ring round one cell: its outer and its inner boundary
    ring = outline_loops(3, [0, 1, 2, 3, 5, 6, 7, 8], 0.1)
    assert sorted(map(len, ring)) == [4, 4]
    assert {min(x for x, _ in loop) for loop in ring} == {0.1, 0.9}


def test_killer_svg_draws_boxes_and_each_cage_dashed_with_its_sum():
    data = _killer()
    cages = [(cage["sum"], {r * 9 + c for r, c in cage["cells"]}) for cage in data["cages"]]
    lay = layout(data)
    assert len(lay.thick) == 4 + 2 * 2 * 9, "the 3×3 box rules, as in Sudoku"
    root = ET.fromstring(svg(data))
    cells = root.findall(f".//{SVG}rect[@class='cell']")
    assert {rect.get("fill") for rect in cells} == {"#FFFFFF"}, "no region colours"
    group = root.find(f".//{SVG}g[@class='outlines']")
    assert group.get("stroke-dasharray"), "the cage outlines are dashed"
    paths = group.findall(f"{SVG}path[@class='outline']")
    sums = root.findall(f".//{SVG}text[@class='label']")
    assert len(paths) == len(sums) == len(cages)
    first = {min(cells): (total, cells) for total, cells in cages}
    for path, text in zip(paths, sums):
        at = int(text.get("data-row")) * 9 + int(text.get("data-col"))
        assert at in first and text.text == str(first[at][0]), "the sum in the cage's first cell"
        x, y = float(text.get("x")), float(text.get("y"))
        assert lay.xy(at % 9, at // 9) < (x, y) < lay.xy(at % 9 + 0.5, at // 9 + 0.5), "in its top-left corner"
        # every corner of the outline lies inside a cell of its cage, clear of the cell's edges
        cells = first[int(path.get("data-row")) * 9 + int(path.get("data-col"))][1]
        numbers = [float(v) for v in path.get("d").replace("M", " ").replace("L", " ").replace("Z", " ").split()]
        for px, py in zip(numbers[::2], numbers[1::2]):
            gx, gy = (px - lay.margin) / lay.cell, (py - lay.margin) / lay.cell
            assert int(gy) * 9 + int(gx) in cells
            assert 0.05 < gx % 1 < 0.95 and 0.05 < gy % 1 < 0.95
    assert not root.findall(f".//{SVG}text[@class='digit solved']"), "the puzzle gives no answer away"
    assert len(ET.fromstring(svg(data, solution=True)).findall(f".//{SVG}text[@class='digit solved']")) == 81


def test_killer_png_shows_the_dashes_and_the_sums():
    data = _killer()
    lay = layout(data)
    image = Image.open(io.BytesIO(png(data))).convert("L")
    assert image.size == (lay.width, lay.width)
    ink = lambda box: image.crop(tuple(int(v) for v in box)).getextrema()[0] < 128   # noqa: E731
    for cage in data["cages"]:
        r, c = min(map(tuple, cage["cells"]))
        x, y = lay.xy(c, r)
        assert ink((x + 0.08 * lay.cell, y + 0.07 * lay.cell, x + 0.45 * lay.cell, y + 0.34 * lay.cell)), "its sum"
    # the dashes: ink on the inset line, with gaps in it, along a cage's bottom edge
    cage = next(cage for cage in data["cages"] if [r for r, _ in cage["cells"]].count(max(r for r, _ in cage["cells"])) >= 2)
    bottom = max(r for r, _ in cage["cells"])
    cols = sorted(c for r, c in cage["cells"] if r == bottom)
    x0, y = lay.xy(cols[0] + 0.2, bottom + 1 - 0.12)
    line = [image.getpixel((int(x0) + k, round(y))) for k in range(int(0.8 * lay.cell))]
    assert min(line) < 128 and max(line) > 200, "dashed: ink and gaps"
    # not blank, and no answer given away: the centres of the empty cells stay paper
    assert sum(image.histogram()[:128]) > 0.03 * lay.width ** 2
    for i, ch in enumerate(data.get("givens") or "." * 81):
        cx, cy = lay.centre(i // 9, i % 9)
        assert ch != "." or not ink((cx - 6, cy - 8, cx + 6, cy + 8)), divmod(i, 9)


def test_killer_print_page_draws_the_cages():
    data = _killer()
    page = print_page([data])
    assert page.count('class="outline"') == 2 * len(data["cages"]) and page.count('class="label"') == 2 * len(data["cages"])
