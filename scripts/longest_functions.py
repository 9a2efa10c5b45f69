"""The N longest functions (def to last line, docstring included) of the package folders at one
git revision, read from git (not the work tree), so two revisions compare side by side.

    python scripts/longest_functions.py HEAD~5 15
"""

import ast
import subprocess
import sys

FOLDERS = ("mam_bench", "steering", "models", "dashboards")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def functions(rev: str) -> list[tuple[int, str, str]]:
    """(lines, qualified name, path) of every function and method at `rev`."""
    out = []
    files = [f for f in git("ls-tree", "-r", "--name-only", rev, *FOLDERS).split() if f.endswith(".py")]
    for path in files:
        tree = ast.parse(git("show", f"{rev}:{path}"))
        stack: list[tuple[ast.AST, str]] = [(tree, "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = f"{prefix}{child.name}"
                    if not isinstance(child, ast.ClassDef):
                        out.append((child.end_lineno - child.lineno + 1, name, path))
                    stack.append((child, name + "."))
                else:
                    stack.append((child, prefix))
    return sorted(out, key=lambda t: (-t[0], t[2], t[1]))


def main(rev: str, n: int) -> None:
    for lines, name, path in functions(rev)[:n]:
        print(f"{lines:4d}  {name:40s} {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "HEAD", int(sys.argv[2]) if len(sys.argv) > 2 else 15)
