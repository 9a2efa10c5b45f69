"""`mam-bench new-world NAME`: a world package from a template, with a passing check_world test."""

from __future__ import annotations

import argparse
import keyword
import re
import shutil
import sys
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


#: longest world name (it becomes a folder, a package and a class name)
MAX_NAME = 64


def shadows(name: str) -> bool:
    """Whether a package of this name would hide a module Python or the project imports
    (os, sys, mesa, numpy...): the standard library and every installed top-level module."""
    import importlib.util

    if name in sys.stdlib_module_names or name in sys.builtin_module_names:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return True


def handle(args: argparse.Namespace) -> int:
    from mam_bench.registry import world_names
    from mam_bench.run_dir import check_name_lengths, check_out_dir, non_empty

    name = args.name
    non_empty(args.dir, "dir")
    if len(name) > MAX_NAME:
        raise ConfigError("name", f"{len(name)} characters; a world name has at most {MAX_NAME}")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ConfigError("name", f"{name[:40]!r} is not a lower-case Python identifier")
    if shadows(name):
        raise ConfigError(
            "name", f"{name!r} is the name of an installed or standard module; the package would hide it (pick another)"
        )
    if name in world_names():
        raise ConfigError("name", f"a world named {name!r} is already registered")
    folder = Path(args.dir)
    check_name_lengths(folder, "dir")
    if folder.exists() and not folder.is_dir():
        raise ConfigError("dir", f"{folder} is not a directory")
    check_out_dir(folder, "dir")
    root = folder / name
    if root.exists() or root.is_symlink():
        raise ConfigError("dir", f"{root} already exists")
    words = {"name": name, "package": name, "Class": "".join(p.capitalize() for p in name.split("_"))}
    try:
        root.mkdir(parents=True)
    except OSError as exc:
        raise ConfigError("dir", f"cannot create {root}: {exc.strerror or exc}") from None
    try:
        for source, target in FILES.items():
            path = root / Template(target).substitute(words)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template((TEMPLATE / source).read_text()).substitute(words))
        (root / name / "__init__.py").write_text(f'"""The {name} world."""\n')
    except OSError as exc:  # a full disk: take back the half-made project (it is ours, just created)
        shutil.rmtree(root, ignore_errors=True)
        raise ConfigError("dir", f"cannot write {root}: {exc.strerror or exc}") from None
    # a hint that works on the core install (pytest is an extra): the test file runs as a script
    print(f"created {root}: pip install -e {root} && python {root / 'tests' / f'test_{name}.py'}")
    return 0
