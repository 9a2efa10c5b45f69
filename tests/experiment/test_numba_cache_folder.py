"""Compiled kernels still load in an install nobody can write to: numba refuses `cache=True` when it
finds no writable cache folder, so `numba_start` gives it a private one in the temp directory."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from mam_bench import numba_start

TINY = """
from numba import njit

from mam_bench import numba_start

numba_start.cache_where_writable(__file__)


@njit(cache=True)
def twice(x):
    return 2 * x
"""

RUN = "import tiny; print(tiny.twice(21), len(tiny.twice.stats.cache_hits))"


def test_a_read_only_install_caches_in_a_private_temp_folder(tmp_path) -> None:
    pkg = tmp_path / "site"
    pkg.mkdir()
    (pkg / "tiny.py").write_text(TINY)
    (pkg / "__pycache__").write_text("")  # a file where the folder would go: the install cannot be written
    (tmp_path / "home").write_text("")  # nor can the home (its cache folder would sit under a file)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_CACHE_DIR", "XDG_CACHE_HOME"))}
    env.update(HOME=str(tmp_path / "home"), TMPDIR=str(tmp))
    runs = [  # `python -c` imports `tiny` from its working folder
        subprocess.run([sys.executable, "-c", RUN], cwd=pkg, capture_output=True, text=True, env=env) for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr[-600:]
    assert [r.stdout.split() for r in runs] == [["42", "0"], ["42", "1"]]  # compiled once, then loaded
    folder = tmp / f"mam-bench-numba-{os.getuid()}"
    assert any(name.endswith(".nbc") for _, _, files in os.walk(folder) for name in files)
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_temp_folder_others_can_write_is_not_used(tmp_path, monkeypatch) -> None:
    """Cached code is loaded as code: a shared folder of that name, writable by others, is left alone."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    shared = tmp_path / f"mam-bench-numba-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    got = numba_start._private_temp_folder()
    assert got != str(shared) and os.path.dirname(got) == str(tmp_path)
    shared.chmod(0o700)
    assert numba_start._private_temp_folder() == str(shared)
