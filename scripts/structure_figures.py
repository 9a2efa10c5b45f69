"""The structure figures at one git revision: the lines of the longest functions (def to
last line, docstring included) and the .py line counts of the world folders.

    python scripts/structure_figures.py d3ec1ee
"""

import ast
import subprocess
import sys

#: function -> the files it has lived in, newest first
TARGETS = {
    "run_kernel": ("models/schelling/fast/kernel.py", "models/schelling/fast_kernel.py"),
    "resolve": ("models/swarm/physics.py",),
    "PairedView": ("dashboards/paired.py",),
    "run_experiment": ("mam_bench/experiment/run_suite.py",),
    "arun_pair": ("mam_bench/runner.py",),
}
WORLDS = ("models/schelling", "models/swarm", "models/crafting")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def main(rev: str) -> None:
    present = set(git("ls-tree", "-r", "--name-only", rev).split())
    for name, paths in TARGETS.items():
        path = next(p for p in paths if p in present)
        for node in ast.walk(ast.parse(git("show", f"{rev}:{path}"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                print(f"{name:16s} {node.end_lineno - node.lineno + 1:4d} lines  {path}")
    for folder in WORLDS:
        files = [f for f in git("ls-tree", "-r", "--name-only", rev, folder).split() if f.endswith(".py")]
        print(f"{folder:18s} {sum(git('show', f'{rev}:{f}').count(chr(10)) for f in files)} lines of .py")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "HEAD")
