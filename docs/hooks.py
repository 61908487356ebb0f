"""MkDocs hook: BENCHMARKS.md, at the top of the checkout beside mkdocs.yml, becomes a page of the site.

The pages link it as `../BENCHMARKS.md`, the path that also works when the Markdown is read in the
repository; this registers the file under that path, so MkDocs resolves and checks those links (and
their anchors) like any other, and writes the page to `benchmarks/` in the site.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel

SOURCE = "../BENCHMARKS.md"          # as the pages link it, relative to docs/


def on_files(files: Files, config: MkDocsConfig) -> Files:
    checkout = Path(config.config_file_path).parent
    page = File.generated(config, SOURCE, abs_src_path=str(checkout / "BENCHMARKS.md"),
                          inclusion=InclusionLevel.INCLUDED)
    page.dest_uri = "benchmarks/index.html"
    files.append(page)
    return files
