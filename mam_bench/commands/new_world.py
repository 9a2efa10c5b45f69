"""`mam-bench new-world NAME`: a world package from a template, with a passing check_world test."""

from __future__ import annotations

import argparse
import keyword
import re
from pathlib import Path
from string import Template

from mam_bench.errors import ConfigError

TEMPLATE = Path(__file__).with_name("new_world_template")
#: template file -> path in the new project ($package is the import name)
FILES = {
    "pyproject.toml.txt": "pyproject.toml",
    "README.md.txt": "README.md",
    "model.py.txt": "$package/model.py",
    "world.py.txt": "$package/world.py",
    "test_world.py.txt": "tests/test_$package.py",
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new-world", help="scaffold a world package (a Mesa model, its declaration, a test)")
    p.add_argument("name", help="world name: lower case letters, digits and _")
    p.add_argument("--dir", default=".", help="folder to create the project in (default: here)")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from mam_bench.registry import world_names

    name = args.name
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ConfigError("name", f"{name!r} is not a lower-case Python identifier")
    if name in world_names():
        raise ConfigError("name", f"a world named {name!r} is already registered")
    root = Path(args.dir) / name
    if root.exists():
        raise ConfigError("dir", f"{root} already exists")
    words = {"name": name, "package": name, "Class": "".join(p.capitalize() for p in name.split("_"))}
    for source, target in FILES.items():
        path = root / Template(target).substitute(words)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template((TEMPLATE / source).read_text()).substitute(words))
    (root / name / "__init__.py").write_text(f'"""The {name} world."""\n')
    print(f"created {root}: pip install -e {root} && (cd {root} && python -m pytest tests)")
    return 0
