"""Optional parts and the extra that installs each: a missing one is a one-line message naming it.

The core (`pip install mam-bench`) runs every world and experiment; the LLM controller, the
dashboards, Ray and the local model come with `[llm]`, `[dashboards]`, `[ray]` and `[local]`.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from mam_bench.errors import ConfigError

#: extra -> (the import that proves it is installed, what it enables)
EXTRAS = {
    "llm": ("langchain_core", "the llm controller"),
    "dashboards": ("solara", "mam-bench dashboard"),
    "ray": ("ray", "--executor ray"),
    "local": ("llama_cpp", "the local gemma model"),
    "analysis": ("sklearn", "report --analysis"),
}
#: top-level module -> the extra that installs it (for an ImportError raised deeper down)
MODULE_EXTRA = {
    "langchain_core": "llm",
    "langchain": "llm",
    "langchain_openai": "llm",
    "solara": "dashboards",
    "ipyvuetify": "dashboards",
    "reacton": "dashboards",
    "ray": "ray",
    "llama_cpp": "local",
    "sklearn": "analysis",
}


class MissingExtra(ConfigError):
    """An optional dependency is not installed; the message says which extra brings it."""

    def __init__(self, extra: str):
        self.extra = extra
        what = EXTRAS[extra][1]
        super().__init__(extra, f"{what} needs the [{extra}] extra: {install_command(extra)}")


def install_command(extra: str) -> str:
    """How to add an extra here: in a source checkout (an editable install, as the README's first
    command makes) its own venv installs the checkout with the extra; elsewhere pip by name."""
    package = Path(__file__).resolve().parent
    if {"site-packages", "dist-packages"} & set(package.parts):
        return f"pip install 'mam-bench[{extra}]'"
    checkout = package.parent
    if Path(sys.prefix).resolve() == checkout / ".venv":
        return f".venv/bin/pip install -e '.[{extra}]' (in the checkout's folder)"
    return f"{sys.executable} -m pip install -e '{checkout}[{extra}]'"


def installed(extra: str) -> bool:
    return importlib.util.find_spec(EXTRAS[extra][0]) is not None


def require(extra: str) -> None:
    if not installed(extra):
        raise MissingExtra(extra)


def extra_for(exc: ImportError) -> str | None:
    """The extra whose absence caused this ImportError, if it is one of ours."""
    name = (getattr(exc, "name", None) or "").split(".")[0]
    return MODULE_EXTRA.get(name)
