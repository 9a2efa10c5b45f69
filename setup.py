"""Packages under one import name: the repository's top-level folders install as `mam_bench.*`.

pyproject.toml holds the metadata; this file only maps folders to packages, which
`[tool.setuptools]` cannot discover under a prefix. Works for editable and regular installs.
"""

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

#: research scripts that write a world's RESULTS.md: run from a checkout, never shipped in the wheel
RESEARCH_MODULES = {"reference_table"}

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


class BuildPy(build_py):
    """Leaves the research scripts out of built packages (an editable install still sees them)."""

    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir) if m[1] not in RESEARCH_MODULES]


setup(packages=packages(), package_dir=FOLDERS, cmdclass={"build_py": BuildPy})
