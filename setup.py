"""Packages under one import name: the repository's top-level folders install as `mam_bench.*`.

pyproject.toml holds the metadata; this file only maps folders to packages, which
`[tool.setuptools]` cannot discover under a prefix. Works for editable and regular installs.
Research scripts live in `research/`, outside every installed folder.
"""

from setuptools import find_namespace_packages, setup

FOLDERS = {
    "mam_bench": "mam_bench",
    "mam_bench.models": "models",
    "mam_bench.steering": "steering",
    "mam_bench.dashboards": "dashboards",
}


def packages() -> list[str]:
    found = []
    for name, folder in FOLDERS.items():
        found.append(name)
        found += [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=["*__pycache__*"])]
    return found


setup(packages=packages(), package_dir=FOLDERS)
