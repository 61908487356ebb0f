"""The documentation: the site builds the way docs/development.md tells a user to build it, with no
warning and no broken link (a missing page, file or anchor fails the build); the README's links all
land; and the README stays a five-minute read that names every verb and every game."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from tests.documented import DOCS, README, ROOT, Command, commands_of, documented

pytestmark = [pytest.mark.xdist_group("docs-site")]

BUILD = ("mkdocs", "build")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
README_LINES = 200
JOURNEY_COMMANDS = 10


def _documented_build() -> Command:
    builds = [command for command in documented((".venv/bin/mkdocs", "build"), DOCS / "development.md")]
    assert len(builds) == 1, builds
    return builds[0]


def _run(build: Command, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The documented command, its `.venv/bin/` the folder of the interpreter running the tests (the
    checkout's .venv under `make test`)."""
    program = Path(sys.executable).parent / Path(build.argv[0]).name
    return subprocess.run([str(program), *build.argv[1:]], cwd=cwd, capture_output=True, text=True,
                          timeout=240)


def _complaints(output: str) -> list[str]:
    """The log lines of a build that say something is wrong: warnings, errors, and any line about a
    link (MkDocs tells of a link to an excluded file at INFO)."""
    return [line for line in output.splitlines()
            if line.startswith(("WARNING", "ERROR")) or ("link" in line.lower() and line.startswith("INFO"))]


@pytest.fixture(scope="module")
def site() -> Iterator[Path]:
    """The site as `.venv/bin/mkdocs build --strict` builds it, in the checkout's site/."""
    build = _documented_build()
    assert build.argv == [".venv/bin/mkdocs", "build", "--strict"], build.argv
    done = _run(build, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not _complaints(done.stderr), done.stderr
    yield ROOT / "site"


def test_the_site_builds_strictly_as_the_docs_say(site: Path) -> None:
    for page in ("index", "cli", "games", "fleet", "daily", "api", "adding-a-game", "ARCHITECTURE",
                 "development", "benchmarks"):
        built = site / ("index.html" if page == "index" else f"{page}/index.html")
        assert built.is_file(), built
    assert "`.venv/bin/mkdocs build --strict`" in README.read_text(encoding="utf-8")
    # BENCHMARKS.md, beside mkdocs.yml, is a page of the site, and the pages' links reach it.
    fleet = (site / "fleet" / "index.html").read_text(encoding="utf-8")
    assert 'href="../benchmarks/#faults-with-the-default-settings"' in fleet


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    """The same build on a copy of the docs with a link to a missing page, to a missing anchor of a
    page, and to a missing anchor of BENCHMARKS.md: each is a warning, and --strict fails on it."""
    shutil.copytree(DOCS, tmp_path / "docs")
    for name in ("mkdocs.yml", "BENCHMARKS.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    page = tmp_path / "docs" / "cli.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[a](no-such-page.md) [b](games.md#no-such-heading) "
                    "[c](../BENCHMARKS.md#no-such-table)\n", encoding="utf-8")
    done = _run(_documented_build(), tmp_path)
    assert done.returncode != 0
    complaints = "\n".join(_complaints(done.stderr))
    assert "'no-such-page.md'" in complaints, done.stderr
    assert "does not contain an anchor '#no-such-heading'" in complaints, done.stderr
    assert "does not contain an anchor '#no-such-table'" in complaints, done.stderr


def _github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _site_page(site: Path, path: Path) -> Path:
    """The built page of a Markdown file of the checkout (docs/X.md, or BENCHMARKS.md)."""
    if path == ROOT / "BENCHMARKS.md":
        return site / "benchmarks" / "index.html"
    relative = path.relative_to(DOCS).with_suffix("")
    return site / "index.html" if relative.name == "index" else site / relative / "index.html"


def test_every_link_of_the_readme_lands(site: Path) -> None:
    text = README.read_text(encoding="utf-8")
    own_anchors = {_github_anchor(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    links = [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]
    assert len(links) >= 20, links
    for target in links:
        path_text, _, anchor = target.partition("#")
        if not path_text:
            assert anchor in own_anchors, target
            continue
        path = (ROOT / path_text).resolve()
        assert path.exists(), target
        if anchor:
            page = _site_page(site, path).read_text(encoding="utf-8")
            assert f'id="{anchor}"' in page, target


def _section(text: str, heading: str) -> str:
    """The text under a heading of the README, up to the next heading of the same level or above."""
    level = heading.split(" ")[0]
    start = text.index(heading + "\n") + len(heading) + 1
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", text[start:], re.M)]
    return text[start:start + ends[0]] if ends else text[start:]


def test_the_readme_is_a_five_minute_read() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    # The two set-up commands, as the Makefile has them.
    assert re.search(r"^make run +# creates \.venv, builds the Cython engine", text, re.M)
    assert re.search(r"^make test +# ", text, re.M)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run: build$", makefile, re.M) and re.search(r"^test: build$", makefile, re.M)
    # A quick start per kind of user, each at most ten commands.
    quick = _section(text, "## Quick start")
    journeys = re.findall(r"^### (.+)$", quick, re.M)
    assert journeys == ["Generating boards", "Running the fleet", "A site reading the store"], journeys
    for journey in journeys:
        steps = commands_of(_section(quick, f"### {journey}"), README)
        assert 3 <= len(steps) <= JOURNEY_COMMANDS, (journey, [step.text for step in steps])


def test_the_readme_names_every_verb_and_every_game() -> None:
    text = README.read_text(encoding="utf-8")
    verbs_table = _section(text, "## The command line")
    usage = subprocess.run([str(Path(sys.executable).parent / "puzzlefleet"), "--help"], capture_output=True,
                           text=True, timeout=60)
    assert usage.returncode == 0, usage.stderr
    verbs = re.search(r"\{([a-z,]+)\}", usage.stdout).group(1).split(",")        # as --help lists them
    assert len(verbs) >= 10, verbs
    for verb in verbs:
        assert re.search(rf"^\| `{verb}` \|", verbs_table, re.M), f"the README's verb table lacks {verb}"
    games_table = _section(text, "## The games")
    games_page = (DOCS / "games.md").read_text(encoding="utf-8")
    for name in engine.names():
        row = rf"^\| [^|]+ \| `{name}[ `]"
        assert re.search(row, games_table, re.M), f"the README's games table lacks {name}"
        assert re.search(row, games_page, re.M), f"docs/games.md's games table lacks {name}"


def test_the_games_page_shows_the_bands_generate_offers() -> None:
    """The band table of docs/games.md is what `generate --help` ends with, so a cell the games declare
    unreachable (or reachable again) shows in the documentation too."""
    page = _section((DOCS / "games.md").read_text(encoding="utf-8"), "## Bands each size reaches")
    shown = re.search(r"```text\n(.*?)\n```", page, re.S)
    assert shown, "docs/games.md's band section has no table"
    assert shown.group(1) == engine.offer_table()
