"""MkDocs hook: the repository's README.md is the site's front page, so the front page and the
page GitHub shows are one text; its links into docs/ are rewritten to the site's own paths."""

import re
from pathlib import Path

from mkdocs.structure.files import File

_README = Path(__file__).resolve().parents[2] / "README.md"


def front_page(text: str) -> str:
    """README links read `docs/x.md` from the repository root; on the site they are `x.md`."""
    return re.sub(r"\]\(docs/", "](", text)


def on_files(files, config):
    files.append(File.generated(config, "index.md", content=front_page(_README.read_text())))
    return files


def on_config(config):
    config.watch.append(str(_README))
    return config
